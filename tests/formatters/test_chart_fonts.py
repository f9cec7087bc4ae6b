"""Chinese charts need a CJK font: the Docker image installs the one the charts ask for by
name, a chart drawn with it warns of no missing glyph, and without one the flood of
matplotlib's per-character warnings becomes one log line naming the package to install."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from formatters import charts
from tests.formatters.test_charts import fortnight

ROOT = Path(__file__).resolve().parents[2]
# The Debian packages of CJK fonts, and the name matplotlib gives the font each installs.
PACKAGE_FONTS = {"fonts-wqy-microhei": "WenQuanYi Micro Hei", "fonts-noto-cjk": "Noto Sans CJK JP"}


def run_stage_installs() -> list[str]:
    """The packages `apt-get install` adds in the image's last (run) stage."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    run_stage = re.split(r"^FROM ", text, flags=re.M)[-1]
    found: list[str] = []
    for match in re.finditer(r"apt-get install ([^&\n]+)", run_stage):
        found += [word for word in match.group(1).split() if not word.startswith("-")]
    return found


def test_the_image_installs_the_font_the_charts_draw_chinese_with() -> None:
    installed = run_stage_installs()
    assert charts.CJK_PACKAGE in installed
    assert PACKAGE_FONTS[charts.CJK_PACKAGE] == charts.CJK_FONTS[0]  # asked for first, by name


def test_a_chinese_chart_draws_with_the_cjk_font_and_no_missing_glyph(
    caplog: pytest.LogCaptureFixture,
) -> None:
    font = charts.cjk_font()
    if font is None:
        pytest.skip("no CJK font on this machine (apt-get install fonts-wqy-microhei)")
    assert charts._fonts() == ["DejaVu Sans", font]
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        charts.chart(fortnight(), "counts", lang="zh")
    assert not [w for w in escaped if "Glyph" in str(w.message)]
    assert not [r for r in caplog.records if r.name == charts.__name__]


def test_without_a_cjk_font_one_log_line_says_what_to_install(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(charts, "_installed", lambda: {"DejaVu Sans"})
    monkeypatch.setattr(charts, "_TOLD_MISSING_FONT", [])  # a new process
    caplog.set_level(logging.WARNING)
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        drawn = charts.chart(fortnight(), "counts", lang="zh")
        for kind in ("vendors", "counts", "vendors"):  # a site build draws many: told once
            charts.chart(fortnight(), kind, lang="zh")
    assert drawn.png.startswith(b"\x89PNG")  # drawn all the same, with empty boxes
    assert [str(w.message) for w in escaped] == []
    told = [r for r in caplog.records if r.name == charts.__name__]
    assert len(told) == 1 and told[0].levelno == logging.WARNING
    said = told[0].getMessage()
    assert "empty boxes" in said and "install fonts-wqy-microhei" in said


DRAW_WITHOUT_CJK = """
from bot.observe.logs import setup_logging
from formatters import charts
from tests.formatters.test_charts import fortnight

setup_logging(0)
charts._installed = lambda: {"DejaVu Sans"}
charts.chart(fortnight(), "counts", lang="zh")
charts.chart(fortnight(), "merged", lang="zh")
"""


def test_without_a_cjk_font_stderr_holds_one_line_a_run_not_a_flood() -> None:
    """As `post` runs it: the bot's logging set up, warnings left to Python's defaults; two
    charts drawn, one line for the run."""
    done = subprocess.run(
        [sys.executable, "-c", DRAW_WITHOUT_CJK],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr[:2000]
    assert all("fonts-wqy-microhei" in row and "Glyph" not in row for row in lines)
