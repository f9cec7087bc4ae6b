"""`vllm-report doctor`: every setting and every connection checked, one line each.

Each check is a `Check`: what was looked at, whether it is well, and — when it is not — what
is wrong and how to fix it, in one sentence. No line ever holds a secret: tokens are named by
their setting, a database URL is shown without its password. The chat platforms are checked
by the adapters (bot/adapters/chat_checks.py); the composition root puts the list together.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.collect.probe import probe
from bot.collect.source import GitHubSource
from config.settings import Settings


@dataclass(frozen=True)
class Check:
    name: str  # what was looked at: "github", "slack channel C0123"
    ok: bool
    said: str  # what was seen, or what is wrong and how to fix it
    setting: bool = False  # a setting is wrong (exit status 2 rather than 1)
    warn: bool = False  # works, but something readers see is off (marked ⚠, not failed)


def settings_checks(settings: Settings, problems: list[tuple[str, str]]) -> list[Check]:
    """The settings as read: each wrong one, then the combinations that cannot work, then
    what the machine gives them: the data and site folders, and a font for Chinese charts."""
    found = [
        Check(f"setting {name}", False, f"{message}; the default is used below", setting=True)
        for name, message in problems
    ]
    if not problems:
        found.append(
            Check(
                "settings",
                True,
                f"repo {settings.repo}, report day ends {settings.cutoff} {settings.timezone}, "
                f"language {settings.lang}, data folder {settings.data_dir}",
            )
        )
    found += _combinations(settings)
    found.append(_writable("data folder", settings.data_dir, "VLLM_REPORT_DATA_DIR"))
    found.append(_writable("site folder", settings.site_root, "VLLM_REPORT_SITE_DIR"))
    found.append(fonts_check(settings))  # the site's and the posts' charts
    return found


def _combinations(settings: Settings) -> list[Check]:
    found = []

    def bad(name: str, said: str) -> None:
        found.append(Check(name, False, said, setting=True))

    if settings.slack_bot_token and not settings.slack_commands_on:
        # Posts only is a set-up of its own (no slash commands wanted), not a fault.
        found.append(
            Check(
                "slack commands",
                True,
                f"slash commands are off{' (posts only)' if settings.slack_channel_list else ''}: "
                "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode) is "
                "set; set one to answer them",
            )
        )
    if settings.slack_channel_list and not settings.slack_bot_token:
        bad("slack", "SLACK_CHANNELS is set but SLACK_BOT_TOKEN is not: set the bot token")
    if settings.slack_bot_token and not settings.slack_channel_list:
        bad("slack", "SLACK_BOT_TOKEN is set but SLACK_CHANNELS is empty: list channel IDs")
    if settings.discord_channel_list and not settings.discord_bot_token:
        bad("discord", "DISCORD_CHANNELS is set but DISCORD_BOT_TOKEN is not: set the bot token")
    if bool(settings.llm_base_url) != bool(settings.llm_model):
        bad(
            "model",
            "LLM_BASE_URL and LLM_MODEL go together: set both for model prose, or neither",
        )
    if settings.http_port is not None and settings.http_port in (
        settings.slack_port if settings.slack_signing_secret else None,
        settings.discord_interactions_port if settings.discord_public_key else None,
    ):
        bad(
            "http",
            f"VLLM_REPORT_HTTP_PORT {settings.http_port} is also a command endpoint's port: "
            "choose another",
        )
    return found


def _writable(what: str, folder: Path, setting: str) -> Check:
    """The folder exists (or can be made) and this user can write a file in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except OSError as exc:
        return Check(
            what,
            False,
            f"cannot write {exc.filename or folder} ({exc.strerror or exc}): make it writable "
            f"by user {_user()} or set {setting}",
        )
    return Check(what, True, f"{folder} is writable")


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        return str(os.getuid())


def github_check(settings: Settings) -> Check:
    source = GitHubSource(
        repo=settings.repo,
        api_url=settings.github_api_url,
        token=settings.github_token.get_secret_value() if settings.github_token else None,
        timeout=settings.github_timeout,
    )
    reach = probe(source)
    if reach.problem is not None:
        return Check("github", False, reach.problem)
    limit = (
        f"rate limit {reach.remaining}/{reach.limit} left"
        + (f" until {reach.reset:%H:%M} UTC" if reach.reset else "")
        if reach.remaining is not None
        else "rate limit not reported"
    )
    who = (
        "with GITHUB_TOKEN"
        if settings.github_token
        else "anonymous (GITHUB_TOKEN gives 5,000/hour)"
    )
    if not reach.repo_exists:
        return Check(
            "github",
            False,
            f"{settings.github_api_url} answers but has no repository '{settings.repo}'"
            f"{'' if settings.github_token else ' (a private one needs GITHUB_TOKEN)'}: fix "
            "VLLM_REPORT_REPO",
        )
    if reach.remaining == 0:
        return Check("github", False, f"{limit}: wait for the reset or set GITHUB_TOKEN")
    return Check(
        "github",
        True,
        f"{settings.github_api_url} reachable, {settings.repo} exists, {limit}, {who}",
    )


