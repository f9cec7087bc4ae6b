"""What `vllm-report check` prints: each claim with its verdict (text), or the stable JSON
contract `"schema": "vllm-check/1"`."""

from __future__ import annotations

import json
from typing import Any

from bot.model.claims import CheckResult
from formatters._text import clean

MARKS = {"wrong": "✗ wrong", "correct": "✓ correct", "unverifiable": "? unverifiable"}
QUOTE_LIMIT = 160


def render_check_text(result: CheckResult, *, every: bool = False) -> str:
    """The wrong claims (and with `every` all of them), then one line of figures."""
    lines = [f"Claims of the report of {result.window.label} checked against its facts:", ""]
    shown = [c for c in result.claims if every or c.verdict == "wrong"]
    for claim in shown:
        about = f"#{claim.number}" if claim.number is not None else "the window"
        lines.append(
            f"{MARKS[claim.verdict]:<15} {claim.type:<9} {about}: says {claim.claimed}"
            + (f"; the facts: {claim.truth}" if claim.verdict != "correct" else "")
        )
        lines.append(f"{'':16}“{clean(claim.quote, QUOTE_LIMIT, defuse=False)}”")
    counts = {v: sum(1 for c in result.claims if c.verdict == v) for v in MARKS}
    settled = counts["correct"] + counts["wrong"]
    if not shown and settled == 0:  # silence would read as "all checked and right"
        lines.append(
            "Nothing was settled: no sentence of this text names an item, a count or a "
            "figure the facts decide, so nothing in it was checked."
        )
    elif not shown:
        lines.append(f"No claim is wrong ({settled} settled by the facts).")
    lines += [
        "",
        f"{len(result.claims)} claims: {counts['correct']} correct, {counts['wrong']} wrong, "
        f"{counts['unverifiable']} unverifiable; {result.checkable} of {result.sentences} "
        "sentences checkable.",
    ]
    return "\n".join(lines) + "\n"


def check_to_dict(result: CheckResult) -> dict[str, Any]:
    window = result.window
    return {
        "schema": "vllm-check/1",
        "window": {
            "start": window.start.isoformat(),
            "end": window.end.isoformat(),
            "timezone": window.timezone,
            "label": window.label,
        },
        "claims": [
            {
                "number": c.number,
                "type": c.type,
                "quote": c.quote,
                "claimed": c.claimed,
                "verdict": c.verdict,
                "truth": c.truth,
            }
            for c in result.claims
        ],
        "sentences": {"read": result.sentences, "checkable": result.checkable},
    }


def render_check_json(result: CheckResult) -> str:
    return json.dumps(check_to_dict(result), ensure_ascii=False, indent=2) + "\n"
