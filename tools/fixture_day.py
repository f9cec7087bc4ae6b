"""Print a real fixture day as the bot shows it: `vllm-report show` against the fake GitHub.

The fake GitHub serves the three real report days of tests/data (2026-03-11, -24, -25) with
older history, exactly as the tests see them; the command runs in a throwaway data folder.
For reading the report as its readers would, side by side with the published one in
../shared/fixtures/anchor-reports/.

    python tools/fixture_day.py 2026-03-25 [--lang zh] [--format markdown|slack|discord|json]
    python tools/fixture_day.py all --lines     # line counts before the appendix, every day
    python tools/fixture_day.py 2026-03-25 --ci  # with Red on main, as the daily run reads it

`--ci` serves the recorded month of CI failures (tests/data/ci/) on a fake dashboard, with
main's history on the fake GitHub, and reads it as the day's daily run does (15 minutes
after the cutoff) before the report is shown.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import anchor_days  # noqa: E402
from tests.fakes.ci_dashboard import serve_main  # noqa: E402
from tests.fixture_run import fixture_github  # noqa: E402


def show(label: str, lang: str, fmt: str, extra: list[str]) -> str:
    from bot.cli import main as cli

    day = next(d for d in anchor_days() if d.label == label)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(["show", label, "--cutoff", day.cutoff, "--lang", lang, "--format", fmt, *extra])
    if code:
        raise SystemExit(f"show {label} exited {code}")
    return out.getvalue()


@contextlib.contextmanager
def ci_read(label: str) -> Iterator[None]:
    """The fake CI dashboard read for day `label` as its daily run reads it."""
    import bot.app.wiring
    import bot.cli.common
    from bot.cli import main as cli
    from tests.fakes.ci_dashboard import FakeCiDashboard

    day = next(d for d in anchor_days() if d.label == label)
    with FakeCiDashboard() as dashboard:
        dashboard.now = day.end + timedelta(minutes=15)
        os.environ["VLLM_REPORT_CI_URL"] = dashboard.url
        os.environ.setdefault("GITHUB_TOKEN", "ghp-fixture")
        clock = lambda: dashboard.now  # noqa: E731
        bot.cli.common.now = clock  # type: ignore[assignment]
        bot.app.wiring.now = clock  # type: ignore[assignment]
        with contextlib.redirect_stdout(io.StringIO()):
            cli(["ci", label, "--cutoff", day.cutoff])
        yield


def before_appendix(text: str) -> int:
    """Lines of a Markdown report before its appendix heading."""
    lines = text.splitlines()
    ends = [i for i, line in enumerate(lines) if line.startswith("## 📋")]
    return ends[0] if ends else len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("day", help="2026-03-11, 2026-03-24, 2026-03-25 or all")
    parser.add_argument("--lang", default="en", choices=("en", "zh"))
    parser.add_argument("--format", default="markdown")
    parser.add_argument("--lines", action="store_true", help="print line counts only")
    parser.add_argument("--ci", action="store_true", help="with Red on main (a fake dashboard)")
    args, extra = parser.parse_known_args()
    labels = [d.label for d in anchor_days()] if args.day == "all" else [args.day]
    with fixture_github() as github:
        if args.ci:
            serve_main(github)
        for label in labels:
            if args.lines:
                for lang in ("en", "zh"):
                    text = show(label, lang, "markdown", extra)
                    print(f"{label} {lang}: {before_appendix(text)} lines before the appendix")
            elif args.ci:
                with ci_read(label):
                    print(show(label, args.lang, args.format, extra), end="")
            else:
                print(show(label, args.lang, args.format, extra), end="")


if __name__ == "__main__":
    main()
