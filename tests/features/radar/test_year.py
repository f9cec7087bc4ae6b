"""The radar over a long window: every cause checked with GitHub in batches (a hundred
numbers to a GraphQL request with a token), archived so a second look asks nothing; and a
cause merged long before the plugin PR was opened is dropped, with the reason said."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.radar.model import Radar
from bot.features.radar.render import render_radar_markdown
from bot.features.radar.render_json import render_radar_json
from bot.features.radar.service import LOOK_UP_ASKED, RadarService
from bot.model.windows import Window
from tests.fakes.github_api import FakeGitHub, FakeItem
from tests.features.radar.test_service import GAUDI, UPSTREAM, fix, upstream

# A quarter of gaudi fixes, each naming its own upstream PR: more causes than one radar
# could ask GitHub about one request each.
QUARTER = Window(
    datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC), "UTC", "2026-01..03"
)
CHECKED = datetime(2026, 4, 2, tzinfo=UTC)
MANY = LOOK_UP_ASKED + 50
FIRST = 40001
MISSING = 49999  # named by a fix, and GitHub has no such number


def fix_day(index: int) -> datetime:
    return QUARTER.start + timedelta(hours=8 * index + 6)


def quarter() -> tuple[list[FakeItem], list[FakeItem]]:
    ups = [upstream(FIRST + i, merged=fix_day(i) - timedelta(days=2)) for i in range(MANY)]
    fixes = [
        fix(2000 + i, fix_day(i), f"[FIX_FOR_VLLM_LATEST] Fix for vllm#{FIRST + i}")
        for i in range(MANY)
    ]
    fixes.append(fix(2000 + MANY, fix_day(MANY), f"Fix crash after upstream #{MISSING}"))
    return ups, fixes


@pytest.fixture
def token_radar(tmp_path: Path) -> Iterator[tuple[RadarService, FakeGitHub]]:
    from bot.collect.source import GitHubSource
    from bot.collect.sync import Archiver
    from bot.store import Store

    ups, fixes = quarter()
    with FakeGitHub(UPSTREAM, ups, others={GAUDI: fixes}) as fake:
        fake.graphql_not_found = True  # as GitHub answers a number it has not
        store = Store(f"sqlite:///{tmp_path}/radar.sqlite3")
        source = GitHubSource(
            UPSTREAM, fake.url, token="t0ken", retries=0, backoff=0, request_interval=0
        )
        try:
            yield RadarService(Archiver(store, source), (GAUDI,), lambda: CHECKED), fake
        finally:
            store.close()


def upstream_asks(fake: FakeGitHub) -> tuple[int, int]:
    """(GraphQL requests, REST requests) asking about upstream numbers and commits."""
    graphql = sum(1 for r in fake.requests if r.path == "/graphql")
    rest = sum(1 for r in fake.requests if r.path.startswith(f"/repos/{UPSTREAM}/issues/"))
    return graphql, rest


def test_a_quarter_naming_more_causes_than_the_cap_is_checked_whole_in_batches(
    token_radar: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = token_radar
    found = service.radar(QUARTER)
    # Every cause GitHub was asked about: all culprits shown, the radar complete.
    assert found.complete and found.notes == ()
    assert len(found.culprits) == MANY
    markdown = render_radar_markdown(found)
    assert "Incomplete" not in markdown and "could not be checked" not in markdown
    missing = next(link for link in found.links if link.number == 2000 + MANY)
    assert [(r.key, r.verdict) for r in missing.upstream] == [(f"#{MISSING}", "missing")]
    # 251 numbers: three GraphQL requests, none one by one.
    assert upstream_asks(fake) == (3, 0)
    # Archived: the second look asks GitHub nothing about them, and says the same.
    again = service.radar(QUARTER)
    assert upstream_asks(fake) == (3, 0)
    assert again == found


# vllm-gaudi#1660 (opened 2026-03-05) names vllm#1670, merged 2024-08: a number of the
# plugin's own range read as upstream, or a note on history; never what broke it then.
OLD = upstream(1670, merged=datetime(2024, 8, 20, tzinfo=UTC))
OLD_FIX = fix(1660, datetime(2026, 3, 5, 12, tzinfo=UTC), "[FIX_FOR_VLLM_LATEST] Fix for #1670")
RECENT_FIX = fix(1661, datetime(2026, 3, 6, 12, tzinfo=UTC), "Fix for vllm#30001")
MARCH = Window(
    datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 3, 8, tzinfo=UTC), "UTC", "2026-03-01..07"
)


@pytest.fixture
def old_cause(tmp_path: Path) -> Iterator[RadarService]:
    from bot.collect.source import GitHubSource
    from bot.collect.sync import Archiver
    from bot.store import Store

    recent = upstream(30001, merged=datetime(2026, 2, 20, tzinfo=UTC))
    with FakeGitHub(UPSTREAM, [OLD, recent], others={GAUDI: [OLD_FIX, RECENT_FIX]}) as fake:
        store = Store(f"sqlite:///{tmp_path}/radar.sqlite3")
        source = GitHubSource(UPSTREAM, fake.url, retries=0, backoff=0, request_interval=0)
        try:
            yield RadarService(Archiver(store, source), (GAUDI,), lambda: CHECKED)
        finally:
            store.close()


def test_a_cause_merged_long_before_the_fix_was_opened_is_dropped_and_why_is_said(
    old_cause: RadarService,
) -> None:
    found: Radar = old_cause.radar(MARCH)
    assert [c.ref.key for c in found.culprits] == ["#30001"]
    said = {link.number: [(r.key, r.verdict) for r in link.upstream] for link in found.links}
    assert said[1660] == [("#1670", "long-before")]
    markdown = render_radar_markdown(found)
    assert "[vllm#1670](https://github.com/vllm-project/vllm/pull/1670) (merged over 180 days " \
        "before the fix was opened)" in markdown  # fmt: skip
    assert "合并时间早于修复开始 180 天以上" in render_radar_markdown(found, "zh")
    (link,) = [
        x for x in json.loads(render_radar_json(found))["links"] if x["plugin_number"] == 1660
    ]
    assert link["upstream"][0]["verdict"] == "long-before"
    # `explain vllm#1670` names no fix either.
    assert old_cause.broken_by(1670) == []
