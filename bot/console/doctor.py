"""`vllm-report doctor` on the terminal: one line per check, ✓, ⚠ (works, but
readers see something off) or ✗, then the verdict.

Each line is masked (bot.model.errors): a check's sentence may quote what a library or a
service said, and that must never show a secret."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from bot.model.errors import masked
from bot.service.doctor import Check


def show(checks: Sequence[Check], out: TextIO) -> int:
    """Print the checks; the exit status: 0 all well, 2 a setting is wrong, 1 otherwise."""
    width = max((len(c.name) for c in checks), default=0)
    for check in checks:
        mark = "✗" if not check.ok else "⚠" if check.warn else "✓"
        print(masked(f"{mark} {check.name:<{width}}  {check.said}"), file=out)
    failed = [c for c in checks if not c.ok]
    if not failed:
        warned = sum(1 for c in checks if c.warn)
        also = f"; {warned} to look at: the lines marked ⚠" if warned else ""
        print(f"all well: {len(checks)} checks passed{also}", file=out)
        return 0
    print(f"{len(failed)} of {len(checks)} checks failed: fix the lines marked ✗", file=out)
    return 2 if any(c.setting for c in failed) else 1
