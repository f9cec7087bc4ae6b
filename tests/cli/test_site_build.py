"""`site build` at one cutoff, of days published at another: said, with the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]  # published at 11:43, its real cutoff; the default is 11:45


def test_days_published_at_another_cutoff_are_named_not_silently_missing(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert DAY.cutoff != "11:45"
    assert main(["post", DAY.label, "--cutoff", DAY.cutoff]) == 0
    capsys.readouterr()
    assert main(["site", "build", str(tmp_path / "default")]) == 0
    err = capsys.readouterr().err
    assert (
        f"1 published report day(s) have no page here: they end at {DAY.cutoff}, not 11:45 "
        f"({DAY.label}); `vllm-report site build DIR --cutoff {DAY.cutoff}` builds them"
    ) in err
    assert main(["site", "build", str(tmp_path / "theirs"), "--cutoff", DAY.cutoff]) == 0
    err = capsys.readouterr().err
    assert "have no page here" not in err
    assert (tmp_path / "theirs" / DAY.label / "index.html").is_file()
