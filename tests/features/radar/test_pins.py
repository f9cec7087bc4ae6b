"""Each plugin's pin on past days, read from its pin file's history: the fake GitHub serves
every pin file's commits with the dated values in `fixtures/radar/pins.json`, and vLLM main
as a line of commits through the pinned ones (`tests.features.radar.radar_data.pin_state`). The
pin and
its lag on a day are what those records say of that day, in each plugin's own format."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.features.radar.collect_pins import SINCE_STEPS
from bot.features.radar.model import Pin
from bot.features.radar.pins import PIN_FILES, pinned
from bot.features.radar.render import render_radar_markdown
from bot.features.radar.service import RadarService
from tests.fakes.github_api import FakeGitHub, Fault
from tests.features.radar.radar_data import pin_file_histories, pin_request, pin_state, pins
from tests.features.radar.test_service import radar, window  # noqa: F401

MAIN, TAGS, _ = pin_state()
WHEN = {sha: at for sha, at in MAIN}
FILES = pin_file_histories()

# (plugin, report day, what its pin file pinned at that day's end, the file read): the
# values are the records', each from the newest dated commit of that file before the day.
DAYS = [
    ("vllm-gaudi", "2025-10-15", "392edee34a008af2453d936cb3cdbd97842984a7", "VLLM_STABLE_COMMIT"),
    ("vllm-gaudi", "2026-01-10", "86a3261525858bca5d4a234691fae0496d6fed99", "VLLM_STABLE_COMMIT"),
    ("tpu-inference", "2026-02-10", "1a7894dbdfd025da846b0bbfd19ecc4c6e9fcc1b", "vllm_lkg"),
    ("tpu-inference", "2026-05-01", "c3868bbbe4b160d89adf339bcc069f6956314345", "vllm_lkg"),
    # vllm-ascend moved its pin twice: a workflow's matrix, another's, then a file of its own.
    ("vllm-ascend", "2025-10-01", "c60e6137f0bf2034853919b3a9d705d7e06b93cf", "vllm_ascend_test"),
    ("vllm-ascend", "2026-03-01", "2f4e6548efec402b913ffddc8726230d9311948d", "pr_test_light"),
    ("vllm-ascend", "2026-07-01", "9090368b650896bf5fc990c921df7eb4c20355a5", "verified.commit"),
    ("vllm-spyre", "2026-01-01", "v0.11.0", "pyproject.toml"),  # "vllm>=0.10.2,<=0.11.0"
    ("vllm-spyre", "2026-05-01", "v0.19.0", "pyproject.toml"),  # the git source's rev
    ("vllm-metal", "2026-08-01", "v0.26.0", "install.sh"),  # local vllm_v="0.26.0"
    ("vllm-metal", "2026-08-20", "v0.27.1", "install.sh"),  # VLLM_VERSION="0.27.1"
]


def pin_of(service: RadarService, plugin: str, day: str) -> Pin:
    found = service.radar(window(day), f"vllm-project/{plugin}")
    return found.pins[0]


def lag_in_the_records(value: str, moment: datetime) -> tuple[int, float]:
    """Main's commits after the pinned one up to `moment`, and the days between them."""
    pinned_at = WHEN[TAGS.get(value, value)]
    after = [at for _, at in MAIN if pinned_at < at <= moment]
    head = max(after, default=pinned_at)
    return len(after), round((head - pinned_at).total_seconds() / 86400, 1)


@pytest.mark.parametrize(("plugin", "day", "value", "read"), DAYS)
def test_a_past_days_pin_and_lag_are_what_the_pin_files_history_says(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
    plugin: str,
    day: str,
    value: str,
    read: str,
) -> None:
    pin = pin_of(radar[0], plugin, day)
    end = window(day).end
    assert (pin.upstream_commit, pin.at) == (value, end) and read in pin.where
    assert (pin.behind_commits, pin.behind_days) == lag_in_the_records(value, end)
    assert pin.unknown is None


