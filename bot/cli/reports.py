"""`show`, `post`, `serve`, `chart`, `site build`, `explain`, `topics`: reports of any window."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.common import (
    asked_query,
    chat_configured,
    check_phrase,
    check_section,
    check_topic,
    configured,
    empty_checked,
    fetching,
    now,
    opened,
    progress,
    render,
    repo_checked,
    written,
)
from bot.cli.options import (
    FORMATS,
    UsageError,
    command,
    common_options,
    content_options,
    day_options,
    item_number,
    lang_option,
    repo_option,
    window_options,
)
from bot.features import declared, section_words
from bot.model.errors import masked

if TYPE_CHECKING:
    from bot.model.windows import Window
    from bot.report_files import ReportFiles
    from bot.service.daily_run import PostResult
    from bot.service.site import SiteBuilder
    from config.settings import Settings


def add_report_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """show, post, serve, chart, site build, explain."""
    show = command(
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
    window_options(show)
    content_options(show)
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
        help=f"print only this section ({', '.join(section_words())}, or a topic key); repeatable",
    )
    show.set_defaults(func=run_show)

    post = command(
        commands,
        "post",
        "the daily job for one window: report to the terminal, the archive and the channels",
        "Run the daily job for one window now, through the same code path as `serve`: the "
        "full report is written to the archive folder and, when chat is configured, posted "
        "to every channel and subscriber once (a second run posts nothing twice).",
        ["vllm-report post yesterday", "vllm-report post 2026-03-26"],
    )
    window_options(post)
    post.set_defaults(func=run_post)

    serve = command(
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
    common_options(serve)
    serve.set_defaults(func=run_serve)

    chart = command(
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
    common_options(chart)
    chart.add_argument("--days", type=int, default=14, help="report days drawn (default 14)")
    chart.add_argument("--topic", help="only this topic's items (see `vllm-report topics`)")
    chart.add_argument("--kind", default="counts", help="counts (default), vendors or merged")
    chart.add_argument("-o", "--output", required=True, help="the PNG file to write")
    chart.set_defaults(func=run_chart)

    site = command(
        commands,
        "site",
        "the report site: static pages, charts and Atom feeds from the archive",
        "The report site, built from the archive alone (no GitHub request).",
        ["vllm-report site build site/"],
    )
    site_commands = site.add_subparsers(dest="site_command", required=True, metavar="ACTION")
    build = command(
        site_commands,
        "build",
        "write (or bring up to date) the site of every archived report day",
        "Write the site of every report day the archive holds whole; incremental (only "
        "changed files are written).",
        ["vllm-report site build site/"],
    )
    build.add_argument("output", help="the folder to write, e.g. site/")
    common_options(build)
    build.set_defaults(func=run_site_build)

    why = command(
        commands,
        "explain",
        "why an issue or PR is (not) in each topic, and which story it is in",
        "Say, topic by topic, why an item is or is not in it, and which story it joins in "
        "the report of the day of its last event (that day is cut by --timezone/--cutoff).",
        ["vllm-report explain 38313", "vllm-report explain 1234 --repo sgl-project/sglang"],
    )
    why.add_argument("number", type=item_number, help="issue or PR number, e.g. 38313")
    repo_option(why)
    day_options(why)
    why.set_defaults(func=run_explain)


def add_topics_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    topics = command(
        commands,
        "topics",
        "list the topics of the rules file",
        "List the topics a report highlights (vendors and subjects), from config/topics.toml "
        "or the file VLLM_REPORT_TOPICS_FILE names.",
        ["vllm-report topics", "vllm-report topics --lang zh"],
    )
    lang_option(topics)
    topics.set_defaults(func=run_topics)


def run_topics(args: argparse.Namespace) -> int:
    settings, rules = configured(args)
    for rule in rules.topics:
        print(f"{rule.key:14} {rule.display_name(settings.lang)} — {rule.description}")
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from bot.analyze.topics import explain

    settings, rules = configured(args)
    with opened(settings, rules) as bot:
        with repo_checked(settings, number=args.number):
            item = bot.reports.archiver.item(settings.repo, args.number, now())
        story = bot.reports.story_of(item, settings.tz, settings.cutoff_time)
        told = [
            line
            for feature in declared()
            if feature.explain is not None
            for line in feature.explain(bot.context(), item)
        ]
    kind = "PR" if item.kind == "pr" else "issue"
    print(f"#{item.number} ({kind}) {item.title}")
    print(f"  author {item.author or '?'}; labels {', '.join(item.labels) or 'none'}")
    for line in explain(item, rules):
        print(f"  {line}")
    print(f"  {story}")
    for line in told:  # what the features know of it (the plugins it broke)
        print(f"  {line}")
    return 0


def run_chart(args: argparse.Namespace) -> int:

    from formatters.charts import KINDS, ChartError, chart

    if args.kind not in KINDS:
        raise UsageError(f"unknown chart kind '{args.kind}': use {', '.join(KINDS)}")
    if not 2 <= args.days <= 366:
        raise UsageError(f"--days {args.days} is out of range: draw 2 to 366 days")
    check_phrase(args)
    settings, rules = configured(args)
    topic = check_topic(args.topic, rules) if args.topic else None
    window = asked_query(
        argparse.Namespace(**{**vars(args), "topic": topic, "counts_only": True, "refresh": False}),
        settings,
        rules,
    ).window
    with opened(settings, rules) as bot:
        run = bot.reports.history(settings.repo, window, args.days, topic)
    try:
        drawn = chart(run, args.kind, lang=settings.lang)
    except ChartError as exc:
        raise UsageError(str(exc)) from None
    path = Path(args.output)
    try:
        path.write_bytes(drawn.png)
    except OSError as exc:
        from bot.report_files import unwritable

        if path.is_dir():
            raise UsageError(f"{path} is a folder: name the PNG file to write (-o)") from None
        raise unwritable(path.parent, None, exc, "the chart") from None
    print(drawn.alt)
    print(f"wrote {path} ({len(drawn.png)} bytes)", file=sys.stderr)
    return 0


def run_site_build(args: argparse.Namespace) -> int:

    from bot.app import site_builder

    if not str(args.output).strip():  # Path("") is the current folder: hundreds of files
        raise UsageError("name a folder for the site: `site build FOLDER` (an empty name is none)")
    settings, rules = configured(args)
    root = Path(args.output)
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root} is a file, not a folder: name a folder for the site")
    with opened(settings, rules) as bot, progress(args, "building the site") as say:
        builder = site_builder(bot)
        try:
            built = builder.build(root, progress=say)
        except OSError as exc:
            from bot.report_files import unwritable

            raise unwritable(root, None, exc, "the site") from None
        cutoff = settings.cutoff_time.strftime("%H:%M")
        elsewhere = _published_elsewhere(bot.reports.files, builder, settings.repo, cutoff)
    print(
        f"site {root}: {built.days} report days, {built.pages} pages, {built.files} files; "
        f"{len(built.written)} written, {len(built.removed)} removed in {built.seconds:.1f} s"
    )
    if not built.days:
        print(
            "no report day is archived whole yet: run `vllm-report show DAY` first",
            file=sys.stderr,
        )
    if elsewhere:
        print(elsewhere, file=sys.stderr)
    return 0


def _published_elsewhere(files: ReportFiles, builder: SiteBuilder, repo: str, cutoff: str) -> str:
    """Published days the site has no page for because they end at another time, said in
    one sentence with the command that builds them (silence would read as "never posted")."""
    on_site = {day.isoformat() for day in builder.days()}
    missing: dict[str, list[str]] = {}
    for label, end in files.published_ends(repo).items():
        if end != cutoff and label not in on_site:
            missing.setdefault(end, []).append(label)
    if not missing:
        return ""
    end, labels = max(missing.items(), key=lambda pair: len(pair[1]))
    count = sum(len(days) for days in missing.values())
    shown = ", ".join(labels[:3]) + (" …" if len(labels) > 3 else "")
    return (
        f"{count} published report day(s) have no page here: they end at "
        f"{', '.join(sorted(missing))}, not {cutoff} ({shown}); "
        f"`vllm-report site build DIR --cutoff {end}` builds them"
    )


def run_serve(args: argparse.Namespace) -> int:
    import asyncio

    from bot.app import serve
    from bot.observe.github_meter import github_meter
    from bot.observe.logs import setup_logging

    settings, rules = configured(args)
    # The daemon speaks at INFO: one line per event (-v adds the libraries' own lines).
    setup_logging(args.verbose, settings.log_format, settings.secrets(), floor=logging.INFO)
    github_meter(show_debug=args.verbose >= 2)
    with opened(settings, rules) as bot:
        asyncio.run(serve(bot))
    return 0


def run_show(args: argparse.Namespace) -> int:
    check_phrase(args)
    settings, rules = configured(args)
    sections = [check_section(name, rules) for name in args.section]
    query = asked_query(args, settings, rules)
    with opened(settings, rules) as bot:
        with repo_checked(settings), fetching(args, query.window.label):
            report = bot.reports.report(query)
        empty_checked(settings, report)
        print(render(args.format, report, bot, sections), end="")
        for feature in declared():  # what a feature says of the report (plugins unread)
            said = feature.after_show and feature.after_show(bot.context(), report, sections, now())
            if said:
                print(f"vllm-report: {said}", file=sys.stderr)
    return 0


def run_post(args: argparse.Namespace) -> int:
    """The daily run of one window, as the scheduler runs it: report → files → site →
    channels → digests (no chat configured: the files and the site)."""
    import asyncio

    from bot.app import post_once

    check_phrase(args)
    settings, rules = configured(args)
    window = asked_query(args, settings, rules).window
    try:
        with opened(settings, rules) as bot, repo_checked(settings):
            result = asyncio.run(
                post_once(bot, window, args.refresh, lambda r: empty_checked(settings, r))
            )
    except OSError as exc:  # the report files (or the data folder) cannot be written
        raise written(settings, exc) from None
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
