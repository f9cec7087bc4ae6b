"""What a reader is told about why each featured item matters, per fixture day, in English
and Chinese, in the Markdown report and the Slack and Discord posts: the figures issue 42
asks for. The fake GitHub serves the real fixture days; `show` renders them as a reader
gets them, and the report it made is read for the structure (which line is what).

    python benchmarks/why_figures.py            # every fixture day, both languages
    python benchmarks/why_figures.py --day 2026-03-25 --show   # and print the first entries

Per day and language:
- lines before the appendix (the budget is 200);
- reasons that are a diff size (`+10 −2 in 1 file`) or a bare kind of work ("A fix for MoE.",
  "修复：MoE。"): goal 0;
- featured items (what happened, vendor entries, key changes, notable issues, hot
  discussions) with a why line, with their own words, with neither;
- explanation lines (own words and why lines, the story lines left out): zh ≥ en;
- titles shown cut, title-less later mentions ("#1 — 审阅中（见上）"): goal ≤ 10 %, 0;
- the share of Chinese letters before the appendix, link targets left out: goal ≥ 50 %;
- whether "What happened", the summary and the key changes name the same top three.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import anchor_days, anchor_items  # noqa: E402
from tests.fixture_run import fixture_github, kept_reports  # noqa: E402

# What the bot wrote where a reason should stand before issue 42: a size, or a kind alone.
_SIZE = re.compile(r"\+\d+ [−-]\d+(?: in \d+ files?|，共 \d+ 个文件| 共 \d+ 个文件)")
_KIND_ONLY = re.compile(
    r"^(?:A|An) (?:fix|performance change|new feature|kernel change|refactor|revert|backport|"
    r"deprecation|bug report|feature request|design proposal \(RFC\)|usage question|"
    r"CI failure report|installation problem|performance report|documentation request|"
    r"request for a new model|change|report)\b[^:]*\.$"
    r"|^(?:New model support|Quantization work|Documentation|CI and build work|Test work|"
    r"Benchmark tooling|Release work)\b[^:]*\.$"
    r"|^(?:修复|性能优化|新功能|新模型支持|量化|内核改动|重构|文档|CI 与构建|测试|基准工具|回退|"
    r"回移|发布|弃用|改动|缺陷报告|功能请求|设计提案（RFC）|使用问题|CI 失败报告|安装问题|性能问题|"
    r"文档问题|新模型请求|问题报告)(?:（[^）]*）)?(?:：[^。]*)?。$"
)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def chinese_share(text: str) -> float:
    letters = [c for c in _LINK_TARGET.sub("]", text) if c.isalpha()]
    han = sum(1 for c in letters if "\u4e00" <= c <= "\u9fff")
    return han / len(letters) if letters else 0.0


def show(day: Any, lang: str, fmt: str) -> str:
    from bot.cli import main as cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(["show", day.label, "--cutoff", day.cutoff, "--lang", lang, "--format", fmt])
    if code:
        raise SystemExit(f"show {day.label} exited {code}")
    return out.getvalue()


def structure(report: Any, lang: str) -> dict[str, Any]:
    """Which line of each told entry is what, read from the outline the renderers draw."""
    from bot.model.outline_parts import Our, Theirs
    from formatters import outline as ol
    from formatters.phrases import TEXT

    full = ol.outline(report, lang)
    gist, sections = ol.once(full.gist, full.body)
    # Before issue 42 the reason stood after the kind of work: "…. Why it matters: …".
    why_heads = {TEXT[lang].get("why_head", "Why it matters: "), "Why it matters: ", "要点："}
    entries = list(gist) + [
        e for s in sections if s.key != "appendix" for b in s.blocks for e in b.entries
    ]
    told = [e for e in entries if e.number is not None]
    first = {}
    for entry in told:
        first.setdefault(entry.number, entry)
    heads = [e.head for e in told]
    titles = [p for head in heads for p in head if isinstance(p, Theirs) and p.limit != 39]
    cut = [p for p in titles if len(p.text) > p.limit]
    stubs = [h for h in heads if not any(isinstance(p, Theirs) for p in h) and "见上" in str(h)]

    def kind(line: Any) -> str:
        head = line[0]
        if any(isinstance(p, Our) and any(h in p.text for h in why_heads) for p in line):
            return "why"
        if isinstance(head, Our) and head.text.startswith("原文："):
            return "own"
        if isinstance(head, Theirs) and len(line) == 1:
            return "own"
        if isinstance(head, Our) and head.text.startswith("✍️"):
            return "model"
        plain = "".join(getattr(p, "text", "") for p in line)
        return "kind-only" if _KIND_ONLY.match(plain) else "other"

    kinds: dict[str, int] = {}
    with_why = with_own = neither = 0
    for entry in first.values():
        found = [kind(line) for line in entry.lines]
        for k in found:
            kinds[k] = kinds.get(k, 0) + 1
        with_why += "why" in found
        with_own += "own" in found
        neither += "why" not in found and "own" not in found
    return {
        "featured": len(first),
        "with_why": with_why,
        "with_own_words": with_own,
        "with_neither": neither,
        "explanation_lines": kinds.get("why", 0) + kinds.get("own", 0),
        "kind_only_lines": kinds.get("kind-only", 0),
        "titles": len(titles),
        "titles_cut": len(cut),
        "stubs": len(stubs),
    }


def top_three(report: Any) -> dict[str, list[int]]:
    from formatters import outline as ol

    info = report.sections
    named = [n for theme in info.themes for n in theme.numbers]
    return {
        "what_happened": ol.gist_numbers(report, info)[:3],
        "summary": named[:3],
        "key_changes": [k.number for k in info.key_changes[:3]],
    }


_SLACK_LINK = re.compile(r"<[^|>]*\|([^>]*)>")


def texts(payload: Any) -> list[str]:
    """The words a chat payload shows (its text, title, description and field values), links
    as their text: what a reader sees, not the JSON around it."""
    if isinstance(payload, dict):
        found = []
        for key, value in payload.items():
            shown = key in ("text", "title", "description", "value", "name", "content")
            if shown and isinstance(value, str):
                found.append(_SLACK_LINK.sub(r"\1", value))
                continue
            found += texts(value)
        return found
    if isinstance(payload, list):
        return [t for value in payload for t in texts(value)]
    return []


def measure(day: Any, lang: str, kept: list[Any]) -> dict[str, Any]:
    markdown = show(day, lang, "markdown")
    report = kept[-1]
    body = markdown.split("## 📋")[0]
    chats = {fmt: json.loads(show(day, lang, fmt)) for fmt in ("slack", "discord")}
    chat_text = {fmt: "\n".join(texts(payload)) for fmt, payload in chats.items()}
    found = structure(report, lang)
    found.update(
        lines=sum(1 for line in body.splitlines() if line.strip()),
        size_reasons=len(_SIZE.findall(body)),
        size_reasons_chat=sum(len(_SIZE.findall(t)) for t in chat_text.values()),
        chinese_share=round(chinese_share(body), 3),
        chinese_share_slack=round(chinese_share(chat_text["slack"]), 3),
        top=top_three(report),
    )
    found["markdown"] = markdown
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--day", action="append", help="a fixture day (default: all)")
    parser.add_argument("--show", action="store_true", help="print each report's first part")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--model",
        action="store_true",
        help="keep LLM_BASE_URL and LLM_MODEL: the report with model prose (✍️ lines)",
    )
    args = parser.parse_args()
    kept = kept_reports()
    days = [d for d in anchor_days() if not args.day or d.label in args.day]
    # The fixtures do not know a PR's size: each gets one, so that a size offered as a reason
    # would show (the real days had them: "+10 −2 in 1 file").
    items = [
        replace(it, additions=10, deletions=2, changed_files=1) if it.kind == "pr" else it
        for it in anchor_items()
    ]
    results = []
    with fixture_github(items, keep=("LLM_",) if args.model else ()):
        for day in days:
            for lang in ("en", "zh"):
                found = measure(day, lang, kept)
                markdown = found.pop("markdown")
                results.append({"day": day.label, "lang": lang, **found})
                top = found["top"]
                agree = top["what_happened"] == top["summary"] == top["key_changes"]
                print(
                    f"{day.label} {lang}: {found['lines']} lines; featured {found['featured']}"
                    f" (why {found['with_why']}, own words {found['with_own_words']}, neither"
                    f" {found['with_neither']}); explanation lines"
                    f" {found['explanation_lines']}; size reasons {found['size_reasons']}"
                    f" (chat {found['size_reasons_chat']}); kind-only lines"
                    f" {found['kind_only_lines']}; titles cut {found['titles_cut']}/"
                    f"{found['titles']}; stubs {found['stubs']}; Chinese"
                    f" {found['chinese_share']:.0%} (Slack {found['chinese_share_slack']:.0%});"
                    f" top three agree: {'yes' if agree else 'no ' + str(top)}"
                )
                if args.show:
                    print(markdown.split("## 🎯")[0])
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
