"""The settings file's words (issue 53): an environment name written as a key
(`VLLM_REPORT_CUTOFF = "11:30"`) was told to "see the README's Settings", a section that
does not exist, and a wrong value in the file was named by an environment variable the
person never set. Each fault now names the file's key meant, and the file; an environment
name of ours spelled longer (`VLLM_REPORT_LANGUAGE`) is told the one meant; every pointer
goes to a page that exists."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.sources import SETTINGS_DOC
from tests.cli_run import one_sentence, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        (
            'VLLM_REPORT_CUTOFF = "11:30"\n',
            "'VLLM_REPORT_CUTOFF' is an environment name, not a key of this file: did you "
            "mean 'cutoff'?",
        ),
        (
            'SLACK_CHANNELS = "C1"\n',
            "'SLACK_CHANNELS' is an environment name, not a key of this file: did you mean "
            "'slack_channels'?",
        ),
        (
            'VLLM_REPORT_LANGUAGE = "zh"\n',
            "'VLLM_REPORT_LANGUAGE' is not a setting: did you mean 'lang' (the file's name "
            "for VLLM_REPORT_LANG)?",
        ),
        ('Cutoff = "11:30"\n', "'Cutoff' is not a setting: did you mean 'cutoff'?"),
        ('langg = "zh"\n', "'langg' is not a setting: did you mean 'lang'?"),
        (
            'colour = "red"\n',
            "'colour' is not a setting: see docs/settings.md for the file's keys",
        ),
    ],
    ids=["env-name", "env-alias", "env-misspelled", "case", "typo", "unknown"],
)
def test_an_unknown_key_is_told_the_files_key_meant(
    toml: str, says: str, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    (clean_env / "vllm-report.toml").write_text(toml, encoding="utf-8")
    code, out, err = run(capsys, "topics")
    assert (code, out) == (2, "")
    assert one_sentence(err) == f"vllm-report: settings file vllm-report.toml: {says}"
    assert "README" not in err


def test_a_wrong_value_in_the_file_names_its_key_and_the_file(
    capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    (clean_env / "vllm-report.toml").write_text('lang = "fr"\n', encoding="utf-8")
    code, out, err = run(capsys, "topics")
    assert (code, out) == (2, "")
    assert one_sentence(err) == (
        "vllm-report: invalid setting — lang in settings file vllm-report.toml: 'fr' is not "
        "a report language: use en or zh"
    )
    assert "VLLM_REPORT_LANG" not in err


def test_the_file_is_named_as_vllm_report_config_names_it(
    capsys: pytest.CaptureFixture[str], clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (clean_env / "bot.toml").write_text("max_range_days = 0\n", encoding="utf-8")
    monkeypatch.setenv("VLLM_REPORT_CONFIG", str(clean_env / "bot.toml"))
    code, _, err = run(capsys, "topics")
    assert code == 2
    assert one_sentence(err) == (
        f"vllm-report: invalid setting — max_range_days in settings file {clean_env / 'bot.toml'}"
        ": 0 is too small: use 1 or more"
    )


def test_the_environment_over_the_file_is_named_by_its_environment_name(
    capsys: pytest.CaptureFixture[str], clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The value in use is the environment's (it wins over the file): that is the one named."""
    (clean_env / "vllm-report.toml").write_text('lang = "zh"\n', encoding="utf-8")
    monkeypatch.setenv("VLLM_REPORT_LANG", "fr")
    code, _, err = run(capsys, "topics")
    assert code == 2
    assert one_sentence(err) == (
        "vllm-report: invalid setting — VLLM_REPORT_LANG: 'fr' is not a report language: "
        "use en or zh"
    )


def test_doctor_names_the_files_key_too(
    capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    (clean_env / "vllm-report.toml").write_text('lang = "fr"\n', encoding="utf-8")
    _, out, _ = run(capsys, "doctor")
    (line,) = [line for line in out.splitlines() if "'fr'" in line]
    assert line.startswith("✗") and "lang in settings file vllm-report.toml" in line
    assert "VLLM_REPORT_LANG" not in line


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("VLLM_REPORT_LANGUAGE", "VLLM_REPORT_LANG"),
        ("VLLM_REPORT_DATA", "VLLM_REPORT_DATA_DIR"),
        ("VLLM_REPORT_TIME_ZONE", "VLLM_REPORT_TIMEZONE"),
    ],
)
def test_a_name_of_ours_spelled_longer_or_shorter_is_told_the_one_meant(
    name: str,
    meant: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    """Warned, as every mistyped name in the shared environment is (the command runs)."""
    monkeypatch.setenv(name, "zh")
    code, out, err = run(capsys, "topics")
    assert code == 0 and out
    assert err.rstrip().endswith(
        f"the environment: {name} is not a setting: did you mean {meant}?"
    ), err


@pytest.mark.parametrize("name", ["VLLM_REPORT_COLOUR", "VLLM_REPORT_SITE"])
def test_a_name_of_ours_near_none_or_several_points_to_the_settings_page(
    name: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    """No guess when none is near, or two are (SITE_URL, SITE_DIR): the page that has all."""
    monkeypatch.setenv(name, "x")
    code, _, err = run(capsys, "topics")
    assert code == 0
    assert err.rstrip().endswith(f"{name} is not a setting: see docs/settings.md"), err


def test_every_pointer_to_the_docs_names_a_page_that_exists() -> None:
    assert (ROOT / SETTINGS_DOC).is_file()
    for folder in ("config", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "README's Settings" not in text, path
