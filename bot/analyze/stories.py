"""Stories: related items of a window shown as one (a feature and its follow-up fix, the
issues it answers, a PR series, a closed attempt and its replacement, backports).

Items are joined by explicit links (fixes/closes/resolves, backports, reverts, follow-ups,
`#N` mentions and issue URLs, read by `references.links`) and by title likeness inside the
window: titles that share distinctive terms (after dropping `[tags]`, common words and terms
frequent in the window). An item outside the window joins the story of the items that name
it, as context, but never joins two stories on its own (a tracking issue that ten PRs name
is not one story). Every join keeps its reason, for `explain`.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.analyze.references import Link
from bot.model.report import ActivityItem, Story, StoryMember
from bot.model.windows import Window

_TAGS = re.compile(r"[\[{(][^\]})]{0,40}[\]})]")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*[A-Za-z0-9+]|[A-Za-z0-9]")
# Words that say nothing about which piece of work a title is about.
COMMON = frozenset(
    """
    a an the and or of to in on for with by from at as is are be into via not no when this
    that it its than then vs per only all any new old more less add adds added adding
    support supports supported enable enables enabled disable fix fixes fixed fixing bug
    bugfix hotfix issue issues error errors fail fails failed failure broken update updates
    updated remove removes removed use uses using make improve improves improved refactor
    cleanup clean misc minor follow up followup feature feat test tests testing ci build doc
    docs model models v1 v2 vllm pr revert backport core kernel perf performance rfc wip
    draft do merge set get allow default handle correct incorrect wrong missing proper
    properly option options config out call calls during after before without within case
    cases check checks path mode run runs running load loading type types value values size
    result results first last one two logic multiple single also code instead
    """.split()  # noqa: SIM905 - a word list reads best as words
)
MIN_SHARED = 2  # distinctive terms two titles must share
MIN_OVERLAP = 0.5  # and at least this share of the shorter title's distinctive terms
RARE = 3  # a term in at most this many titles of the window is distinctive
_STATE_RANK = {"merged": 0, "open": 1, "closed": 2}


@dataclass(frozen=True)
class _Edge:
    a: int
    b: int
    reason: str
    kind: str  # a link kind, or "similar"


def build_stories(
    items: Sequence[ActivityItem],
    context: Iterable[ActivityItem],
    window: Window,
    item_links: Mapping[int, Sequence[Link]],
) -> tuple[Story, ...]:
    """The window's stories (every listed item is in exactly one), largest first."""
    listed = {it.number: it for it in items}
    known = {**{it.number: it for it in context}, **listed}
    ordered = list(listed.values())
    edges = _link_edges(listed, known, item_links) + _title_edges(ordered) + _series_edges(ordered)
    groups = _components(listed, edges)
    stories = [_story(members, known, edges, window) for members in groups]
    stories.sort(key=lambda s: (-len(s.numbers), s.lead))
    return tuple(stories)


def story_index(stories: Iterable[Story]) -> dict[int, Story]:
    """Each listed item's story."""
    return {number: story for story in stories for number in story.numbers}


# -- edges ---------------------------------------------------------------------------------


def _link_edges(
    listed: Mapping[int, ActivityItem],
    known: Mapping[int, ActivityItem],
    item_links: Mapping[int, Sequence[Link]],
) -> list[_Edge]:
    edges = []
    for number in listed:
        for link in item_links.get(number, ()):
            if link.target in known:
                edges.append(_Edge(number, link.target, _says(number, link), link.kind))
    return edges


def _says(number: int, link: Link) -> str:
    verb = {
        "fixes": "says it fixes",
        "backports": "backports",
        "reverts": "reverts",
        "supersedes": "replaces",
        "follows": "follows up on",
        "duplicates": "duplicates",
        "mentions": "mentions",
    }[link.kind]
    return f"#{number} {verb} #{link.target}"


def _title_edges(items: list[ActivityItem]) -> list[_Edge]:
    terms = {it.number: _terms(it.title) for it in items}
    frequency = Counter(term for found in terms.values() for term in found)
    distinctive = {
        number: {t for t in found if frequency[t] <= RARE} for number, found in terms.items()
    }
    by_term: dict[str, list[int]] = {}
    for number, found in distinctive.items():
        for term in found:
            by_term.setdefault(term, []).append(number)
    shared: Counter[tuple[int, int]] = Counter()
    for numbers in by_term.values():
        for i, a in enumerate(numbers):
            for b in numbers[i + 1 :]:
                shared[(min(a, b), max(a, b))] += 1
    edges = []
    for (a, b), count in sorted(shared.items()):
        shorter = min(len(terms[a]), len(terms[b]))
        if count < MIN_SHARED or count < MIN_OVERLAP * shorter:
            continue
        common = sorted(distinctive[a] & distinctive[b])
        weight = sum(1 / math.log2(1 + frequency[t]) for t in common)
        if weight >= MIN_SHARED * 0.6:
            quoted = ", ".join(f"'{t}'" for t in common[:4])
            edges.append(_Edge(a, b, f"#{a} and #{b} share {quoted} in their titles", "similar"))
    return edges


