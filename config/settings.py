"""The one settings object, read from the environment, `.env` and a TOML file.

Priority, highest first: explicit arguments → environment → `.env` → TOML file → defaults.
The TOML file is `VLLM_REPORT_CONFIG` if set, else `vllm-report.toml` in the working folder
when it exists; its keys are the field names below (`repo = "vllm-project/vllm"`).

Names in the environment follow the issues' wording: report settings carry the
`VLLM_REPORT_` prefix, while the conventional names (`GITHUB_TOKEN`, `GITHUB_API_URL`,
`DATABASE_URL`) are read as they are. Secrets are `SecretStr`, so they never appear in a
repr, a log line or an error message.

A secret is read without the whitespace around it (`echo token > file` and many secret stores
end it with a line break, which an HTTP library refuses in a header — and echoes in its
error); whitespace alone means "not set". One with a space, a control character or a
non-ASCII character inside is refused at start, named but never shown. Once read, the
settings hand every secret to `bot.model.errors.hide_secrets`, so no error text shows one.

Every secret setting may instead be read from a file, the way Docker and Kubernetes hand
secrets over: `GITHUB_TOKEN_FILE=/run/secrets/github_token` (in the environment or `.env`)
reads the token from that file, without the whitespace around it. Setting both a secret and
its `_FILE`, or naming a file that cannot be read, is refused at start with the setting and
the path named (never the contents). The names are `GITHUB_TOKEN_FILE`, `LLM_API_KEY_FILE`,
`SLACK_BOT_TOKEN_FILE`, `SLACK_APP_TOKEN_FILE`, `SLACK_SIGNING_SECRET_FILE`,
`DISCORD_BOT_TOKEN_FILE` and `DATABASE_URL_FILE` (see `SECRET_FILE_FIELDS`).
pydantic-settings' own `secrets_dir` (one file per setting in a folder) is not used: the
`_FILE` form is what operators and official images (postgres, mysql) already know.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from datetime import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import platformdirs
from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from bot.model.errors import InputError, hide_secrets

DEFAULT_TOML = "vllm-report.toml"
_REPO_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_CUTOFF_RE = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_SLACK_CHANNEL_RE = re.compile(r"^[CG][A-Z0-9]+$")  # public (C…) and private (G…) channels
_SLACK_USER_RE = re.compile(r"^[UW][A-Z0-9]+$")
_DISCORD_ID_RE = re.compile(r"^\d{1,20}$")
_URL_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# The hardware plugins the breakage radar watches unless told otherwise.
DEFAULT_PLUGINS = (
    "vllm-project/vllm-ascend",
    "vllm-project/vllm-gaudi",
    "vllm-project/tpu-inference",
    "vllm-project/vllm-spyre",
    "vllm-project/vllm-metal",
    "vllm-project/vllm-omni",
)
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
# The earliest post after the cutoff that can find the window whole (the sync reads up to
# 2 minutes before its own clock; GitHub answers a little behind events).
MIN_POST_DELAY_MINUTES = 5


def _alias(env_name: str, field_name: str) -> AliasChoices:
    """Read a field from a conventional environment name or, in TOML, its field name."""
    return AliasChoices(env_name, field_name)


class Settings(BaseSettings):
    """Everything the bot can be told, with the defaults that make it run with no setup."""

    model_config = SettingsConfigDict(
        env_prefix="VLLM_REPORT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
        # `DATABASE_URL=` (an empty line in .env or --env-file) means "not set": the default.
        env_ignore_empty=True,
        # `inf` or `nan` as a timeout or an interval is a typo, never a wish.
        allow_inf_nan=False,
    )

    repo: str = Field("vllm-project/vllm", description="owner/name of the watched repository")
    plugins: str = Field(
        ",".join(DEFAULT_PLUGINS),
        description="comma-separated owner/name of the hardware plugins the radar watches "
        "(`none`: no plugin)",
    )
    # A week: past vllm-ascend's usual lag when it moves its pin (median 3.9 days) and
    # gaudi's 90th percentile (6.9), so a daily line means a pin is unusually late.
    pin_lag_days: float = Field(
        7.0,
        ge=0,
        le=365,
        description="the daily report names a plugin whose pin of vLLM is more days behind main",
    )
    timezone: str = Field("Asia/Shanghai", description="IANA zone the report days are cut in")
    cutoff: str = Field("11:45", description="HH:MM in `timezone` where one report day ends")
    max_range_days: int = Field(31, ge=1, le=366, description="longest window a command may ask")
    lang: str = Field("en", description="default report language: en or zh")
    data_dir: Path = Field(
        default_factory=lambda: Path(platformdirs.user_data_dir("vllm-report-bot")),
        description="holds the SQLite store and the local archive of rendered reports",
    )
    # The report site's address. Its first name, VLLM_REPORT_ARCHIVE_URL, is still read.
    site_url: str | None = Field(
        None,
        description="https URL where the report site is served (links in chat posts)",
        validation_alias=AliasChoices(
            "VLLM_REPORT_SITE_URL", "VLLM_REPORT_ARCHIVE_URL", "site_url", "archive_url"
        ),
    )
    topics_file: Path | None = Field(
        None, description="topic rules (default: config/topics.toml shipped with the bot)"
    )
    site_dir: Path | None = Field(
        None,
        description="the report site `serve` rebuilds daily and serves (default data_dir/site)",
    )
    http_port: int | None = Field(
        None, ge=1, le=65535, description="serve the site, /healthz and /metrics on this port"
    )
    http_host: str = Field("127.0.0.1", description="address the HTTP port listens on")
    log_format: str = Field("text", description="serve's log lines: text or json")
    database_url: SecretStr | None = Field(
        None,
        validation_alias=_alias("DATABASE_URL", "database_url"),
        description="SQLAlchemy URL; default: a SQLite file in data_dir",
    )
    github_api_url: str = Field(
        "https://api.github.com",
        validation_alias=_alias("GITHUB_API_URL", "github_api_url"),
    )
    github_token: SecretStr | None = Field(
        None, validation_alias=_alias("GITHUB_TOKEN", "github_token")
    )
    github_timeout: float = Field(15.0, gt=0, description="seconds per GitHub request")
    github_retries: int = Field(5, ge=0, le=20, description="retries of 5xx and rate limits")
    github_backoff: float = Field(1.0, ge=0, description="first retry delay, doubled each time")
    github_max_rate_limit_wait: float = Field(
        300.0, ge=0, description="longest wait for a rate-limit reset before giving up"
    )
    github_secondary_rate_wait: float = Field(
        60.0, ge=0, description="wait after a secondary rate limit that gives no Retry-After"
    )
    github_request_interval: float = Field(
        0.25, ge=0, description="pause between GitHub requests (GitHub asks for serial calls)"
    )

    llm_base_url: str | None = Field(
        None,
        validation_alias=_alias("LLM_BASE_URL", "llm_base_url"),
        description="OpenAI-compatible server for optional prose (e.g. http://host:8000/v1)",
    )
    llm_model: str | None = Field(None, validation_alias=_alias("LLM_MODEL", "llm_model"))
    llm_api_key: SecretStr | None = Field(
        None, validation_alias=_alias("LLM_API_KEY", "llm_api_key")
    )
    llm_timeout: float = Field(60.0, gt=0, validation_alias=_alias("LLM_TIMEOUT", "llm_timeout"))
    llm_retries: int = Field(2, ge=0, le=10, validation_alias=_alias("LLM_RETRIES", "llm_retries"))
    llm_token_budget: int = Field(
        24000,
        ge=2000,
        description="tokens one report's prose may send and receive, per language",
        validation_alias=_alias("LLM_TOKEN_BUDGET", "llm_token_budget"),
    )

    # -- chat (issue: the live bot) ------------------------------------------------------
    slack_bot_token: SecretStr | None = Field(
        None, validation_alias=_alias("SLACK_BOT_TOKEN", "slack_bot_token")
    )
    slack_app_token: SecretStr | None = Field(
        None, validation_alias=_alias("SLACK_APP_TOKEN", "slack_app_token")
    )
    slack_signing_secret: SecretStr | None = Field(
        None, validation_alias=_alias("SLACK_SIGNING_SECRET", "slack_signing_secret")
    )
    slack_api_url: str = Field(
        "https://slack.com/api/", validation_alias=_alias("SLACK_API_URL", "slack_api_url")
    )
    slack_channels: str = Field(
        "",
        validation_alias=_alias("SLACK_CHANNELS", "slack_channels"),
        description="comma-separated channel IDs for the daily post",
    )
    slack_port: int = Field(
        3000, ge=1, le=65535, validation_alias=_alias("SLACK_PORT", "slack_port")
    )
    slack_admins: str = Field(
        "",
        validation_alias=_alias("SLACK_ADMINS", "slack_admins"),
        description="comma-separated user IDs allowed to subscribe channels (besides admins)",
    )
    slack_post_interval: float = Field(1.0, ge=0, description="seconds between posts per channel")
    discord_bot_token: SecretStr | None = Field(
        None, validation_alias=_alias("DISCORD_BOT_TOKEN", "discord_bot_token")
    )
    discord_api_url: str | None = Field(
        None, validation_alias=_alias("DISCORD_API_URL", "discord_api_url")
    )
    discord_channels: str = Field(
        "", validation_alias=_alias("DISCORD_CHANNELS", "discord_channels")
    )
    discord_guild_id: str | None = Field(
        None,
        validation_alias=_alias("DISCORD_GUILD_ID", "discord_guild_id"),
        description="sync slash commands to this server at once (global sync takes up to 1 h)",
    )
    discord_public_key: str | None = Field(
        None,
        validation_alias=_alias("DISCORD_PUBLIC_KEY", "discord_public_key"),
        description="the application's public key: answer commands on an HTTP endpoint",
    )
    discord_interactions_port: int = Field(
        3001,
        ge=1,
        le=65535,
        validation_alias=_alias("DISCORD_INTERACTIONS_PORT", "discord_interactions_port"),
    )
    post_delay_minutes: int = Field(15, le=720, description="post this long after cutoff")
    catch_up_days: int = Field(3, ge=0, le=31, description="missed days posted at start-up")
    command_limit_per_minute: int = Field(6, ge=1, le=600, description="per user")
    delivery_lease_seconds: float = Field(
        30.0, ge=1, le=3600, description="a part's lease: a dead poster's parts wait this long"
    )
    leader_lease_seconds: float = Field(
        30.0, ge=1, le=3600, description="the scheduler leader's lease (replicas take over after)"
    )

    @property
    def plugin_list(self) -> list[str]:
        # `none`: watch no plugin (empty means the default, as for every setting).
        return [] if self.plugins.strip().lower() == "none" else _csv(self.plugins)

    @property
    def slack_channel_list(self) -> list[str]:
        return _csv(self.slack_channels)

    @property
    def discord_channel_list(self) -> list[str]:
        return _csv(self.discord_channels)

    @property
    def slack_admin_list(self) -> list[str]:
        return _csv(self.slack_admins)

    @field_validator("post_delay_minutes")
    @classmethod
    def _check_post_delay(cls, value: int) -> int:
        if value < MIN_POST_DELAY_MINUTES:
            raise ValueError(
                f"{value} is too soon: a window can be collected whole only a few minutes "
                f"after its cutoff; use {MIN_POST_DELAY_MINUTES} or more (15 by default)"
            )
        return value

    @field_validator("plugins")
    @classmethod
    def _check_plugins(cls, value: str) -> str:
        if value.strip().lower() == "none":  # an empty value means "the default"
            return value
        for part in _csv(value):
            if not _REPO_RE.match(part):
                raise ValueError(
                    f"'{part}' is not of the form owner/name (e.g. vllm-project/vllm-ascend)"
                )
        return value

    @field_validator("repo")
    @classmethod
    def _check_repo(cls, value: str) -> str:
        if not _REPO_RE.match(value):
            raise ValueError(f"'{value}' is not of the form owner/name (e.g. vllm-project/vllm)")
        return value

    @field_validator("lang")
    @classmethod
    def _check_lang(cls, value: str) -> str:
        if value not in ("en", "zh"):
            raise ValueError(f"'{value}' is not a report language: use en or zh")
        return value

    @field_validator("log_format")
    @classmethod
    def _check_log_format(cls, value: str) -> str:
        if value not in ("text", "json"):
            raise ValueError(f"'{value}' is not a log format: use text or json")
        return value

    @field_validator("data_dir", "topics_file", "site_dir")
    @classmethod
    def _expand_home(cls, value: Path | None) -> Path | None:
        # `~` is a shell's word: `.env` and `docker --env-file` pass it on literally, and a
        # folder named `~` would appear in the working directory.
        return value.expanduser() if value is not None else None

    @field_validator("timezone")
    @classmethod
    def _check_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone '{value}': use an IANA name such as Asia/Shanghai or UTC"
            ) from None
        return value

    @field_validator("cutoff")
    @classmethod
    def _check_cutoff(cls, value: str) -> str:
        parse_cutoff(value)
        return value

    @field_validator("site_url")
    @classmethod
    def _check_site_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("https://"):
            raise ValueError(f"'{value}' is not an https:// URL")
        return value.rstrip("/") if value else value

    @field_validator("slack_channels")
    @classmethod
    def _check_slack_channels(cls, value: str) -> str:
        return _check_ids(value, _SLACK_CHANNEL_RE, "a Slack channel ID such as C0123ABCD")

    @field_validator("slack_admins")
    @classmethod
    def _check_slack_admins(cls, value: str) -> str:
        return _check_ids(value, _SLACK_USER_RE, "a Slack user ID such as U0123ABCD")

    @field_validator("discord_channels")
    @classmethod
    def _check_discord_channels(cls, value: str) -> str:
        return _check_ids(value, _DISCORD_ID_RE, "a Discord channel ID (digits only)")

    @field_validator("discord_guild_id")
    @classmethod
    def _check_guild(cls, value: str | None) -> str | None:
        if value is not None and not _DISCORD_ID_RE.match(value.strip()):
            raise ValueError(f"'{value}' is not a Discord server ID (digits only)")
        return value.strip() if value is not None else None

    @field_validator("discord_public_key")
    @classmethod
    def _check_public_key(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", value.strip()):
            raise ValueError("is not a public key: copy the 64 hex digits from General Information")
        return value.strip() if value is not None else None

    @field_validator(*SECRET_FIELDS, "database_url", mode="before")
    @classmethod
    def _strip_secret(cls, value: Any) -> Any:
        """Without the whitespace around it; nothing left means "not set"."""
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, str):
            return value.strip() or None
        return value

    @field_validator(*SECRET_FIELDS)
    @classmethod
    def _check_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            _check_token(value.get_secret_value())
        return value

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        if any(char.isspace() or not char.isprintable() for char in value.get_secret_value()):
            raise ValueError(
                "holds a space, a line break or another control character (not shown here): "
                "write such a character of the password percent-encoded (a space as %20)"
            )
        if not _URL_SCHEME_RE.match(value.get_secret_value()):
            raise ValueError(
                "not a database URL: write sqlite:////path/to/file.sqlite3 or "
                "postgresql://user@host/dbname"
            )
        netloc = value.get_secret_value().partition("://")[2].split("/", 1)[0]
        if netloc.count("@") > 1:  # the driver would take the password's tail for the host
            raise ValueError(
                "its password holds '@': write each '@' of the password as %40 "
                "(postgresql://user:p%40ss@host/dbname)"
            )
        return value

    @field_validator("github_api_url")
    @classmethod
    def _check_api_url(cls, value: str) -> str:
        return _http_url(value).rstrip("/")

    @field_validator("llm_base_url", "slack_api_url", "discord_api_url")
    @classmethod
    def _check_service_url(cls, value: str | None) -> str | None:
        return _http_url(value) if value is not None else None

    @field_validator("http_host")
    @classmethod
    def _check_host(cls, value: str) -> str:
        host = value.strip()
        if not _HOST_RE.match(host):
            raise ValueError(
                f"'{value}' is not an address to listen on: write 127.0.0.1, 0.0.0.0, :: "
                "or a host name"
            )
        return host

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def cutoff_time(self) -> time:
        return parse_cutoff(self.cutoff)

    @property
    def report_files_dir(self) -> Path:
        """The report files (Markdown and JSON per day): `archive/` in the data folder."""
        return self.data_dir / "archive"

    @property
    def site_root(self) -> Path:
        """The report site's folder: `site_dir`, else `site/` in the data folder."""
        return self.site_dir if self.site_dir is not None else self.data_dir / "site"

    @property
    def slack_commands_on(self) -> bool:
        """Slash commands need the bot token and a way in: Socket Mode or HTTP mode."""
        return bool(self.slack_bot_token and (self.slack_app_token or self.slack_signing_secret))

    def secrets(self) -> list[str]:
        """Every secret value set (the database password also as it reads decoded), for
        `hide_secrets` and the log filter that keep them out of what the bot tells."""
        found = [
            getattr(self, name).get_secret_value()
            for name in SECRET_FIELDS
            if getattr(self, name) is not None
        ]
        if self.database_url is not None:
            password = _url_password(self.database_url.get_secret_value())
            found += [password, unquote(password)] if password else []
        return [value for value in found if len(value) >= 4]

    def store_url(self) -> str:
        """The database URL in use: `DATABASE_URL`, else SQLite in the data folder."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{self.data_dir / 'vllm-report.sqlite3'}"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml_path = os.environ.get("VLLM_REPORT_CONFIG") or DEFAULT_TOML
        dotenv: Mapping[str, str | None] = getattr(dotenv_settings, "env_vars", {})
        sources: list[PydanticBaseSettingsSource] = [
            init_settings,
            env_settings,
            dotenv_settings,
            SecretFiles(settings_cls, dotenv),
        ]
        if Path(toml_path).is_file():
            _check_toml(Path(toml_path))
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        elif os.environ.get("VLLM_REPORT_CONFIG"):
            what = "is not a file" if Path(toml_path).exists() else "does not exist"
            raise SettingsError(f"VLLM_REPORT_CONFIG names '{toml_path}', which {what}")
        sources.append(file_secret_settings)
        return tuple(sources)

    # -- the review queue (issue 13): the weekly queue digest ------------------------------
    queue_digest_day: str = Field(
        "mon", description="weekday of the weekly queue digest (mon … sun), or off"
    )
    queue_digest_time: str = Field(
        "10:00", description="HH:MM in `timezone` when the weekly queue digest is posted"
    )

    @field_validator("queue_digest_day")
    @classmethod
    def _check_digest_day(cls, value: str) -> str:
        day = value.strip().lower()[:3]
        if value.strip().lower() != "off" and day not in WEEKDAYS:
            raise ValueError(f"'{value}' is not a weekday: write mon, tue, … sun, or off")
        return "off" if value.strip().lower() == "off" else day

    @field_validator("queue_digest_time")
    @classmethod
    def _check_digest_time(cls, value: str) -> str:
        if not _CUTOFF_RE.match(value.strip()):
            raise ValueError(f"'{value}' is not a time of day like 10:00")
        return value.strip()

    @property
    def queue_digest_at(self) -> time | None:
        """When the weekly queue digest is posted (None: it is off)."""
        return None if self.queue_digest_day == "off" else parse_cutoff(self.queue_digest_time)


class SettingsError(InputError):
    """A setting is wrong; the message names it and says what would be right."""


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
            name = _env_name(field)
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
            _check_token(value)
        except ValueError as exc:
            raise SettingsError(f"{setting}: the secret in {path} {exc}") from None
    return value


def parse_cutoff(value: str) -> time:
    """`HH:MM` → time; the error says what to write instead."""
    match = _CUTOFF_RE.match(value.strip())
    if not match:
        raise ValueError(f"cutoff '{value}' is not a time of day like 11:45")
    return time(int(match.group(1)), int(match.group(2)))


def load_settings(**overrides: Any) -> Settings:
    """Load settings once; turn pydantic's error list into one readable SettingsError.

    `overrides` come from the command line (`--repo`): a fault in one is named as the option
    the person typed, not as an environment variable they never set."""
    _check_dotenv(Path(".env"))
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = ".".join(str(part) for part in err["loc"]) or "settings"
            message = str(err["msg"]).removeprefix("Value error, ")
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
    _check_dotenv(Path(".env"))
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
            problems.append((_env_name(name), str(err["msg"]).removeprefix("Value error, ")))
            field = _field_name(name)
            if field is not None:
                info = Settings.model_fields[field]
                defaults[field] = info.get_default(call_default_factory=True)
        try:
            return Settings(**defaults), problems
        except ValidationError:  # a fault the defaults cannot stand in for
            raise SettingsError(
                "invalid setting — " + "; ".join(f"{n}: {m}" for n, m in problems)
            ) from None


def _field_name(loc: str) -> str | None:
    """The field behind an error location (a field name or one of its aliases)."""
    for name, info in Settings.model_fields.items():
        choices = (
            [str(c).lower() for c in info.validation_alias.choices]
            if isinstance(info.validation_alias, AliasChoices)
            else []
        )
        if loc.lower() == name or loc.lower() in choices:
            return name
    return None


_HOST_RE = re.compile(
    r"^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*|"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$"
)


def _http_url(value: str) -> str:
    """An http(s) URL with a host and no spaces, or a ValueError saying what to write."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or " " in value.strip():
        raise ValueError(f"'{value}' is not an http(s) URL like https://host/path")
    if parts.hostname and "." in parts.hostname and not _HOST_RE.match(parts.hostname):
        raise ValueError(f"'{value}' names no valid host")
    return value.strip()


