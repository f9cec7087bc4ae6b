"""The indexes that keep a 100k-item window linear say what the straightforward scans said.

Each step made linear for benchmarks/scale.py (timing ties looked up by rare term, a
story's edges read once, a story told from each member without rebuilding it, bare model
families found by their sorted successor) is checked against the plain scan it replaced,
on a random window dense in what those steps read: titles drawn from a small vocabulary,
so terms sit around the rarity thresholds; links of every kind; reverts and fixes.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from datetime import timedelta

from bot.analyze import stories as st
from bot.analyze.changes import _ToldFrom
from bot.analyze.references import links
from bot.analyze.titles import title_tags
from bot.analyze.trends import _GENERIC_TAGS, _family, clusters
from bot.model.report import ActivityItem, Story
from bot.model.rules import load_rules
from tests.factories import REPO, WINDOW_0326, item

W = WINDOW_0326
WORDS = [f"w{index}x" for index in range(400)]  # distinctive: not in COMMON, three letters+
PHRASES = {
    "fixes": "Fixes",
    "reverts": "Reverts",
    "backports": "Backport of",
    "follows": "Follow-up to",
    "supersedes": "Replaces",
    "mentions": "See",
}
BLOCK = 8  # items of one piece of work: they share title words and link to each other
TRAIN = 30  # the first items: one title and author, the long chain of one big story


def _window_items(count: int = 600, seed: int = 5) -> list[ActivityItem]:
    rng = random.Random(seed)
    out = []
    for number in range(1, count + 1):
        kind = rng.choice(("issue", "pr"))
        created = W.start + timedelta(minutes=rng.uniform(-600, 1400))
        closed = merged = None
        reason = None
        if rng.random() < 0.6:
            closed = created + timedelta(minutes=rng.uniform(1, 600))
            if kind == "pr" and rng.random() < 0.7:
                merged = closed
            elif kind == "issue":
                reason = rng.choice(("completed", "completed", "not_planned"))
        block = (number - 1) // BLOCK
        own = WORDS[block * 4 % len(WORDS) :][:4]
        title = " ".join([*rng.sample(own, 2), rng.choice(WORDS)])
        body = ""
        if rng.random() < 0.5:
            other = rng.randint(block * BLOCK + 1, block * BLOCK + BLOCK)
            body = f"{PHRASES[rng.choice(list(PHRASES))]} #{other}."
        train = number <= TRAIN
        out.append(
            item(
                number,
                kind,
                title="w0x w1x release train" if train else title,
                author="ann" if train else rng.choice(("ann", "bob", "cyd")),
                created_at=created,
                closed_at=closed,
                merged_at=merged,
                state_reason=reason,
                body=body,
                comments=rng.randint(0, 5),
            )
        )
    return out


def _every_merge_tried(items: list[ActivityItem]) -> list[st._Edge]:
    """Timing ties as first written: every request against every merge of the window."""
    terms = {it.number: st._terms(it.title) for it in items}
    frequency = Counter(t for found in terms.values() for t in found)
    merges = [it for it in items if it.merged_at is not None and W.contains(it.merged_at)]
    edges = []
    swept = st._swept(items)
    for issue in (it for it in items if it.kind == "issue" and it.number not in swept):
        done = issue.closed_at is not None and issue.state_reason == "completed"
        limit, rare = (10**9, st.TIMING_RARE) if done else (st.TIMING_RARE, st.RARE)
        best: tuple[int, st._Edge] | None = None
        for pr in merges:
            shared = sorted(
                t for t in terms[issue.number] & terms[pr.number] if frequency[t] <= limit
            )
            if len(shared) < st.MIN_SHARED or not any(frequency[t] <= rare for t in shared):
                continue
            quoted = ", ".join(f"'{t}'" for t in shared[:4])
            assert pr.merged_at is not None
            edge = st._delivery_edge(issue, pr, pr.merged_at, W, quoted)
            if edge is not None and (best is None or len(shared) > best[0]):
                best = (len(shared), edge)
        if best is not None:
            edges.append(best[1])
    return edges


def _two_merges_one_request() -> list[ActivityItem]:
    """A request that shares as much with two merges: the first merge of the window wins."""
    at = W.start + timedelta(hours=1)
    merges = [
        item(n, "pr", title=f"zeta9x omega9x {word}", created_at=at, closed_at=at, merged_at=at)
        for n, word in ((9001, "alpha"), (9002, "beta"))
    ]
    done = at + timedelta(hours=2)
    request = item(9003, title="zeta9x omega9x broken", closed_at=done, state_reason="completed")
    return [*merges, request]


def test_timing_ties_are_the_ones_trying_every_merge_finds() -> None:
    items = _window_items() + _two_merges_one_request()
    found = st._timing_edges(items, W)
    assert (found[-1].a, found[-1].b) == (9001, 9003)
    assert len(found) >= 10  # the sample ties enough requests, both ways, to mean something
    assert {edge.kind for edge in found} == {"similar"}  # timing says "related by title"
    assert {edge.reason.split()[1] for edge in found} == {"closed", "opened"}  # both ways
    assert found == _every_merge_tried(items)


def _scanned_relation(member: int, lead: int, edges: list[st._Edge]) -> str:
    """A member's relation as first written: the first edge with the lead, by scanning."""
    for edge in edges:
        if {edge.a, edge.b} == {member, lead}:
            return st._relation(member, edge, set())
    touching = {edge.kind for edge in edges if member in (edge.a, edge.b)}
    return "series" if touching == {"series"} else "related"


