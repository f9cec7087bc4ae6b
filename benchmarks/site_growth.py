"""What the daily site rebuild costs as the archive grows: 30, 365 and 1,000 report days.

    python benchmarks/site_growth.py [--sizes 30,365,1000] [--per-day 12]

For each size, a synthetic archive of that many consecutive report days is written straight
into a new SQLite store: each day gets `--per-day` items cloned from the real anchor items
(titles, labels, authors and kinds are real; numbers and times are new), stamped as fetched
at the day's end, with the day's coverage. Then it builds the site cold, rebuilds it with
nothing new, and adds one day the way a daily sync does (that day's items, and three items
of the fortnight before closed during it) and rebuilds. Prints, per build: CPU seconds
(`time.process_time`, so other load on the machine does not count), the days made again and
the files written. The one-new-day row is the daily cost; its ratio to the 30-day row is
the growth.

`--stub-charts` draws every chart as a fixed stand-in PNG, at every size alike: a made day's
charts cost the same at any archive size (about a second of its CPU), so the stand-in shows
what grows with the archive, and makes the 1,000-day cold build minutes instead of half an
hour.

Runs against whatever `bot` is on the path first, so the same script measures an older
checkout (`PYTHONPATH=/path/to/old python benchmarks/site_growth.py`): a build without
`made` (before incremental day records) prints "-".
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from datetime import time as time_of_day
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

if TYPE_CHECKING:
    from bot.model.report import ActivityItem
    from bot.service.site import SiteBuilder

HERE = Path(__file__).resolve().parents[1]
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))  # after PYTHONPATH: an older checkout's `bot` wins

TZ = ZoneInfo("Asia/Shanghai")
CUTOFF = time_of_day(11, 33)
REPO = "vllm-project/vllm"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="30,365,1000")
    parser.add_argument("--per-day", type=int, default=12)
    parser.add_argument("--stub-charts", action="store_true", help="a stand-in PNG per chart")
    args = parser.parse_args()
    if args.stub_charts:
        from formatters import charts

        class Stand:
            png = b"\x89PNG stand-in"

        charts.chart = lambda *a, **k: Stand()  # type: ignore[assignment,misc]
    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            rows += [(size, *row) for row in _measure(Path(tmp), size, args.per_day)]
    daily = {size: cpu for size, name, cpu, _, _ in rows if name == "one new day"}
    first = min(daily) if daily else None
    print(f"{'days':>5} {'build':<12} {'CPU s':>8} {'made':>5} {'written':>7} {'vs first':>8}")
    for size, name, cpu, made, written in rows:
        ratio = f"{cpu / daily[first]:.2f}x" if name == "one new day" and first else ""
        print(f"{size:>5} {name:<12} {cpu:>8.2f} {made:>5} {written:>7} {ratio:>8}")


def _measure(tmp: Path, size: int, per_day: int) -> list[tuple[str, float, str, int]]:
    os.environ["VLLM_REPORT_DATA_DIR"] = str(tmp / "data")
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from bot.service.site import SiteBuilder
    from bot.store import Span
    from config.settings import load_settings

    last = date(2026, 3, 25)
    first = last - timedelta(days=size - 1)
    clock = [datetime.combine(last + timedelta(days=2), CUTOFF, TZ).astimezone(UTC)]
    bot = open_bot(load_settings(), load_rules(None), clock=lambda: clock[0])
    store = bot.reports.archiver.store
    source = _source_items()
    number = 100_000
    made: list[ActivityItem] = []
    for n in range(size):
        window = day_window(first + timedelta(days=n), TZ, CUTOFF)
        fetched = window.end + timedelta(minutes=30)
        day_items = []
        for k in range(per_day):
            at = window.start + (window.end - window.start) * (k + 0.5) / per_day
            template = source[(n * per_day + k) % len(source)]
            day_items.append(_clone(template, number, at))
            number += 1
        store.items.save(day_items, fetched)
        store.coverage.add(REPO, Span(window.start, window.end), "search", fetched)
        made += day_items
    builder = SiteBuilder(bot.reports, REPO, TZ, CUTOFF)
    root = tmp / "site"
    results = [("cold", *_build(builder, root))]
    results.append(("nothing new", *_build(builder, root)))
    new = day_window(last + timedelta(days=1), TZ, CUTOFF)
    fetched = new.end + timedelta(minutes=30)
    today = [
        _clone(source[k % len(source)], number + k, new.start + timedelta(hours=k + 1))
        for k in range(per_day)
    ]
    closed = [
        replace(it, state="closed", closed_at=new.start + timedelta(hours=2), updated_at=fetched)
        for it in made[-per_day * 14 :: per_day * 5][:3]
    ]
    store.items.save(today + closed, fetched)
    store.coverage.add(REPO, Span(new.start, new.end), "search", fetched)
    results.append(("one new day", *_build(builder, root)))
    bot.close()
    return results


def _build(builder: SiteBuilder, root: Path) -> tuple[float, str, int]:
    started = time.process_time()
    built = builder.build(root)
    cpu = time.process_time() - started
    made = getattr(built, "made", None)
    return cpu, "-" if made is None else str(len(made)), len(built.written)


def _source_items() -> list[ActivityItem]:
    from bot.model.report import ActivityItem
    from tests.anchor_data import anchor_items

    items = []
    for fake in anchor_items():
        items.append(
            ActivityItem(
                repo=REPO,
                number=fake.number,
                kind="pr" if fake.kind == "pr" else "issue",
                title=fake.title,
                author=fake.author,
                labels=tuple(fake.labels),
                state="open",
                created_at=fake.created_at,
                updated_at=fake.created_at,
                url="",
                body=fake.body,
            )
        )
    return items


def _clone(template: ActivityItem, number: int, at: datetime) -> ActivityItem:
    noun = "pull" if template.kind == "pr" else "issues"
    return replace(
        template,
        number=number,
        created_at=at,
        updated_at=at,
        url=f"https://github.com/{REPO}/{noun}/{number}",
    )


if __name__ == "__main__":
    main()
