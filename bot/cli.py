"""Command line: `vllm-report show|post|serve|chart|site|explain|topics`.

Exit status: 0 done, 1 GitHub or the store failed (the message says why), 2 the command
or a setting is wrong (the message says what to type instead). No traceback reaches the
user for any of these.

Only argparse is imported up front: `--help` and usage errors answer at once. Each command
imports what it needs when it runs (settings, the store, the SDKs).
"""

from __future__ import annotations

import argparse
import difflib
import json
import logging
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.model.errors import InputError, ServiceError

if TYPE_CHECKING:
    from bot.app import Bot
    from bot.model.query import ReportQuery
    from bot.model.report import Report
    from bot.model.rules import TopicRules
    from bot.model.windows import Window
    from config.settings import Settings

log = logging.getLogger("bot")
FORMATS = ("markdown", "json", "slack", "discord")
# The section words of bot.model.report.SECTIONS, repeated so `--help` imports nothing.
SECTION_WORDS = "summary, vendors, hot, trends, key, activity, notable, appendix"


class UsageError(InputError):
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
        help=f"print only this section ({SECTION_WORDS}, or a topic key); repeatable",
    )
    show.set_defaults(func=run_show)

    post = commands.add_parser(
        "post", help="the daily job for one window: report to the terminal and the archive folder"
    )
    window_options(post)
    post.set_defaults(func=run_post)

    serve = commands.add_parser(
        "serve", help="run the bot: daily posts, catch-up, Slack and Discord commands"
    )
    common(serve)
    serve.set_defaults(func=run_serve)

    chart = commands.add_parser(
        "chart", help="draw a run of report days from the archive as a PNG (counts, vendors…)"
    )
    chart.add_argument("when", nargs="*", default=["yesterday"], help="the last day drawn")
    common(chart)
    chart.add_argument("--days", type=int, default=14, help="report days drawn (default 14)")
    chart.add_argument("--topic", help="only this topic's items (see `vllm-report topics`)")
    chart.add_argument("--kind", default="counts", help="counts (default), vendors or merged")
    chart.add_argument("-o", "--output", required=True, help="the PNG file to write")
    chart.set_defaults(func=run_chart)

    site = commands.add_parser(
        "site", help="the report site: static pages, charts and Atom feeds from the archive"
    )
    site_commands = site.add_subparsers(dest="site_command", required=True, metavar="ACTION")
    build = site_commands.add_parser(
        "build", help="write (or bring up to date) the site of every archived report day"
    )
    build.add_argument("output", help="the folder to write, e.g. site/")
    common(build)
    build.set_defaults(func=run_site_build)

    why = commands.add_parser("explain", help="why an issue or PR is (not) in each topic")
    why.add_argument("number", type=int, help="issue or PR number, e.g. 38313")
    common(why)
    why.set_defaults(func=run_explain)

    topics = commands.add_parser("topics", help="list the topics of the rules file")
    common(topics)
    topics.set_defaults(func=run_topics)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=(logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)],
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if args.verbose == 0:
        # urllib3 logs each retry as a WARNING; the final sentence is what a person needs.
        logging.getLogger("urllib3").setLevel(logging.ERROR)

    handler: Callable[[argparse.Namespace], int] = args.func
    return _guarded(handler, args)


