"""The breakage radar over the real 2025 plugin records, served by the fake GitHub as six
repositories: which upstream changes broke which plugins in the busiest month, what that
costs GitHub, and how far each plugin's pin lags vLLM main."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.radar.message import radar_message
from bot.features.radar.model import Radar
from bot.features.radar.render import render_radar_markdown, short
from bot.features.radar.render_json import render_radar_json
from bot.features.radar.service import RadarService
from bot.model.report import ActivityItem
from bot.model.windows import Window, parse_window
from bot.platforms.registry import SLACK
from tests.fakes.block_kit import check_message
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault
from tests.features.radar.radar_data import month_window_days, pin_request, radar_github, records
from tests.slack_text import message_text

NOW = datetime(2026, 8, 22, 13, 34, 22, tzinfo=UTC)  # where the pins' records end
TZ = ZoneInfo("Asia/Shanghai")
PLUGINS = (
    "vllm-project/vllm-ascend,vllm-project/vllm-gaudi,vllm-project/tpu-inference,"
    "vllm-project/vllm-spyre,vllm-project/vllm-metal,vllm-project/vllm-omni"
)


@pytest.fixture
def radar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[RadarService, FakeGitHub]]:
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    with radar_github() as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "0")
        monkeypatch.setenv("VLLM_REPORT_PLUGINS", PLUGINS)
        settings = load_settings()
        bot = open_bot(settings, load_rules(None), clock=lambda: NOW)
        try:
            yield RadarService(bot.reports.archiver, settings.plugin_list, lambda: NOW), fake
        finally:
            bot.close()


def window(phrase: str) -> Window:
    return parse_window(phrase, now=NOW, tz=TZ, cutoff=datetime.min.time(), max_days=366)


def month(service: RadarService) -> Radar:
    first, last = month_window_days()
    return service.radar(window(f"{first}..{last}"))


def culprits_of_the_records(found: Radar) -> dict[str, set[str]]:
    """What the plugin authors named as the cause of each break in the window."""
    truth: dict[str, set[str]] = {}
    for record in records():
        at = record["plugin_merged_at"]
        if record["relation"] != "breakage-fix" or not at:
            continue
        merged = datetime.fromisoformat(at)
        if not found.window.start <= merged < found.window.end:
            continue
        for ref in record["upstream_refs"]:
            if ref["role"] == "culprit" and ref.get("number"):
                truth.setdefault(f"#{ref['number']}", set()).add(record["plugin_repo"])
    return truth


def test_the_busiest_month_names_what_broke_the_plugins(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    found = month(radar[0])
    truth = culprits_of_the_records(found)
    said = {c.ref.key: set(c.plugins) for c in found.culprits if c.ref.number}
    pairs = {(k, p) for k, ps in said.items() for p in ps}
    wanted = {(k, p) for k, ps in truth.items() for p in ps}
    right = len(pairs & wanted)
    assert right / len(pairs) >= 0.9 and right / len(wanted) >= 0.9, pairs ^ wanted
    # The changes that broke two plugins at once lead, each with both plugins' fixes.
    leading = [c for c in found.culprits if len(c.plugins) > 1]
    assert found.culprits[: len(leading)] == tuple(leading)
    assert {c.ref.key for c in leading} == {k for k, ps in truth.items() if len(ps) > 1}
    assert found.complete and found.notes == ()


def test_a_record_that_only_mentions_upstream_names_no_culprit(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    found = month(radar[0])
    mentions = {
        (r["plugin_repo"], r["plugin_number"])
        for r in records()
        if r["relation"] == "mention-only" and (r["plugin_merged_at"] or "").startswith("2025-09")
    }
    assert mentions  # the month has two
    fixes = {(f.plugin_repo, f.number) for c in found.culprits for f in c.fixes}
    assert not mentions & fixes
    listed = {(link.plugin_repo, link.number): link.relation for link in found.links}
    assert {listed.get(m) for m in mentions} <= {"mention-only", None}


def test_a_month_once_archived_costs_no_request_again(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = radar
    first = month(service)
    cold = len(fake.requests)
    searches = [r for r in fake.requests if r.path == "/search/issues"]
    assert len(searches) == 4 * 6  # four searches a plugin: issues and PRs, opened and closed
    # And one request per upstream number or commit named as a cause, each asked once.
    looked = [
        r.path for r in fake.requests if r.path != "/search/issues" and not pin_request(r.path)
    ]
    causes = {
        r.sha if r.number is None else r.number for k in first.links for r in k.upstream if r.cause
    }
    assert len(looked) == len(set(looked)) == len(causes)
    again = month(service)
    assert len(fake.requests) == cold
    assert again == first


def test_pins_say_how_far_each_plugin_lags_main(radar: tuple[RadarService, FakeGitHub]) -> None:
    found = radar[0].radar(window("2026-08-22"))  # a day still running at the records' end
    lag = {p.plugin_repo.split("/")[1]: p for p in found.pins}
    # The commits after each pin up to the records' end, as the records count them.
    assert (lag["vllm-gaudi"].behind_commits, lag["vllm-gaudi"].behind_days) == (108, 2.2)
    assert lag["tpu-inference"].behind_commits == 114
    assert lag["vllm-ascend"].behind_commits == 323
    assert lag["vllm-ascend"].upstream_commit == "cdc4824a21eaa986d4d1fee90a7e6465c9f706e6"
    assert lag["vllm-spyre"].upstream_commit == "v0.19.0"  # release-pinned
    assert lag["vllm-metal"].upstream_commit == "v0.27.1"
    assert "has no commit before then" in str(lag["vllm-omni"].unknown)  # no dated history
    assert all(pin.at == NOW for pin in found.pins if pin.unknown is None)


def test_a_plugin_github_cannot_read_is_named_and_the_rest_stand(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    service, _ = radar
    one = RadarService(service.archiver, ("vllm-project/no-such-plugin",), service.clock)
    first, last = month_window_days()
    found = one.radar(window(f"{first}..{last}"))
    assert not found.complete and "no-such-plugin could not be read" in found.notes[0]


def test_every_surface_shows_the_leading_culprit_with_its_fixes(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    found = month(radar[0])
    top = found.culprits[0]
    data = json.loads(render_radar_json(found))
    assert data["schema"] == "vllm-radar/1"
    assert data["culprits"][0]["number"] == top.ref.number
    assert data["culprits"][0]["plugins"] == list(top.plugins)
    assert {link["relation"] for link in data["links"]} <= {
        "breakage-fix",
        "upgrade",
        "mention-only",
    }
    assert all(link["upstream"] for link in data["links"])
    markdown = render_radar_markdown(found)
    assert f"vllm#{top.ref.number}" in markdown.split("## Pins")[0]
    slack = radar_message(SLACK, found, "en")
    shown = message_text(slack)
    assert f"vllm#{top.ref.number}" in shown
    for fix in top.fixes:
        assert f"|{short(fix.plugin_repo)}#{fix.number}>" in shown
    assert check_message(slack["blocks"]) is None  # within every limit, as Slack checks it
    # The rest: named by the command that lists them all.
    assert "more upstream changes. (`vllm-report radar` shows all)" in shown


def test_an_upstream_pr_knows_which_plugins_it_broke_once_they_are_archived(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = radar
    top = month(service).culprits[0]
    before = len(fake.requests)
    fixes = service.broken_by(top.ref.number or 0)
    assert {(f.plugin_repo, f.number) for f in fixes} == {
        (f.plugin_repo, f.number) for f in top.fixes
    }
    assert len(fake.requests) == before  # from the archive alone
    assert service.broken_by(1) == []


# -- every culprit checked with GitHub ------------------------------------------------------------
#
# A week of one plugin (vllm-gaudi, its own numbers in the 1500s) whose fixes name upstream
# changes of every kind: a PR merged before the fix, one merged after it, an open one, an
# issue, a number GitHub does not have, a commit a PR merged, a commit GitHub does not know.

GAUDI = "vllm-project/vllm-gaudi"
UPSTREAM = "vllm-project/vllm"
WEEK = Window(
    datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 3, 8, tzinfo=UTC), "UTC", "2026-03-01..07"
)
CHECKED_AT = datetime(2026, 3, 11, 12, tzinfo=UTC)
MERGED_SHA = "abc1234def5678abc1234def5678abc1234def56"
UNKNOWN_SHA = "fedcba9876543210fedcba9876543210fedcba98"
PULL = "https://github.com/vllm-project/vllm/pull/"
COMMIT = "https://github.com/vllm-project/vllm/commit/"


def day(n: int, hour: int = 12) -> datetime:
    return datetime(2026, 3, n, hour, tzinfo=UTC)


def upstream(
    number: int, *, kind: str = "pr", merged: datetime | None = None, commits: tuple[str, ...] = ()
) -> FakeItem:
    opened = day(1, 0) - timedelta(days=10)
    return FakeItem(
        number,
        kind,
        f"[Core] upstream change {number}",
        "upstream-dev",
        [],
        opened,
        merged or opened,
        closed_at=merged,
        merged_at=merged,
        commits=list(commits),
    )


def fix(number: int, merged: datetime, title: str, body: str = "") -> FakeItem:
    return FakeItem(
        number, "pr", title, "gaudi-dev", [], merged - timedelta(hours=5), merged,
        closed_at=merged, merged_at=merged, body=body,
    )  # fmt: skip


UPSTREAM_ITEMS = [
    upstream(30001, merged=day(1, 8)),
    upstream(30002, merged=day(4)),  # after the fix that names it (3 March)
    upstream(30003),  # still open
    upstream(30004, kind="issue"),
    # 30005: GitHub has no such number
    upstream(30006, merged=day(1, 6), commits=(MERGED_SHA,)),
    upstream(30007, merged=day(1, 7)),
]
FIXES = [
    fix(1501, day(2), "[FIX_FOR_VLLM_LATEST] Fix for #30001", f"Culprit: {PULL}30001"),
    fix(1502, day(3), "Fix crash caused by upstream PR 30002"),
    fix(1503, day(4), "[FIX_FOR_VLLM_LATEST] Fix for #30003 and #1490"),  # 1490: its own
    fix(1504, day(5), "Fix hourly after vllm#30004"),
    fix(1505, day(5, 14), "Fix after upstream #30005"),
    fix(1506, day(6), "Fix broken CI", f"vLLM commit {COMMIT}{MERGED_SHA} changed the API."),
    fix(1507, day(6, 14), "Fix broken CI", f"Culprit commit: {COMMIT}{UNKNOWN_SHA}"),
    fix(1508, day(7), "[FIX_FOR_VLLM_LATEST] hourly fix for #30001 (main2main 0307)"),
    fix(1509, day(7, 14), "[CI] Upgrade vLLM to main", f"Adapt to {PULL}30007."),
]


@pytest.fixture
def week(tmp_path: Path) -> Iterator[tuple[RadarService, FakeGitHub]]:
    from bot.collect.source import GitHubSource
    from bot.collect.sync import Archiver
    from bot.store import Store

    with FakeGitHub(UPSTREAM, UPSTREAM_ITEMS, others={GAUDI: FIXES}) as fake:
        store = Store(f"sqlite:///{tmp_path}/radar.sqlite3")
        source = GitHubSource(UPSTREAM, fake.url, retries=0, backoff=0, request_interval=0)
        try:
            archiver = Archiver(store, source)
            yield RadarService(archiver, (GAUDI,), lambda: CHECKED_AT, late_after_days=3), fake
        finally:
            store.close()


def asked(fake: FakeGitHub) -> list[str]:
    """The requests about upstream numbers and commits (not the plugin's searches)."""
    return [r.path for r in fake.requests if r.path.startswith(f"/repos/{UPSTREAM}/")]


def unpinned(fake: FakeGitHub) -> list[str]:
    """The requests besides the pins' history (tests/features/radar/test_pins.py counts those)."""
    return [r.path for r in fake.requests if not pin_request(r.path)]


def verdicts(found: Radar) -> dict[int, dict[str, str | None]]:
    return {link.number: {r.key: r.verdict for r in link.upstream} for link in found.links}


def test_only_merged_upstream_prs_merged_before_the_fix_are_culprits(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    found = week[0].radar(WEEK)
    shown = {c.ref.key: sorted(f.number for f in c.fixes) for c in found.culprits}
    assert shown == {"#30001": [1501, 1508], "#30006": [1506]}
    said = verdicts(found)
    assert said[1502] == {"#30002": "after-fix"}
    assert said[1503] == {"#30003": "unmerged"}  # and #1490, the plugin's own, not read
    assert said[1504] == {"#30004": "issue"}
    assert said[1505] == {"#30005": "missing"}  # GitHub answered 404
    assert said[1507] == {UNKNOWN_SHA[:7]: "no-pr"}  # GitHub knows no such commit
    assert found.complete and found.notes == () and found.late_after_days == 3
    assert [link.number for link in found.links] == list(range(1509, 1500, -1))  # newest first
    assert said[1509] == {"#30007": "verified"}  # what the upgrade adapted to: no culprit
    # The commit is shown as the PR that merged it, with that PR's title from the archive.
    by_sha = next(c for c in found.culprits if c.ref.number == 30006)
    assert (by_sha.ref.sha, by_sha.title) == (MERGED_SHA, "[Core] upstream change 30006")
    assert "main2main" not in str(said[1508]) and list(said[1508]) == ["#30001"]


def test_each_upstream_number_and_commit_is_asked_once_ever(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = week
    first = service.radar(WEEK)
    cold = asked(fake)
    assert sorted(cold) == sorted(
        [f"/repos/{UPSTREAM}/issues/{n}" for n in (30001, 30002, 30003, 30004, 30005, 30007)]
        + [f"/repos/{UPSTREAM}/commits/{sha}/pulls" for sha in (MERGED_SHA, UNKNOWN_SHA)]
    )
    # The plugin's four searches for the week and four for the week before (what was still
    # open at its end may have been opened then), one request each; the eight look-ups.
    assert len(unpinned(fake)) == 4 + 4 + 8
    # Warm: the archive answers, even for the open PR, the 404 and the unknown commit (the
    # answers are newer than the fixes they were checked for).
    again = service.radar(WEEK)
    assert len(unpinned(fake)) == 4 + 4 + 8
    assert again == first
    # What explain says of an upstream PR: from the archive alone, checked the same way.
    assert [f.number for f in service.broken_by(30001)] == [1508, 1501]
    assert [f.number for f in service.broken_by(30006)] == [1506]  # named by its commit
    assert service.broken_by(30002) == []  # merged after its fix
    assert service.broken_by(30007) == []  # an upgrade adapted to it: nothing broke
    assert len(unpinned(fake)) == 4 + 4 + 8
    # A number of the plugin's own is no upstream PR, even one the archive holds.
    long_ago = day(1) - timedelta(days=400)
    old = ActivityItem(
        UPSTREAM, 1490, "pr", "[Core] an old upstream PR", None, (), "closed", long_ago,
        long_ago, f"{PULL}1490", closed_at=long_ago, merged_at=long_ago,
    )  # fmt: skip
    service.archiver.store.items.save([old], CHECKED_AT)
    assert service.broken_by(1490) == []


def test_what_github_cannot_be_asked_about_is_said_never_shown(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = week
    capped = service.radar(WEEK, look_up=2)
    # A fix's causes are asked first (the upgrade #1509, the newest, adapted to #30007).
    assert asked(fake) == [  # the newest fixes' causes first
        f"/repos/{UPSTREAM}/issues/30001",
        f"/repos/{UPSTREAM}/commits/{UNKNOWN_SHA}/pulls",
    ]
    assert capped.complete is False
    assert capped.notes == (
        "6 upstream changes named as causes could not be checked with GitHub (one radar "
        "makes at most 2 requests to GitHub for them): #30002, #30003, #30004, #30005, "
        "#30007, abc1234de; they are not shown as culprits",
    )
    checked = {
        k for v in verdicts(capped).values() for k, said in v.items() if said != "unverified"
    }
    assert {c.ref.key for c in capped.culprits} <= checked
    # `explain` asks nothing, and names no fix GitHub was not asked about.
    assert service.broken_by(30006) == [] and len(asked(fake)) == 2
    # The rest are asked the next time; nothing is asked twice.
    service.radar(WEEK)
    assert len(asked(fake)) == 8 and len(set(asked(fake))) == 8


def test_github_down_leaves_culprits_unchecked_and_says_so(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = week
    fake.fault_rule = lambda index, path: (
        Fault.server_error(502) if path.startswith(f"/repos/{UPSTREAM}/") else None
    )
    down = service.radar(WEEK)
    assert down.culprits == () and not down.complete
    assert "(GitHub could not be read: GitHub at http" in down.notes[0]
    assert "kept failing" in down.notes[0]
    assert len(asked(fake)) == 1  # it stops at the first failure
    # The archive alone (the site, `explain`) asks nothing and shows nothing unchecked.
    reading = RadarService(service.archiver.reading_only(), (GAUDI,), service.clock)
    assert (
        reading.radar(WEEK)
        .notes[0]
        .startswith(
            "8 upstream changes named as causes could not be checked with GitHub (only the archive "
            "was read): #30001, #30002, #30003, #30004, #30005, #30007, abc1234de, fedcba987; "
        )
    )
    fake.fault_rule = None
    assert {c.ref.key for c in service.radar(WEEK).culprits} == {"#30001", "#30006"}


def test_the_json_and_markdown_say_what_each_named_change_is(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    found = week[0].radar(WEEK)
    data = json.loads(render_radar_json(found))
    assert [c["number"] for c in data["culprits"]] == [30001, 30006]
    fix_1502 = next(link for link in data["links"] if link["plugin_number"] == 1502)
    assert fix_1502["upstream"] == [
        {"repo": UPSTREAM, "number": 30002, "role": "culprit", "verdict": "after-fix"}
    ]
    markdown = render_radar_markdown(found)
    assert (
        "[vllm#30002](https://github.com/vllm-project/vllm/pull/30002) (merged after the fix)"
        in (markdown)
    )
    assert "vllm#30004](https://github.com/vllm-project/vllm/issues/30004) (an issue)" in markdown
    broke = markdown.split("## Pins")[0]
    assert "vllm#30002" not in broke.split("## Upstream changes that broke plugins")[1]


def test_an_open_pr_is_asked_again_only_for_a_fix_newer_than_the_answer(tmp_path: Path) -> None:
    """An upstream PR open when it was checked may merge later: a later fix that names it
    asks again (once); the earlier fix keeps the answer (it was open then)."""
    from bot.collect.source import GitHubSource
    from bot.collect.sync import Archiver
    from bot.store import Store

    later = fix(1510, day(20), "[FIX_FOR_VLLM_LATEST] Fix for #30003")
    clock = [CHECKED_AT]
    with FakeGitHub(UPSTREAM, UPSTREAM_ITEMS, others={GAUDI: [*FIXES, later]}) as fake:
        store = Store(f"sqlite:///{tmp_path}/radar.sqlite3")
        source = GitHubSource(UPSTREAM, fake.url, retries=0, backoff=0, request_interval=0)
        service = RadarService(Archiver(store, source), (GAUDI,), lambda: clock[0])
        try:
            assert verdicts(service.radar(WEEK))[1503] == {"#30003": "unmerged"}
            fake.add(upstream(30003, merged=day(15)))  # merged after the first check
            clock[0] = day(25)
            both = Window(day(1, 0), day(21, 0), "UTC", "2026-03-01..20")
            said = verdicts(service.radar(both))
            assert said[1510] == {"#30003": "verified"}
            # The first fix was made while #30003 was open: still no culprit of it.
            assert said[1503] == {"#30003": "after-fix"}
            assert asked(fake).count(f"/repos/{UPSTREAM}/issues/30003") == 2
            service.radar(WEEK)
            service.radar(both)
            assert asked(fake).count(f"/repos/{UPSTREAM}/issues/30003") == 2
        finally:
            store.close()


def test_a_commit_checked_later_refreshes_the_archived_pr(tmp_path: Path) -> None:
    """A PR archived while open and merged since: a fix naming its commit finds it merged,
    and the archive keeps that (with the counts the commit listing does not carry)."""
    from bot.collect.source import GitHubSource
    from bot.collect.sync import Archiver
    from bot.store import Store

    sha = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"
    later = fix(1511, day(20), "Fix broken CI", f"Culprit commit: {COMMIT}{sha}")
    clock = [CHECKED_AT]
    with FakeGitHub(UPSTREAM, UPSTREAM_ITEMS, others={GAUDI: [*FIXES, later]}) as fake:
        store = Store(f"sqlite:///{tmp_path}/radar.sqlite3")
        source = GitHubSource(UPSTREAM, fake.url, retries=0, backoff=0, request_interval=0)
        service = RadarService(Archiver(store, source), (GAUDI,), lambda: clock[0])
        try:
            service.radar(WEEK)  # #30003 archived open
            store.items.save([replace(store.items.get(UPSTREAM, 30003), comments=7)], CHECKED_AT)
            fake.add(upstream(30003, merged=day(15), commits=(sha,)))
            clock[0] = day(25)
            second = Window(day(19, 0), day(21, 0), "UTC", "2026-03-19..20")
            assert verdicts(service.radar(second))[1511] == {"#30003": "verified"}
            archived = store.items.get(UPSTREAM, 30003)
            assert archived is not None
            assert (archived.merged_at, archived.comments) == (day(15), 7)
            before = len(fake.requests)
            assert verdicts(service.radar(second))[1511] == {"#30003": "verified"}
            assert len(fake.requests) == before
        finally:
            store.close()


def held(number: int, *, kind: str = "pr", closed: datetime | None = None) -> ActivityItem:
    """An upstream item as the archive may hold it already (the daily report's windows)."""
    opened = day(1) - timedelta(days=30)
    return ActivityItem(
        UPSTREAM, number, kind, f"[Core] {number}", None, (), "closed" if closed else "open",  # type: ignore[arg-type]
        opened, closed or opened, f"{PULL}{number}", closed_at=closed,
        merged_at=closed if number == 30001 else None,
    )  # fmt: skip


def test_what_the_archive_already_holds_is_not_asked(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    """A merged or closed PR and an issue the archive holds are settled: never asked."""
    service, fake = week
    archived = [
        held(30001, closed=day(1, 8)),
        held(30002, closed=day(2)),
        held(30004, kind="issue"),
    ]
    service.archiver.store.items.save(archived, CHECKED_AT)
    said = verdicts(service.radar(WEEK))
    assert sorted(asked(fake)) == sorted(
        [f"/repos/{UPSTREAM}/issues/{n}" for n in (30003, 30005, 30007)]
        + [f"/repos/{UPSTREAM}/commits/{sha}/pulls" for sha in (MERGED_SHA, UNKNOWN_SHA)]
    )
    assert said[1501] == {"#30001": "verified"}
    assert said[1502] == {"#30002": "unmerged"}  # as archived: closed without merging
    assert said[1504] == {"#30004": "issue"}


def test_one_plugin_or_all_and_what_could_not_be_read_is_said(
    week: tuple[RadarService, FakeGitHub],
) -> None:
    service, _ = week
    two = RadarService(service.archiver, ("vllm-project/no-such-plugin", GAUDI), service.clock)
    found = two.radar(WEEK)
    assert found.complete is False
    assert found.notes[0].startswith("vllm-project/no-such-plugin could not be read")
    assert {link.plugin_repo for link in found.links} == {GAUDI}  # the other still counts
    one = two.radar(WEEK, GAUDI)
    assert (one.plugins, one.complete) == ((GAUDI,), True)
    # A window in progress is not complete, and says so.
    midway = RadarService(service.archiver, (GAUDI,), lambda: day(5))
    found = midway.radar(WEEK)
    assert found.complete is False
    assert any("window in progress" in note for note in found.notes)


def test_a_month_without_looking_up_shows_no_culprit_and_names_what_it_left(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = radar
    first, last = month_window_days()
    found = service.radar(window(f"{first}..{last}"), look_up=0)
    causes = {r.key for link in found.links for r in link.upstream if r.cause}
    assert found.culprits == () and not found.complete
    (note,) = found.notes
    shown = r"(#\d+|[0-9a-f]{9})"
    assert re.fullmatch(
        rf"{len(causes)} upstream changes named as causes could not be checked with GitHub "
        rf"\(one radar makes at most 0 requests to GitHub for them\): {shown}(, {shown}){{7}} and "
        rf"{len(causes) - 8} more; they are not shown as culprits",
        note,
    ), note
    assert all(path == "/search/issues" for path in unpinned(fake))
