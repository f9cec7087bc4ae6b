"""What the docs say the program does, held to what it does: the `--help` that commands.md
describes, the exit status reports.md gives `vllm-report ci` on a day it cannot tell, and
the JSON contracts.md lists (each document's `"schema"`, every key of Red on main's `ci`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.cli import build_parser
from bot.features.ci.model import (
    Analysis,
    BlameRange,
    Build,
    CiState,
    Failure,
    History,
    Red,
    Reported,
    Suspect,
)
from bot.features.ci.render_json import ci_to_dict, off
from tests.cli_run import one_sentence, run

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def prose(page: str) -> str:
    """A page's text with its line breaks as spaces (a sentence may wrap anywhere)."""
    return " ".join((DOCS / page).read_text(encoding="utf-8").split())


def paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def test_the_top_level_help_begins_or_ends_where_commands_md_says() -> None:
    claim = re.search(
        r"`vllm-report --help`[^.;]*?\b(starts|begins|ends) with[^`]*`([^`]+)`",
        prose("commands.md"),
    )
    assert claim is not None, "commands.md says nothing of what `vllm-report --help` shows"
    where, command = claim.groups()
    shown = paragraphs(build_parser().format_help())
    assert command in (shown[-1] if where == "ends" else shown[0]), (where, shown)


def test_vllm_report_ci_exits_as_reports_md_says(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A day the dashboard cannot tell, and Red on main switched off: the status and the
    line reports.md quotes."""
    text = prose("reports.md")
    unknown = re.search(r"`vllm-report ci` on such a day exits with status (\d)", text)
    line = re.search(r"one line on stderr, `(vllm-report: [^<`]*)<the reason>`", text)
    switched_off = re.search(r"`VLLM_REPORT_CI_URL=none`[^.]*exits with status (\d)", text)
    assert unknown and line and switched_off, "reports.md no longer says how `ci` exits"
    monkeypatch.setenv("VLLM_REPORT_CI_URL", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9")
    code, out, err = run(capsys, "ci", "2026-03-25")
    assert code == int(unknown.group(1)) and out == ""
    assert one_sentence(err).startswith(line.group(1)), (line.group(1), err)
    monkeypatch.setenv("VLLM_REPORT_CI_URL", "none")
    code, out, err = run(capsys, "ci", "2026-03-25", "--format", "json")
    assert code == int(switched_off.group(1)) and '"state": "off"' in out


def test_every_json_schema_the_code_writes_is_in_the_contracts() -> None:
    page = (DOCS / "contracts.md").read_text(encoding="utf-8")
    written = {
        m
        for package in ("bot", "formatters")
        for path in (ROOT / package).rglob("*.py")
        for m in re.findall(r"\"(vllm-[a-z]+/\d+)\"", path.read_text(encoding="utf-8"))
    }
    assert {"vllm-report/1", "vllm-queue/1", "vllm-radar/1", "vllm-check/1"} <= written
    assert sorted(s for s in written if f"`{s}`" not in page) == []
    # Red on main's `ci` has none: the page may not say every document has one.
    assert "Each JSON document names itself" not in prose("contracts.md")


def keys(data: Any) -> set[str]:
    """Every key of a JSON document, at any depth."""
    if isinstance(data, dict):
        return set(data).union(*(keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys(v) for v in data))
    return set()


def test_the_ci_section_of_the_contracts_names_every_key_the_code_writes() -> None:
    at = datetime(2026, 3, 25, 3, 0, tzinfo=UTC)
    build = Build(57890, "abc1234", at)
    failure = Failure(
        "1006", "Kernels Test (mi325_1)", "amd", "code", build, build, 3, build, at,
        job_key="kernels-mi325", analysis=Analysis("code", "a summary", stale=False),
    )  # fmt: skip
    red = Red(
        failure,
        history=History(build, flips=1),
        blame=BlameRange("abc", "def", (37483, 37490)),
        suspect=Suspect(37483, "a title", "alice", at, "alone"),
        evidence=(37490,),
        owners=("@alice",),
        new=True,
    )
    reported = Reported(38000, "[CI Failure]: mi325_1", "mi325_1", "amd", at, build="amd-ci #1")
    known = CiState(
        "known", "https://ci.vllm.ai", at - timedelta(days=1), at, read_at=at,
        red=(red,), resolved=(red,), reported=(reported,),
    )  # fmt: skip
    unknown = CiState("unknown", "https://ci.vllm.ai", at, at, why="unreachable")
    written = keys(ci_to_dict(known)) | keys(ci_to_dict(unknown)) | keys(off("none"))
    page = (DOCS / "contracts.md").read_text(encoding="utf-8")
    section = re.search(r"^## `ci`.*?(?=^## )", page, re.M | re.S)
    assert section is not None, "contracts.md has no section for Red on main's `ci`"
    assert sorted(k for k in written if f"`{k}`" not in section.group(0)) == []