def _check_token(value: str) -> None:
    """A token, key or signing secret is printable ASCII with no space: anything else came
    with it by mistake (a pasted `token ` prefix, a line break, a curly quote) and would be
    refused by the HTTP library — which may print it. Never shows the value."""
    if any(char.isspace() or not char.isprintable() for char in value):
        raise ValueError(
            "holds a space, a line break or another control character inside it (not shown "
            "here): set the value alone, as the service gave it"
        )
    if not value.isascii():
        raise ValueError(
            "holds a character that is not ASCII (not shown here; a curly quote or a "
            "look-alike letter pasted with it?): copy the value again as plain text"
        )


def _url_password(url: str) -> str | None:
    """The password inside a database URL (user:password@host), if any: all of it up to the
    host's '@' (the last one), so no tail of it is left unmasked."""
    netloc = url.partition("://")[2].split("/", 1)[0]
    userinfo = netloc.rpartition("@")[0]
    password = userinfo.partition(":")[2]
    return password or None


def _csv(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _check_ids(value: str, pattern: re.Pattern[str], what: str) -> str:
    """A comma-separated list of IDs; a name, another separator or a stray mark is refused."""
    for part in _csv(value):
        if pattern.match(part):
            continue
        if part.startswith("#"):
            raise ValueError(
                f"'{part}' is a channel name, not an ID: use {what} (in the channel's details)"
            )
        if any(sep in part for sep in ";| "):
            raise ValueError(f"'{part}' holds several IDs: separate them with commas")
        raise ValueError(f"'{part}' is not {what}")
    return value


def _check_toml(path: Path) -> None:
    """The settings file read as TOML, or a SettingsError naming the file and the fault."""
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
    _check_toml_keys(path, data)


def _check_toml_keys(path: Path, data: dict[str, Any]) -> None:
    """Every key of the file is a setting: a typo (`langg`) or a table (`[slack]`) would
    otherwise be ignored in silence, and the setting meant stay at its default."""
    import difflib

    known = set(Settings.model_fields)
    for key, value in data.items():
        if isinstance(value, dict):
            raise SettingsError(
                f"settings file {path}: [{key}] is a table, but settings are top-level keys "
                f'(write e.g. {key}_channels = "…" above any table)'
            )
        if key not in known:
            near = difflib.get_close_matches(key, sorted(known), n=1)
            hint = f": did you mean '{near[0]}'?" if near else ": see the README's Settings"
            raise SettingsError(f"settings file {path}: '{key}' is not a setting{hint}")


def _check_dotenv(path: Path) -> None:
    """`.env`, when there, must be readable UTF-8 text."""
    if not path.exists():
        return
    try:
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
            f"{exc.start}): save it as UTF-8"
        ) from None
    except OSError as exc:
        raise SettingsError(f"{path} cannot be read: {exc.strerror}") from None


def _env_name(field: str) -> str:
    """The environment name a person would set for a field, for error messages.

    pydantic names a field read through an alias by that alias (`SLACK_PORT`), and others by
    the field name (`max_range_days`, read as `VLLM_REPORT_MAX_RANGE_DAYS`).
    """
    for name, info in Settings.model_fields.items():
        choices = (
            [str(c) for c in info.validation_alias.choices]
            if isinstance(info.validation_alias, AliasChoices)
            else []
        )
        if field.lower() == name or field.lower() in (c.lower() for c in choices):
            return choices[0].upper() if choices else f"VLLM_REPORT_{name.upper()}"
    return f"VLLM_REPORT_{field.upper()}"
