"""`vllm-report demo`: the real report of real vLLM activity, offline, in a throwaway store.

The sample (`data/demo-sample.json.gz`, made by `tools/demo_sample.py` from the three
published report days the tests reproduce) holds what the archive would hold after those days
were collected: the issues and PRs with their titles, labels, authors, times and bodies; the
comment threads read; the PR sizes; the spans collected. It is loaded into a SQLite store in a
temporary folder and answered by a reading-only pipeline — no network, no token, no setting —
so the demo shows what `show`, a chat post and the report site show of the core's report:
without the features' parts (Red on main, the Plugins section, the review queue), which the
sample does not hold, or the site's plugin pages.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import asdict, dataclass, fields
from datetime import datetime, time
from importlib import resources
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.model.query import ReportQuery
from bot.model.report import ActivityItem, CommentRecord, PullDetails, Report
from bot.model.rules import TopicRules
from bot.model.windows import Window, day_window
from bot.report_files import ReportFiles
from bot.service.reports import Reports
from bot.service.site import SiteBuild, SiteBuilder
from bot.store import Span, Store

SAMPLE = "demo-sample.json.gz"
NOWHERE = "http://127.0.0.1:9"  # the reading-only pipeline never asks; if it did, it would fail
SAMPLE_SCHEMA = 1


@dataclass(frozen=True)
class Sample:
    repo: str
    timezone: str
    cutoff: str
    days: tuple[str, ...]  # the report days held whole, oldest first
    now: datetime  # the demo's clock: after the last day, so every day is complete
    items: int

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def cutoff_time(self) -> time:
        hours, minutes = self.cutoff.split(":")
        return time(int(hours), int(minutes))

    def window(self, label: str) -> Window:
        return day_window(datetime.fromisoformat(label).date(), self.tz, self.cutoff_time)


class Demo:
    """The sample loaded into a store under `folder` (a temporary one: the caller's)."""

    def __init__(self, folder: Path, rules: TopicRules, sample: Path | None = None) -> None:
        raw = _read(sample)
        meta = raw["meta"]
        self.sample = Sample(
            repo=meta["repo"],
            timezone=meta["timezone"],
            cutoff=meta["cutoff"],
            days=tuple(meta["days"]),
            now=datetime.fromisoformat(meta["now"]),
            items=len(raw["items"]),
        )
        self.folder = folder
        self.store = Store(f"sqlite:///{folder / 'demo.sqlite3'}")
        _load(self.store, raw, self.sample)
        archiver = Archiver(self.store, GitHubSource(self.sample.repo, api_url=NOWHERE))
        self.reports = Reports(
            archiver.reading_only(),
            rules,
            ReportFiles(folder / "archive", None, self.sample.repo, setting="--output"),
            lambda: self.sample.now,
        )

    def report(self, label: str | None = None, lang: str = "en") -> Report:
        window = self.sample.window(label or self.sample.days[-1])
        return self.reports.report(ReportQuery(self.sample.repo, window, lang))

    def site(self, root: Path) -> SiteBuild:
        builder = SiteBuilder(
            self.reports, self.sample.repo, self.sample.tz, self.sample.cutoff_time
        )
        return builder.build(root)

    def close(self) -> None:
        self.store.close()


def _read(path: Path | None) -> dict[str, Any]:
    if path is None:
        data = resources.files("bot.service").joinpath("data", SAMPLE).read_bytes()
    else:
        data = path.read_bytes()
    raw: dict[str, Any] = json.loads(gzip.decompress(data))
    if raw.get("schema") != SAMPLE_SCHEMA:
        raise ValueError(f"demo sample schema {raw.get('schema')} is not {SAMPLE_SCHEMA}")
    return raw


def _load(store: Store, raw: dict[str, Any], sample: Sample) -> None:
    repo, now = sample.repo, sample.now
    items = [_item(entry) for entry in raw["items"]]
    store.items.save(items, now)
    earliest = min(datetime.fromisoformat(s[0]) for s in raw["coverage"])
    for number, comments in raw["threads"].items():
        thread = [_comment(repo, int(number), c) for c in comments]
        store.threads.save(repo, int(number), thread, earliest, now)
    for entry in raw["pulls"]:
        details = PullDetails(
            entry["number"],
            entry["additions"],
            entry["deletions"],
            entry["changed_files"],
            tuple(entry["reviewers"]),
        )
        store.pulls.save(repo, details, datetime.fromisoformat(entry["item_updated_at"]), now)
    for start, end in raw["coverage"]:
        span = Span(datetime.fromisoformat(start), datetime.fromisoformat(end))
        store.coverage.add(repo, span, "demo", now)


_TIMES = ("created_at", "updated_at", "closed_at", "merged_at")


def _item(entry: dict[str, Any]) -> ActivityItem:
    values = dict(entry)
    for name in _TIMES:
        if values.get(name):
            values[name] = datetime.fromisoformat(values[name])
    values["labels"] = tuple(values["labels"])
    return ActivityItem(**values)


def _comment(repo: str, number: int, entry: dict[str, Any]) -> CommentRecord:
    return CommentRecord(
        repo,
        number,
        entry["id"],
        entry["author"],
        entry["association"],
        datetime.fromisoformat(entry["at"]),
    )


def dump_sample(store: Store, sample: Sample, path: Path) -> int:
    """Write what `store` holds of `sample.repo` as a demo sample; its size in bytes."""
    repo = sample.repo
    # Only the report days themselves count as collected: the fixtures hold those days'
    # activity, not the whole of the trend baselines before them (shown as not archived).
    windows = [sample.window(day) for day in sample.days]
    spans = [Span(w.start, w.end) for w in windows]
    held = store.coverage.spans(repo)
    items = store.items.touching(repo, Span(held[0].start, held[-1].end))
    numbers = sorted(item.number for item in items)
    names = [f.name for f in fields(ActivityItem)]
    threads = store.threads.of(repo, numbers)
    pulls = store.pulls.of(repo, numbers)
    raw = {
        "schema": SAMPLE_SCHEMA,
        "source": "tests/data: three published vLLM daily reports and the threads of their items",
        "meta": {
            "repo": repo,
            "timezone": sample.timezone,
            "cutoff": sample.cutoff,
            "days": list(sample.days),
            "now": sample.now.isoformat(),
        },
        "items": [
            {
                name: (value.isoformat() if isinstance(value, datetime) else value)
                for name, value in zip(names, asdict(item).values(), strict=True)
            }
            for item in sorted(items, key=lambda it: it.number)
        ],
        "threads": {
            str(number): [
                {
                    "id": c.comment_id,
                    "author": c.author,
                    "association": c.author_association,
                    "at": c.created_at.isoformat(),
                }
                for c in comments
            ]
            for number, comments in sorted(threads.items())
        },
        "pulls": [
            {
                "number": details.number,
                "additions": details.additions,
                "deletions": details.deletions,
                "changed_files": details.changed_files,
                "reviewers": list(details.reviewers),
                "item_updated_at": updated.isoformat(),
            }
            for details, updated in (pulls[n] for n in sorted(pulls))
        ],
        "coverage": [[s.start.isoformat(), s.end.isoformat()] for s in spans],
    }
    data = gzip.compress(
        json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode(), mtime=0
    )
    path.write_bytes(data)
    return len(data)
