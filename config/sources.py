"""Where settings come from besides the environment: secret files, the TOML file and `.env`,
each checked so that a fault is refused at start with the setting and the file named; and
the names in the environment, checked for a mistyped setting.

Every secret setting may be read from a file, the way Docker and Kubernetes hand secrets
over: `GITHUB_TOKEN_FILE=/run/secrets/github_token` (in the environment or `.env`) reads the
token from that file, without the whitespace around it. Setting both a secret and its
`_FILE`, or naming a file that cannot be read, is refused at start with the setting and the
path named (never the contents). The names are `GITHUB_TOKEN_FILE`, `LLM_API_KEY_FILE`,
`SLACK_BOT_TOKEN_FILE`, `SLACK_APP_TOKEN_FILE`, `SLACK_SIGNING_SECRET_FILE`,
`DISCORD_BOT_TOKEN_FILE` and `DATABASE_URL_FILE` (see `SECRET_FILE_FIELDS`).
pydantic-settings' own `secrets_dir` (one file per setting in a folder) is not used: the
`_FILE` form is what operators and official images (postgres, mysql) already know.

Setting names as a person mistypes them are told apart from other programs' names by one
check (`misnamed`) for `.env`, where they are refused (the file is the bot's own), and for
the environment, where they are warned about, one log line each (`check_environment`: the
environment is shared, and a bot that refused to start over another tool's variable would
be worse than a typo's default). A name is taken for a mistyped setting when it is a letter
or two away from one (`GITHUB_TOKN`), when it is a setting with its prefix moved
(`GITHUB_REPO` for `VLLM_REPORT_REPO`, `GITHUB_TIMEOUT` for `VLLM_REPORT_GITHUB_TIMEOUT`,
`VLLM_REPORT_GITHUB_TOKEN` for `GITHUB_TOKEN`), or when it carries `VLLM_REPORT_`, ours
alone. Other names with our prefixes are left alone: CI runners set dozens of `GITHUB_*`
(`GITHUB_SHA`, `GITHUB_REPOSITORY`), chat tools `SLACK_WEBHOOK_URL`.
"""

from __future__ import annotations

import difflib
import io
import json
import logging
import os
import tomllib
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, get_args

from pydantic import AliasChoices, SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, TomlConfigSettingsSource

from config.checks import SettingsError, check_token

log = logging.getLogger(__name__)

# The secret settings sent in an HTTP header (or, the signing secret, used as an HMAC key);
# the database password is the fifth kind of secret (see `Settings.secrets`).
SECRET_FIELDS = (
    "github_token",
    "llm_api_key",
    "slack_bot_token",
    "slack_app_token",
    "slack_signing_secret",
    "discord_bot_token",
)
# The settings that may be read from a file named by NAME_FILE (see the module's docstring).
SECRET_FILE_FIELDS = (*SECRET_FIELDS, "database_url")


class SecretFiles(PydanticBaseSettingsSource):
    """Each secret setting read from the file its `NAME_FILE` names (environment or `.env`).

    Below the environment and `.env` (which may not set the secret as well: that is refused)
    and above the TOML file. Returns each value under the name the environment would use."""

    def __init__(self, settings_cls: type[BaseSettings], dotenv: Mapping[str, str | None]) -> None:
        super().__init__(settings_cls)
        # Environment names are read case-insensitively (pydantic-settings' default).
        self._seen = {k.lower(): v for k, v in dotenv.items()}
        self._seen.update({k.lower(): v for k, v in os.environ.items()})

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ reads every secret at once

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for field in SECRET_FILE_FIELDS:
            name = env_name(self.settings_cls, field)
            path = (self._seen.get(f"{name}_FILE".lower()) or "").strip()
            if not path:  # `NAME_FILE=` means "not set", as for every setting
                continue
            if (self._seen.get(name.lower()) or "").strip():
                raise SettingsError(
                    f"both {name} and {name}_FILE ({path}) are set: keep one of them"
                )
            found[name] = read_secret_file(f"{name}_FILE", Path(path).expanduser(), field)
        return found