def _guarded(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command; every expected failure ends in one sentence and its exit status."""
    try:
        return handler(args)
    except (InputError, ServiceError) as exc:
        print(f"vllm-report: {exc}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print(
            "vllm-report: interrupted; nothing half-done was recorded as complete", file=sys.stderr
        )
        return 130


# -- commands ------------------------------------------------------------------------------


def run_topics(args: argparse.Namespace) -> int:
    settings, rules = _configured(args)
    for rule in rules.topics:
        print(f"{rule.key:14} {rule.display_name(settings.lang)} — {rule.description}")
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from bot.analyze.topics import explain

    settings, rules = _configured(args)
    with _opened(settings, rules) as bot:
        item = bot.pipeline.archiver.item(settings.repo, args.number, _now())
        story = bot.pipeline.story_of(item, settings.tz, settings.cutoff_time)
    kind = "PR" if item.kind == "pr" else "issue"
    print(f"#{item.number} ({kind}) {item.title}")
    print(f"  author {item.author or '?'}; labels {', '.join(item.labels) or 'none'}")
    for line in explain(item, rules):
        print(f"  {line}")
    print(f"  {story}")
    return 0


def run_chart(args: argparse.Namespace) -> int:
    from pathlib import Path

    from formatters.charts import KINDS, ChartError, chart

    if args.kind not in KINDS:
        raise UsageError(f"unknown chart kind '{args.kind}': use {', '.join(KINDS)}")
    if not 2 <= args.days <= 366:
        raise UsageError(f"--days {args.days} is out of range: draw 2 to 366 days")
    _check_phrase(args)
    settings, rules = _configured(args)
    topic = check_topic(args.topic, rules) if args.topic else None
    window = _query(
        argparse.Namespace(**{**vars(args), "topic": topic, "counts_only": True, "refresh": False}),
        settings,
        rules,
    ).window
    with _opened(settings, rules) as bot:
        run = bot.pipeline.history(settings.repo, window, args.days, topic)
    try:
        drawn = chart(run, args.kind)
    except ChartError as exc:
        raise UsageError(str(exc)) from None
    path = Path(args.output)
    try:
        path.write_bytes(drawn.png)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    print(drawn.alt)
    print(f"wrote {path} ({len(drawn.png)} bytes)", file=sys.stderr)
    return 0


def run_site_build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.service.site import SiteBuilder

    settings, rules = _configured(args)
    root = Path(args.output)
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root} is a file, not a folder: name a folder for the site")
    with _opened(settings, rules) as bot:
        builder = SiteBuilder(
            bot.pipeline, settings.repo, settings.tz, settings.cutoff_time, settings.archive_url
        )
        try:
            built = builder.build(root)
        except OSError as exc:
            raise UsageError(f"cannot write the site to {root}: {exc.strerror}") from None
    print(
        f"site {root}: {built.days} report days, {built.pages} pages, {built.files} files; "
        f"{len(built.written)} written, {len(built.removed)} removed in {built.seconds:.1f} s"
    )
    if not built.days:
        print(
            "no report day is archived whole yet: run `vllm-report show DAY` first",
            file=sys.stderr,
        )
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from bot.app import serve

    settings, rules = _configured(args)
    import asyncio

    with _opened(settings, rules) as bot:
        asyncio.run(serve(bot))
    return 0


def run_show(args: argparse.Namespace) -> int:
    _check_phrase(args)
    settings, rules = _configured(args)
    sections = [check_section(name, rules) for name in args.section]
    query = _query(args, settings, rules)
    with _opened(settings, rules) as bot:
        report = bot.pipeline.report(query)
        print(_render(args.format, report, bot, sections), end="")
    return 0


def run_post(args: argparse.Namespace) -> int:
    _check_phrase(args)
    settings, rules = _configured(args)
    query = _query(args, settings, rules)
    with _opened(settings, rules) as bot:
        if chat_configured(settings) and query.topic is None and not query.counts_only:
            return _post_to_chat(bot, query.window)  # the job makes the report itself
        report = bot.pipeline.report(query)
        written = bot.pipeline.write(report, settings.lang)
    from formatters.markdown import render_markdown

    print(render_markdown(report, settings.lang), end="")
    print(f"archived: {', '.join(str(p) for p in written)}", file=sys.stderr)
    return 0


# -- pieces --------------------------------------------------------------------------------


def _check_phrase(args: argparse.Namespace) -> None:
    """A window phrase that cannot mean a window is refused before any setting is read."""
    from bot.model.windows import read_phrase

    read_phrase(" ".join(args.when))


def _configured(args: argparse.Namespace) -> tuple[Settings, TopicRules]:
    """Settings (with the command line's overrides) and the topic rules."""
    from bot.model.rules import load_rules
    from config.settings import load_settings

    overrides: dict[str, str] = {}
    for name in ("repo", "timezone", "cutoff", "lang"):
        value = getattr(args, name, None)
        if value is not None:
            overrides[name] = value
    settings = load_settings(**overrides)
    return settings, _rules(settings.topics_file, load_rules)


def _rules(path: Path | None, load: Callable[[Path | None], TopicRules]) -> TopicRules:
    """The topic rules, or one sentence on what is wrong with their file (exit status 2)."""
    from bot.model.rules import RulesError

    where = f"topic rules file {path}" if path is not None else "the shipped topic rules"
    try:
        if path is not None and path.is_dir():
            raise RulesError(f"{where} is a folder: VLLM_REPORT_TOPICS_FILE must name a file")
        return load(path)
    except UnicodeDecodeError as exc:
        raise RulesError(
            f"{where} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
            f"{exc.start}): save it as UTF-8"
        ) from None
    except OSError as exc:
        raise RulesError(f"{where} cannot be read: {exc.strerror}") from None
    except (AttributeError, TypeError, KeyError, ValueError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise RulesError(
            f"{where} has the wrong shape ({type(exc).__name__}: {exc}): each topic is a "
            'table like [topics.amd] with name = "…" (see config/topics.toml)'
        ) from None


class _opened:
    """The shared parts, opened for one command and closed after."""

    def __init__(self, settings: Settings, rules: TopicRules) -> None:
        self.settings, self.rules = settings, rules

    def __enter__(self) -> Bot:
        from bot.app import open_bot

        self.bot = open_bot(self.settings, self.rules)
        return self.bot

    def __exit__(self, *exc: object) -> None:
        self.bot.close()


def _now() -> datetime:
    return datetime.now(UTC)


def _query(args: argparse.Namespace, settings: Settings, rules: TopicRules) -> ReportQuery:
    """What the command line asks for, checked before anything is opened."""
    from bot.model.query import ReportQuery
    from bot.model.windows import parse_window

    topic = check_topic(args.topic, rules) if args.topic else None
    window = parse_window(
        " ".join(args.when),
        now=_now(),
        tz=settings.tz,
        cutoff=settings.cutoff_time,
        max_days=settings.max_range_days,
    )
    return ReportQuery(
        repo=settings.repo,
        window=window,
        lang=settings.lang,
        topic=topic,
        counts_only=args.counts_only,
        refresh=args.refresh,
    )


def chat_configured(settings: Settings) -> bool:
    return bool(settings.slack_bot_token and settings.slack_channel_list) or bool(
        settings.discord_bot_token and settings.discord_channel_list
    )


def _post_to_chat(bot: Bot, window: Window) -> int:
    """`post` with chat configured: the scheduled job's path, through the ledger."""
    import asyncio

    from bot.app import post_once

    result = asyncio.run(post_once(bot, window))
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


def _render(form: str, report: Report, bot: Bot, sections: list[str]) -> str:
    """The report in the one format asked for."""
    lang = bot.settings.lang
    if form == "json":
        from formatters.json_report import render_json

        return render_json(report, lang)
    if form in ("slack", "discord"):
        from formatters.chat import chat_parts

        link = bot.pipeline.files.link(report, lang)
        parts = chat_parts(form, report, lang, only=sections, link=link)
        return json.dumps([payload for _, payload in parts], ensure_ascii=False, indent=2) + "\n"
    from formatters.markdown import render_markdown

    return render_markdown(report, lang, only=sections)


def check_topic(name: str, rules: TopicRules) -> str:
    key = name.strip().lower()
    if rules.topic(key) is None:
        keys = [t.key for t in rules.topics]
        raise UsageError(
            f"unknown topic '{name}'{_did_you_mean(key, keys)}; topics: {', '.join(keys)}"
        )
    return key


def check_section(name: str, rules: TopicRules) -> str:
    from bot.model.report import SECTIONS

    key = name.strip().lower()
    valid = [*SECTIONS, *(t.key for t in rules.topics)]
    if key not in valid:
        raise UsageError(
            f"unknown section '{name}'{_did_you_mean(key, valid)}; sections: {', '.join(valid)}"
        )
    return key


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" — did you mean '{close[0]}'?" if close else ""
