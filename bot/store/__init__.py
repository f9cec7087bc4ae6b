"""The store: everything the bot keeps, one module per concern.

SQLAlchemy 2.x on SQLite by default, PostgreSQL when `DATABASE_URL` says so; the schema is
versioned with Alembic (`engine.py` opens and upgrades). This package and the features'
own store modules (their tables are in `schema.py`) import SQLAlchemy, and no one else
(pyproject.toml's contract). `Store` opens the database once per process and hands out the
core's concerns:

- `items`: issues and PRs as GitHub last showed them (`items.py`);
- `coverage`: the spans of time fully collected and the sync cursor (`coverage.py`);
- `threads`: comment threads of hot-discussion candidates (`threads.py`);
- `prose`: the model-prose cache (`prose_cache.py`);
- `ledger`: the delivery ledger with its per-part leases, and gone destinations (`ledger.py`);
- `leases`: named leases with a fencing token, e.g. the scheduler's leadership (`leases.py`);
- `subscriptions`: who gets which digest (`subscriptions.py`);
- `pulls`: size and reviewers of key-change candidates (`pull_details.py`);
- `changes`: what the archive learned since a moment, for incremental rebuilds (`changes.py`);
- `lookups`: what GitHub answered about single upstream numbers and commits (`lookups.py`).

The features keep theirs in their own folders: the review queue's response facts
(bot/features/queue/store.py), readers' GitHub logins (bot/features/personal/store.py), the
plugins' pins and corrections (bot/features/radar/store_*.py), Red on main's reads
(bot/features/ci/store.py).
"""

from __future__ import annotations

from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from bot.store.changes import Changes
from bot.store.coverage import Coverage
from bot.store.engine import Transactions, check_writable, open_engine
from bot.store.failures import (
    BUSY_SECONDS,
    StoreError,
    StoreUrlError,
    describe,
    first_line,
    safe_url,
)
from bot.store.items import Items
from bot.store.leases import Held, Leases
from bot.store.ledger import Ledger
from bot.store.lookups import Lookup, Lookups
from bot.store.prose_cache import ProseCache
from bot.store.pull_details import PullDetailsStore
from bot.store.releases import Releases
from bot.store.spans import Span, merge_spans, subtract_spans
from bot.store.subscriptions import Subscription, Subscriptions
from bot.store.threads import Threads

__all__ = [
    "Held",
    "Lookup",
    "Span",
    "Store",
    "StoreError",
    "StoreUrlError",
    "Subscription",
    "merge_spans",
    "subtract_spans",
]


class Store:
    """All persistence of the bot. Open once per process; short transactions only."""

    def __init__(self, url: str, busy_seconds: float = BUSY_SECONDS) -> None:
        self.url = url
        try:
            self.engine = open_engine(url, busy_seconds)
        except (StoreError, StoreUrlError):
            raise
        except (ArgumentError, NoSuchModuleError) as exc:
            raise StoreUrlError(
                f"DATABASE_URL ({safe_url(url)}) is not a database URL SQLAlchemy can use "
                f"({first_line(exc)}): write sqlite:////path/to/file.sqlite3 or "
                "postgresql://user@host/dbname"
            ) from None
        except Exception as exc:  # driver errors vary; the message is what matters
            raise StoreError(
                describe(exc, safe_url(url), "cannot open the store ({where})")
            ) from exc
        # Features keep their own tables' objects, made from these (bot/features/*/store*.py).
        self.transactions = transactions = Transactions(self.engine, url)
        self.items = Items(transactions)
        self.coverage = Coverage(transactions)
        self.threads = Threads(transactions)
        self.prose = ProseCache(transactions)
        self.ledger = Ledger(transactions)
        self.leases = Leases(transactions)
        self.subscriptions = Subscriptions(transactions)
        self.pulls = PullDetailsStore(transactions)
        self.changes = Changes(transactions)
        self.lookups = Lookups(transactions)
        self.releases = Releases(transactions)

    def check_writable(self) -> None:
        """A write that changes nothing, rolled back: StoreError (what to change) when the
        store cannot be written (opening only reads a store at the newest revision)."""
        check_writable(self.engine, self.url)

    def close(self) -> None:
        self.engine.dispose()
