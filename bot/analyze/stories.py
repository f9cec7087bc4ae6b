"""Stories: related items of a window shown as one (a feature and its follow-up fix, the
requests it delivers, a PR series, a closed attempt and its replacement, backports, a
revert and its re-land).

Items are joined by explicit links (fixes/closes/resolves, backports, reverts, re-lands,
follow-ups, `#N` mentions and issue URLs, read by `references.links`), by title likeness
inside the window (titles that share distinctive terms, after dropping `[tags]`, common
words and terms frequent in the window; the same title by the same author), and by timing:
a request closed as completed within a day of a merge whose title it shares, or opened
after it, is told beside it. Timing and shared words are no evidence that one fixes or
follows the other, so such a tie is said as what it is, "related by title"; a request
closed by the stale bot or in a bulk closing is never tied by timing at all. An item
outside the window joins the story of the items that name it, as context, but never joins
two stories on its own (a tracking issue that ten PRs name is not one story). The lead is
the weightiest member (weight.py: the feature, not its fix; a PR before the issues it
answers; a change before its revert). Every join keeps its reason, for `explain`.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.analyze.references import Link
from bot.analyze.ties import ties
from bot.analyze.weight import substance
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
TIMING_RARE = 6  # a request tied to a merge by timing may share terms this frequent
DELIVERY_DELAY = timedelta(days=1)  # a request closed this soon after a merge it shares
# A closing among this many others within BULK_SPAN is a sweep, not a decision about it.
BULK_CLOSINGS = 10
BULK_SPAN = timedelta(minutes=10)
SWEEP_LABELS = frozenset({"stale", "closed-as-slop"})
_STATE_RANK = {"merged": 0, "open": 1, "closed": 2}
# What a member is before its weight: a merged PR is the work; a closed attempt, an issue
# asking for the work, are about it (an RFC is the work's design).
_LEAD_BONUS = {"merged": 0.5, "open": 0.0, "closed": -1.5, "issue": -2.0, "rfc": -0.5}


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
    weights: Mapping[int, float] | None = None,
) -> tuple[Story, ...]:
    """The window's stories (every listed item is in exactly one), largest first.
    `weights`: each item's substance (weight.py), when the caller worked it out already."""
    listed = {it.number: it for it in items}
    known = {**{it.number: it for it in context}, **listed}
    ordered = list(listed.values())
    edges = (
        _link_edges(listed, known, item_links)
        + _title_edges(ordered)
        + _series_edges(ordered)
        + _timing_edges(ordered, window)
        + [_Edge(a, b, reason, kind) for a, b, reason, kind in ties(ordered, window)]
    )
    groups = _components(listed, edges)
    weigh = dict(weights or {})
    for number, it in known.items():
        if number not in weigh:
            weigh[number] = substance(it, window.contains(it.created_at))
    inside = _inside_edges(groups, edges)
    stories = [
        _story(members, known, found, window, weigh)
        for members, found in zip(groups, inside, strict=True)
    ]
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
        "relands": "re-lands",
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
    edges = _same_title_edges(items)
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


def _same_title_edges(items: list[ActivityItem]) -> list[_Edge]:
    """The same title by the same author: another attempt at one piece of work, however
    common its words ("Fix multi-node allreduce fusion" opened twice)."""
    by_title: dict[tuple[str, str], list[int]] = {}
    for it in items:
        if it.author:
            key = (" ".join(it.title.lower().split()), it.author.lower())
            by_title.setdefault(key, []).append(it.number)
    edges = []
    for numbers in by_title.values():
        for a, b in itertools.pairwise(sorted(numbers)):
            edges.append(_Edge(a, b, f"#{a} and #{b} have the same title and author", "attempt"))
    return edges


def _timing_edges(items: list[ActivityItem], window: Window) -> list[_Edge]:
    """A request tied to a merge of the window by timing and title: closed as completed
    within a day after it (delivered), or opened after it (a follow-up: its docs, its bugs).
    Each request joins at most one merge: the one whose title it shares most of."""
    terms = {it.number: _terms(it.title) for it in items}
    frequency = Counter(term for found in terms.values() for term in found)
    merges = [it for it in items if it.merged_at is not None and window.contains(it.merged_at)]
    swept = _swept(items)
    # A tie needs a shared term in at most TIMING_RARE titles, so each request is tried
    # against the few merges holding one of its rare terms, not against every merge (that
    # was requests × merges: minutes at 100k items).
    by_term: dict[str, list[int]] = {}
    for index, pr in enumerate(merges):
        for term in terms[pr.number]:
            if frequency[term] <= TIMING_RARE:
                by_term.setdefault(term, []).append(index)
    edges = []
    for issue in items:
        if issue.kind == "issue" and issue.number not in swept:
            best = _tied_merge(issue, merges, by_term, terms, frequency, window)
            if best is not None:
                edges.append(best)
    return edges


