"""The breakage radar over the real 2025 plugin records, served by the fake GitHub as six
repositories: which upstream changes broke which plugins in the busiest month, what that
costs GitHub, and how far each plugin's pin lags vLLM main."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.model.radar import Radar
from bot.model.windows import Window, parse_window
from bot.service.radar import RadarService
from formatters.radar import render_radar_json, render_radar_markdown, render_radar_slack
from tests.fakes.github_api import FakeGitHub
from tests.radar_data import month_window_days, radar_github, records

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
    again = month(service)
    assert cold == 4 * 6  # four searches a plugin: issues and PRs, opened and closed
    assert len(fake.requests) == cold
    assert again == first


def test_pins_say_how_far_each_plugin_lags_main(radar: tuple[RadarService, FakeGitHub]) -> None:
    found = radar[0].radar(window("2026-08-21"))
    lag = {p.plugin_repo.split("/")[1]: p for p in found.pins}
    # The commits after each pin up to the records' end, as the records count them.
    assert (lag["vllm-gaudi"].behind_commits, lag["vllm-gaudi"].behind_days) == (108, 2.2)
    assert lag["tpu-inference"].behind_commits == 114
    assert lag["vllm-ascend"].behind_commits == 323
    assert lag["vllm-ascend"].upstream_commit == "cdc4824a21eaa986d4d1fee90a7e6465c9f706e6"
    assert lag["vllm-spyre"].upstream_commit == "v0.19.0"  # release-pinned
    assert lag["vllm-metal"].upstream_commit == "v0.27.1"
    for name in ("vllm-spyre", "vllm-metal", "vllm-omni"):
        assert lag[name].behind_commits is None and lag[name].unknown, name
    assert "was not found" in str(lag["vllm-omni"].unknown)
    # A month long past shows no pins: today's file says nothing of then.
    assert all("recent windows only" in str(p.unknown) for p in month(radar[0]).pins)


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
    slack = render_radar_slack(found)
    sections = [b["text"]["text"] for b in slack["blocks"] if b["type"] == "section"]
    assert f"vllm#{top.ref.number}" in sections[0]
    for fix in top.fixes:
        assert f"|#{fix.number}>" in sections[0]
    assert all(len(text) <= 3000 for text in sections)
    assert "more upstream changes" in sections[0]  # the rest: one link away


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


def test_an_old_windows_pins_are_one_sentence_not_six(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    found = month(radar[0])
    markdown = render_radar_markdown(found)
    assert markdown.count("recent windows only") == 1
    slack = json.dumps(render_radar_slack(found))
    assert slack.count("recent windows only") == 1
