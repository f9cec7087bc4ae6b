"""What a person typed as a subscription: read into its key (`read_key`: the one parser,
bot.model.subscriptions, then the value in its stored form; no request, a bad one is one
sentence), and a personal filter's cadence (`daily`, `weekly`, `off`). When someone
subscribes to a filter, `confirm` asks whether GitHub knows the label or the login (one
request, or a page of labels an hour)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from bot.collect.source import CollectError
from bot.commands.services import Services
from bot.commands.words import CommandError
from bot.model.errors import InputError
from bot.model.subscriptions import CADENCES, FILTER_FORMS, Filter, SubscriptionKey

LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$")  # GitHub's rule
GLOB_LIMIT = 100
T = TypeVar("T")


def parsed(word: str) -> SubscriptionKey:
    """`word`'s key as typed (SubscriptionKey.parse), its error a CommandError: the one a
    platform answers while it reads the words (Slack's text)."""
    try:
        return SubscriptionKey.parse(word)
    except InputError as exc:
        raise CommandError(str(exc)) from None


def read_key(word: str) -> SubscriptionKey:
    """The key `word` names, in the form it is stored: a filter's value checked (a login, a
    path glob) and, but for a path, in lower case, as is the rest; CommandError, one
    sentence, for a malformed one. Whether the topic, the plugin or the hardware exists is
    Services.check_topic's to say."""
    key = parsed(word)
    if key.value is None:
        return key
    value = key.value.strip()
    if key.is_personal:
        value = value.strip('"').strip()  # Discord's text as typed: a quoted label
    try:
        key = replace(key, value=value)
    except InputError as exc:  # nothing left once unquoted: `label:""`
        raise CommandError(str(exc)) from None
    if key.kind == "author":
        return replace(key, value=_login(value))
    if key.kind == "path":
        return replace(key, value=_glob(value))
    return replace(key, value=value.lower())


def read_filter(word: str) -> Filter:
    """The personal filter `word` names; CommandError saying how to write one otherwise."""
    wanted = read_key(word).filter
    if wanted is None:
        raise CommandError(f"`{word.strip()}` is not a filter: say {FILTER_FORMS}")
    return wanted


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


def _login(value: str) -> str:
    """A GitHub login as `author:` takes it (`@` dropped, lower case), or a CommandError."""
    login = value.removeprefix("@")
    if not LOGIN.match(login):
        raise CommandError(f"`{login}` is not a GitHub login (letters, digits and dashes)")
    return login.lower()
