"""Print a real fixture day as the bot shows it: `vllm-report show` against the fake GitHub.

The fake GitHub serves the three real report days of tests/data (2026-03-11, -24, -25) with
older history, exactly as the tests see them; the command runs in a throwaway data folder.
For reading the report as its readers would, side by side with the published one in
../shared/fixtures/anchor-reports/.

    python tools/fixture_day.py 2026-03-25 [--lang zh] [--format markdown|slack|discord|json]
    python tools/fixture_day.py all --lines     # line counts before the appendix, every day
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import anchor_days  # noqa: E402
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
    args, extra = parser.parse_known_args()
    labels = [d.label for d in anchor_days()] if args.day == "all" else [args.day]
    with fixture_github():
        for label in labels:
            if args.lines:
                for lang in ("en", "zh"):
                    text = show(label, lang, "markdown", extra)
                    print(f"{label} {lang}: {before_appendix(text)} lines before the appendix")
            else:
                print(show(label, args.lang, args.format, extra), end="")


if __name__ == "__main__":
    main()