def read_secret_file(setting: str, path: Path, field: str) -> str:
    """The secret in `path`, without the whitespace around it, or a SettingsError naming the
    setting and the path (never what the file holds)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SettingsError(
            f"{setting} names {path}, which does not exist: mount the secret there or "
            f"correct {setting}"
        ) from None
    except IsADirectoryError:
        raise SettingsError(f"{setting} names {path}, which is a folder: name the file") from None
    except PermissionError:
        raise SettingsError(
            f"{setting} names {path}, which this user (uid {os.getuid()}) may not read: make "
            "it readable by that user (in Docker the image's user is 10001)"
        ) from None
    except OSError as exc:
        raise SettingsError(
            f"{setting} names {path}, which cannot be read ({exc.strerror or exc}): "
            f"correct {setting}"
        ) from None
    try:
        value = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SettingsError(
            f"{setting} names {path}, which is not UTF-8 text (not shown here): write the "
            "secret alone into it, as plain text"
        ) from None
    if not value:
        raise SettingsError(
            f"{setting} names {path}, which is empty: write the secret into it or unset {setting}"
        )
    if field in SECRET_FIELDS:
        try:
            check_token(value)
        except ValueError as exc:
            raise SettingsError(f"{setting}: the secret in {path} {exc}") from None
    return value


def check_toml(path: Path, known: Mapping[str, FieldInfo]) -> None:
    """The settings file read as TOML, each key one of the `known` settings with a value of
    a type it takes, or a SettingsError naming the file and the fault."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"settings file {path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
            f"offset {exc.start}): save it as UTF-8"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"settings file {path} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise SettingsError(f"settings file {path} cannot be read: {exc.strerror}") from None
    _check_toml_keys(path, data, known)
    _check_toml_text(path, data, known)


def _check_toml_keys(path: Path, data: dict[str, Any], known: Mapping[str, FieldInfo]) -> None:
    """Every key of the file is a setting: a typo (`langg`) or a table (`[slack]`) would
    otherwise be ignored in silence, and the setting meant stay at its default."""
    for key, value in data.items():
        if isinstance(value, dict):
            raise SettingsError(
                f"settings file {path}: [{key}] is a table, but settings are top-level keys "
                f'(write e.g. {key}_channels = "…" above any table)'
            )
        if key not in known:
            raise SettingsError(f"settings file {path}: {_unknown_key(key, known)}")


def _unknown_key(key: str, known: Mapping[str, FieldInfo]) -> str:
    """What is wrong with a key of the settings file that is no setting, and the key meant.

    The file names a setting by its own name (`cutoff`), so an environment name written in
    it (`VLLM_REPORT_CUTOFF`, or one mistyped: `VLLM_REPORT_LANGUAGE`) is told the key it
    stands for; a key mistyped (`langg`, `Cutoff`) its nearest key."""
    by_env = {env: field for field, info in known.items() for env in _env_names_of(field, info)}
    upper = key.upper()
    if upper in by_env:
        return (
            f"'{key}' is an environment name, not a key of this file: did you mean "
            f"'{by_env[upper]}'?"
        )
    env = _meant(upper, by_env.keys())
    near = difflib.get_close_matches(key.lower(), sorted(known), n=1)
    if env is not None and (key.isupper() or not near):
        return (
            f"'{key}' is not a setting: did you mean '{by_env[env]}' (the file's name for {env})?"
        )
    if near:
        return f"'{key}' is not a setting: did you mean '{near[0]}'?"
    return f"'{key}' is not a setting: see {SETTINGS_DOC} for the file's keys"


def _check_toml_text(path: Path, data: dict[str, Any], known: Mapping[str, FieldInfo]) -> None:
    """A text setting holds TOML text: `cutoff = 1145` (or TOML's own time, 11:45:00) would
    reach pydantic as a number, said as "Input should be a valid string" under the name of
    an environment variable the person never set."""
    for key, value in data.items():
        if isinstance(value, str) or not _takes_text(known[key]):
            continue
        if isinstance(value, list):  # the list settings are comma-separated text
            example = json.dumps(",".join(str(part) for part in value))
        else:
            default = known[key].default
            example = json.dumps(default) if isinstance(default, str) and default else '"…"'
        raise SettingsError(
            f"settings file {path}: {key} = {_as_toml(value)} is not text: write it in "
            f"quotes, e.g. {key} = {example}"
        )


def _takes_text(info: FieldInfo) -> bool:
    """The setting is read from text (str, SecretStr, Path, optional or not)."""
    kinds = get_args(info.annotation) or (info.annotation,)
    return any(kind in (str, SecretStr, Path) for kind in kinds)


def _as_toml(value: Any) -> str:
    """A TOML value as the file wrote it (Python would say True and ['C1'])."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_as_toml(part) for part in value) + "]"
    return str(value)


def check_dotenv(path: Path, known: Collection[str] = ()) -> None:
    """`.env`, when there, must be readable UTF-8 text; with `known` (every environment name
    a setting is read from), a `VLLM_REPORT_` name that is none of them, or a name a letter
    away from one (`GITHUB_TOKN`), is refused: it would be ignored in silence."""
    if not path.exists():
        return
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
            f"{exc.start}): save it as UTF-8"
        ) from None
    except OSError as exc:
        raise SettingsError(f"{path} cannot be read: {exc.strerror}") from None
    if known:
        _check_dotenv_names(path, text, {name.upper() for name in known})


def _check_dotenv_names(path: Path, text: str, known: set[str]) -> None:
    from dotenv import dotenv_values

    for name in dotenv_values(stream=io.StringIO(text)):
        hint = misnamed(name, known)
        if hint is not None:
            raise SettingsError(f"{path}: {name} is not a setting{hint}")


OURS = "VLLM_REPORT_"
# The prefixes our settings' environment names carry; only such names in the environment are
# looked at (it holds every other program's variables too).
PREFIXES = (OURS, "GITHUB_", "SLACK_", "DISCORD_", "LLM_", "DATABASE_")
# How alike a name must be to a setting's to be taken for a typo of it (difflib's ratio):
# `GITHUB_TOKN` is 0.96 from GITHUB_TOKEN, while GITHUB_GRAPHQL_URL is 0.75 from
# GITHUB_API_URL.
NEAR = 0.9


# Where every setting is told, by its environment name and its key in the settings file.
SETTINGS_DOC = "docs/settings.md"
# How alike the part after `VLLM_REPORT_` must be to a setting's for a name of ours (no other
# program's) to be taken for it: `LANGUAGE` is 0.67 from `LANG`, so a name that begins
# with a whole setting's name (or the other way round) is taken as well, when only one does.
OURS_NEAR = 0.75
OURS_PREFIX = 4  # the shortest setting's name taken as the start of a longer one (LANG)


def misnamed(name: str, known: Collection[str]) -> str | None:
    """What to say after "NAME is not a setting" when `name` looks like a mistyped setting
    (": did you mean X?", or where to look), None when it is a setting or another
    program's name. `known`: every environment name a setting is read from, upper case."""
    upper = name.upper()
    if upper in known:
        return None
    meant = _meant(upper, known)
    if meant is not None:
        return f": did you mean {meant}?"
    return f": see {SETTINGS_DOC}" if upper.startswith(OURS) else None


def _meant(upper: str, known: Collection[str]) -> str | None:
    """The environment name `upper` (not one of `known`) was meant as, if it looks like one:
    its prefix moved, a letter or two away, or — a name of ours alone — a setting's name
    after the prefix spelled longer or shorter (`VLLM_REPORT_LANGUAGE`)."""
    meant = next((moved for moved in _moved(upper) if moved in known), None)
    if meant is not None:
        return meant
    near = difflib.get_close_matches(upper, sorted(known), n=1, cutoff=NEAR)
    if near:
        return near[0]
    if not upper.startswith(OURS):
        return None
    word = upper.removeprefix(OURS)
    ours = {name.removeprefix(OURS): name for name in known if name.startswith(OURS)}
    near = difflib.get_close_matches(word, sorted(ours), n=1, cutoff=OURS_NEAR)
    if near:
        return ours[near[0]]
    starts = [
        name
        for name in ours
        if min(len(name), len(word)) >= OURS_PREFIX
        and (name.startswith(word) or word.startswith(name))
    ]
    return ours[starts[0]] if len(starts) == 1 else None


def _moved(upper: str) -> Iterator[str]:
    """`upper` with its prefix moved, as a setting may have been meant. Only names that
    carry one of our prefixes: `LANG` in `.env` is the locale, not VLLM_REPORT_LANG."""
    if upper.startswith(OURS):
        yield upper.removeprefix(OURS)
        return
    for prefix in PREFIXES:
        if upper.startswith(prefix):
            yield OURS + upper
            yield OURS + upper.removeprefix(prefix)


def check_environment(names: Iterable[str], known: Collection[str]) -> list[str]:
    """Warn (one log line each) about every name in the environment carrying our prefixes
    that looks like a mistyped setting; the lines said. Never the value: it may be a
    secret."""
    upper_known = {name.upper() for name in known}
    said = []
    for name in sorted(names):
        if not name.upper().startswith(PREFIXES):
            continue
        hint = misnamed(name, upper_known)
        if hint is not None:
            said.append(f"the environment: {name} is not a setting{hint}")
            log.warning("%s", said[-1])
    return said


def env_names(settings_cls: type[BaseSettings]) -> set[str]:
    """Every environment name a setting is read from, its `_FILE` forms included."""
    names = {"VLLM_REPORT_CONFIG"}
    for name, info in settings_cls.model_fields.items():
        names.update(_env_names_of(name, info))
    names.update(f"{env_name(settings_cls, field)}_FILE" for field in SECRET_FILE_FIELDS)
    return names


def _env_names_of(field: str, info: FieldInfo) -> list[str]:
    """The environment names one setting is read from (not its `_FILE` form)."""
    choices = [c for c in _aliases(info) if c.upper() == c]  # the field name is TOML's
    return choices or [f"VLLM_REPORT_{field.upper()}"]


def _aliases(info: FieldInfo) -> list[str]:
    alias = info.validation_alias
    return [str(c) for c in alias.choices] if isinstance(alias, AliasChoices) else []


def env_name(settings_cls: type[BaseSettings], field: str) -> str:
    """The environment name a person would set for a field, for error messages.

    pydantic names a field read through an alias by that alias (`SLACK_PORT`), and others by
    the field name (`max_range_days`, read as `VLLM_REPORT_MAX_RANGE_DAYS`).
    """
    for name, info in settings_cls.model_fields.items():
        choices = _aliases(info)
        if field.lower() == name or field.lower() in (c.lower() for c in choices):
            return choices[0].upper() if choices else f"VLLM_REPORT_{name.upper()}"
    return f"VLLM_REPORT_{field.upper()}"


def field_name(settings_cls: type[BaseSettings], loc: str) -> str | None:
    """The field behind an error location (a field name or one of its aliases)."""
    for name, info in settings_cls.model_fields.items():
        if loc.lower() == name or loc.lower() in (c.lower() for c in _aliases(info)):
            return name
    return None


DEFAULT_TOML = "vllm-report.toml"


def ordered_sources(
    settings_cls: type[BaseSettings],
    init_settings: PydanticBaseSettingsSource,
    env_settings: PydanticBaseSettingsSource,
    dotenv_settings: PydanticBaseSettingsSource,
    file_secret_settings: PydanticBaseSettingsSource,
) -> tuple[PydanticBaseSettingsSource, ...]:
    """Where settings come from, first wins: arguments, the environment, `.env`, secret files
    named by `*_FILE`, the TOML file (`VLLM_REPORT_CONFIG`, else ./vllm-report.toml), then
    the secrets folder."""
    toml_path = _toml_path()
    dotenv: Mapping[str, str | None] = getattr(dotenv_settings, "env_vars", {})
    sources: list[PydanticBaseSettingsSource] = [
        init_settings,
        env_settings,
        dotenv_settings,
        SecretFiles(settings_cls, dotenv),
    ]
    if Path(toml_path).is_file():
        check_toml(Path(toml_path), settings_cls.model_fields)
        sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
    elif os.environ.get("VLLM_REPORT_CONFIG"):
        what = "is not a file" if Path(toml_path).exists() else "does not exist"
        raise SettingsError(f"VLLM_REPORT_CONFIG names '{toml_path}', which {what}")
    elif Path(toml_path).exists():  # `vllm-report.toml/`: never ignored in silence
        raise SettingsError(f"{toml_path} is a folder, not a settings file: rename it")
    sources.append(file_secret_settings)
    return tuple(sources)


def _toml_path() -> str:
    return os.environ.get("VLLM_REPORT_CONFIG") or DEFAULT_TOML


def where_set(settings_cls: type[BaseSettings], field: str) -> str:
    """Where the value of `field` came from, as the person would find it: its environment
    name (the environment, `.env`, or its secret file's `NAME_FILE`), or its key and the
    settings file when only that file sets it."""
    name = env_name(settings_cls, field)
    info = settings_cls.model_fields.get(field)
    names = _env_names_of(field, info) if info is not None else [name]
    seen = {k.upper(): v for k, v in _dotenv_values().items()}
    seen.update({k.upper(): v for k, v in os.environ.items()})
    if any((seen.get(n.upper()) or "").strip() for n in names):
        return name
    if (seen.get(f"{name}_FILE") or "").strip():
        return f"{name}_FILE"
    path = Path(_toml_path())
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # read and checked before: said there
            return name
        if field in data:
            return f"{field} in settings file {path}"
    return name


def _dotenv_values() -> dict[str, str | None]:
    path = Path(".env")
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return dict(dotenv_values(path, encoding="utf-8"))
