"""The command line as a test runs it: its exit status and what it printed, and the one
sentence an expected failure ends in."""

from __future__ import annotations

import pytest

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_sentence(err: str) -> str:
    """The single `vllm-report:` line of stderr, with no traceback anywhere."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("vllm-report:")]
    assert len(lines) == 1, err
    return lines[0]
