"""Charts of the real fixture days: PNGs a phone shows legibly, days nobody archived drawn as
gaps (never zeros), alt texts that state the numbers, and one picture held to a reference."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import date, time, timedelta
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread
from matplotlib.testing.compare import compare_images

from bot.analyze.history import history
from bot.model.history import History
from bot.model.rules import load_rules
from bot.model.windows import Window, day_window
from formatters.charts import ChartError, alt_text, chart, vendor_order
from tests.anchor_data import REPO, anchor_days, anchor_items, as_activity
from tests.factories import CST

GOLDEN = Path(__file__).parents[1] / "golden"
ARTIFACTS = Path(
    os.environ.get("TEST_ARTIFACTS", Path(__file__).parents[2] / "build/test-artifacts")
)
RULES = load_rules()
CUTOFF = time(11, 43)
# The three real report days; the days between them were never collected.
ANCHORS = {day.label: day for day in anchor_days()}


def fortnight(last: str = "2026-03-25", days: int = 15, topic: str | None = None) -> History:
    """The run ending `last`, with only the real anchor days archived (each with the window
    its published report had, so its counts are that report's)."""
    final = date.fromisoformat(last)
    windows = [day_window(final - timedelta(days=n), CST, CUTOFF) for n in range(days - 1, -1, -1)]
    windows = [
        Window(ANCHORS[w.label].start, ANCHORS[w.label].end, w.timezone, w.label)
        if w.label in ANCHORS
        else w
        for w in windows
    ]
    items = [as_activity(fake) for fake in anchor_items()]
    covered = [w.label in ANCHORS for w in windows]
    return history(items, windows, covered, repo=REPO, rules=RULES, topic=topic)


def pixels(png: bytes) -> np.ndarray:
    return imread(io.BytesIO(png), format="png")


@pytest.mark.parametrize("kind", ["counts", "vendors", "merged"])
def test_each_chart_is_a_phone_sized_picture_with_something_drawn(kind: str) -> None:
    drawn = chart(fortnight(), kind)
    image = pixels(drawn.png)
    assert image.shape[:2] == (675, 1200)
    colours = np.unique((image[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50, "a blank or single-colour picture"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"chart-{kind}-2026-03-25.png").write_bytes(drawn.png)


def test_the_alt_text_states_each_days_numbers_and_the_days_not_archived() -> None:
    run = fortnight()
    text = alt_text(run, "counts")
    real = {day.label: day.counts for day in anchor_days()}
    merged = [str(real[d.label]["merged_prs"]) if d.covered else "n/a" for d in run.days]
    assert f"Merged PRs: {', '.join(merged)}" in text
    assert "Not archived: 2026-03-12, 2026-03-13," in text
    assert "2026-03-24" not in text.split("Not archived:")[1]
    vendors = alt_text(run, "vendors")
    assert vendors.index("AMD / ROCm:") < vendors.index("NVIDIA:")  # AMD first


def test_a_digest_chart_puts_its_own_topic_first() -> None:
    assert vendor_order(fortnight())[0] == "amd"
    assert vendor_order(fortnight(topic="nvidia"))[0] == "nvidia"


def test_a_run_with_no_archived_day_is_refused_with_what_to_do() -> None:
    with pytest.raises(ChartError, match="no day from 2026-03-13 to 2026-03-20 is archived"):
        chart(fortnight("2026-03-20", days=8), "counts")


def test_the_counts_chart_matches_its_reference_picture(tmp_path: Path) -> None:
    """A broken chart (a gap drawn as zero, a series lost, the legend gone) fails here.
    UPDATE_GOLDEN=1 on a developer's machine redraws the reference (look at it first)."""
    reference = GOLDEN / "chart-counts-2026-03-25.png"
    actual = tmp_path / "actual.png"
    actual.write_bytes(chart(fortnight(), "counts").png)
    if os.environ.get("UPDATE_GOLDEN") and not os.environ.get("CI"):
        reference.write_bytes(actual.read_bytes())
        pytest.skip("reference chart redrawn: look at it, then run the test again")
    problem = compare_images(str(reference), str(actual), tol=3)
    assert problem is None, problem


def test_the_chart_command_writes_the_png_and_prints_its_alt_text(
    fake_github: object, tmp_path: Path
) -> None:
    env = {**os.environ, "VLLM_REPORT_CUTOFF": "11:43"}
    run = [sys.executable, "-m", "bot"]
    shown = subprocess.run(
        [*run, "show", "2026-03-25", "--counts-only"], env=env, capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    out = tmp_path / "trend.png"
    made = subprocess.run(
        [*run, "chart", "2026-03-25", "--days", "14", "--topic", "amd", "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    assert pixels(out.read_bytes()).shape[:2] == (675, 1200)
    assert made.stdout.startswith("Daily activity · AMD / ROCm · 2026-03-12 to 2026-03-25.")
    assert "Not archived: 2026-03-12" in made.stdout

    wrong = subprocess.run(
        [*run, "chart", "2026-03-25", "--kind", "pie", "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert "unknown chart kind 'pie': use counts, vendors, merged" in wrong.stderr
    nothing = subprocess.run(
        [*run, "chart", "2026-03-05", "-o", str(out)], env=env, capture_output=True, text=True
    )
    assert nothing.returncode == 2
    assert "is archived: run `vllm-report show`" in nothing.stderr
    assert "Traceback" not in wrong.stderr + nothing.stderr
