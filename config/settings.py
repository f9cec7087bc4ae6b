"""The one settings object, read from the environment, `.env` and a TOML file, and loaded
once at start-up with every fault said in one sentence.

Priority, highest first: explicit arguments → environment → `.env` → secret files → TOML
file → defaults. The TOML file is `VLLM_REPORT_CONFIG` if set, else `vllm-report.toml` in
the working folder when it exists; its keys are the field names (`repo = "vllm-project/vllm"`).

The settings themselves (names, defaults, checks) are config.fields; the sources besides the
environment (secret files, TOML, `.env`) are config.sources; single-value checks are
config.checks. Once read, the settings hand every secret to `bot.model.errors.hide_secrets`,
so no error text shows one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.model.errors import hide_secrets
from config.checks import SettingsError, parse_cutoff
from config.fields import Settings
from config.sources import (
    SECRET_FIELDS,
    SECRET_FILE_FIELDS,
    check_dotenv,
    check_environment,
    env_name,
    env_names,
    field_name,
    where_set,
)

__all__ = [
    "SECRET_FIELDS",
    "SECRET_FILE_FIELDS",
    "Settings",
    "SettingsError",
    "diagnose_settings",
    "load_settings",
    "parse_cutoff",
]


def load_settings(**overrides: Any) -> Settings:
    """Load settings once; turn pydantic's error list into one readable SettingsError.

    `overrides` come from the command line (`--repo`): a fault in one is named as the option
    the person typed, not as an environment variable they never set."""
    check_dotenv(Path(".env"), env_names(Settings))
    check_environment(os.environ, env_names(Settings))
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = ".".join(str(part) for part in err["loc"]) or "settings"
            message = said(err)
            where = f"--{name.replace('_', '-')}" if name in overrides else _env_name(name)
            problems.append(f"{where}: {message}")
        what = "invalid option" if all(p.startswith("--") for p in problems) else "invalid setting"
        raise SettingsError(f"{what} — " + "; ".join(problems)) from None
    hide_secrets(settings.secrets())
    return settings


def diagnose_settings() -> tuple[Settings, list[tuple[str, str]]]:
    """Settings for `doctor`: each wrong one as (its name, what is wrong), and settings with
    those fields at their defaults so the other checks can still run.

    A settings file that cannot be read at all (TOML, .env) raises SettingsError."""
    check_dotenv(Path(".env"), env_names(Settings))
    check_environment(os.environ, env_names(Settings))
    settings, problems = _settings_or_defaults()
    hide_secrets(settings.secrets())
    return settings, problems


def _settings_or_defaults() -> tuple[Settings, list[tuple[str, str]]]:
    values: dict[str, Any] = {}
    try:
        return Settings(**values), []
    except ValidationError as exc:
        problems: list[tuple[str, str]] = []
        defaults: dict[str, Any] = {}
        for err in exc.errors():
            name = ".".join(str(part) for part in err["loc"]) or "settings"
            problems.append((_env_name(name), said(err)))
            field = field_name(Settings, name)
            if field is not None:
                info = Settings.model_fields[field]
                defaults[field] = info.get_default(call_default_factory=True)
        try:
            return Settings(**defaults), problems
        except ValidationError:  # a fault the defaults cannot stand in for
            raise SettingsError(
                "invalid setting — " + "; ".join(f"{n}: {m}" for n, m in problems)
            ) from None


# pydantic's wording of a number out of range or not a number, as a person would say it.
_SAID = {
    "int_parsing": "'{input}' is not a whole number",
    "int_from_float": "'{input}' is not a whole number",
    "float_parsing": "'{input}' is not a number",
    "finite_number": "'{input}' is not a number: write a figure such as 7",
    "greater_than": "{input} is too small: use more than {gt:g}",
    "greater_than_equal": "{input} is too small: use {ge:g} or more",
    "less_than": "{input} is too large: use less than {lt:g}",
    "less_than_equal": "{input} is too large: use {le:g} or less",
}


def said(err: Mapping[str, Any]) -> str:
    """One error of pydantic's list in the bot's words (its own wording when none fits)."""
    words = _SAID.get(str(err.get("type")))
    if words is not None:
        try:
            return words.format(input=err.get("input"), **(err.get("ctx") or {}))
        except (KeyError, IndexError, ValueError):
            pass
    return str(err["msg"]).removeprefix("Value error, ")


def _env_name(loc: str) -> str:
    """The setting behind an error's location as the person set it: its environment name,
    or its key in the settings file when the value came from there."""
    field = field_name(Settings, loc)
    return where_set(Settings, field) if field is not None else env_name(Settings, loc)
