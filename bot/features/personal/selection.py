"""A personal digest: the items of a window one subscription selects, each once, with why.

Pure: the window's archived items, the PR facts read for them and the reader's GitHub login
in; a `PersonalDigest` out. What each filter selects:

- `label:<name>`: items carrying the label (GitHub's labels are case-insensitive);
- `author:<login>`: items opened by that login;
- `path:<glob>`: PRs changing a file the glob matches (`*` also crosses folders, so
  `vllm/v1/*` is everything under it; a glob without a wildcard is that file or folder);
- `mine`: for the reader's linked login, open PRs whose review is requested from them,
  their open issues someone else commented on in the window, their own items with an event
  in the window and their open PRs of the look-back whose changes were requested, and
  items of the window whose text mentions `@login`.

An item that two reasons select is told once, under the first reason of `REASONS`; within a
reason, merged first, then in review, drafts, open issues, and what closed; newest first.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from bot.features.personal.model import (
    MINE,
    REASONS,
    Filter,
    ItemView,
    PersonalDigest,
    PersonalEntry,
    PullFacts,
)
from bot.model.report import ActivityItem
from bot.model.states import state_key
from bot.model.windows import Window

_WILDCARDS = re.compile(r"[*?\[]")
# Within a reason: what landed, what waits for review, what is new, then what closed.
_STATE_ORDER = {"merged": 0, "review": 1, "draft": 2, "rfc_open": 3, "open_issue": 3}


def path_matches(glob: str, path: str) -> bool:
    """Whether `glob` (as `path:` takes it) matches the changed file `path`."""
    if not _WILDCARDS.search(glob):
        folder = glob.rstrip("/")
        return path == folder or path.startswith(folder + "/")
    return fnmatch.fnmatchcase(path, glob)


def mentions(text: str | None, login: str) -> bool:
    """`@login` written in `text` (not an e-mail address, not a longer login)."""
    if not text:
        return False
    pattern = rf"(?<![\w@.-])@{re.escape(login)}(?![\w-])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def personal_digest(
    repo: str,
    window: Window,
    rule: Filter,
    items: Iterable[ActivityItem],
    facts: Mapping[int, PullFacts],
    login: str | None = None,
    earlier: Iterable[ActivityItem] = (),
) -> PersonalDigest:
    """What `rule` selects of the window's `items` (`earlier`: the look-back's items, for
    `mine`'s open PRs waiting on their author); `login`: the reader's, for `mine`."""
    window_items = [it for it in items if _in_window(it, window)]
    chosen: dict[int, PersonalEntry] = {}
    shown: dict[int, ActivityItem] = {}
    for item, reason, matched in _selected(rule, window_items, list(earlier), facts, login, window):
        if item.number in chosen:
            continue
        fact = facts.get(item.number)
        state = state_key(item, window.end)
        decision = fact.decision if fact is not None and state in ("review", "draft") else None
        chosen[item.number] = PersonalEntry(item.number, reason, state, decision, matched)
        shown[item.number] = item
    order = sorted(
        chosen.values(),
        key=lambda e: (
            REASONS.index(e.reason),
            _STATE_ORDER.get(e.state, len(_STATE_ORDER)),
            -_last_event(shown[e.number], window).timestamp(),
        ),
    )
    views = {
        n: ItemView(n, it.kind, it.title, it.author, it.url, _last_event(it, window))
        for n, it in shown.items()
    }
    return PersonalDigest(repo, window, rule, login, tuple(order), views)


def _selected(
    rule: Filter,
    items: Sequence[ActivityItem],
    earlier: Sequence[ActivityItem],
    facts: Mapping[int, PullFacts],
    login: str | None,
    window: Window,
) -> Iterable[tuple[ActivityItem, str, str]]:
    """(item, reason, what matched) in the order reasons are tried."""
    value = rule.value.lower()
    if rule.kind == "label":
        for item in items:
            hit = next((lb for lb in item.labels if lb.lower() == value), None)
            if hit is not None:
                yield item, "label", hit
    elif rule.kind == "author":
        yield from ((it, "author", "") for it in items if (it.author or "").lower() == value)
    elif rule.kind == "path":
        for item in items:
            fact = facts.get(item.number)
            hit = (
                next((p for p in fact.paths if path_matches(rule.value, p)), None) if fact else None
            )
            if hit is not None:
                yield item, "path", hit
    elif rule.kind == MINE and login:
        yield from _mine(items, earlier, facts, login.lower(), window)


def _mine(
    items: Sequence[ActivityItem],
    earlier: Sequence[ActivityItem],
    facts: Mapping[int, PullFacts],
    login: str,
    window: Window,
) -> Iterable[tuple[ActivityItem, str, str]]:
    seen = {it.number for it in items}
    waiting = [it for it in earlier if it.number not in seen and _open_at(it, window)]
    yield from _asked([*items, *waiting], facts, login, window)
    yield from _answered([*items, *earlier], facts, login, window)
    yield from ((it, "yours", "") for it in items if _by(it, login))
    for item in waiting:
        fact = facts.get(item.number)
        if _by(item, login) and fact is not None and fact.decision == "changes_requested":
            yield item, "yours", ""
    yield from (
        (it, "mentioned", "") for it in items if not _by(it, login) and mentions(it.body, login)
    )


def _by(item: ActivityItem, login: str) -> bool:
    return (item.author or "").lower() == login


def _asked(
    items: Sequence[ActivityItem], facts: Mapping[int, PullFacts], login: str, window: Window
) -> Iterable[tuple[ActivityItem, str, str]]:
    """Open PRs of someone else that request the reader's review."""
    for item in items:
        fact = facts.get(item.number)
        asked = fact is not None and login in (r.lower() for r in fact.requested)
        if asked and _open_at(item, window) and not _by(item, login):
            yield item, "review_requested", ""


def _answered(
    items: Sequence[ActivityItem], facts: Mapping[int, PullFacts], login: str, window: Window
) -> Iterable[tuple[ActivityItem, str, str]]:
    """The reader's open issues someone else commented on in the window (who, last)."""
    for item in items:
        fact = facts.get(item.number)
        if item.kind != "issue" or not _by(item, login) or fact is None:
            continue
        if state_key(item, window.end) not in ("open_issue", "rfc_open"):
            continue
        others = [who for who, at in fact.comments if who.lower() != login and window.contains(at)]
        if others:
            yield item, "commented", others[-1]


def _open_at(item: ActivityItem, window: Window) -> bool:
    return item.kind == "pr" and state_key(item, window.end) in ("review", "draft")


def _in_window(item: ActivityItem, window: Window) -> bool:
    return bool(_events_in(item, window))


def _events_in(item: ActivityItem, window: Window) -> list[datetime]:
    """When the item was opened, closed or merged within the window."""
    moments = (item.created_at, item.closed_at, item.merged_at)
    return [t for t in moments if t is not None and window.contains(t)]


def _last_event(item: ActivityItem, window: Window) -> datetime:
    return max(_events_in(item, window), default=item.created_at)
