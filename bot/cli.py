"""Command line: `vllm-report show|post|explain|topics`.

Exit status: 0 done, 1 GitHub or the store failed (the message says why), 2 the command
or a setting is wrong (the message says what to type instead). No traceback reaches the
user for any of these.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import logging
import sys
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.analyze.topics import explain
from bot.app import github_source, post_once, serve
from bot.archive import write_report
from bot.collect import CollectError, Collector
from bot.pipeline import ReportPipeline
from bot.prose import LLMConfig, ProseWriter
from bot.report import Report
from bot.store import Store, StoreError
from bot.topic_rules import RulesError, TopicRules, load_rules
from bot.windows import Window, WindowError, parse_window
from config.settings import Settings, SettingsError, load_settings, parse_cutoff
from formatters.discord_embeds import render_discord
from formatters.i18n import SECTION_ORDER
from formatters.json_report import render_json
from formatters.markdown import render_markdown
from formatters.slack_blocks import render_slack

log = logging.getLogger("bot")
FORMATS = ("markdown", "json", "slack", "discord")


class UsageError(Exception):
    """The command line is wrong; exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vllm-report",
        description="Daily reports of a GitHub repository's issues and pull requests.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--repo", help="owner/name (default: VLLM_REPORT_REPO or vllm-project/vllm)"
        )
        sub.add_argument("--timezone", help="IANA zone of the report day (default Asia/Shanghai)")
        sub.add_argument("--cutoff", help="HH:MM where a report day ends (default 11:45)")
        sub.add_argument("--lang", choices=("en", "zh"), help="report language (default en)")

    def window_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "when",
            nargs="*",
            default=["yesterday"],
            help="2026-03-26, 2026-03-20..2026-03-26, today, yesterday (default), 7d, last 7 days",
        )
        common(sub)
        sub.add_argument("--refresh", action="store_true", help="fetch again even if archived")
        sub.add_argument("--topic", help="limit the report to one topic (see `vllm-report topics`)")
        sub.add_argument(
            "--counts-only",
            action="store_true",
            help="only the five counts and lists (no trends, no comment threads: fewest requests)",
        )

    show = commands.add_parser("show", help="print one window's report")
    window_options(show)
    show.add_argument("--format", choices=FORMATS, default="markdown")
    show.add_argument(
        "--section",
        action="append",
        default=[],
        help=f"print only this section ({', '.join(SECTION_ORDER)}, or a topic key); repeatable",
    )

    post = commands.add_parser(
        "post", help="the daily job for one window: report to the terminal and the archive folder"
    )
    window_options(post)

    serve = commands.add_parser(
        "serve", help="run the bot: daily posts, catch-up, Slack and Discord commands"
    )
    common(serve)

    why = commands.add_parser("explain", help="why an issue or PR is (not) in each topic")
    why.add_argument("number", type=int, help="issue or PR number, e.g. 38313")
    common(why)

    topics = commands.add_parser("topics", help="list the topics of the rules file")
    common(topics)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=(logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)],
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if args.verbose == 0:
        # urllib3 logs each retry as a WARNING; the final sentence is what a person needs.
        logging.getLogger("urllib3").setLevel(logging.ERROR)
    try:
        settings = _settings_for(args)
        rules = load_rules(settings.topics_file)
        return _run(args, settings, rules)
    except (UsageError, WindowError, SettingsError, RulesError) as exc:
        print(f"vllm-report: {exc}", file=sys.stderr)
        return 2
    except (CollectError, StoreError) as exc:
        print(f"vllm-report: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "vllm-report: interrupted; nothing half-done was recorded as complete", file=sys.stderr
        )
        return 130


def _settings_for(args: argparse.Namespace) -> Settings:
    overrides: dict[str, str] = {}
    for name in ("repo", "timezone", "cutoff", "lang"):
        value = getattr(args, name, None)
        if value is not None:
            overrides[name] = value
    return load_settings(**overrides)


def _run(args: argparse.Namespace, settings: Settings, rules: TopicRules) -> int:
    now = datetime.now(UTC)
    if args.command == "topics":
        for rule in rules.topics:
            print(f"{rule.key:14} {rule.display_name(settings.lang)} — {rule.description}")
        return 0
    if args.command == "explain":
        return _explain(args.number, settings, rules, now)
    if args.command == "serve":
        asyncio.run(serve(settings, rules))
        return 0

    topic = check_topic(args.topic, rules) if args.topic else None
    sections = [check_section(name, rules) for name in getattr(args, "section", [])]
    window = parse_window(
        " ".join(args.when),
        now=now,
        tz=settings.tz,
        cutoff=parse_cutoff(settings.cutoff),
        max_days=settings.max_range_days,
    )
    if args.command == "post" and chat_configured(settings) and topic is None and not sections:
        return _post_to_chat(settings, rules, window)  # the job computes the report itself
    report = produce_report(
        settings,
        window,
        rules,
        now=now,
        refresh=args.refresh,
        topic=topic,
        counts_only=args.counts_only,
    )
    markdown = render_markdown(report, settings.lang, rules, only=sections, topic=topic)
    if args.command == "show":
        print(_render(args.format, report, rules, settings, sections, markdown), end="")
        return 0
    written = write_report(settings, report, markdown, topic)
    print(markdown, end="")
    print(f"archived: {', '.join(str(p) for p in written)}", file=sys.stderr)
    return 0