def _swept(items: Sequence[ActivityItem]) -> set[int]:
    """Items closed without a merge by a sweep: labelled so by the stale bot or a bulk
    closing, or closed among BULK_CLOSINGS others within BULK_SPAN (one person's or bot's
    sweep: its timing says nothing about any one of them)."""
    by_number = {it.number: it for it in items}
    closings = sorted(
        (it.closed_at, it.number)
        for it in items
        if it.closed_at is not None and it.merged_at is None
    )
    swept = {
        number
        for _, number in closings
        if SWEEP_LABELS & {label.lower() for label in by_number[number].labels}
    }
    first = 0
    for last in range(len(closings)):
        while closings[last][0] - closings[first][0] > BULK_SPAN:
            first += 1
        if last - first + 1 >= BULK_CLOSINGS:
            swept.update(number for _, number in closings[first : last + 1])
    return swept


def _tied_merge(
    issue: ActivityItem,
    merges: list[ActivityItem],
    by_term: Mapping[str, list[int]],
    terms: Mapping[int, set[str]],
    frequency: Counter[str],
    window: Window,
) -> _Edge | None:
    done = issue.closed_at is not None and issue.state_reason == "completed"
    # Closed as completed right after a merge, the timing says much: any two shared
    # terms, one of them rare. Opened after it, the title must say more.
    limit = 10**9 if done else TIMING_RARE
    rare = TIMING_RARE if done else RARE
    # In the merges' order, as when every merge was tried: the first of the best wins.
    tried = sorted(
        {i for t in terms[issue.number] if frequency[t] <= rare for i in by_term.get(t, ())}
    )
    best: tuple[int, _Edge] | None = None
    for pr in (merges[i] for i in tried):
        shared = sorted(t for t in terms[issue.number] & terms[pr.number] if frequency[t] <= limit)
        if len(shared) < MIN_SHARED or not any(frequency[t] <= rare for t in shared):
            continue
        quoted = ", ".join(f"'{t}'" for t in shared[:4])
        assert pr.merged_at is not None  # noqa: S101 - merges are merged
        edge = _delivery_edge(issue, pr, pr.merged_at, window, quoted)
        if edge is not None and (best is None or len(shared) > best[0]):
            best = (len(shared), edge)
    return best[1] if best is not None else None


def _delivery_edge(
    issue: ActivityItem, pr: ActivityItem, merged: datetime, window: Window, quoted: str
) -> _Edge | None:
    closed = issue.closed_at
    done = issue.state_reason == "completed" and closed is not None and window.contains(closed)
    if done and closed is not None and merged <= closed <= merged + DELIVERY_DELAY:
        reason = (
            f"#{issue.number} closed as completed {_after(closed - merged)} after #{pr.number} "
            f"merged; their titles share {quoted} (related by title: neither says it fixes "
            "the other)"
        )
        return _Edge(pr.number, issue.number, reason, "similar")
    if window.contains(issue.created_at) and issue.created_at >= merged:
        reason = (
            f"#{issue.number} opened {_after(issue.created_at - merged)} after #{pr.number} "
            f"merged; their titles share {quoted} (related by title)"
        )
        return _Edge(issue.number, pr.number, reason, "similar")
    return None


def _after(delay: timedelta) -> str:
    minutes = round(delay.total_seconds() / 60)
    return f"{minutes} min" if minutes < 120 else f"{round(minutes / 60)} h"


_VERSION = re.compile(r"\bv?\d+\.\d+(?:\.\d+)?\b")
_PART = re.compile(r"\[(\d{1,2})/(\d{1,2})\]")


def _series_edges(items: list[ActivityItem]) -> list[_Edge]:
    """One author's backports to one release, and the parts of one `[k/n]` series, are one
    story (another team's backports to the same release are their own story)."""
    backports: dict[tuple[str, str], list[int]] = {}
    parts: dict[tuple[str, str], list[int]] = {}
    for it in items:
        if "backport" in it.title.lower():
            for version in set(_VERSION.findall(it.title)):
                key = (version.lstrip("v"), (it.author or "").lower())
                backports.setdefault(key, []).append(it.number)
        if match := _PART.search(it.title):
            prefix = _TAGS.sub("", it.title[: match.start()]).strip().lower()
            tags = it.title[: match.start()].lower()
            parts.setdefault((tags or prefix, match.group(2)), []).append(it.number)
    edges = []
    for (version, _), numbers in backports.items():
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


