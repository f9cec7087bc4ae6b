"""Links between items, read from titles and bodies: what says it fixes, backports, reverts,
follows up on, replaces or merely mentions what.

Only this repository's items count (`#123`, or a full URL of this repository); a link's
kind is the strongest phrase seen for that target. Pure: text in, links out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from bot.model.report import ActivityItem

# Kinds, strongest first (one link per target keeps the strongest).
KINDS = (
    "reverts",
    "relands",
    "backports",
    "fixes",
    "supersedes",
    "follows",
    "duplicates",
    "mentions",
)

_NUMBER = r"(?:#|https://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?:issues|pull)/)(?P<n>\d{1,7})"
_PHRASES = {
    "fixes": (
        r"(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)"
        r"(?:\s+(?:the\s+)?(?:reported\s+)?(?:for|issue|bug))?\s*:?\s*"
    ),
    "backports": r"backport(?:s|ed)?(?:\s+of)?(?:\s+(?:pr|pull request))?\s*:?\s*",
    "reverts": r"revert(?:s|ed)?(?:\s+(?:pr|commit))?\s*:?\s*",
    "relands": (
        r"(?:re-?land(?:s|ed|ing)?|re-?appl(?:y|ies|ied)|re-?submi(?:ts?|tted))(?:\s+of)?\s*:?\s*"
    ),
    "supersedes": r"(?:supersede[sd]?|replace[sd]?|instead of|alternative to|redo of)\s*:?\s*",
    "follows": (
        r"(?:follow[- ]?ups?(?:\s+(?:to|of|for|on))?|builds?\s+on(?:\s+top\s+of)?|"
        r"depends\s+on|introduced\s+(?:in|by)|regression\s+(?:from|of|in)|part\s+of|"
        r"continu(?:es|ation\s+of)|extracted(?:\s+changes)?\s+from|split\s+(?:from|out\s+of)|"
        r"stacked\s+on|on\s+top\s+of|following)\s*:?\s*"
    ),
    "duplicates": r"duplicate(?:s|d)?(?:\s+of)?\s*:?\s*",
}
# One scan finds every phrased link: the group that matched names the kind.
_PHRASED = re.compile(
    r"\b(?:"
    + "|".join(f"(?P<{kind}>{phrase})" for kind, phrase in _PHRASES.items())
    + rf")(?:the\s+)?(?:original\s+)?(?:pr\s+)?{_NUMBER}",
    re.I,
)
_MENTION = re.compile(rf"(?<![\w/&]){_NUMBER}\b")
# `Revert "[Perf] Something (#38021)"`: GitHub's own revert title names the PR it undoes.
_REVERT_TITLE = re.compile(r'^\s*Revert\s+".*\(#(\d{1,7})\)"?\s*$', re.I)
_BACKPORT_TITLE = re.compile(r"backport.*?#(\d{1,7})", re.I)
# `Reland "[MoE] Something (#38050)"`, `[Reland] Something (#38050)`: it lands it again.
_RELAND_TITLE = re.compile(r"^\s*\[?\s*re-?(?:land|apply)\b.*\(#(\d{1,7})\)", re.I)
SCAN = 6000  # characters of a body read for links: they are stated near the top


@dataclass(frozen=True)
class Link:
    target: int
    kind: str  # one of KINDS


def links(title: str, body: str | None, repo: str, own: int) -> list[Link]:
    """This item's links to other items of `repo`, one per target, strongest kind first."""
    found: dict[int, str] = {}

    def add(number: int, kind: str) -> None:
        if number == own:
            return
        known = found.get(number)
        if known is None or KINDS.index(kind) < KINDS.index(known):
            found[number] = kind

    if match := _REVERT_TITLE.match(title):
        add(int(match.group(1)), "reverts")
    if match := _RELAND_TITLE.match(title):
        add(int(match.group(1)), "relands")
    if match := _BACKPORT_TITLE.search(title):
        add(int(match.group(1)), "backports")
    for text in (title, (body or "")[:SCAN]):
        if "#" not in text and "github.com" not in text:
            continue
        for match in _PHRASED.finditer(text):
            if _ours(match, repo):
                kind = next(k for k in _PHRASES if match.group(k) is not None)
                add(int(match.group("n")), kind)
        for match in _MENTION.finditer(text):
            if _ours(match, repo):
                add(int(match.group("n")), "mentions")
    return sorted(
        (Link(number, kind) for number, kind in found.items()),
        key=lambda link: (KINDS.index(link.kind), link.target),
    )


def _ours(match: re.Match[str], repo: str) -> bool:
    return match.group("repo") in (None, repo)


def referenced(items: Iterable[ActivityItem], repo: str) -> set[int]:
    """Every number these items link to, in titles and bodies."""
    return {link.target for it in items for link in links(it.title, it.body, repo, it.number)}


def references(body: str | None, repo: str) -> set[int]:
    """Numbers of this repository's items that `body` mentions in any way."""
    return {link.target for link in links("", body, repo, own=0)}


def fixes(body: str | None, repo: str = "") -> set[int]:
    """Numbers a body says it fixes, closes or resolves."""
    return {link.target for link in links("", body, repo, own=0) if link.kind == "fixes"}


# A title that says revert: `Revert "…"`, `[Revert] …`, `revert #N …`.
_SAYS_REVERT = re.compile(r"^\W*revert\b", re.I)


def reverted_numbers(item: ActivityItem) -> set[int]:
    """The PRs of its repository `item` reverts: none unless it is a merged PR titled
    revert. Read from GitHub's own `Revert "Title (#N)"`, its body's `Reverts owner/repo#N`
    and "reverts #N" said plainly."""
    if item.kind != "pr" or item.merged_at is None or not _SAYS_REVERT.match(item.title):
        return set()
    found = {
        link.target
        for link in links(item.title, item.body, item.repo, item.number)
        if link.kind == "reverts"
    }
    said = _reverts_said(item.repo).findall(f"{item.title}\n{item.body or ''}")
    found |= {int(n) for n in said}
    found.discard(item.number)
    return found


@functools.cache
def _reverts_said(repo: str) -> re.Pattern[str]:
    """GitHub's revert body, "Reverts owner/repo#25100", and "reverts #25100" said plainly."""
    return re.compile(rf"\breverts?\s+(?:{re.escape(repo)})?#(\d{{1,7}})\b", re.I)
