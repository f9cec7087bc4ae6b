"""Command line: `vllm-report show|post|serve|chart|site|explain|queue|radar|topics`, and the
operator's `doctor|backup|backfill|demo`.

Exit status: 0 done, 1 GitHub or the store failed (the message says why), 2 the command
or a setting is wrong (the message says what to type instead). No traceback reaches the
user for any of these.

Only argparse is imported up front: `--help` and usage errors answer at once. Each command
imports what it needs when it runs (settings, the store, the SDKs).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from bot.model.errors import InputError, ServiceError, masked

if TYPE_CHECKING:
    from bot.app import Bot
    from bot.console.progress import Say
    from bot.model.query import ReportQuery
    from bot.model.report import Report
    from bot.model.rules import TopicRules
    from bot.model.windows import Window
    from bot.service.daily_run import PostResult
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
        description="Daily reports of a GitHub repository's issues and pull requests "
        "(vllm-project/vllm by default), for the terminal, Slack and Discord.",
        epilog="Start with `vllm-report demo` (offline), then `vllm-report show yesterday`. "
        "`vllm-report COMMAND --help` shows each command's options and examples.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    parser.add_argument("--version", action=_Version, help="print the version and exit", nargs=0)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    show = _command(
        commands,
        "show",
        "print one window's report",
        "Print the report of one window: the five counts and their lists, stories, vendor "
        "highlights, hot discussions, key changes, trends. What the archive holds costs no "
        "GitHub request; the rest is fetched and archived.",
        [
            "vllm-report show yesterday",
            "vllm-report show 2026-03-20..2026-03-26 --format json",
            "vllm-report show 2026-03-26 --section amd --lang zh",
            "vllm-report show 2026-03-26 --format slack",
        ],
    )
    _window_options(show)
    _content_options(show)
    show.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="markdown (default); json: the stable `vllm-report/1` contract; slack, discord: "
        "the chat payloads a daily post would send, as a JSON array in posting order",
    )
    show.add_argument(
        "--section",
        action="append",
        default=[],
        help=f"print only this section ({SECTION_WORDS}, or a topic key); repeatable",
    )
    show.set_defaults(func=run_show)

    post = _command(
        commands,
        "post",
        "the daily job for one window: report to the terminal, the archive and the channels",
        "Run the daily job for one window now, through the same code path as `serve`: the "
        "full report is written to the archive folder and, when chat is configured, posted "
        "to every channel and subscriber once (a second run posts nothing twice).",
        ["vllm-report post yesterday", "vllm-report post 2026-03-26"],
    )
    _window_options(post)
    post.set_defaults(func=run_post)

    serve = _command(
        commands,
        "serve",
        "run the bot: daily posts, catch-up, Slack and Discord commands",
        "Run until stopped (Ctrl-C, SIGTERM): the daily job after each cutoff, the catch-up "
        "of missed days at start-up, and the slash commands. Platforms start when their "
        "tokens are set: Slack with SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode) or "
        "SLACK_SIGNING_SECRET (HTTP mode), Discord with DISCORD_BOT_TOKEN; channels in "
        "SLACK_CHANNELS / DISCORD_CHANNELS. With no chat token it runs archive-only: each "
        "day's report goes to the archive folder and the report site. VLLM_REPORT_HTTP_PORT "
        "serves the site, /healthz and /metrics. One log line per event (VLLM_REPORT_LOG_FORMAT"
        "=json for log shippers).",
        [
            "vllm-report serve",
            "SLACK_BOT_TOKEN=xoxb-… SLACK_APP_TOKEN=xapp-… SLACK_CHANNELS=C0123 vllm-report serve",
            "VLLM_REPORT_HTTP_PORT=8080 vllm-report serve   # then curl localhost:8080/healthz",
        ],
    )
    _common(serve)
    serve.set_defaults(func=run_serve)

    chart = _command(
        commands,
        "chart",
        "draw a run of report days from the archive as a PNG (counts, vendors…)",
        "Draw report days the archive holds as a PNG (1200×675); days not archived are "
        "shaded, never drawn as zero. Prints the alt text.",
        [
            "vllm-report chart 2026-03-26 --days 14 -o counts.png",
            "vllm-report chart -o v.png --kind vendors",
        ],
    )
    chart.add_argument("when", nargs="*", default=["yesterday"], help="the last day drawn")
    _common(chart)
    chart.add_argument("--days", type=int, default=14, help="report days drawn (default 14)")
    chart.add_argument("--topic", help="only this topic's items (see `vllm-report topics`)")
    chart.add_argument("--kind", default="counts", help="counts (default), vendors or merged")
    chart.add_argument("-o", "--output", required=True, help="the PNG file to write")
    chart.set_defaults(func=run_chart)

    site = _command(
        commands,
        "site",
        "the report site: static pages, charts and Atom feeds from the archive",
        "The report site, built from the archive alone (no GitHub request).",
        ["vllm-report site build site/"],
    )
    site_commands = site.add_subparsers(dest="site_command", required=True, metavar="ACTION")
    build = _command(
        site_commands,
        "build",
        "write (or bring up to date) the site of every archived report day",
        "Write the site of every report day the archive holds whole; incremental (only "
        "changed files are written).",
        ["vllm-report site build site/"],
    )
    build.add_argument("output", help="the folder to write, e.g. site/")
    _common(build)
    build.set_defaults(func=run_site_build)

    why = _command(
        commands,
        "explain",
        "why an issue or PR is (not) in each topic, and which story it is in",
        "Say, topic by topic, why an item is or is not in it, and which story it joins in "
        "the report of the day of its last event (that day is cut by --timezone/--cutoff).",
        ["vllm-report explain 38313", "vllm-report explain 1234 --repo sgl-project/sglang"],
    )
    why.add_argument("number", type=_item_number, help="issue or PR number, e.g. 38313")
    _repo_option(why)
    _day_options(why)
    why.set_defaults(func=run_explain)

    add_queue_command(commands)
    add_check_command(commands)
    add_radar_command(commands)

    topics = _command(
        commands,
        "topics",
        "list the topics of the rules file",
        "List the topics a report highlights (vendors and subjects), from config/topics.toml "
        "or the file VLLM_REPORT_TOPICS_FILE names.",
        ["vllm-report topics", "vllm-report topics --lang zh"],
    )
    _lang_option(topics)
    topics.set_defaults(func=run_topics)

    _add_ops_commands(commands)
    return parser


class _Version(argparse.Action):
    """`--version`, read from the installed package only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("vllm-report-bot")
        except PackageNotFoundError:
            found = "unknown (not installed: pip install .)"
        print(f"vllm-report {found}")
        parser.exit()


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    summary: str,
    description: str,
    examples: Sequence[str],
) -> argparse.ArgumentParser:
    """A subcommand whose --help says what it does and shows how to call it."""
    return commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog="examples:\n" + "\n".join(f"  {line}" for line in examples),
        formatter_class=_Help,
    )


