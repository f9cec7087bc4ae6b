"""What each line of a report teaches, on the real fixture days: the figures issue 51 asks
for. The fake GitHub serves the fixture days; `show` renders them as a reader gets them,
and the report it made is read for what each line is.

    python benchmarks/reason_lines.py                 # every fixture day, both languages
    python benchmarks/reason_lines.py --lines         # and every why line, to count by hand

Per day and language:
- why lines, and those that hold a fact beyond the title (an item linked, the author's words
  quoted, a figure, what the landing waits on); empty ones (a comment count, "it concerns
  X", a symptom the title already says): goal 0;
- featured items (What happened, key changes, notable issues) whose description holds an
  effect sentence and that show none of it (no own line, no quoted reason): goal ≤ 1;
- merged changes of a default or a security fix told nowhere before the appendix: goal 0;
- in Chinese: featured items without a Chinese sentence of their own (goal 0), English
  quotes standing without one (goal 0), the share of Chinese letters before the appendix
  (goal ≥ 35% on days with descriptions);
- the ties the day makes (a report after the change it names, a CI failure and its fix).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import anchor_days  # noqa: E402
from tests.fixture_run import fixture_github, kept_reports  # noqa: E402

_EMPTY = re.compile(
    r"comments? so far|条评论|it concerns|涉及 |\breports (?:a crash|a hang|wrong output|a "
    r"regression)|反馈出现|implements arXiv|实现论文"
)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_FRAMES = re.compile(
    r"【[^】]*】|— [^·]*|· \S+|影响：|作者说明|报告写道|更改默认值|已合并|审阅中|待处理|草稿"
    r"|未合并关闭|已解决|见上|「[^」]*」|#\d+"
)


def show(day: Any, lang: str) -> str:
    from bot.cli import main as cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(["show", day.label, "--cutoff", day.cutoff, "--lang", lang])
    if code:
        raise SystemExit(f"show {day.label} exited {code}")
    return out.getvalue()


def words(line: Any) -> str:
    return "".join(getattr(p, "text", "") for p in line)


def chinese(line: str) -> bool:
    """A line that says something in Chinese beyond our frames (states, labels, quotes)."""
    return len(_HAN.findall(_FRAMES.sub("", line))) >= 2


def measure(day: Any, lang: str, kept: list[Any]) -> dict[str, Any]:
    from bot.analyze.effects import effect_sentence
    from bot.analyze.reasons import flips_default, security
    from bot.model.outline_parts import Ref, Theirs
    from formatters import outline as ol
    from formatters import outline_entries as oe

    markdown = show(day, lang)
    report = kept[-1]
    info = report.sections
    body = markdown.split("## 📋")[0]
    whys = []
    for number in info.explained:
        line = oe.why(report, number, lang)
        if line is not None:
            whys.append((number, line))
    factual = [
        (n, line)
        for n, line in whys
        if any(isinstance(p, (Ref, Theirs)) for p in line)
        or re.search("measured|实测", words(line))
    ]
    empty = [(n, words(line)) for n, line in whys if _EMPTY.search(words(line))]
    full = ol.outline(report, lang)
    gist, sections = ol.once(full.gist, full.body)
    entries = [
        *gist,
        *(e for s in sections if s.key != "appendix" for b in s.blocks for e in b.entries),
    ]
    said: dict[int, list[str]] = {}
    for entry in entries:
        if entry.number is not None:
            said.setdefault(entry.number, []).extend(words(x) for x in (entry.head, *entry.lines))
    featured = [f.number for f in ol.featured(report)]
    unshown = []
    for number in featured:
        item = report.item(number)
        effect = effect_sentence(item, "")
        lines = said.get(number, [])
        shows = any(
            ("“" in x or "「" in x or (len(x) > 40 and x in (item.body or ""))) for x in lines[1:]
        )
        own = info.what.get(number, "")
        if effect and not shows and not any(own and own[:40] in x for x in lines):
            unshown.append(number)
    landed = [
        n
        for n in report.items
        if report.items[n].merged_at is not None
        and report.window.contains(report.items[n].merged_at)
        and (flips_default(report.items[n]) or security(report.items[n]))
    ]
    hidden = [n for n in landed if f"#{n}" not in re.sub(r"\]\([^)]*\)", "]", body)]
    ties = [
        (s.lead, m.number, m.relation)
        for s in info.stories
        for m in s.members
        if m.relation in ("reported_after", "changed_before", "fixes_test", "test_failure")
    ]
    found: dict[str, Any] = {
        "whys": whys,
        "why_lines": len(whys),
        "factual": len(factual),
        "empty": empty,
        "featured": len(featured),
        "effect_unshown": unshown,
        "defaults_or_security": landed,
        "only_in_appendix": hidden,
        "ties": ties,
    }
    if lang == "zh":
        found["without_sentence"] = [
            n for n in featured if not any(chinese(x) for x in said.get(n, []))
        ]
        alone = []
        for entry in entries:
            quotes = [
                words(x)
                for x in entry.lines
                if "作者说明「" in words(x) or "报告写道「" in words(x)
            ]
            others = [words(entry.head), *(words(x) for x in entry.lines if words(x) not in quotes)]
            if quotes and not any(chinese(x) for x in others) and "✍️" not in " ".join(quotes):
                alone.append(entry.number)
        found["quotes_alone"] = alone
        letters = [c for c in re.sub(r"\]\([^)]*\)", "]", body) if c.isalpha()]
        found["chinese_share"] = sum(bool(_HAN.match(c)) for c in letters) / len(letters)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--day", action="append", help="a fixture day (default: all)")
    parser.add_argument("--lines", action="store_true", help="print every why line")
    args = parser.parse_args()
    kept = kept_reports()
    days = [d for d in anchor_days() if not args.day or d.label in args.day]
    with fixture_github():
        for day in days:
            for lang in ("en", "zh"):
                found = measure(day, lang, kept)
                line = (
                    f"{day.label} {lang}: why lines {found['why_lines']}, with a fact beyond the "
                    f"title {found['factual']}, empty {len(found['empty'])}; featured "
                    f"{found['featured']}, an effect in the body shown nowhere "
                    f"{len(found['effect_unshown'])} {found['effect_unshown']}; merged defaults "
                    f"and security fixes {len(found['defaults_or_security'])}, only in the "
                    f"appendix {len(found['only_in_appendix'])}; ties {found['ties']}"
                )
                if lang == "zh":
                    line += (
                        f"; featured without a Chinese sentence {found['without_sentence']}, "
                        f"English quotes alone {found['quotes_alone']}, Chinese letters "
                        f"{found['chinese_share']:.1%}"
                    )
                print(line)
                if args.lines:
                    for number, why in found["whys"]:
                        print(f"    #{number}: {words(why)}")


if __name__ == "__main__":
    main()
