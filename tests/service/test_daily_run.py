"""The daily run, one path for `post`, the scheduler and the catch-up: report → files → site
→ channels → digests, each once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]


def test_post_without_chat_writes_the_files_and_rebuilds_the_site(
    fake_github: FakeGitHub, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No chat configured is "archive only": the report files and the report site, exactly
    as the scheduled run makes them (the site once went unbuilt on this path)."""
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith(f"# vLLM daily report · {DAY.label}")  # the report itself
    data = clean_env / "data"
    files = data / "archive" / "vllm-project__vllm"
    assert (files / f"{DAY.label}.en.md").is_file() and (files / f"{DAY.label}.json").is_file()
    site = data / "site"
    assert (site / "index.html").is_file()
    assert (site / DAY.label / "index.html").is_file()
    assert (site / DAY.label / "zh" / "index.html").is_file()


def test_post_writes_each_file_once(
    fake_github: FakeGitHub, clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report files are written by one step of the run, not again by another."""
    from bot.report_files import ReportFiles

    writes: list[str] = []
    original = ReportFiles.write

    def counted(self: ReportFiles, *args: object, **kwargs: object) -> list[Path]:
        writes.append("write")
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ReportFiles, "write", counted)
    assert main(["post", DAY.label, "--cutoff", DAY.cutoff]) == 0
    assert writes == ["write"]
