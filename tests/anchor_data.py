"""Real vLLM activity for the fake GitHub, built from the anchor reports' parsed appendices.

`tests/data/report-*.json` are the facts of three published daily reports (numbers,
titles, labels, authors, event times), copied from ../shared/fixtures/anchor-reports/.
Merged into one repository they give the fake GitHub real days to serve. What the
reports do not show is filled in so that it cannot move a count: an item listed only as
closed or merged was created before its window, so it gets a creation time ten days
before its event (no anchor window lies there).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.model.report import ActivityItem
from tests.fakes.github_api import FakeItem

DATA = Path(__file__).with_name("data")
REPO = "vllm-project/vllm"
LIST_NAMES = ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")


@dataclass(frozen=True)
class AnchorDay:
    """One published report: its window, counts and lists."""

    name: str
    start: datetime
    end: datetime
    counts: dict[str, int]
    lists: dict[str, list[int]]
    raw: dict[str, Any]

    @property
    def label(self) -> str:
        return self.start.astimezone(_CST).date().isoformat()

    @property
    def cutoff(self) -> str:
        return self.start.astimezone(_CST).strftime("%H:%M")


_CST = __import__("zoneinfo").ZoneInfo("Asia/Shanghai")


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def anchor_days() -> list[AnchorDay]:
    days = []
    for path in sorted(DATA.glob("report-*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        days.append(
            AnchorDay(
                name=path.stem,
                start=_utc(raw["window"]["start"]),
                end=_utc(raw["window"]["end"]),
                counts=dict(raw["counts"]),
                lists={name: [e["number"] for e in raw["lists"][name]] for name in LIST_NAMES},
                raw=raw,
            )
        )
    return days


THREAD_FILES = ("vllm-2026-03-24-items.json", "vllm-2026-03-25-threads.json")
# The fixtures' own remarks inside a body ("[excerpt starts mid-description: …]") are the
# collector's words, not the author's: a body starting with one is cut to what follows it.
_REMARK = re.compile(r"^\s*\[excerpt[^\]]*\]\s*", re.I)


def thread_facts() -> dict[int, dict[str, Any]]:
    """Bodies and comment turns of real items: 75 around 2026-03-24 (../shared/fixtures) and
    180 of 2026-03-25 (stored public threads; see the file's `source`)."""
    facts: dict[int, dict[str, Any]] = {}
    for name in THREAD_FILES:
        raw = json.loads((DATA / name).read_text(encoding="utf-8"))
        for entry in raw["items"]:
            facts.setdefault(entry["number"], entry)
    return facts


def body_of(entry: dict[str, Any] | None) -> str | None:
    """An item's stored body; one the store cut mid-sentence (`body_truncated`) ends at its
    last whole sentence or line, so no fragment of the cut reads as the author's words."""
    body = (entry or {}).get("body")
    if not body:
        return None
    body = _REMARK.sub("", body)
    if (entry or {}).get("body_truncated") or _cut_off(body):
        body = _whole(body)
    return body or None


def _cut_off(body: str) -> bool:
    """A stored excerpt that ends mid-sentence on a long line (some files do not mark it)."""
    last = body.rstrip().rsplit("\n", 1)[-1]
    return len(last) >= 80 and re.search(r"[A-Za-z,]$", last) is not None


def _whole(body: str) -> str:
    """A cut body up to its last sentence end or line break."""
    ends = [m.end() for m in re.finditer(r"[.!?。](?=\s)|\n", body)]
    return body[: ends[-1]].rstrip() if ends else body


def _turns(entry: dict[str, Any], reviews: bool) -> list[dict[str, Any]]:
    """The fixture's comment turns (or review turns); dates only, so each is placed at 12:00 UTC."""
    turns = []
    for index, turn in enumerate(entry.get("comment_list") or []):
        if not turn.get("created_at") or not turn.get("user"):
            continue
        is_review = str(turn.get("kind", "comment")).startswith("review")
        if is_review != reviews:
            continue
        at = datetime.fromisoformat(turn["created_at"] + "T12:00:00+00:00")
        turns.append(
            {
                "id": entry["number"] * 100 + index,
                "user": turn["user"],
                "created_at": at,
                "submitted_at": at,
                "state": "COMMENTED",
                "body": turn.get("body", ""),
            }
        )
    return turns


def _comments(entry: dict[str, Any]) -> list[dict[str, Any]]:
    return _turns(entry, reviews=False)


def anchor_items() -> list[FakeItem]:
    """Every item of the three reports, merged by number, as the fake GitHub serves them.

    Items also in the 2026-03-24 thread fixture get its body, comment count and turns.
    """
    threads = thread_facts()
    facts: dict[int, dict[str, Any]] = {}
    for day in anchor_days():
        for name in LIST_NAMES:
            for entry in day.raw["lists"][name]:
                fact = facts.setdefault(entry["number"], {"kind": entry["kind"]})
                fact.update(title=entry["title"], author=entry["author"], labels=entry["labels"])
                at = _utc(entry["at"])
                if entry["event"] == "created":
                    fact["created_at"] = at
                elif entry["event"] == "merged":
                    fact["merged_at"] = fact["closed_at"] = at
                else:
                    fact["closed_at"] = at
    items = []
    for number, fact in sorted(facts.items()):
        first_event = fact.get("closed_at") or fact.get("merged_at")
        created = fact.get("created_at") or first_event - timedelta(days=10)
        closed = fact.get("closed_at")
        labels = list(fact["labels"])
        items.append(
            FakeItem(
                number=number,
                kind="pr" if fact["kind"] in ("pr", "pull_request") else "issue",
                title=fact["title"],
                author=fact["author"],
                labels=labels,
                created_at=created,
                updated_at=max(t for t in (created, closed, fact.get("merged_at")) if t),
                closed_at=closed,
                merged_at=fact.get("merged_at"),
                state_reason=("not_planned" if "stale" in labels else "completed")
                if closed
                else None,
                comments=_comment_total(threads.get(number)),
                body=body_of(threads.get(number)),
                comment_list=_comments(threads[number]) if number in threads else [],
                reviews=_turns(threads[number], reviews=True) if number in threads else [],
            )
        )
    return items


def _comment_total(entry: dict[str, Any] | None) -> int:
    if not entry:
        return 0
    shown = len(_comments(entry))
    return int(entry.get("reported_comment_count") or entry.get("comments") or shown)


def background_items(count: int, *, before: datetime, seed: int = 7) -> list[FakeItem]:
    """Older repository history, so listings are repository-sized (vLLM has tens of thousands).

    Numbers skip those of the anchor items (stale sweeps close old ones); every event lies
    before `before`, so no anchor window's count moves.
    """
    rng = random.Random(seed)
    taken = {it.number for it in anchor_items()}
    numbers = [n for n in range(1, count + len(taken) + 1) if n not in taken][:count]
    items = []
    for number in numbers:
        created = before - timedelta(days=400) + timedelta(minutes=number * 10)
        created = min(created, before - timedelta(days=30))
        kind = "pr" if rng.random() < 0.65 else "issue"
        closed = created + timedelta(hours=rng.randint(1, 500)) if rng.random() < 0.9 else None
        merged = closed if kind == "pr" and closed and rng.random() < 0.6 else None
        if closed and closed >= before:
            closed = merged = None
        items.append(
            FakeItem(
                number=number,
                kind=kind,
                title=f"[Misc] background item {number}",
                author=f"user{rng.randint(1, 900)}",
                labels=[],
                created_at=created,
                updated_at=closed or created,
                closed_at=closed,
                merged_at=merged,
            )
        )
    return items


def kind_of(number: int, items: list[FakeItem]) -> str:
    return next(it.kind for it in items if it.number == number)


def as_activity(fake: FakeItem) -> ActivityItem:
    """A fixture item as the collector stores it (title, author, labels, body, times)."""
    return ActivityItem(
        repo=REPO,
        number=fake.number,
        kind="pr" if fake.kind == "pr" else "issue",
        title=fake.title,
        author=fake.author,
        labels=tuple(fake.labels),
        state="closed" if fake.closed_at else "open",
        created_at=fake.created_at,
        updated_at=fake.updated_at,
        url=f"https://github.com/{REPO}/{'pull' if fake.kind == 'pr' else 'issues'}/{fake.number}",
        closed_at=fake.closed_at,
        merged_at=fake.merged_at,
        comments=fake.comments,
        body=fake.body,
    )


# -- the published 2026-03-26 report's day, in part -------------------------------------------

REFERENCE_DAY_FILE = "vllm-2026-03-26-items.json"
_MERGE_NOTE = re.compile(r"merge commit time (\d{4}-\d\d-\d\dT[\d:]+Z)", re.I)
_OUTSIDE = re.compile(r"outside the window \(created|after the window end", re.I)
_LATER = datetime(2026, 4, 3, tzinfo=UTC)  # closed or merged after the window: open then


def reference_day_items() -> list[ActivityItem]:
    """The 2026-03-26 window as far as stored public threads show it (57 of its ~200 items,
    see the file's `source`): titles, authors, bodies as the threads hold them; a merge at
    the time a note gives, else after the window (open as the day ended, which is where the
    thread's state leaves it); a day-only creation date at 12:00 UTC (01:00 UTC for the
    window's last date, so it falls before the 03:45 UTC end). The two nightly requests the
    ROCm release answered are closed as completed half an hour after it merged, as the
    published report and the issue describing this day say; their stored copies predate that.
    """
    raw = json.loads((DATA / REFERENCE_DAY_FILE).read_text(encoding="utf-8"))
    out = []
    release_merged: datetime | None = None
    for entry in raw["items"]:
        note = entry.get("note") or ""
        if _OUTSIDE.search(note):  # opened after the window: not that day's
            continue
        merge = _MERGE_NOTE.search(note)
        merged = _utc(merge.group(1)) if merge else None
        if entry["state"] == "merged" and merged is None:
            merged = _LATER
        closed = merged or (_LATER if entry["state"] == "closed" else None)
        day = entry.get("created")
        hour = "01:00:00" if day == "2026-03-27" else "12:00:00"
        created = _utc(f"{day}T{hour}Z") if day else (merged or _LATER) - timedelta(days=10)
        if entry["number"] == 37283:
            release_merged = merged
        out.append(
            ActivityItem(
                repo=REPO,
                number=entry["number"],
                kind="pr" if entry["kind"] == "pr" else "issue",
                title=entry["title"],
                author=entry.get("author"),
                labels=tuple(entry.get("labels") or ()),
                state="closed" if closed else "open",
                created_at=created,
                updated_at=max(t for t in (created, closed, merged) if t),
                url=entry["url"],
                closed_at=closed,
                merged_at=merged,
                state_reason="completed" if closed and entry["kind"] == "issue" else None,
                comments=len(entry.get("comment_list") or []),
                body=body_of(entry),
            )
        )
    assert release_merged is not None
    delivered = release_merged + timedelta(minutes=30)
    return [
        replace(it, state="closed", closed_at=delivered, state_reason="completed")
        if it.number in (36703, 36704)
        else it
        for it in out
    ]
