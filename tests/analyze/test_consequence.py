"""Judgement by consequence: what changes users' days leads (a merged security fix, a changed
default, a release, a revert, a fix of a regression), then the weightiest open work; What
happened, the summary and the key changes name the same top items; a merged default or
security change is never only in the appendix, however many there are.
"""

from __future__ import annotations

from datetime import timedelta

from bot.analyze import analyze
from bot.analyze.consequence import consequence
from bot.model.report import ActivityItem, Report
from bot.model.rules import load_rules
from formatters.outline import gist_numbers
from formatters.summary_text import summary
from tests.factories import REPO, WINDOW_0326, item

RULES = load_rules()
T = WINDOW_0326.start + timedelta(hours=3)
BODY = (
    "## Purpose\n\nAdds a fused Triton kernel for MoE routing.\n\n## Benchmark\n\n"
    "| batch | before | after |\n|---|---|---|\n| 1 | 10 ms | 6 ms |\n| 8 | 40 ms | 22 ms |\n"
    "| 64 | 120 ms | 70 ms |\n\n1.7x faster decode throughput on H100."
)


def merged(number: int, title: str, body: str = "", **fields: object) -> ActivityItem:
    return item(
        number,
        "pr",
        title=title,
        body=body,
        created_at=T - timedelta(days=2),
        closed_at=T,
        merged_at=T,
        **fields,
    )


def opened(number: int, title: str, body: str = BODY) -> ActivityItem:
    return item(number, "pr", title=title, body=body, created_at=T, labels=("ready",))


FEATURE = opened(38501, "[Perf][Kernel] Fused MoE routing kernel, 1.7x decode throughput")


def day(*items: ActivityItem) -> Report:
    return analyze(list(items), WINDOW_0326, repo=REPO, rules=RULES, complete=True)


def key(found: Report) -> list[int]:
    assert found.sections is not None
    return [k.number for k in found.sections.key_changes]


def test_a_merged_default_and_a_security_fix_lead_open_work_with_figures() -> None:
    default = merged(38502, "[Core] Enable chunked prefill by default")
    cve = merged(38503, "[Security] Bump pillow to fix CVE-2026-12345")
    found = day(FEATURE, default, cve)
    assert key(found)[:3] == [38503, 38502, 38501]
    assert consequence(cve) == (8.0, "security") and consequence(default)[1] == "default"
    assert consequence(FEATURE) == (0.0, None)  # open work changes nothing yet


def test_merged_fixes_lead_an_open_deprecation() -> None:
    """The titles-only day's lesson: merged ROCm fixes and a tool-parser fix before a flag
    deprecation in review."""
    deprecation = opened(38510, "[Deprecation] Deprecate the --disable-log-stats flag", "")
    fixes = [
        merged(38511, "[ROCm][Bugfix] Fix AITER MLA crash on MI300X"),
        merged(38512, "[ROCm][Bugfix] Fix FP8 MoE detection on gfx1201"),
        merged(38513, "[Bugfix] Fix hermes tool parser dropping the final brace"),
    ]
    found = day(deprecation, *fixes)
    assert found.sections is not None
    assert found.sections.key_changes[0].number != 38510
    assert set(key(found)[:3]) <= {38511, 38512, 38513}


def test_every_merged_default_or_security_change_is_a_key_change() -> None:
    """Seven flipped defaults on one day: all seven are key changes (the limit is five),
    and the weightiest open work still has its place."""
    defaults = [merged(38520 + i, f"[Core] Enable feature{i}_x by default") for i in range(7)]
    found = day(FEATURE, *defaults)
    assert set(key(found)) >= {d.number for d in defaults} and 38501 in key(found)


def test_tests_and_ci_are_no_consequence_for_users() -> None:
    assert consequence(merged(38530, "[ROCm] Fix MoE kernel test failures on gfx950")) == (
        0.0,
        None,
    )
    assert consequence(merged(38531, "[CI] Fix flaky Cohere embedding parity test")) == (0.0, None)
    release = merged(38532, "[Releases][ROCm] Enable nightly Docker images and wheels for ROCm")
    assert consequence(release)[1] == "release"
    assert consequence(merged(38533, "[release] Move agent queue to the release cluster")) == (
        0.0,
        None,
    )


def test_a_merged_change_with_a_revert_proposed_is_news() -> None:
    """A change pulled back the same day leads open feature work: the headline tells the
    revert proposed for it."""
    change = merged(38540, "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration")
    revert = opened(
        38541,
        'Revert "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration" (#38540)',
        "Reverts #38540: it broke the B200 kernel tests.",
    )
    found = day(FEATURE, change, revert)
    assert key(found)[0] == 38540


def test_what_happened_the_summary_and_the_key_changes_agree_on_the_lead() -> None:
    default = merged(38502, "[Core] Enable chunked prefill by default")
    found = day(FEATURE, default)
    assert found.sections is not None
    assert gist_numbers(found, found.sections)[0] == key(found)[0] == 38502
    assert summary(found, "en").startswith("The day's weightiest work: #38502")
