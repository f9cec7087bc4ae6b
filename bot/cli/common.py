"""What the commands share once parsed: settings and rules read, the store opened, the
window and query made, GitHub's "not found" told apart, progress on a terminal."""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.options import UsageError

if TYPE_CHECKING:
    from bot.app import Bot
    from bot.console.progress import Say
    from bot.model.query import ReportQuery
    from bot.model.report import Report
    from bot.model.rules import TopicRules
    from bot.model.windows import Release, ReleaseLookup, Window
    from config.settings import Settings


@contextlib.contextmanager
def repo_checked(settings: Settings, number: int | None = None) -> Iterator[None]:
    """GitHub's "not found" told apart: no such repository, or no such issue in it.

    GitHub answers 404 for an issue that does not exist and for a repository that does not
    (and 422 for a search in a missing repository): one more request says which it was."""
    from bot.collect.source import CollectError

    try:
        yield
    except CollectError as exc:
        if getattr(exc.__cause__, "status", None) not in (404, 422):
            raise
        exists = repo_exists(settings)
        if exists is False:
            raise no_repo(settings) from None
        if exists and number is not None:
            raise UsageError(
                f"#{number} is neither an issue nor a pull request of {settings.repo}: "
                "check the number"
            ) from None
        raise


@contextlib.contextmanager
def progress(args: argparse.Namespace, first: str) -> Iterator[Say | None]:
    """What a long command is doing, on stderr when it is a terminal (not with -v: the log
    lines say it, and a spinner would write over them)."""
    from bot.console.progress import progress

    if args.verbose:
        yield None
        return
    with progress(first) as say:
        yield say


@contextlib.contextmanager
def fetching(args: argparse.Namespace, label: str) -> Iterator[None]:
    """A report being made: each GitHub request told while the archive is filled."""
    from bot.console.progress import github_requests

    with (
        progress(args, f"making the report of {label}") as say,
        github_requests(say, f"fetching {label} from GitHub"),
    ):
        yield


def empty_checked(settings: Settings, report: Report) -> None:
    """A window with no activity at all may be a quiet day, or a repository that does not
    exist (GitHub's search finds nothing in it either): ask once, only then."""
    if report.items or repo_exists(settings) is not False:
        return
    raise no_repo(settings)


def repo_exists(settings: Settings) -> bool | None:
    from bot.app import github_source
    from bot.collect.probe import probe

    return probe(github_source(settings), rate_limit=False).repo_exists


def no_repo(settings: Settings) -> UsageError:
    private = "" if settings.github_token else " (a private one needs GITHUB_TOKEN)"
    return UsageError(
        f"GitHub has no repository '{settings.repo}'{private}: check --repo or VLLM_REPORT_REPO"
    )


def check_phrase(args: argparse.Namespace) -> None:
    """A window phrase that cannot mean a window is refused before any setting is read."""
    from bot.model.windows import read_phrase

    read_phrase(" ".join(args.when))


def configured(args: argparse.Namespace) -> tuple[Settings, TopicRules]:
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
    return settings, rules_of(settings.topics_file, load_rules)


def rules_of(path: Path | None, load: Callable[[Path | None], TopicRules]) -> TopicRules:
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


class opened:
    """The shared parts, opened for one command and closed after."""

    def __init__(self, settings: Settings, rules: TopicRules) -> None:
        self.settings, self.rules = settings, rules

    def __enter__(self) -> Bot:
        from bot.app import open_bot

        data_folder(self.settings)
        self.bot = open_bot(self.settings, self.rules)
        return self.bot

    def __exit__(self, *exc: object) -> None:
        self.bot.close()


def data_folder(settings: Settings) -> None:
    """The data folder made, when the store is the SQLite file in it (the store would make
    it, and tell a refusal as Python's errno): one sentence naming the folder and
    VLLM_REPORT_DATA_DIR otherwise."""
    from bot.report_files import DATA_DIR, unwritable

    if settings.database_url is not None:  # the store is elsewhere; the archive says its own
        return
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unwritable(settings.data_dir, DATA_DIR, exc, "the store") from None


def written(settings: Settings, exc: OSError) -> Exception:
    """A file of the report archive that could not be written, in one sentence naming the
    folder and VLLM_REPORT_DATA_DIR (the archive tells its own; this is for the rest)."""
    from bot.report_files import DATA_DIR, unwritable

    return unwritable(settings.report_files_dir, DATA_DIR, exc, "the report archive")


def now() -> datetime:
    return datetime.now(UTC)


def asked_query(args: argparse.Namespace, settings: Settings, rules: TopicRules) -> ReportQuery:
    """What the command line asks for, checked before anything is opened."""
    from bot.model.query import ReportQuery

    asked = getattr(args, "topic", None)
    topic = check_topic(asked, rules) if asked else None
    window = asked_window(args, settings)
    return ReportQuery(
        repo=settings.repo,
        window=window,
        lang=settings.lang,
        topic=topic,
        counts_only=getattr(args, "counts_only", False),
        refresh=args.refresh,
    )


def asked_window(args: argparse.Namespace, settings: Settings) -> Window:
    """The window the command line's words mean (read like the slash commands read it)."""
    from bot.model import asking

    return asking.window(
        " ".join(args.when),
        now=now(),
        tz=settings.tz,
        cutoff=settings.cutoff_time,
        max_days=settings.max_range_days,
        releases=releases(settings),
    )


def releases(settings: Settings) -> ReleaseLookup:
    """The repository's releases, for a window from one (`since v0.18.0`): the store and
    GitHub opened only if the phrase names a release (a light command imports neither)."""

    def lookup(tag: str | None) -> Release:
        from bot.app import releases as opened

        return opened(settings)(tag)

    return lookup


def chat_configured(settings: Settings) -> bool:
    return bool(settings.slack_bot_token and settings.slack_channel_list) or bool(
        settings.discord_bot_token and settings.discord_channel_list
    )


def render(form: str, report: Report, bot: Bot, sections: list[str]) -> str:
    """The report in the one format asked for."""
    lang = bot.settings.lang
    if form == "json":
        from formatters.json_report import render_json

        return render_json(report, lang)
    from bot.platforms.registry import PLATFORMS

    if form in PLATFORMS:
        link = bot.reports.files.link(report, lang)
        parts = PLATFORMS[form].report_parts(report, lang, only=sections, link=link)
        return json.dumps([payload for _, payload in parts], ensure_ascii=False, indent=2) + "\n"
    from formatters.markdown import render_markdown

    return render_markdown(report, lang, only=sections)


def check_topic(name: str, rules: TopicRules) -> str:
    from bot.model import asking

    return asking.topic(name, rules)


def check_section(name: str, rules: TopicRules) -> str:
    from bot.features import section_words
    from bot.model import asking

    return asking.section(name, rules, section_words())
