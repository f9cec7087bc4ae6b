"""What model prose costs one fixture day (issue 19). Not part of CI.

    python benchmarks/prose_cost.py            # 2026-03-25, both languages, 2 s per answer
    python benchmarks/prose_cost.py --delay 0.5 --day 1

The real bot (`vllm-report show`) against the fake GitHub serving the day, and the fake
OpenAI server answering every request (one item, thread or the day each) after `--delay`
seconds with a short scripted text. Per language it prints, for a first run (nothing
cached) and a second (same day again): model requests, parts answered from the cache,
tokens sent (counted by the fake, like a real server's `usage`: the prompt's characters / 3,
a CJK character a token), and the wall time of the report against the same report made
without a model in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.cli import main
from bot.prose.client import estimate_tokens
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI, Scripted
from tests.prose.script import asked, section_of


def responder(delay: float) -> Any:
    def answer(request: dict[str, Any]) -> Scripted:
        section = section_of(request)
        number = asked(request)
        if section == "day":
            body = {"summary": "A scripted summary."}
        elif section == "thread":
            body = {"text": f"#{number} is scripted."}
        else:
            body = {"what": f"#{number} is scripted.", "why": f"#{number} is scripted."}
        return Scripted(content=json.dumps(body), delay=delay)

    return answer


def show(day: Any, lang: str) -> tuple[float, dict[str, Any]]:
    out = io.StringIO()
    began = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["show", day.label, "--cutoff", day.cutoff, "--lang", lang, "--format", "json"])
    took = time.perf_counter() - began
    assert code == 0, "show failed"
    return took, json.loads(out.getvalue())


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--day", type=int, default=2, help="anchor day index (0, 1, 2)")
    parser.add_argument("--delay", type=float, default=2.0, help="seconds per model answer")
    args = parser.parse_args(argv)
    day = anchor_days()[args.day]
    first = min(d.start for d in anchor_days())
    items = anchor_items() + background_items(1500, before=first)
    print(f"day {day.label}, fake model answering in {args.delay:.1f} s")
    print(
        f"{'lang':<5}{'run':<8}{'requests':>9}{'cached':>8}{'tokens sent':>13}"
        f"{'report s':>10}{'no model s':>12}{'added s':>9}"
    )
    with FakeGitHub(REPO, items) as github, FakeOpenAI(responder(args.delay)) as llm:
        for lang in ("en", "zh"):
            with tempfile.TemporaryDirectory() as data:
                os.environ.update(
                    GITHUB_API_URL=github.url,
                    VLLM_REPORT_DATA_DIR=data,
                    VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
                )
                for name in ("LLM_BASE_URL", "LLM_MODEL"):
                    os.environ.pop(name, None)
                show(day, lang)  # collect the day once, so each run below reads the archive
                baseline, _ = show(day, lang)
                os.environ.update(LLM_BASE_URL=llm.url, LLM_MODEL="fake", LLM_TIMEOUT="60")
                for run in ("first", "second"):
                    before = len(llm.requests)
                    took, report = show(day, lang)
                    sent = llm.requests[before:]
                    tokens = sum(
                        estimate_tokens([m["content"] for m in r["messages"]]) for r in sent
                    )
                    cost = report.get("prose", {}).get("cost", {})
                    print(
                        f"{lang:<5}{run:<8}{len(sent):>9}{cost.get('cached', 0):>8}"
                        f"{tokens:>13}{took:>10.1f}{baseline:>12.1f}{took - baseline:>9.1f}"
                    )


if __name__ == "__main__":
    main_()
