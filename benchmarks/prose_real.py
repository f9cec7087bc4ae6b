"""Model prose against a real model: what it proposes, what the checks show and drop (by
reason), tokens and time, per language, on the real fixture days (the fake GitHub serves
them; the model is any OpenAI-compatible server). Not part of CI: a CPU model takes minutes.

    ../shared/tools/local-model.sh serve &      # a 1.5B instruct model on 127.0.0.1:8081
    LLM_BASE_URL=http://127.0.0.1:8081/v1 LLM_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m \\
        python benchmarks/prose_real.py --day 2026-03-25 --lang zh --out /tmp/prose.json

Prints one block per day and language; `--out` writes every sentence (shown or dropped,
with the checker's reason) for labelling by hand (tests/data/prose-labelled.json is such a
set). The report without a model is made too, and every line of it must be in the report
with the model (a model may only add, or say a quote in Chinese in its place): the script
says how many are missing (goal 0), and the share of Chinese letters before the appendix
without and with the model.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import anchor_days  # noqa: E402
from tests.fixture_run import fixture_github  # noqa: E402
from tests.prose.script import missing_lines  # noqa: E402


def show(day: Any, lang: str, fmt: str) -> str:
    from bot.cli import main as cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(["show", day.label, "--cutoff", day.cutoff, "--lang", lang, "--format", fmt])
    if code:
        raise SystemExit(f"show {day.label} exited {code}")
    return out.getvalue()


def without_model(day: Any, lang: str) -> str:
    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("LLM_")}
    try:
        return show(day, lang, "markdown")
    finally:
        os.environ.update(saved)


ASKED: list[dict[str, Any]] = []  # every unit checked, with its answer (for labelling)


def record_units() -> None:
    """Keep each unit the writer checks, with the model's answer, so that a sentence can be
    labelled by hand and checked again alone (tests/data/prose-labelled.json)."""
    from bot.prose import writer

    checked = writer.ProseWriter._checked

    def keeping(self: Any, report: Any, lang: str, units: Any, answers: Any, run: Any) -> Any:
        for unit in units:
            answer = answers.get((unit.section, unit.number))
            if answer is not None:
                ASKED.append(
                    {
                        "day": report.window.label,
                        "lang": lang,
                        "section": unit.section,
                        "number": unit.number,
                        "facts": unit.facts,
                        "scope": sorted(unit.scope),
                        "answer": answer,
                    }
                )
        return checked(self, report, lang, units, answers, run)

    writer.ProseWriter._checked = keeping  # type: ignore[method-assign]


def run(day: Any, lang: str) -> dict[str, Any]:
    started = time.monotonic()
    data = json.loads(show(day, lang, "json"))
    seconds = time.monotonic() - started
    markdown = show(day, lang, "markdown")  # the same report, from the cache
    plain = without_model(day, lang)
    missing = missing_lines(plain, markdown)
    prose = data.get("prose") or {}
    shown = [
        {"item": int(n), "part": part, "sentence": text}
        for n, parts in (prose.get("parts") or {}).items()
        for part, text in parts.items()
    ]
    shown += [
        {"item": int(n), "part": "thread", "sentence": text}
        for n, text in (prose.get("discussions") or {}).items()
    ]
    for said in (prose.get("summary") or {}).values():
        shown.append({"item": 0, "part": "summary", "sentence": said})
    dropped = [{"sentence": r["sentence"], "why": r["why"]} for r in prose.get("rejected", [])]
    return {
        "day": day.label,
        "lang": lang,
        "seconds": round(seconds, 1),
        "calls": (prose.get("cost") or {}).get("calls", 0),
        "tokens_sent": (prose.get("cost") or {}).get("tokens_sent", 0),
        "kept": prose.get("kept", 0),
        "shown": shown,
        "dropped": dropped,
        "missing_lines": missing,
        "chinese": [round(chinese_share(plain), 3), round(chinese_share(markdown), 3)],
    }


def chinese_share(text: str) -> float:
    """Of the letters before the appendix (link targets left out), the Chinese share."""
    body = text.split("## 📋", 1)[0]
    letters = [c for c in re.sub(r"\]\([^)]*\)", "]", body) if c.isalpha()]
    return sum("\u4e00" <= c <= "\u9fff" for c in letters) / len(letters) if letters else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--day", action="append", help="a fixture day (default: all)")
    parser.add_argument("--lang", action="append", choices=("en", "zh"))
    parser.add_argument("--out", type=Path, help="write every sentence and verdict here")
    args = parser.parse_args()
    if not os.environ.get("LLM_BASE_URL"):
        raise SystemExit("set LLM_BASE_URL and LLM_MODEL to a running OpenAI-compatible server")
    os.environ.setdefault("LLM_TIMEOUT", "7200")
    os.environ.setdefault("LLM_TOKEN_BUDGET", "200000")
    record_units()
    days = [d for d in anchor_days() if not args.day or d.label in args.day]
    results = []
    with fixture_github(keep=("LLM_",)):
        for day in days:
            for lang in args.lang or ["en", "zh"]:
                found = run(day, lang)
                results.append(found)
                reasons = collections.Counter(d["why"].split(":")[0] for d in found["dropped"])
                print(
                    f"{day.label} {lang}: {found['calls']} requests, {found['seconds']} s, "
                    f"{found['tokens_sent']} tokens sent"
                )
                proposed = found["kept"] + len(found["dropped"])
                print(
                    f"  sentences proposed {proposed}, shown {found['kept']}, "
                    f"dropped {len(found['dropped'])}"
                )
                for reason, count in reasons.most_common():
                    print(f"    dropped: {reason} ({count})")
                print(
                    f"  lines of the report without a model missing with it: "
                    f"{len(found['missing_lines'])} (goal 0)"
                )
                without, with_model = found["chinese"]
                print(f"  Chinese letters before the appendix: {without:.0%} → {with_model:.0%}")
    if args.out:
        found = {"runs": results, "units": ASKED}
        args.out.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
