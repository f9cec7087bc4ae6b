"""Checks of single setting values, each failing with what would be right: a repository
name, a time of day, chat IDs, an HTTP URL, a listening address, a token, a database URL.
Pure functions but one (`check_sqlite_folder` looks at the file system): the Settings class
(config.fields) applies them, the sources (config.sources) too.
"""

from __future__ import annotations

import re
from datetime import time
from pathlib import Path
from urllib.parse import urlsplit

from bot.model.errors import InputError

REPO_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
TIME_RE = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
SLACK_CHANNEL_RE = re.compile(r"^[CG][A-Z0-9]+$")  # public (C…) and private (G…) channels
SLACK_USER_RE = re.compile(r"^[UW][A-Z0-9]+$")
DISCORD_ID_RE = re.compile(r"^\d{1,20}$")
URL_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
HOST_RE = re.compile(
    r"^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*|"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$"
)
# The database URL schemes the store opens: SQLite, and PostgreSQL through psycopg 3 (the
# one driver installed; bot.store.engine reads postgres:// and postgresql:// with it).
DATABASE_SCHEMES = ("sqlite", "sqlite+pysqlite", "postgresql", "postgresql+psycopg", "postgres")


class SettingsError(InputError):
    """A setting is wrong; the message names it and says what would be right."""


def parse_cutoff(value: str) -> time:
    """`HH:MM` → time; the error says what to write instead."""
    match = TIME_RE.match(value.strip())
    if not match:
        raise ValueError(f"cutoff '{value}' is not a time of day like 11:45")
    return time(int(match.group(1)), int(match.group(2)))


def http_url(value: str) -> str:
    """An http(s) URL with a host and no spaces, or a ValueError saying what to write."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or " " in value.strip():
        raise ValueError(f"'{value}' is not an http(s) URL like https://host/path")
    if parts.hostname and "." in parts.hostname and not HOST_RE.match(parts.hostname):
        raise ValueError(f"'{value}' names no valid host")
    return value.strip()


def check_token(value: str) -> None:
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


def check_database_url(url: str) -> None:
    """A database URL the driver reads as meant; the error never shows the URL (it may hold
    a password)."""
    if any(char.isspace() or not char.isprintable() for char in url):
        raise ValueError(
            "holds a space, a line break or another control character (not shown here): "
            "write such a character of the password percent-encoded (a space as %20)"
        )
    if not URL_SCHEME_RE.match(url):
        raise ValueError(
            "not a database URL: write sqlite:////path/to/file.sqlite3 or "
            "postgresql://user@host/dbname"
        )
    scheme = url.partition("://")[0]
    if scheme.lower() not in DATABASE_SCHEMES:  # e.g. mysql://: "No module named 'MySQLdb'"
        raise ValueError(
            f"{scheme}:// is not a database vllm-report can use: write "
            "sqlite:////path/to/file.sqlite3 for SQLite or postgresql://user@host/dbname "
            "(postgres:// too) for PostgreSQL"
        )
    netloc = url.partition("://")[2].split("/", 1)[0]
    if netloc.count("@") > 1:  # the driver would take the password's tail for the host
        raise ValueError(
            "its password holds '@': write each '@' of the password as %40 "
            "(postgresql://user:p%40ss@host/dbname)"
        )


def sqlite_store_path(url: str) -> Path | None:
    """The file a SQLite URL names (None: not SQLite, in memory, or a `uri=true` URL, whose
    path SQLite reads itself), as bot.store.engine reads it."""
    scheme, sep, rest = url.partition(":///")
    if not sep or not scheme.lower().startswith("sqlite") or "uri=true" in url.lower():
        return None
    path = rest.split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


def check_sqlite_folder(url: str) -> None:
    """The folder of the SQLite file `url` names exists, or a ValueError saying what to do.

    SQLite (and the store before it) would make any missing folder, so a typo in the path
    (`/srv/vllm-reprot/x.sqlite3`) gave a new, empty archive in a new folder, in silence. The
    default store, in the data folder, is not named by `DATABASE_URL` and still makes its
    own folder."""
    path = sqlite_store_path(url)
    if path is None:
        return
    folder = path.parent
    if folder.is_dir():
        return
    if folder.exists():
        raise ValueError(f"{folder} is a file, not a folder: name a store file in a folder")
    raise ValueError(
        f"the folder {folder} does not exist: create it, or name a store file in a folder "
        "that exists"
    )


def url_password(url: str) -> str | None:
    """The password inside a database URL (user:password@host), if any: all of it up to the
    host's '@' (the last one), so no tail of it is left unmasked."""
    netloc = url.partition("://")[2].split("/", 1)[0]
    userinfo = netloc.rpartition("@")[0]
    password = userinfo.partition(":")[2]
    return password or None


def csv(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def check_ids(value: str, pattern: re.Pattern[str], what: str) -> str:
    """A comma-separated list of IDs; a name, another separator or a stray mark is refused."""
    for part in csv(value):
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