def _inside_edges(groups: list[set[int]], edges: list[_Edge]) -> list[list[_Edge]]:
    """Per group, the edges between two of its members, in the edges' order: sorted out in
    one pass (every group scanning every edge was groups × edges)."""
    group_of = {n: index for index, members in enumerate(groups) for n in members}
    inside: list[list[_Edge]] = [[] for _ in groups]
    for edge in edges:
        index = group_of.get(edge.a)
        if index is not None and group_of.get(edge.b) == index:
            inside[index].append(edge)
    return inside


# -- one story -----------------------------------------------------------------------------


def _story(
    members: set[int],
    known: Mapping[int, ActivityItem],
    inside: list[_Edge],
    window: Window,
    weights: Mapping[int, float],
) -> Story:
    """One group as a story; `inside`: the edges between its members."""
    derived = _derived(inside, known)
    lead = min(
        members,
        key=lambda n: _lead_rank(known[n], window, weights[n] - DERIVED * (n in derived)),
    )
    to_lead, touching = _edges_of(lead, inside)
    relations = {
        n: _relation(n, to_lead.get(n), touching.get(n, set())) for n in members if n != lead
    }
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


DERIVED = 2.0  # a fix, follow-up, revert or backport of a member is told under that member


def _derived(edges: list[_Edge], known: Mapping[int, ActivityItem]) -> set[int]:
    """Members that exist because of another member: the one-line fix of a release, the
    follow-up of a feature, a revert, a backport (a PR fixing an issue is the work itself)."""
    out = set()
    for edge in edges:
        pr_fix = edge.kind == "fixes" and known[edge.a].kind == known[edge.b].kind == "pr"
        if edge.kind in ("follows", "reverts", "backports") or pr_fix:
            out.add(edge.a)
    return out


def _lead_rank(item: ActivityItem, window: Window, weight: float) -> tuple[int, float, int, int]:
    """The weightiest member of the window leads (context never does): the work before the
    requests it answers, its fixes and its revert; then talk, then the older number."""
    kind = _state(item) if item.kind == "pr" else "rfc" if "rfc" in item.title.lower() else "issue"
    ahead = weight + _LEAD_BONUS[kind]
    return (0 if _in_window(item, window) else 1, -ahead, -item.comments, item.number)


def _edges_of(lead: int, edges: list[_Edge]) -> tuple[dict[int, _Edge], dict[int, set[str]]]:
    """Per member, its first edge with the lead and the kinds of all its edges: read once
    for the story (each member scanning every edge was quadratic in a big story)."""
    to_lead: dict[int, _Edge] = {}
    touching: dict[int, set[str]] = {}
    for edge in edges:
        for end, other in ((edge.a, edge.b), (edge.b, edge.a)):
            touching.setdefault(end, set()).add(edge.kind)
            if other == lead:
                to_lead.setdefault(end, edge)
    return to_lead, touching


def _relation(member: int, edge: _Edge | None, touching: set[str]) -> str:
    """How `member` relates to the story's lead, in one word the formatters translate:
    `edge` is its first edge with the lead, `touching` the kinds of all its edges."""
    if edge is not None:
        forward = edge.a == member  # member → lead
        return {
            ("fixes", True): "fixes_lead",
            ("fixes", False): "fixed_by_lead",
            ("backports", True): "backport",
            ("backports", False): "backported",
            ("reverts", True): "revert",
            ("reverts", False): "reverted",
            ("relands", True): "reland",
            ("relands", False): "relanded",
            ("supersedes", True): "replacement",
            ("supersedes", False): "replaced",
            ("follows", True): "follow_up",
            ("follows", False): "followed",
            ("duplicates", True): "duplicate",
            ("duplicates", False): "duplicate",
            ("after_change", True): "reported_after",
            ("after_change", False): "changed_before",
            ("fixes_test", True): "fixes_test",
            ("fixes_test", False): "test_failure",
        }.get(
            (edge.kind, forward),
            edge.kind if edge.kind in ("similar", "series", "attempt") else "related",
        )
    # No link to the lead itself: one step removed, a series is still a series.
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
