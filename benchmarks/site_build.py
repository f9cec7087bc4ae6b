"""The report site of the fixture days: its size, build time, and what a rebuild rewrites.

    python benchmarks/site_build.py

Archives 2026-03-11 and 2026-03-24 (with their trend baselines) through the fake GitHub,
builds the site cold, rebuilds it with nothing new, then archives 2026-03-25 and rebuilds:
prints days, pages, files, seconds, and the files each build wrote.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.sites import FixtureArchive


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        with FixtureArchive(Path(tmp) / "data", hostile=False) as archive:
            for label in ("2026-03-11", "2026-03-24"):
                archive.archive(label)
            rows = [("cold", archive.build(root))]
            rows.append(("nothing new", archive.build(root)))
            archive.archive("2026-03-25")
            rows.append(("one new day", archive.build(root)))
            rows.append(("again", archive.build(root)))
        print(f"{'build':<12} {'days':>4} {'pages':>5} {'files':>5} {'written':>7} {'seconds':>7}")
        for name, built in rows:
            print(
                f"{name:<12} {built.days:>4} {built.pages:>5} {built.files:>5} "
                f"{len(built.written):>7} {built.seconds:>7.2f}"
            )
        print("\none new day wrote:")
        for name in rows[2][1].written:
            print("  " + name)


if __name__ == "__main__":
    main()