def store_check(settings: Settings) -> Check:
    """The store opens, its schema is (or was just brought) at the newest revision, it takes
    a write (one that changes nothing, rolled back: a read-only file or folder, or a
    PostgreSQL user or server that takes no writes, would otherwise show only at the first
    report or post), and a SQLite store passes `PRAGMA quick_check` (every page read:
    opening reads only the schema revision, so damage elsewhere would show only when a
    report reads it)."""
    from bot.store import Store, StoreError, StoreUrlError
    from bot.store.failures import safe_url
    from bot.store.integrity import store_damage
    from bot.store.schema import HEAD_REVISION

    url = settings.store_url()
    where = safe_url(url)
    try:
        before = _revision(url)
        store = Store(url)
        try:
            store.check_writable()
        finally:
            store.close()
        damage = store_damage(url)
    except (StoreError, StoreUrlError) as exc:
        return Check("store", False, str(exc), setting=isinstance(exc, StoreUrlError))
    except OSError as exc:
        return Check(
            "store",
            False,
            f"cannot open {where} ({exc.strerror or exc}): check the data folder or DATABASE_URL",
        )
    if damage is not None:
        return Check(
            "store",
            False,
            f"{where} is damaged (quick_check: {damage}): stop the bot and restore the last "
            "backup (docs/backup-and-upgrade.md), or move the file aside and the archive is "
            "fetched again from GitHub",
        )
    if before is None:
        done = f"created at schema revision {HEAD_REVISION}"
    elif before != HEAD_REVISION:
        done = f"migrated from revision {before} to {HEAD_REVISION}"
    else:
        done = f"schema at revision {HEAD_REVISION} (the newest)"
    checked = ", quick_check ok" if url.startswith("sqlite") else ""
    return Check("store", True, f"{where}: {done}, writable{checked}")


def fonts_check(settings: Settings) -> Check:
    """A CJK font for the Chinese charts. Without one they draw empty boxes: a fault when the
    reports are in Chinese by default, a note otherwise (a subscriber may still ask zh)."""
    from formatters.charts import CJK_FONTS, CJK_PACKAGE, cjk_font

    found = cjk_font()
    if found is not None:
        return Check("chart fonts", True, f"{found} draws the Chinese charts")
    return Check(
        "chart fonts",
        settings.lang != "zh",
        warn=settings.lang != "zh",
        said=f"no CJK font for matplotlib ({', '.join(CJK_FONTS)}): Chinese charts draw empty "
        f"boxes; install {CJK_PACKAGE} (apt-get install {CJK_PACKAGE}) or fonts-noto-cjk",
    )


def _revision(url: str) -> str | None:
    """The schema revision recorded before opening (None: a new or unreadable store)."""
    from bot.store.engine import current_revision, make_engine

    try:
        engine = make_engine(url)
    except Exception:
        return None
    try:
        with engine.connect() as connection:
            return current_revision(connection)
    except Exception:
        return None
    finally:
        engine.dispose()


def model_check(settings: Settings) -> Check | None:
    """The model endpoint answers a one-word request (None: no model configured)."""
    if not (settings.llm_base_url and settings.llm_model):
        return None
    from bot.prose import LLMConfig, check_model

    config = LLMConfig(
        base_url=settings.llm_base_url,
        model=settings.llm_model,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
        timeout=min(settings.llm_timeout, 30.0),
        retries=0,
    )
    problem = check_model(config)
    if problem is not None:
        return Check("model", False, problem)
    return Check("model", True, f"{settings.llm_model} at {settings.llm_base_url} answers")


def topics_check(settings: Settings) -> Check:
    from bot.model.rules import load_rules

    where = str(settings.topics_file) if settings.topics_file else "the shipped topic rules"
    try:
        rules = load_rules(settings.topics_file)
    except Exception as exc:
        return Check(
            "topics",
            False,
            f"{where} cannot be used ({exc}): fix it or unset VLLM_REPORT_TOPICS_FILE",
            setting=True,
        )
    return Check("topics", True, f"{where}: {len(rules.topics)} topics")


def disabled_checks(settings: Settings, chats: list[Check]) -> list[Check]:
    """Each destination the daily post disabled as gone: re-enabled when its channel's check
    above passed (the bot was invited back); else said, with what to do. A DM cannot be
    looked at here: the daily run tries it again a day after its last failure."""
    from bot.store import Store

    reachable = {c.name for c in chats if c.ok}
    store = Store(settings.store_url())
    try:
        found = []
        for key, reason in store.ledger.disabled().items():
            head, _, rest = key.partition(":")  # slack:C1, slack:C1#digest-amd, discord-dm:42
            channel = f"{head} channel {rest.split('#', 1)[0]}"
            if channel in reachable:
                store.ledger.enable(key)
                said = f"was disabled as gone ({reason}); reachable now: re-enabled"
                found.append(Check(key, True, said))
            elif head.endswith("-dm"):
                said = f"disabled as gone ({reason}): tried again a day after its last failure"
                found.append(Check(key, False, said))
            else:
                said = f"disabled as gone ({reason}): invite the bot, then run doctor again"
                found.append(Check(key, False, said))
        return found
    finally:
        store.close()
