"""Two runs writing the same report at once never trip over each other's temporary file."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from bot.analyze.counts import build_report
from bot.model.windows import day_window
from bot.report_files import ReportFiles

WINDOW = day_window(
    datetime(2026, 3, 25, tzinfo=UTC).date(),
    __import__("zoneinfo").ZoneInfo("UTC"),
    datetime.min.time(),
)


def test_a_shared_temporary_name_is_not_used(tmp_path: Path) -> None:
    """Another writer's temporary file sits where a shared name would be: writing still works."""
    files = ReportFiles(tmp_path)
    report = build_report([], WINDOW, repo="o/r", complete=True)
    folder = tmp_path / "o__r"
    folder.mkdir()
    (folder / "2026-03-25.en.md.tmp").mkdir()  # what a shared `.tmp` name would collide with
    (folder / "2026-03-25.json.tmp").mkdir()
    written = files.write(report, "en", "# md\n", "{}")
    assert [p.read_text(encoding="utf-8") for p in written] == ["# md\n", "{}"]


def test_writers_in_parallel_all_succeed(tmp_path: Path) -> None:
    files = ReportFiles(tmp_path)
    report = build_report([], WINDOW, repo="o/r", complete=True)
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for _ in range(50):
                files.write(report, "en", f"# {n}\n", "{}")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert not list((tmp_path / "o__r").glob("*.tmp"))
