"""Every setting the bot can be told: its name, default, limits and check, as one
pydantic-settings class. Where the values come from is config.sources; loading them with
readable errors is config.settings.

Names in the environment follow the issues' wording: report settings carry the
`VLLM_REPORT_` prefix, while the conventional names (`GITHUB_TOKEN`, `GITHUB_API_URL`,
`DATABASE_URL`) are read as they are. Secrets are `SecretStr`, so they never appear in a
repr, a log line or an error message.

A secret is read without the whitespace around it (`echo token > file` and many secret stores
end it with a line break, which an HTTP library refuses in a header — and echoes in its
error); whitespace alone means "not set". One with a space, a control character or a
non-ASCII character inside is refused at start, named but never shown.
"""

from __future__ import annotations

import re
from datetime import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import platformdirs
from pydantic import AliasChoices, Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from config.checks import (
    DISCORD_ID_RE,
    HOST_RE,
    REPO_RE,
    SLACK_CHANNEL_RE,
    SLACK_USER_RE,
    TIME_RE,
    check_database_url,
    check_ids,
    check_sqlite_folder,
    check_token,
    csv,
    http_url,
    parse_cutoff,
    url_password,
)
from config.sources import SECRET_FIELDS, ordered_sources

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
# The earliest post after the cutoff that can find the window whole (the sync reads up to
# 2 minutes before its own clock; GitHub answers a little behind events).
MIN_POST_DELAY_MINUTES = 5
# A setting that is one of a few words: what it is, then the words.
_CHOICES = {
    "lang": ("a report language", "en", "zh"),
    "log_format": ("a log format", "text", "json"),
}
# A comma-separated list of chat IDs: their form, and what to write instead.
_ID_LISTS = {
    "slack_channels": (SLACK_CHANNEL_RE, "a Slack channel ID such as C0123ABCD"),
    "slack_admins": (SLACK_USER_RE, "a Slack user ID such as U0123ABCD"),
    "discord_channels": (DISCORD_ID_RE, "a Discord channel ID (digits only)"),
}


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
    # vLLM's public CI dashboard (vllm-project/vllm-dashboard): its failures of main.
    ci_url: str = Field(
        "https://ci.vllm.ai",
        description="the CI dashboard Red on main reads (`none` or empty: no CI section)",
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
    def ci_source(self) -> str | None:
        """The CI dashboard's address, or None when Red on main is off."""
        return None if self.ci_url.strip().lower() in ("", "none", "off") else self.ci_url

    @property
    def plugin_list(self) -> list[str]:
        # `none`: watch no plugin (empty means the default, as for every setting).
        return [] if self.plugins.strip().lower() == "none" else csv(self.plugins)

    @property
    def slack_channel_list(self) -> list[str]:
        return csv(self.slack_channels)

    @property
    def discord_channel_list(self) -> list[str]:
        return csv(self.discord_channels)

    @property
    def slack_admin_list(self) -> list[str]:
        return csv(self.slack_admins)

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
        for part in csv(value):
            if not REPO_RE.match(part):
                raise ValueError(
                    f"'{part}' is not of the form owner/name (e.g. vllm-project/vllm-ascend)"
                )
        return value

    @field_validator("repo")
    @classmethod
    def _check_repo(cls, value: str) -> str:
        if not REPO_RE.match(value):
            raise ValueError(f"'{value}' is not of the form owner/name (e.g. vllm-project/vllm)")
        return value

    @field_validator("lang", "log_format")
    @classmethod
    def _check_choice(cls, value: str, info: ValidationInfo) -> str:
        what, *allowed = _CHOICES[str(info.field_name)]
        if value not in allowed:
            raise ValueError(f"'{value}' is not {what}: use {' or '.join(allowed)}")
        return value

    @field_validator("data_dir", "topics_file", "site_dir")
    @classmethod
    def _expand_home(cls, value: Path | None) -> Path | None:
        # `~` is a shell's word: `.env` and `docker --env-file` pass it on literally, and a
        # folder named `~` would appear in the working directory.
        return value.expanduser() if value is not None else None

    @field_validator("data_dir", "site_dir")
    @classmethod
    def _check_folder(cls, value: Path | None) -> Path | None:
        if value is not None and value.exists() and not value.is_dir():
            raise ValueError(f"{value} is a file, not a folder: name a folder (it is made if new)")
        return value

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

    @field_validator("slack_channels", "slack_admins", "discord_channels")
    @classmethod
    def _check_id_list(cls, value: str, info: ValidationInfo) -> str:
        return check_ids(value, *_ID_LISTS[str(info.field_name)])

    @field_validator("discord_guild_id")
    @classmethod
    def _check_guild(cls, value: str | None) -> str | None:
        if value is not None and not DISCORD_ID_RE.match(value.strip()):
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
            check_token(value.get_secret_value())
        return value

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            check_database_url(value.get_secret_value())
            check_sqlite_folder(value.get_secret_value())
        return value

    @field_validator("github_api_url")
    @classmethod
    def _check_api_url(cls, value: str) -> str:
        return http_url(value).rstrip("/")

    @field_validator("llm_base_url", "slack_api_url", "discord_api_url", "ci_url")
    @classmethod
    def _check_service_url(cls, value: str | None) -> str | None:
        if value is None or value.strip().lower() in ("", "none", "off"):  # ci_url's "off"
            return value
        return http_url(value)

    @field_validator("http_host")
    @classmethod
    def _check_host(cls, value: str) -> str:
        host = value.strip()
        if not HOST_RE.match(host):
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
            password = url_password(self.database_url.get_secret_value())
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
        return ordered_sources(
            settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings
        )

    feedback: bool = Field(  # readers' 👍 / 👎 under each section of the daily post
        False, description="draw 👍 / 👎 buttons under each section of the daily post"
    )

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
        if not TIME_RE.match(value.strip()):
            raise ValueError(f"'{value}' is not a time of day like 10:00")
        return value.strip()

    @property
    def queue_digest_at(self) -> time | None:
        """When the weekly queue digest is posted (None: it is off)."""
        return None if self.queue_digest_day == "off" else parse_cutoff(self.queue_digest_time)