def chat_configured(settings: Settings) -> bool:
    return bool(settings.slack_bot_token and settings.slack_channel_list) or bool(
        settings.discord_bot_token and settings.discord_channel_list
    )


def _post_to_chat(settings: Settings, rules: TopicRules, window: Window) -> int:
    """`post` with chat configured: the scheduled job's path, through the ledger."""
    result = asyncio.run(post_once(settings, rules, window))
    delivery = result.delivery
    if not result.complete:
        print(
            f"vllm-report: the {window.label} report is incomplete; archived as partial, "
            "not posted (run again once GitHub has answered)",
            file=sys.stderr,
        )
        return 1
    print(
        f"posted {window.label}: {delivery.sent} messages sent, {delivery.skipped} already "
        f"there, {delivery.recovered} recovered after an interrupted run",
        file=sys.stderr,
    )
    for destination, why in delivery.failed.items():
        print(f"vllm-report: {destination}: {why}", file=sys.stderr)
    return 1 if delivery.failed else 0


def _render(
    form: str,
    report: Report,
    rules: TopicRules,
    settings: Settings,
    sections: list[str],
    markdown: str,
) -> str:
    if form == "json":
        return render_json(report, settings.lang)
    if form in ("slack", "discord"):
        render = render_slack if form == "slack" else render_discord
        link = settings.archive_link(report.repo, report.window.label)
        messages = render(report, rules, settings.lang, only=sections, link=link)
        return json.dumps(messages, ensure_ascii=False, indent=2) + "\n"
    return markdown


def check_topic(name: str, rules: TopicRules) -> str:
    key = name.strip().lower()
    if rules.topic(key) is None:
        keys = [t.key for t in rules.topics]
        raise UsageError(
            f"unknown topic '{name}'{_did_you_mean(key, keys)}; topics: {', '.join(keys)}"
        )
    return key


def check_section(name: str, rules: TopicRules) -> str:
    key = name.strip().lower()
    valid = [*SECTION_ORDER, *(t.key for t in rules.topics)]
    if key not in valid:
        raise UsageError(
            f"unknown section '{name}'{_did_you_mean(key, valid)}; sections: {', '.join(valid)}"
        )
    return key


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" — did you mean '{close[0]}'?" if close else ""


def _explain(number: int, settings: Settings, rules: TopicRules, now: datetime) -> int:
    store = Store(settings.store_url())
    pipeline = ReportPipeline(store, settings.repo, lambda: Collector(github_source(settings)))
    try:
        item = pipeline.item(number, now)
    finally:
        pipeline.close()
        store.close()
    kind = "PR" if item.kind == "pr" else "issue"
    print(f"#{item.number} ({kind}) {item.title}")
    print(f"  author {item.author or '?'}; labels {', '.join(item.labels) or 'none'}")
    for line in explain(item, rules):
        print(f"  {line}")
    return 0


def produce_report(
    settings: Settings,
    window: Window,
    rules: TopicRules,
    *,
    now: datetime,
    refresh: bool,
    topic: str | None = None,
    counts_only: bool = False,
) -> Report:
    """Open the store, answer the window (fetching only what is missing), close again."""
    store = Store(settings.store_url())
    writer = prose_writer(settings, store)
    pipeline = ReportPipeline(
        store, settings.repo, lambda: Collector(github_source(settings)), rules, writer
    )
    try:
        if counts_only and topic is None:
            return pipeline.report(window, now=now, refresh=refresh)
        return pipeline.full_report(
            window, now=now, refresh=refresh, topic=topic, lang=settings.lang
        )
    finally:
        pipeline.close()
        if writer is not None:
            writer.close()
        store.close()


def prose_writer(settings: Settings, store: Store) -> ProseWriter | None:
    """A model writer when LLM_BASE_URL and LLM_MODEL are set, else None (templates only)."""
    if not (settings.llm_base_url and settings.llm_model):
        return None
    config = LLMConfig(
        base_url=settings.llm_base_url,
        model=settings.llm_model,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
        timeout=settings.llm_timeout,
        retries=settings.llm_retries,
    )
    return ProseWriter(config, cache=store)