def _stories(items: list[ActivityItem]) -> tuple[tuple[Story, ...], list[st._Edge]]:
    listed = {it.number: it for it in items}
    item_links = {it.number: links(it.title, it.body, REPO, it.number) for it in items}
    ordered = list(listed.values())
    edges = (
        st._link_edges(listed, listed, item_links)
        + st._title_edges(ordered)
        + st._series_edges(ordered)
        + st._timing_edges(ordered, W)
    )
    return st.build_stories(items, (), W, item_links), edges


def test_each_members_relation_is_the_one_scanning_every_edge_finds() -> None:
    stories, edges = _stories(_window_items())
    big = [s for s in stories if len(s.numbers) > 10]
    assert big  # the sample makes stories big enough for a quadratic scan to show
    for story in stories:
        members = set(story.numbers)
        inside = [e for e in edges if e.a in members and e.b in members]
        assert story.reasons == tuple(dict.fromkeys(e.reason for e in inside))
        for member in story.members:
            assert member.relation == _scanned_relation(member.number, story.lead, inside)


def test_a_story_told_from_any_member_is_the_one_led_by_tells() -> None:
    stories, _ = _stories(_window_items())
    told_from = _ToldFrom()
    relations = {m.relation for s in stories for m in s.members}
    assert {"fixed_by_lead", "fixes_lead", "reverted"} <= relations
    for story, relation in itertools.product(stories, sorted(relations)):
        for number in story.numbers:
            told = story.led_by(number)
            expected = [m.number for m in told.members if m.relation == relation]
            assert told_from.related(story, number, relation) == expected


def test_a_bare_family_goes_when_any_versioned_one_is_there() -> None:
    """Against every key compared with every key: the sorted successor decides the same."""
    rng = random.Random(3)
    stems = ["qwen", "qwe", "llama", "llam", "gemma", "q", "deep", "deepseek", "zz"]
    tags = stems + [f"{s}{rng.randint(1, 9)}" for s in stems] + [f"{s}-vl" for s in stems]
    items = [
        item(n, "pr", title="".join(f"[{t}]" for t in rng.sample(tags, 3)), created_at=W.start)
        for n in range(1, 400)
    ]
    rules = load_rules()
    groups: dict[str, set[int]] = {}
    for it in items:
        found = (
            [_family(m.group(0)) for m in rules.models.finditer(it.title)] if rules.models else []
        )
        found += [t for t in title_tags(it.title) if t not in _GENERIC_TAGS]
        for name in found:
            if name not in rules.vendor_tags:
                groups.setdefault(name.lower(), set()).add(it.number)
    bare = [k for k in groups if not any(c.isdigit() for c in k)]
    dropped = {k for k in bare if any(o != k and o.startswith(k) for o in groups)}
    assert dropped  # the sample has bare families to drop
    expected = {
        (k, tuple(sorted(v))) for k, v in groups.items() if k not in dropped and len(v) >= 3
    }
    found = {(c.name.lower(), c.numbers) for c in clusters(items, rules, limit=10**6)}
    assert found == expected
