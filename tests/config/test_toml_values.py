"""A value of the wrong TOML type in the settings file (`cutoff = 1145`): said in our words,
naming the key, the file and the form to write, with exit status 2 — not pydantic's "Input
should be a valid string" under an environment name the person never set."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import one_sentence, run


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        (
            "cutoff = 1145\n",
            "settings file vllm-report.toml: cutoff = 1145 is not text: "
            'write it in quotes, e.g. cutoff = "11:45"',
        ),
        # TOML's own time of day, which a person may well write for a time of day.
        (
            "cutoff = 11:45:00\n",
            "settings file vllm-report.toml: cutoff = 11:45:00 is not text: "
            'write it in quotes, e.g. cutoff = "11:45"',
        ),
        (
            'slack_channels = ["C1", "C2"]\n',
            'settings file vllm-report.toml: slack_channels = ["C1", "C2"] is not text: '
            'write it in quotes, e.g. slack_channels = "C1,C2"',
        ),
        (
            "repo = true\n",
            "settings file vllm-report.toml: repo = true is not text: "
            'write it in quotes, e.g. repo = "vllm-project/vllm"',
        ),
    ],
    ids=["number", "toml-time", "list", "bool"],
)
def test_a_toml_value_that_is_not_text_is_said_in_our_words(
    toml: str, says: str, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    (clean_env / "vllm-report.toml").write_text(toml, encoding="utf-8")
    for command in (["show", "2026-03-26", "--counts-only"], ["doctor"]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == ""
        said = one_sentence(err)
        assert said == f"vllm-report: {says}", said
        assert "Input should" not in err and "VLLM_REPORT_CUTOFF" not in err


def test_numbers_and_quoted_times_are_still_read(clean_env: Path) -> None:
    from config.settings import load_settings

    (clean_env / "vllm-report.toml").write_text(
        'cutoff = "12:30"\nmax_range_days = 40\npin_lag_days = 3\nhttp_port = 8080\n',
        encoding="utf-8",
    )
    settings = load_settings()
    assert (settings.cutoff, settings.max_range_days, settings.pin_lag_days) == ("12:30", 40, 3)
    assert settings.http_port == 8080
