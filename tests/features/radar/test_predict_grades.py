"""Warnings graded in the open: once the warned PR merged, the plugin's later source decides
(confirmed: it changed those sites; not confirmed: GRADE_AFTER_DAYS later every site is
still there), and a culprit no warning foretold is missed; on the real break the fake
GitHub serves (tests/features/radar/predict_day.py), where tpu-inference's next release
dropped `SharedFusedMoE` and kept its `FusedMoE(..., reduce_results=False)` test calls."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.features.radar.forecast import GRADE_AFTER_DAYS, Forecast, Graded
from bot.features.radar.render_forecast import grades_text
from bot.features.radar.service import RadarService
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.predict_day import (
    BREAK,
    DOCS,
    FAILING,
    LAYER,
    PLUGINS,
    TPU,
    merge,
    next_release,
    now,
    predict_env,
    predict_github,
    requests_to,
    touch,
    window,
)


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeGitHub]:
    with predict_github() as fake:
        predict_env(monkeypatch, fake, tmp_path)
        yield fake


def forecast(n: int, culprits: dict[str, dict[int, object]] | None = None) -> Forecast:
    """Day n's warnings as `radar --predict` makes them (kept and graded)."""
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    bot = open_bot(load_settings(), load_rules(None), clock=lambda: now(n))
    try:
        archiver = bot.context().archiver
        service = RadarService(archiver, PLUGINS.split(","), lambda: now(n))
        archiver.window("vllm-project/vllm", window(n), now(n))
        return service.warnings.forecast(window(n), culprits or {})  # type: ignore[arg-type]
    finally:
        bot.close()


def tpu(found: Forecast) -> Graded:
    (graded,) = [g for g in found.grades if g.plugin_repo == TPU]
    return graded


def test_a_merged_warning_is_confirmed_when_the_plugin_changes_those_lines(
    github: FakeGitHub,
) -> None:
    assert forecast(0).grades == ()  # nothing merged yet: nothing to grade
    merge(github, BREAK, 1)
    on_merge = forecast(1)
    assert {w.stage for w in on_merge.warnings} == {"merged"}
    assert tpu(on_merge) == Graded(TPU, pending=2)  # the plugin has not moved yet
    assert grades_text(on_merge, "en") == (
        "Warnings graded by what the plugins did after the merge: tpu-inference 0 confirmed, "
        "0 not confirmed, 0 missed, 2 waiting."
    )
    # The plugin's next release drops SharedFusedMoE (its lines 16, 30, 31 …) and keeps
    # the test's `FusedMoE(..., reduce_results=False)` calls.
    next_release(github, 2)
    github.reset_log()
    later = forecast(2)
    assert len(requests_to(github, f"/repos/{TPU}/tarball/")) == 1  # a new head: read once
    assert tpu(later) == Graded(TPU, confirmed=1, pending=1)
    assert grades_text(later, "zh") == (
        "预警核对（依据合并后插件的改动）：tpu-inference 已证实 1 条、未证实 0 条、漏报 0 个、"
        "待定 1 条。"
    )
    # GRADE_AFTER_DAYS after the merge the calls are still there: not confirmed.
    assert tpu(forecast(GRADE_AFTER_DAYS)) == Graded(TPU, confirmed=1, pending=1)
    assert tpu(forecast(GRADE_AFTER_DAYS + 1)) == Graded(TPU, confirmed=1, not_confirmed=1)


def test_a_plugin_pr_naming_the_warned_pr_confirms_it_and_an_unwarned_culprit_is_missed(
    github: FakeGitHub,
) -> None:
    forecast(0)
    merge(github, BREAK, 1)
    merged_at = github.items[BREAK].merged_at
    # The radar's culprits of day 1 for tpu-inference: the warned PR, and one never warned
    # of that merged after the warnings began.
    unwarned = merged_at + timedelta(hours=1)  # type: ignore[operator]
    for number in (BREAK, DOCS, FAILING, LAYER):
        touch(github, number, 1)
    found = forecast(1, {TPU: {BREAK: merged_at, 40999: unwarned, 30000: now(-30)}})
    assert tpu(found) == Graded(TPU, confirmed=2, missed=1)
    assert "tpu-inference 2 confirmed, 0 not confirmed, 1 missed." in (
        grades_text(found, "en") or ""
    )
