"""`vllm-report radar wrong <plugin PR> <upstream PR>`: a correction from the command line,
kept in the store; the next `vllm-report radar` leaves the culprit out and says the
precision. On the real 2025 plugin records served by the fake GitHub."""

from __future__ import annotations

import json

import pytest

from tests.fakes.github_api import FakeGitHub
from tests.features.radar.test_cli import MONTH, github, run  # noqa: F401


def test_a_correction_from_the_command_line_changes_the_next_radar(
    github: FakeGitHub,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "radar", MONTH, "--format", "json")
    before = json.loads(out)
    assert code == 0 and before["precision"]["corrected"] == 0
    asked = len(github.requests)
    code, out, err = run(capsys, "radar", "wrong", "vllm-ascend#3221", "24982")
    assert (code, err) == (0, "")
    assert out == (
        "Noted: vllm#24982 did not break vllm-ascend#3221. The radar no longer shows it as "
        "that fix's culprit; it shows as unattributed.\n"
    )
    assert len(github.requests) == asked  # the archive alone
    code, out, _ = run(capsys, "radar", MONTH, "--format", "json")
    after = json.loads(out)
    top = next(c for c in after["culprits"] if c["number"] == 24982)
    assert top["plugins"] == ["vllm-project/vllm-gaudi"]
    assert after["precision"]["corrected"] == 1
    assert after["corrections"][0]["by"] == "cli"
    code, out, _ = run(capsys, "radar", MONTH)
    assert "## Corrections\n\n- vllm-ascend#3221: not vllm#24982 (said by cli on " in out


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["vllm-ascend#3221"], "a correction names two PRs (1 given)"),
        (["vllm-ascend#3221", "x"], "'x' is not an upstream PR number"),
        (["tpu#1", "24982"], "'tpu' is not a watched plugin"),
        (["vllm-ascend#3221", "25249"], "the radar never named vllm#25249 as what broke"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_status_2(
    github: FakeGitHub,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    words: list[str],
    says: str,
) -> None:
    run(capsys, "radar", MONTH)  # the month, into the archive
    code, out, err = run(capsys, "radar", "wrong", *words)
    assert code == 2 and out == "" and says in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
