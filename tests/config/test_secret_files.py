"""Secrets as files: `NAME_FILE=/run/secrets/name` reads each secret setting from a file, the
way Docker and Kubernetes hand secrets over; a fault is one sentence naming the setting and
the path, never what the file holds, with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.model.errors import masked
from config.settings import SECRET_FILE_FIELDS, SettingsError, load_settings

# Each secret setting, as the environment names it, and a valid value for it.
SECRETS = {
    "GITHUB_TOKEN": "ghp_FILEsecret0123456789",
    "LLM_API_KEY": "sk-FILEsecret0123456789",
    "SLACK_BOT_TOKEN": "xoxb-FILE-secret-0123456789",
    "SLACK_APP_TOKEN": "xapp-FILE-secret-0123456789",
    "SLACK_SIGNING_SECRET": "FILEsigning0123456789abcdef",
    "DISCORD_BOT_TOKEN": "FILE.discord.0123456789",
    "DATABASE_URL": "postgresql://bot:FILEpassword0123@db.example:5432/reports",
}
FIELDS = dict(zip(SECRETS, SECRET_FILE_FIELDS, strict=True))


def secret_file(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name.lower()
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_secret_setting_has_a_file_form() -> None:
    """The list of secrets read from files is every secret the settings hold."""
    assert set(FIELDS.values()) == set(SECRET_FILE_FIELDS)


@pytest.mark.parametrize("name", list(SECRETS))
def test_each_secret_is_read_from_its_file_without_the_line_break(
    name: str, clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`echo token > file` ends the file with a line break: it is not part of the secret."""
    path = secret_file(clean_env, name, f"  {SECRETS[name]}\n")
    monkeypatch.setenv(f"{name}_FILE", str(path))
    settings = load_settings()
    value = getattr(settings, FIELDS[name])
    assert value is not None and value.get_secret_value() == SECRETS[name]


def test_a_file_named_in_dotenv_is_read(clean_env: Path) -> None:
    path = secret_file(clean_env, "token", SECRETS["GITHUB_TOKEN"] + "\n")
    (clean_env / ".env").write_text(f"GITHUB_TOKEN_FILE={path}\n", encoding="utf-8")
    settings = load_settings()
    assert settings.github_token is not None
    assert settings.github_token.get_secret_value() == SECRETS["GITHUB_TOKEN"]


def test_the_file_wins_over_the_toml_file(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment's `_FILE` ranks with the environment: above the settings file."""
    (clean_env / "vllm-report.toml").write_text('github_token = "ghp_fromToml0123"\n')
    path = secret_file(clean_env, "token", SECRETS["GITHUB_TOKEN"])
    monkeypatch.setenv("GITHUB_TOKEN_FILE", str(path))
    settings = load_settings()
    assert settings.github_token is not None
    assert settings.github_token.get_secret_value() == SECRETS["GITHUB_TOKEN"]


def test_a_secret_read_from_a_file_is_masked(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the file holds is a secret like any other: no message shows it, nor the
    database password of a URL read from a file."""
    for name in ("GITHUB_TOKEN", "DATABASE_URL"):
        monkeypatch.setenv(f"{name}_FILE", str(secret_file(clean_env, name, SECRETS[name])))
    load_settings()
    said = masked(f"failed with {SECRETS['GITHUB_TOKEN']} at FILEpassword0123")
    assert "FILEsecret" not in said and "FILEpassword" not in said


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("both", "both GITHUB_TOKEN and GITHUB_TOKEN_FILE ({path}) are set: keep one of them"),
        ("missing", "GITHUB_TOKEN_FILE names {path}, which does not exist"),
        ("folder", "GITHUB_TOKEN_FILE names {path}, which is a folder"),
        ("empty", "GITHUB_TOKEN_FILE names {path}, which is empty"),
        ("binary", "GITHUB_TOKEN_FILE names {path}, which is not UTF-8 text"),
        ("two lines", "GITHUB_TOKEN_FILE: the secret in {path} holds a space, a line break"),
    ],
)
def test_a_fault_is_one_sentence_with_the_setting_and_the_path(
    setup: str,
    expected: str,
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Exit status 2, one line naming the setting and the path; never the file's contents."""
    token = SECRETS["GITHUB_TOKEN"]
    path = clean_env / "github_token"
    if setup == "both":
        secret_file(clean_env, "github_token", token)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp_inTheEnvironment0123")
    elif setup == "folder":
        path.mkdir()
    elif setup == "empty":
        secret_file(clean_env, "github_token", "\n")
    elif setup == "binary":
        secret_file(clean_env, "github_token", b"\xff\xfe" + token.encode())
    elif setup == "two lines":
        secret_file(clean_env, "github_token", f"{token}\n{token}\n")
    monkeypatch.setenv("GITHUB_TOKEN_FILE", str(path))
    code, out, err = run(capsys, "backup", str(clean_env / "backup.sqlite3"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert expected.format(path=path) in err
    assert token not in err and "inTheEnvironment" not in err


def test_an_unreadable_file_says_whose_permission_is_missing(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A secret mounted for another user (root runs the tests, so the refusal is made)."""
    path = secret_file(clean_env, "github_token", SECRETS["GITHUB_TOKEN"])

    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.setenv("GITHUB_TOKEN_FILE", str(path))
    with pytest.raises(SettingsError) as caught:
        load_settings()
    said = str(caught.value)
    assert f"GITHUB_TOKEN_FILE names {path}, which this user (uid " in said
    assert "may not read: make it readable" in said


def test_an_empty_file_setting_means_not_set(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`GITHUB_TOKEN_FILE=` (an empty line in .env) means "not set", as for every setting."""
    monkeypatch.setenv("GITHUB_TOKEN_FILE", "")
    monkeypatch.setenv("GITHUB_TOKEN", SECRETS["GITHUB_TOKEN"])
    settings = load_settings()
    assert settings.github_token is not None