class _Help(argparse.HelpFormatter):
    """The description wrapped to the terminal; the examples kept line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _repo_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--repo", help="owner/name (default: VLLM_REPORT_REPO or vllm-project/vllm)")


def _day_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--timezone", help="IANA zone of the report day (default Asia/Shanghai)")
    sub.add_argument("--cutoff", help="HH:MM where a report day ends (default 11:45)")


def _lang_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--lang", choices=("en", "zh"), help="report language (default en)")


def _common(sub: argparse.ArgumentParser) -> None:
    _repo_option(sub)
    _day_options(sub)
    _lang_option(sub)


def _window_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "when",
        nargs="*",
        default=["yesterday"],
        help="2026-03-26, 2026-03-20..2026-03-26, today, yesterday (default), 7d, last 7 days",
    )
    _common(sub)
    sub.add_argument("--refresh", action="store_true", help="fetch again even if archived")


def _content_options(sub: argparse.ArgumentParser) -> None:
    """What to leave out of a report: for `show` only (the archive keeps full reports)."""
    sub.add_argument("--topic", help="limit the report to one topic (see `vllm-report topics`)")
    sub.add_argument(
        "--counts-only",
        action="store_true",
        help="only the five counts and lists (no trends, no comment threads: fewest requests)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    from bot.observe.logs import setup_logging

    args = build_parser().parse_args(argv)
    setup_logging(args.verbose)
    sys.excepthook = _masked_traceback
    handler: Callable[[argparse.Namespace], int] = args.func
    return _guarded(handler, args)


def _guarded(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command; every expected failure ends in one sentence and its exit status.

    The sentence is masked (bot.model.errors): no secret, whatever a library put in it."""
    try:
        return handler(args)
    except (InputError, ServiceError) as exc:
        print(f"vllm-report: {masked(str(exc))}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print(
            "vllm-report: interrupted; nothing half-done was recorded as complete, and running "
            "the same command again resumes where it stopped",
            file=sys.stderr,
        )
        return 130


