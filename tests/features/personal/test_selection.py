"""What a personal subscription selects (bot.features.personal.selection), on the real
2026-03-25."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.features.personal.model import Filter, PullFacts
from bot.features.personal.selection import mentions, path_matches, personal_digest
from bot.model.report import ActivityItem
from bot.model.windows import Window
from tests.anchor_data import REPO, anchor_days, anchor_items, as_activity

DAY = anchor_days()[2]
WINDOW = Window(DAY.start, DAY.end, "Asia/Shanghai", DAY.label)
ITEMS = [as_activity(f) for f in anchor_items()]


def in_window(item: ActivityItem) -> bool:
    return any(
        t is not None and WINDOW.contains(t)
        for t in (item.created_at, item.closed_at, item.merged_at)
    )


def numbers(rule: Filter, facts: dict[int, PullFacts] | None = None, **kw: object) -> list[int]:
    digest = personal_digest(REPO, WINDOW, rule, ITEMS, facts or {}, **kw)  # type: ignore[arg-type]
    return [e.number for e in digest.entries]


def test_a_label_selects_every_item_of_the_day_carrying_it_and_nothing_else() -> None:
    """33 items of 2026-03-25 carry `rocm`; the label is matched whatever its case."""
    want = {it.number for it in ITEMS if in_window(it) and "rocm" in it.labels}
    got = numbers(Filter("label", "ROCm".lower()))
    assert len(want) == 33
    assert sorted(got) == sorted(want) and len(got) == len(set(got))
    states = [
        e.state for e in personal_digest(REPO, WINDOW, Filter("label", "rocm"), ITEMS, {}).entries
    ]
    order = ["merged", "review", "draft", "open_issue"]  # landed first, then waiting, new
    ranks = [order.index(s) if s in order else len(order) for s in states]
    assert ranks == sorted(ranks) and states[0] == "merged" and states[-1] not in order


def test_an_author_selects_their_items_of_the_day() -> None:
    want = {it.number for it in ITEMS if in_window(it) and it.author == "AndreasKaratzas"}
    assert len(want) == 14
    assert sorted(numbers(Filter("author", "andreaskaratzas"))) == sorted(want)


def test_items_outside_the_window_are_never_selected() -> None:
    """Items the archive holds from other days carry `rocm` too: none is told."""
    others = {it.number for it in ITEMS if not in_window(it) and "rocm" in it.labels}
    assert others and not others & set(numbers(Filter("label", "rocm")))


@pytest.mark.parametrize(
    ("glob", "path", "hit"),
    [
        ("vllm/v1/attention/*", "vllm/v1/attention/backends/rocm_aiter.py", True),  # crosses /
        ("vllm/v1/attention/*", "vllm/v1/attentionx/x.py", False),
        ("vllm/v1", "vllm/v1/engine/core.py", True),  # no wildcard: that folder
        ("vllm/v1/", "vllm/v1/engine/core.py", True),
        ("vllm/v1", "vllm/v10/x.py", False),
        ("vllm/v1/engine/core.py", "vllm/v1/engine/core.py", True),  # or that file
        ("*.md", "docs/usage/faq.md", True),
        ("docs/**", "docs/a/b.md", True),
        ("csrc/[ab]*.cu", "csrc/attention.cu", True),
        ("csrc/[ab]*.cu", "csrc/cache.cu", False),
        ("Dockerfile", "docker/Dockerfile", False),  # a path starts at the root
        ("VLLM/*", "vllm/x.py", False),  # paths are case-sensitive, as git's are
    ],
)
def test_path_globs(glob: str, path: str, hit: bool) -> None:
    assert path_matches(glob, path) is hit


@pytest.mark.parametrize(
    ("text", "hit"),
    [
        ("cc @tjtanaa for review", True),
        ("@TJTANAA please look", True),
        ("thanks (@tjtanaa)", True),
        ("mail tjtanaa@amd.com", False),
        ("cc @tjtanaa-bot", False),
        ("cc @tjtanaa2", False),
        ("see user.@tjtanaa", False),
        (None, False),
    ],
)
def test_a_mention_is_the_login_written_with_an_at(text: str | None, hit: bool) -> None:
    assert mentions(text, "tjtanaa") is hit


def _open_pr(item: ActivityItem, **changes: object) -> ActivityItem:
    return replace(
        item, kind="pr", state="open", closed_at=None, merged_at=None, draft=False, **changes
    )  # type: ignore[arg-type]


def test_mine_tells_reviews_asked_then_yours_then_mentions_each_once() -> None:
    """tjtanaa (an AMD engineer mentioned on 2026-03-25): a PR asking their review comes
    first, with its review decision; their own items next; then mentions. An item that is
    theirs and mentions them is told once, as theirs; an earlier open PR of theirs shows
    only when changes were requested, an approved one waits silently."""
    day = [it for it in ITEMS if in_window(it)]
    mentioning = [it for it in day if mentions(it.body, "tjtanaa") and it.author != "tjtanaa"]
    assert len(mentioning) == 2
    asked = _open_pr(
        next(
            it
            for it in day
            if it.kind == "pr"
            and WINDOW.contains(it.created_at)  # opened that day: still in it once open
            and it.author != "tjtanaa"
            and it.number not in {m.number for m in mentioning}
        ),
        body="cc @tjtanaa",  # asks their review and mentions them: told once, as asked
    )
    own = replace(mentioning[0], author="tjtanaa")  # theirs, and it mentions them
    earlier = [
        _open_pr(
            ITEMS[0], number=900001, author="tjtanaa", created_at=WINDOW.start - timedelta(days=3)
        ),
        _open_pr(
            ITEMS[1], number=900002, author="tjtanaa", created_at=WINDOW.start - timedelta(days=2)
        ),
    ]
    items = [
        asked if it.number == asked.number else own if it.number == own.number else it
        for it in ITEMS
    ]
    facts = {
        asked.number: PullFacts(asked.number, requested=("TJTanAA",), decision="review_required"),
        900001: PullFacts(900001, decision="changes_requested"),
        900002: PullFacts(900002, decision="approved"),
    }
    digest = personal_digest(REPO, WINDOW, Filter("mine"), items, facts, "tjtanaa", earlier)
    told = [(e.number, e.reason) for e in digest.entries]
    assert told[0] == (asked.number, "review_requested")
    assert digest.entries[0].decision == "review_required"
    assert (own.number, "yours") in told and (900001, "yours") in told
    assert 900002 not in {n for n, _ in told}
    assert told[-1] == (mentioning[1].number, "mentioned")
    assert [n for n, _ in told].count(own.number) == 1
    assert [n for n, _ in told].count(asked.number) == 1
    assert len(told) == 4


def test_mine_without_a_login_and_a_filter_matching_nothing_are_empty() -> None:
    assert numbers(Filter("mine")) == []
    assert personal_digest(REPO, WINDOW, Filter("label", "no-such"), ITEMS, {}).empty


def test_a_path_reads_the_prs_files() -> None:
    """Only PRs whose files match; an issue or a PR without facts never does."""
    prs = [it.number for it in ITEMS if in_window(it) and it.kind == "pr"][:3]
    facts = {
        prs[0]: PullFacts(prs[0], ("vllm/v1/attention/backends/rocm_aiter.py",)),
        prs[1]: PullFacts(prs[1], ("docs/index.md", "vllm/v1/attention/ops/x.py")),
        prs[2]: PullFacts(prs[2], ("vllm/v1/attentionx/y.py",)),
    }
    digest = personal_digest(REPO, WINDOW, Filter("path", "vllm/v1/attention/*"), ITEMS, facts)
    assert [
        (e.number, e.matched) for e in sorted(digest.entries, key=lambda e: prs.index(e.number))
    ] == [
        (prs[0], "vllm/v1/attention/backends/rocm_aiter.py"),
        (prs[1], "vllm/v1/attention/ops/x.py"),
    ]


def test_mine_tells_their_open_issues_someone_else_commented_on_today() -> None:
    """tjtanaa's open issue from two days before, commented on today by someone else, is
    told with who commented; their own comment, or one from yesterday, is no news; a
    closed issue of theirs is not told again."""
    issue = next(it for it in ITEMS if it.kind == "issue")
    base = replace(issue, author="tjtanaa", state="open", closed_at=None, state_reason=None)
    older = WINDOW.start - timedelta(days=2)
    answered = replace(base, number=900011, created_at=older, title="a question")
    own_only = replace(base, number=900012, created_at=older)
    yesterday = replace(base, number=900013, created_at=older)
    closed = replace(
        base, number=900014, created_at=older, closed_at=WINDOW.start - timedelta(days=1)
    )
    noon = WINDOW.start + timedelta(hours=3)
    facts = {
        900011: PullFacts(
            900011, comments=(("tjtanaa", noon), ("gshtras", noon + timedelta(hours=1)))
        ),
        900012: PullFacts(900012, comments=(("tjtanaa", noon),)),
        900013: PullFacts(900013, comments=(("gshtras", WINDOW.start - timedelta(hours=2)),)),
        900014: PullFacts(900014, comments=(("gshtras", noon),)),
    }
    digest = personal_digest(
        REPO,
        WINDOW,
        Filter("mine"),
        ITEMS,
        facts,
        "tjtanaa",
        [answered, own_only, yesterday, closed],
    )
    told = [(e.number, e.reason, e.matched) for e in digest.entries if e.number > 900000]
    assert told == [(900011, "commented", "gshtras")]