_VERSION = re.compile(r"\bv?\d+\.\d+(?:\.\d+)?\b")
_PART = re.compile(r"\[(\d{1,2})/(\d{1,2})\]")


def _series_edges(items: list[ActivityItem]) -> list[_Edge]:
    """Backports to one release, and the parts of one `[k/n]` series, are one story."""
    backports: dict[str, list[int]] = {}
    parts: dict[tuple[str, str], list[int]] = {}
    for it in items:
        if "backport" in it.title.lower():
            for version in set(_VERSION.findall(it.title)):
                backports.setdefault(version.lstrip("v"), []).append(it.number)
        if match := _PART.search(it.title):
            prefix = _TAGS.sub("", it.title[: match.start()]).strip().lower()
            tags = it.title[: match.start()].lower()
            parts.setdefault((tags or prefix, match.group(2)), []).append(it.number)
    edges = []
    for version, numbers in backports.items():
        for a, b in itertools.pairwise(numbers):
            edges.append(_Edge(a, b, f"#{a} and #{b} both backport to v{version}", "series"))
    for (_, total), numbers in parts.items():
        for a, b in itertools.pairwise(numbers):
            edges.append(
                _Edge(a, b, f"#{a} and #{b} are parts of one {total}-part series", "series")
            )
    return edges


def _terms(title: str) -> set[str]:
    words = _TOKEN.findall(_TAGS.sub(" ", title).lower())
    return {w for w in words if w not in COMMON and len(w) > 2 and not w.isdigit()}


# -- components ----------------------------------------------------------------------------


def _components(listed: Mapping[int, ActivityItem], edges: list[_Edge]) -> list[set[int]]:
    """Union-find over the listed items; an outside item may join one group, never bridge."""
    parent = {n: n for n in listed}

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for edge in edges:
        if edge.a in listed and edge.b in listed:
            parent[root(edge.a)] = root(edge.b)
    groups: dict[int, set[int]] = {}
    for n in listed:
        groups.setdefault(root(n), set()).add(n)
    outside: dict[int, set[int]] = {}  # outside item → the roots that name it
    for edge in edges:
        if edge.b not in listed:
            outside.setdefault(edge.b, set()).add(root(edge.a))
    for number, roots in outside.items():
        if len(roots) == 1:
            groups[next(iter(roots))].add(number)
    return list(groups.values())


# -- one story -----------------------------------------------------------------------------


def _story(
    members: set[int], known: Mapping[int, ActivityItem], edges: list[_Edge], window: Window
) -> Story:
    inside = [edge for edge in edges if edge.a in members and edge.b in members]
    lead = min(members, key=lambda n: _lead_rank(known[n], window))
    relations = {n: _relation(n, lead, inside) for n in members if n != lead}
    ordered = sorted(members - {lead}, key=lambda n: (_state_order(known[n]), n))
    return Story(
        id=f"s{lead}",
        lead=lead,
        numbers=(lead, *ordered),
        members=tuple(
            StoryMember(n, relations[n], n in known and not _in_window(known[n], window))
            for n in ordered
        ),
        reasons=tuple(dict.fromkeys(edge.reason for edge in inside)),
    )


def _lead_rank(item: ActivityItem, window: Window) -> tuple[int, int, int]:
    """Merged PRs lead, then PRs in review, then issues; an item of the window before context."""
    if item.kind == "pr":
        kind = {"merged": 0, "open": 1, "closed": 3}[_state(item)]
    else:
        kind = 2 if "rfc" in item.title.lower() else 4
    return (0 if _in_window(item, window) else 1, kind, -item.comments)


def _relation(member: int, lead: int, edges: list[_Edge]) -> str:
    """How `member` relates to the story's lead, in one word the formatters translate."""
    for edge in edges:
        if {edge.a, edge.b} != {member, lead}:
            continue
        forward = edge.a == member  # member → lead
        return {
            ("fixes", True): "fixes_lead",
            ("fixes", False): "fixed_by_lead",
            ("backports", True): "backport",
            ("backports", False): "backported",
            ("reverts", True): "revert",
            ("reverts", False): "reverted",
            ("supersedes", True): "replacement",
            ("supersedes", False): "replaced",
            ("follows", True): "follow_up",
            ("follows", False): "followed",
            ("duplicates", True): "duplicate",
            ("duplicates", False): "duplicate",
        }.get((edge.kind, forward), edge.kind if edge.kind in ("similar", "series") else "related")
    # No link to the lead itself: one step removed, a series is still a series.
    touching = {edge.kind for edge in edges if member in (edge.a, edge.b)}
    return "series" if touching == {"series"} else "related"


def _state(item: ActivityItem) -> str:
    if item.merged_at is not None:
        return "merged"
    return "closed" if item.closed_at is not None else "open"


def _state_order(item: ActivityItem) -> int:
    return _STATE_RANK[_state(item)]


def _in_window(item: ActivityItem, window: Window) -> bool:
    return any(
        moment is not None and window.contains(moment)
        for moment in (item.created_at, item.closed_at, item.merged_at)
    )