def _masked_traceback(
    kind: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    """A bug still shows its traceback (to be reported), with every secret masked."""
    import traceback

    text = "".join(traceback.format_exception(kind, exc, tb))
    print(masked(text), end="", file=sys.stderr)


# -- commands ------------------------------------------------------------------------------


def run_topics(args: argparse.Namespace) -> int:
    settings, rules = _configured(args)
    for rule in rules.topics:
        print(f"{rule.key:14} {rule.display_name(settings.lang)} — {rule.description}")
    return 0


def _item_number(text: str) -> int:
    """An issue or PR number as GitHub numbers them (a positive 32-bit integer)."""
    try:
        number = int(text.lstrip("#"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an issue or PR number") from None
    if not 1 <= number <= 2**31 - 1:
        raise argparse.ArgumentTypeError(f"{text} is not an issue or PR number GitHub gives")
    return number


def run_explain(args: argparse.Namespace) -> int:
    from bot.analyze.topics import explain
    from bot.app import radar as radar_of

    settings, rules = _configured(args)
    with _opened(settings, rules) as bot:
        with _repo_checked(settings, number=args.number):
            item = bot.reports.archiver.item(settings.repo, args.number, _now())
        story = bot.reports.story_of(item, settings.tz, settings.cutoff_time)
        broke = radar_of(bot).broken_by(item.number) if item.kind == "pr" else []
    kind = "PR" if item.kind == "pr" else "issue"
    print(f"#{item.number} ({kind}) {item.title}")
    print(f"  author {item.author or '?'}; labels {', '.join(item.labels) or 'none'}")
    for line in explain(item, rules):
        print(f"  {line}")
    print(f"  {story}")
    if broke:  # from the archived plugin PRs that name it as what they fixed for
        fixes = ", ".join(f"{f.plugin_repo.split('/', 1)[1]}#{f.number}" for f in broke)
        print(f"  broke plugins: {fixes}")
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
        run = bot.reports.history(settings.repo, window, args.days, topic)
    try:
        drawn = chart(run, args.kind, lang=settings.lang)
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
    with _opened(settings, rules) as bot, _progress(args, "building the site") as say:
        builder = SiteBuilder(
            bot.reports, settings.repo, settings.tz, settings.cutoff_time, settings.site_url
        )
        try:
            built = builder.build(root, progress=say)
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
    import asyncio

    from bot.app import serve
    from bot.observe.github_meter import github_meter
    from bot.observe.logs import setup_logging

    settings, rules = _configured(args)
    # The daemon speaks at INFO: one line per event (-v adds the libraries' own lines).
    setup_logging(args.verbose, settings.log_format, settings.secrets(), floor=logging.INFO)
    github_meter(show_debug=args.verbose >= 2)
    with _opened(settings, rules) as bot:
        asyncio.run(serve(bot))
    return 0


def run_show(args: argparse.Namespace) -> int:
    _check_phrase(args)
    settings, rules = _configured(args)
    sections = [check_section(name, rules) for name in args.section]
    query = _query(args, settings, rules)
    with _opened(settings, rules) as bot:
        with _repo_checked(settings), _fetching(args, query.window.label):
            report = bot.reports.report(query)
        _empty_checked(settings, report)
        print(_render(args.format, report, bot, sections), end="")
    return 0


def run_post(args: argparse.Namespace) -> int:
    """The daily run of one window, as the scheduler runs it: report → files → site →
    channels → digests (no chat configured: the files and the site)."""
    import asyncio

    from bot.app import post_once

    _check_phrase(args)
    settings, rules = _configured(args)
    window = _query(args, settings, rules).window
    try:
        with _opened(settings, rules) as bot, _repo_checked(settings):
            result = asyncio.run(
                post_once(bot, window, args.refresh, lambda r: _empty_checked(settings, r))
            )
    except OSError as exc:  # the report files (or the data folder) cannot be written
        raise UsageError(
            f"cannot write {exc.filename or settings.data_dir} ({exc.strerror or exc}): make "
            "the folder writable or set VLLM_REPORT_DATA_DIR to one that is"
        ) from None
    return _told_post(settings, window, result)


def _told_post(settings: Settings, window: Window, result: PostResult) -> int:
    """What `post` prints: the report itself when no chat is configured, then what went where."""
    delivery = result.delivery
    if not result.complete:
        print(
            f"vllm-report: the {window.label} report is incomplete; archived as partial, "
            "not posted (run again once GitHub has answered)",
            file=sys.stderr,
        )
        return 1
    if not chat_configured(settings) and result.report is not None:
        from formatters.markdown import render_markdown

        print(render_markdown(result.report, settings.lang), end="")
        print(f"archived: {', '.join(str(p) for p in result.written)}", file=sys.stderr)
        return 0
    print(
        f"posted {window.label}: {delivery.sent} messages sent, {delivery.skipped} already "
        f"there, {delivery.recovered} recovered after an interrupted run",
        file=sys.stderr,
    )
    for destination, why in delivery.failed.items():
        print(f"vllm-report: {destination}: {masked(why)}", file=sys.stderr)
    for copy in delivery.copies_left:
        print(f"vllm-report: {masked(copy)}", file=sys.stderr)
    return 1 if delivery.failed or delivery.copies_left else 0


# -- checking a report's claims (issue 19) ----------------------------------------------------


def add_check_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = _command(
        commands,
        "check",
        "check a report's claims against the facts: states, authors, titles, counts, vendors",
        "Read any report text (ours or anyone's; Markdown or plain; English or Chinese) for "
        "the claims a reader could check on GitHub — which items merged, who opened them, "
        "their titles and kinds, the window's counts, which vendor an item belongs to, which "
        "item fixes which — and check each against the facts of its window (the archive, "
        "fetched like `show` when missing). Every claim is printed with its verdict: correct, "
        "wrong with the truth, or unverifiable. Exit status 1 when a claim is wrong.",
        [
            "vllm-report check report-2026-03-25.md",
            "vllm-report check today.txt --day 2026-03-26 --cutoff 11:45",
            "vllm-report check report.md --format json",
        ],
    )
    check.add_argument("file", help="the report text to read (a file; - reads standard input)")
    check.add_argument("--day", help="the report day, when the text does not say (YYYY-MM-DD)")
    _common(check)
    check.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    check.add_argument("--all", action="store_true", help="print correct claims too (text)")
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from bot.service.checking import check_text
    from formatters.check_report import render_check_json, render_check_text

    text = _read_text(args.file)
    settings, rules = _configured(args)
    window = _check_window(args, text, settings)
    with _opened(settings, rules) as bot, _repo_checked(settings):
        result = check_text(bot.reports, rules, text, window, settings.repo, settings.lang)
    if args.format == "json":
        print(render_check_json(result), end="")
    else:
        print(render_check_text(result, every=args.all), end="")
    return 1 if result.wrong else 0


def _read_text(name: str) -> str:
    from pathlib import Path

    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{name}: no such file: name the report text to check") from None
    except IsADirectoryError:
        raise UsageError(f"{name} is a folder: name the report text to check") from None
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not UTF-8 text: save it as UTF-8") from None
    except OSError as exc:
        raise UsageError(f"{name} cannot be read: {exc.strerror}") from None


def _check_window(args: argparse.Namespace, text: str, settings: Settings) -> Window:
    """The window to check the text against: --day (with --cutoff), else what the text says."""
    from bot.service.checking import window_of

    if args.day:
        parsed = argparse.Namespace(when=[args.day])
        return _window(parsed, settings)
    found = window_of(text, settings.tz, settings.cutoff_time)
    if found is None:
        raise UsageError(
            "the text does not say which day it reports on: give --day YYYY-MM-DD "
            "(and --cutoff HH:MM when the day ends at another time)"
        )
    return found


# -- the review queue (issue 13) ------------------------------------------------------------


def add_queue_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    queue = _command(
        commands,
        "queue",
        "what waits on whom: the review queue and response times, per vendor",
        "The review queue as GitHub shows it now (waiting for review, waiting on authors, "
        "ready to land, closed by the stale workflow soon) and the response times of the "
        "window against the four weeks before (median and P90, bots left out).",
        [
            "vllm-report queue",
            "vllm-report queue --topic amd",
            "vllm-report queue 7d --format json",
        ],
    )
    queue.add_argument(
        "when",
        nargs="*",
        default=["yesterday"],
        help="the window of the response times (default yesterday; 7d, a day, a range)",
    )
    _common(queue)
    queue.add_argument(
        "--topic",
        help="your topic first, e.g. amd (default: every vendor); a topic needs GitHub labels "
        "to have a queue",
    )
    queue.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="markdown (default), json, or the slack/discord payloads of /vllm-queue",
    )
    queue.set_defaults(func=run_queue)


def run_queue(args: argparse.Namespace) -> int:
    from bot.model import asking

    _check_phrase(args)
    settings, rules = _configured(args)
    topic = asking.queue_topic(args.topic, rules) if args.topic else None
    window = _window(args, settings)
    from bot.service.queue import QueueQuery  # the store with it: only once all is checked

    with _opened(settings, rules) as bot:
        queue = bot.queues.queue(QueueQuery(settings.repo, window, topic))
    from formatters import queue as drawn

    lang = settings.lang
    if args.format == "json":
        print(drawn.render_queue_json(queue), end="")
    elif args.format in ("slack", "discord"):
        payloads = [p for _, p in drawn.queue_parts(args.format, queue, lang)]
        print(json.dumps(payloads, ensure_ascii=False, indent=2))
    else:
        print(drawn.render_queue_markdown(queue, lang), end="")
    return 0


# -- the breakage radar (issue 21) ---------------------------------------------------------

RADAR_MAX_DAYS = 366  # a long look back: the archive answers what it holds


def add_radar_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    radar = _command(
        commands,
        "radar",
        "which upstream vLLM change broke which hardware plugin, and how far pins lag",
        "Read the watched plugins' PRs and issues of the window (VLLM_REPORT_PLUGINS, "
        "collected into the archive like the main repository) for the upstream changes they "
        "fix for, adapt to or mention; lead with the upstream changes that broke plugins; "
        "say how far each plugin's pin of upstream lags main (for a recent window).",
        [
            "vllm-report radar 2025-09-01..2025-09-30",
            "vllm-report radar 7d --plugin gaudi",
            "vllm-report radar yesterday --format json",
            "vllm-report radar wrong vllm-ascend#3221 24982   # that upstream PR did not break it",
        ],
    )
    radar.add_argument(
        "when",
        nargs="*",
        default=["7d"],
        help="the window (default 7d; a day, a range), or `wrong <plugin PR> <upstream PR>`",
    )
    _day_options(radar)
    radar.add_argument("--plugin", help="one watched plugin, e.g. gaudi or vllm-ascend")
    radar.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="markdown (default), json (vllm-radar/1), or the slack/discord payload of /vllm-radar",
    )
    radar.set_defaults(func=run_radar)


def run_radar(args: argparse.Namespace) -> int:
    from bot.model import asking

    if args.when[:1] == ["wrong"]:  # `radar wrong vllm-ascend#3221 24982`: a correction
        return run_radar_wrong(args)
    _check_phrase(args)
    settings, rules = _configured(args)
    if not settings.plugin_list:
        raise UsageError(
            "no plugin is watched (VLLM_REPORT_PLUGINS=none): name them, comma-separated "
            "owner/name, or leave the setting out for the default six"
        )
    window = asking.window(
        " ".join(args.when),
        now=_now(),
        tz=settings.tz,
        cutoff=settings.cutoff_time,
        max_days=RADAR_MAX_DAYS,
    )
    from bot.app import radar as radar_of
    from formatters import radar as drawn

    with _opened(settings, rules) as bot:
        service = radar_of(bot)
        plugin = service.plugin(args.plugin) if args.plugin else None
        found = service.radar(window, plugin)
    if args.format == "json":
        print(drawn.render_radar_json(found), end="")
    elif args.format == "slack":
        print(json.dumps(drawn.render_radar_slack(found), ensure_ascii=False, indent=2))
    elif args.format == "discord":
        print(json.dumps(drawn.render_radar_discord(found), ensure_ascii=False, indent=2))
    else:
        print(drawn.render_radar_markdown(found), end="")
    if not found.complete:
        print("vllm-report: incomplete: " + "; ".join(found.notes), file=sys.stderr)
        return 1
    return 0


def run_radar_wrong(args: argparse.Namespace) -> int:
    """Keep a person's word that an upstream PR did not break a plugin PR (the archive alone)."""
    words = args.when[1:]
    if len(words) != 2:
        raise UsageError(
            f"a correction names two PRs ({len(words)} given): "
            "`vllm-report radar wrong vllm-ascend#3221 24982`"
        )
    settings, rules = _configured(args)
    from bot.app import radar as radar_of

    with _opened(settings, rules) as bot:
        print(radar_of(bot).correct(words[0], words[1], "cli"))
    return 0


# -- pieces --------------------------------------------------------------------------------


@contextlib.contextmanager
def _repo_checked(settings: Settings, number: int | None = None) -> Iterator[None]:
    """GitHub's "not found" told apart: no such repository, or no such issue in it.

    GitHub answers 404 for an issue that does not exist and for a repository that does not
    (and 422 for a search in a missing repository): one more request says which it was."""
    from bot.collect.source import CollectError

    try:
        yield
    except CollectError as exc:
        if getattr(exc.__cause__, "status", None) not in (404, 422):
            raise
        exists = _repo_exists(settings)
        if exists is False:
            raise _no_repo(settings) from None
        if exists and number is not None:
            raise UsageError(
                f"#{number} is neither an issue nor a pull request of {settings.repo}: "
                "check the number"
            ) from None
        raise


@contextlib.contextmanager
def _progress(args: argparse.Namespace, first: str) -> Iterator[Say | None]:
    """What a long command is doing, on stderr when it is a terminal (not with -v: the log
    lines say it, and a spinner would write over them)."""
    from bot.console.progress import progress

    if args.verbose:
        yield None
        return
    with progress(first) as say:
        yield say


@contextlib.contextmanager
def _fetching(args: argparse.Namespace, label: str) -> Iterator[None]:
    """A report being made: each GitHub request told while the archive is filled."""
    from bot.console.progress import github_requests

    with (
        _progress(args, f"making the report of {label}") as say,
        github_requests(say, f"fetching {label} from GitHub"),
    ):
        yield


def _empty_checked(settings: Settings, report: Report) -> None:
    """A window with no activity at all may be a quiet day, or a repository that does not
    exist (GitHub's search finds nothing in it either): ask once, only then."""
    if report.items or _repo_exists(settings) is not False:
        return
    raise _no_repo(settings)


def _repo_exists(settings: Settings) -> bool | None:
    from bot.app import github_source
    from bot.collect.probe import probe

    return probe(github_source(settings), rate_limit=False).repo_exists


def _no_repo(settings: Settings) -> UsageError:
    private = "" if settings.github_token else " (a private one needs GITHUB_TOKEN)"
    return UsageError(
        f"GitHub has no repository '{settings.repo}'{private}: check --repo or VLLM_REPORT_REPO"
    )


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
    from bot.observe.logs import guard_secrets

    guard_secrets(settings.secrets())
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

    asked = getattr(args, "topic", None)
    topic = check_topic(asked, rules) if asked else None
    window = _window(args, settings)
    return ReportQuery(
        repo=settings.repo,
        window=window,
        lang=settings.lang,
        topic=topic,
        counts_only=getattr(args, "counts_only", False),
        refresh=args.refresh,
    )


def _window(args: argparse.Namespace, settings: Settings) -> Window:
    """The window the command line's words mean (read like the slash commands read it)."""
    from bot.model import asking

    return asking.window(
        " ".join(args.when),
        now=_now(),
        tz=settings.tz,
        cutoff=settings.cutoff_time,
        max_days=settings.max_range_days,
    )


def chat_configured(settings: Settings) -> bool:
    return bool(settings.slack_bot_token and settings.slack_channel_list) or bool(
        settings.discord_bot_token and settings.discord_channel_list
    )


def _render(form: str, report: Report, bot: Bot, sections: list[str]) -> str:
    """The report in the one format asked for."""
    lang = bot.settings.lang
    if form == "json":
        from formatters.json_report import render_json

        return render_json(report, lang)
    if form in ("slack", "discord"):
        from formatters.chat import chat_parts

        link = bot.reports.files.link(report, lang)
        parts = chat_parts(form, report, lang, only=sections, link=link)
        return json.dumps([payload for _, payload in parts], ensure_ascii=False, indent=2) + "\n"
    from formatters.markdown import render_markdown

    return render_markdown(report, lang, only=sections)


def check_topic(name: str, rules: TopicRules) -> str:
    from bot.model import asking

    return asking.topic(name, rules)


def check_section(name: str, rules: TopicRules) -> str:
    from bot.model import asking

    return asking.section(name, rules)


# -- operations: doctor, backup, backfill, demo (each in its own functions) ------------------


def _add_ops_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = _command(
        commands,
        "doctor",
        "check every setting and connection; exit 0 only when all is well",
        "Check the settings, the data and site folders, GitHub (reachable, the rate limit "
        "left, the repository exists), the store and its schema, Slack (auth.test and each "
        "channel), Discord (login and each channel) and the model endpoint. One line each: "
        "what is wrong and how to fix it. Never prints a secret. Exit status: 0 all well, 2 "
        "a setting is wrong, 1 a service failed.",
        ["vllm-report doctor", "docker run --env-file .env vllm-report-bot doctor"],
    )
    doctor.set_defaults(func=run_doctor)

    backup = _command(
        commands,
        "backup",
        "copy the store to FILE, safely while `serve` runs",
        "Copy the store to FILE while the bot may be running: SQLite through its online "
        "backup API (the copy is checked with quick_check), PostgreSQL with pg_dump (custom "
        "format; pg_dump must be installed). An existing FILE is kept unless --force. "
        "Restore: stop the bot, then copy the SQLite file back (or pg_restore the dump); see "
        "docs/backup-and-upgrade.md.",
        [
            "vllm-report backup vllm-report-$(date +%F).sqlite3",
            "docker exec vllm-report vllm-report backup /data/before-upgrade.sqlite3",
        ],
    )
    backup.add_argument("file", type=Path, help="the file to write (refused if it exists)")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    backup.set_defaults(func=run_backup)

    backfill = _command(
        commands,
        "backfill",
        "fill the archive day by day for a range of report days",
        "Archive each report day of a range (oldest first) as the daily job would, with a "
        "progress bar, and print what it cost. Days already archived are skipped at no cost, "
        "so an interrupted backfill goes on where it stopped when run again. Up to 366 days; "
        "anonymous GitHub allows 60 requests an hour (a day costs about 16): set GITHUB_TOKEN.",
        [
            "vllm-report backfill 2026-03-01..2026-03-26",
            "vllm-report backfill 30d",
        ],
    )
    backfill.add_argument("when", nargs="+", help="2026-03-01..2026-03-26, or 30d")
    _common(backfill)
    backfill.set_defaults(func=run_backfill)

    demo = _command(
        commands,
        "demo",
        "the real report of real vLLM activity, offline (a bundled sample)",
        "Load a small bundled sample of real vLLM activity (three published report days) into "
        "a throwaway store and show the report, the Slack post and the report site it makes. "
        "No network, no token, no setting.",
        ["vllm-report demo", "vllm-report demo --lang zh --day 2026-03-24"],
    )
    _lang_option(demo)
    demo.add_argument("--day", help="the sample day to show (default the newest, 2026-03-25)")
    demo.add_argument(
        "--output", help="folder for the demo's store and site (default: a new temporary one)"
    )
    demo.set_defaults(func=run_demo)


def run_doctor(args: argparse.Namespace) -> int:
    import asyncio

    from bot.app import doctor
    from bot.console.doctor import show
    from bot.observe.logs import guard_secrets
    from config.settings import diagnose_settings

    settings, problems = diagnose_settings()
    guard_secrets(settings.secrets())
    return show(asyncio.run(doctor(settings, problems)), sys.stdout)


def run_backup(args: argparse.Namespace) -> int:
    from bot.observe.logs import guard_secrets
    from bot.store.backup import backup
    from config.settings import load_settings

    settings = load_settings()
    guard_secrets(settings.secrets())
    print(backup(settings.store_url(), args.file, force=args.force).summary())
    return 0


def run_backfill(args: argparse.Namespace) -> int:
    from bot.console import backfill as view
    from bot.observe.github_meter import github_meter
    from bot.service.backfill import Backfill

    phrase = " ".join(args.when)
    settings, rules = _configured(args)
    meter = github_meter(show_debug=args.verbose >= 2)
    with _opened(settings, rules) as bot:
        job = Backfill(
            bot.reports,
            settings.repo,
            settings.lang,
            settings.tz,
            settings.cutoff_time,
            bot.reports.clock,
            meter,
        )
        windows = job.windows(phrase)
        try:
            cost = view.run(job, windows, sys.stderr)
        except OSError as exc:
            raise UsageError(
                f"cannot write {exc.filename or settings.data_dir} ({exc.strerror or exc}): "
                "make the folder writable or set VLLM_REPORT_DATA_DIR"
            ) from None
    print(view.summary(phrase, cost, meter.remaining()))
    return 1 if cost.incomplete or cost.stopped else 0


def run_demo(args: argparse.Namespace) -> int:
    import tempfile

    from bot.console import demo
    from bot.model.rules import load_rules

    if args.output:
        folder = Path(args.output)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{folder} is a file: name a folder for the demo")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(
                f"cannot make the folder {folder} ({exc.strerror}): name a folder you may write"
            ) from None
    else:
        folder = Path(tempfile.mkdtemp(prefix="vllm-report-demo-"))
    try:
        return demo.run(folder, load_rules(None), sys.stdout, lang=args.lang or "en", day=args.day)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename or folder}: {exc.strerror}") from None