def test_a_day_before_a_pin_file_has_a_commit_says_so_and_a_file_naming_main_is_no_pin(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    service, _ = radar
    gaudi = pin_of(service, "vllm-gaudi", "2025-09-20")  # its first dated pin: 2025-09-26
    assert gaudi.upstream_commit is None
    assert gaudi.unknown == (
        "VLLM_STABLE_COMMIT on vllm/last-good-commit-for-vllm-gaudi has no commit before then"
    )
    # 2025-06-15: the workflow tested `vllm_version: [main, v0.9.1]`, no commit of main.
    ascend = pin_of(service, "vllm-ascend", "2025-07-01")
    assert ascend.unknown == ".github/workflows/vllm_ascend_test.yaml on main names no vLLM commit"


def test_vllm_omni_s_dockerfile_is_read_in_both_its_formats() -> None:
    """No dated vllm-omni commit is in the records, so its two Dockerfile.ci texts are read
    directly: the commit the CI image's wheel comes from."""
    (spec,) = PIN_FILES["vllm-project/vllm-omni"]
    (omni,) = [p for p in pins() if p["plugin_repo"] == "vllm-project/vllm-omni"]
    texts = [example["content"] for example in omni["mechanisms"][0]["examples"]]
    assert [pinned(spec, text) for text in texts] == [
        "f176443446f659dbab5315e056e605d8984fd976",
        "2d5be1dd5ce2e44dfea53ea03ff61143da5137eb",
    ]
    assert pinned(spec, "ARG VLLM_BASE_TAG=v0.15.0\n") == "v0.15.0"  # no commit: the release


def still_for(plugin: str, day: str) -> float:
    """Days from the records' last pin-file commit before `day` ends to its end."""
    end = window(day).end
    (rows,) = [rows for key, rows in FILES.items() if key[0] == f"vllm-project/{plugin}"]
    last = max(at for _, at, _ in rows if at <= end)
    return round((end - last).total_seconds() / 86400, 1)


def test_a_pin_that_stood_still_while_main_moved_is_growing_and_a_fresh_bump_is_not(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    service, _ = radar
    stale = pin_of(service, "vllm-gaudi", "2026-01-10")  # unchanged since 2025-12-13
    days = still_for("vllm-gaudi", "2026-01-10")
    assert stale.growing and stale.unchanged_days == days > 20
    bumped = pin_of(service, "tpu-inference", "2026-05-01")  # bumped that morning
    assert not bumped.growing and bumped.unchanged_days == still_for("tpu-inference", "2026-05-01")
    found = service.radar(window("2026-01-10"), "vllm-project/vllm-gaudi")
    assert f"; growing: unchanged for {days:g} days" in render_radar_markdown(found)
    assert f"；差距仍在扩大（已 {days:g} 天未更新）" in render_radar_markdown(found, "zh")


def test_a_second_look_at_past_days_asks_github_nothing(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    service, fake = radar
    first = [pin_of(service, plugin, day) for plugin, day, _, _ in DAYS]
    asked = [(r.path, r.query) for r in fake.requests if pin_request(r.path)]
    # Each pin file's commits are listed once, whichever days are asked.
    listed = [
        (path, query["path"][0])
        for path, query in asked
        if "path" in query and path.endswith("/commits")
    ]
    assert len(listed) == len(set(listed)) == 7  # ascend's three files, one each for four
    again = [pin_of(service, plugin, day) for plugin, day, _, _ in DAYS]
    assert again == first
    assert [(r.path, r.query) for r in fake.requests if pin_request(r.path)] == asked


def test_github_down_the_pins_say_why_in_one_sentence_and_the_archive_still_answers(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    service, fake = radar
    known = pin_of(service, "vllm-gaudi", "2025-10-15")
    fake.fault_rule = lambda index, path: Fault.server_error(502) if pin_request(path) else None
    down = pin_of(service, "vllm-gaudi", "2026-01-10")  # a day not read before
    assert down.upstream_commit is None and str(down.unknown).startswith(
        "GitHub could not be read: "
    )
    assert pin_of(service, "vllm-gaudi", "2025-10-15") == known  # archived: no request


@pytest.mark.parametrize("edits", [3, SINCE_STEPS + 1])
def test_when_a_pin_was_set_is_followed_back_through_other_edits_of_its_file(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
    edits: int,
) -> None:
    """vllm-spyre's pyproject changes for other reasons too: edits after the commit that
    set `v0.19.0` (2026-04-08) still name it. Within SINCE_STEPS of them the pin's age is
    from that commit; further back than it follows, the age is not claimed at all."""
    service, fake = radar
    key = ("vllm-project/vllm-spyre", "pyproject.toml", "main")
    _, set_at, text = FILES[key][-1]
    later = [(f"{n + 1:040x}", set_at + timedelta(hours=6 * (n + 1)), text) for n in range(edits)]
    fake.file_history[key] = [*FILES[key], *later]
    pin = pin_of(service, "vllm-spyre", "2026-05-01")
    assert pin.upstream_commit == "v0.19.0"
    if edits <= SINCE_STEPS:
        assert pin.since == set_at and pin.growing
    else:
        assert pin.since is None and pin.unchanged_days is None and not pin.growing
