"""A personal subscription's words: `label:<name>`, `author:<login>`, `path:<glob>`, `mine`,
and a cadence (`daily`, `weekly`, `off`). Read in two steps like every command: the form of
the words first (`read_filter`: no request, a bad one is one sentence), then, when someone
subscribes, whether GitHub knows the label or the login (`confirm`: one request, or a
page of labels an hour)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import TypeVar

from bot.collect.source import CollectError
from bot.commands.services import Services
from bot.commands.words import CommandError
from bot.model.ci import CI_PREFIX
from bot.model.personal import CADENCES, FILTER_KINDS, MINE, Filter
from bot.model.radar import RADAR_TOPIC

LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$")  # GitHub's rule
GLOB_LIMIT = 100
T = TypeVar("T")
FORMS = "`label:<name>`, `author:<login>`, `path:<glob>` or `mine`"


def is_filter_word(word: str) -> bool:
    """The word names a personal filter (or tries to: `labels:x` is a wrong one); not
    `radar:<plugin>` or `ci:<hardware>`, topics (one plugin's radar, one hardware's CI)."""
    kind, colon, _ = word.partition(":")
    if word.lower().startswith((RADAR_TOPIC, CI_PREFIX)):
        return False
    return word.lower() == MINE or (bool(colon) and kind.isalpha())


def read_filter(word: str) -> Filter:
    """The filter `word` names; a malformed one: CommandError saying how to write it."""
    if word.lower() == MINE:
        return Filter(MINE)
    kind, _, value = word.partition(":")
    kind, value = kind.strip().lower(), value.strip().strip('"').strip()  # Discord's text as typed
    if kind not in FILTER_KINDS:
        raise CommandError(f"`{kind}:` is not a filter: say {FORMS}")
    if not value:
        raise CommandError(f"say what to match after `{kind}:`, e.g. `{_example(kind)}`")
    if kind == "author":
        login = value.removeprefix("@")
        if not LOGIN.match(login):
            raise CommandError(f"`{login}` is not a GitHub login (letters, digits and dashes)")
        return Filter("author", login.lower())
    if kind == "path":
        return Filter("path", _glob(value))
    return Filter("label", value.lower())


def read_cadence(word: str) -> str | None:
    low = word.lower()
    return low if low in CADENCES else None


def confirm(filter_: Filter, services: Services) -> str:
    """Check the filter against GitHub (a label of the repository, a login GitHub knows);
    the label as the repository spells it, or the value. Unknown: CommandError."""
    if filter_.kind == "label":
        labels = _asked(services.labels, f"for {services.settings.repo}'s labels")
        exact = {label.lower(): label for label in labels}
        if filter_.value in exact:
            return exact[filter_.value]
        close = difflib.get_close_matches(filter_.value, list(exact), n=1, cutoff=0.6)
        hint = f": did you mean `label:{exact[close[0]]}`?" if close else " (see its labels page)"
        raise CommandError(f"{services.settings.repo} has no label `{filter_.value}`{hint}")
    login = filter_.value
    if filter_.kind == "author" and not _asked(
        lambda: services.user_exists(login), f"whether the user `{login}` exists"
    ):
        raise CommandError(f"GitHub has no user `{filter_.value}`: check the spelling")
    if filter_.kind == "path" and not services.settings.github_token:
        raise CommandError(
            "`path:` needs a GitHub token on this bot (the files a PR changes are read "
            "through GitHub's GraphQL API): ask whoever runs it to set GITHUB_TOKEN"
        )
    return filter_.value


def _asked(ask: Callable[[], T], what: str) -> T:
    """GitHub's answer, or a CollectError saying GitHub could not be asked `what` (down,
    refusing, out of requests): never that the repository does not exist. The repository
    is the one the bot reads every day, so a 404 of its labels is GitHub refusing this
    token, not a repository gone; the collector's own sentence would say "no repository"."""
    try:
        return ask()
    except CollectError as exc:
        # PyGithub's status, read without importing it (only the collector imports github).
        status = getattr(exc.__cause__, "status", None)
        why = (
            f"it answered {status}: the bot's token may have lost access to the repository"
            if status == 404
            else str(exc).removesuffix("; try again later")
        )
        raise CollectError(f"GitHub could not be asked {what}; try again later ({why})") from exc


def _glob(value: str) -> str:
    """A path glob as `path:` takes it, or a CommandError saying what is wrong with it."""
    glob = value.strip()
    if len(glob) > GLOB_LIMIT:
        raise CommandError(f"that path is {len(glob)} characters; at most {GLOB_LIMIT}")
    if any(c.isspace() for c in glob) or any(not c.isprintable() for c in glob):
        raise CommandError("a path has no spaces: e.g. `path:vllm/v1/attention/*`")
    if glob.startswith("/") or ".." in glob.split("/"):
        raise CommandError("a path starts at the repository's root: e.g. `path:vllm/v1/*`")
    if glob.count("[") != glob.count("]") or "[]" in glob:
        raise CommandError(f"`{glob}` has an unclosed `[`: e.g. `path:vllm/[ab]*.py`")
    if set(glob) & set("<>|`"):  # Slack's link and mention markup, never in a path
        raise CommandError("a path has no `<`, `>`, `|` or backquote: e.g. `path:vllm/v1/*`")
    if set(glob) <= {"*", "?", "/"}:
        raise CommandError("that path matches every file: `/vllm-report` is the whole day")
    return glob


def _example(kind: str) -> str:
    return {"label": "label:rocm", "author": "author:alice", "path": "path:vllm/v1/*"}[kind]
