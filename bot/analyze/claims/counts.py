"""Claims of figures: the window's counts ("29 new issues", "合并 PR 44", "55 of the 100 new
PRs were merged") and a vendor's figures ("NVIDIA: 9 merged PRs", "### Merged PRs (9)").

A figure said where a vendor is speaking (in its section, or on a line that starts with its
name) is that vendor's, never the day's: "1 earlier issue closed" on NVIDIA's line is not a
claim that the day closed one issue.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from bot.analyze.claims.facts import Facts
from bot.model.claims import Claim
from bot.model.report import ListName, Report

# A label then its figure, as our counts line writes them ("> Counts: New issues 29 |
# Merged PRs 44 | …"): the label as we spell it (case kept: "new issues 2" in prose is not
# one), the figure whole, and not a vendor heading's "Merged PRs (9)".
_LABEL = r"(?-i:\b{}):?\s+(\d+)\b(?![%.,]\d)"
# The window's figures as reports write them, by the population each counts.
_COUNT_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "new_issues",
        (
            r"新\s*Issue\s*[:：]?\s*(\d+)",
            r"新增\s*Issue\s*(\d+)",
            r"(\d+)\s*(?:个)?新(?:的)?\s*Issue(?!\s*和)",
            r"\b(\d+)\s+new\s+issues?\b(?!\s+and)",
            r"\b(\d+)\s+issues?\s+(?:were\s+)?opened",
            _LABEL.format("New issues"),
        ),
    ),
    (
        "closed_issues",
        (
            r"关闭\s*Issue\s*[:：]?\s*(\d+)",
            r"(\d+)\s*个?\s*Issue\s*(?:被)?关闭",
            r"(\d+)\s*个\s*(?:已)?关闭的?\s*Issue",
            r"\b(\d+)\s+issues?\s+(?:were\s+)?closed",
            r"\b(\d+)\s+closed\s+issues?\b",
            _LABEL.format("Closed issues"),
        ),
    ),
    (
        "new_prs",
        (
            r"新\s*PR\s*[:：]?\s*(\d+)",
            r"新增\s*PR\s*(\d+)",
            r"(\d+)\s*个\s*(?:新增的?|新的?)\s*PR",
            r"(\d+)\s*个新增",
            r"\b(\d+)\s+new\s+PRs?\b",
            r"\b(\d+)\s+PRs?\s+(?:were\s+)?opened",
            _LABEL.format("New PRs"),
        ),
    ),
    (
        "merged_prs",
        (
            r"(?<!未)合并\s*PR\s*[:：]?\s*(\d+)",
            r"(\d+)\s*个\s*(?:已)?合并",
            # Not a span's own count: "上次通过与首次失败之间合并了 7 个改动" (between two
            # builds) is not the window's.
            r"(?<!之间)合并了\s*(\d+)\s*个",
            r"\b(\d+)\s+PRs?\s+(?:were\s+)?merged",
            r"\bmerged\s+(\d+)\s+PRs?",
            r"\b(\d+)\s+merged\s+PRs?\b",
            _LABEL.format("Merged PRs"),
        ),
    ),
    (
        "closed_unmerged_prs",
        (
            r"关闭未合并\s*PR\s*[:：]?\s*(\d+)",
            r"(\d+)\s*个\s*未合并(?:关闭)?的?\s*PR",
            r"\b(\d+)\s+PRs?\s+(?:were\s+)?closed\s+without\s+merging",
            r"\b(\d+)\s+closed(?:[- ]unmerged|\s+without\s+merging)\s+PRs?\b",
            _LABEL.format("Closed without merging"),
        ),
    ),
    ("new_items", (r"(\d+)\s*个新的?\s*Issue\s*和\s*PR", r"\b(\d+)\s+new\s+issues\s+and\s+PRs")),
)
_COUNT_PATTERNS = tuple(
    (re.compile("|".join(f"(?:{p})" for p in patterns), re.I), population)
    for population, patterns in _COUNT_WORDS
)
# "55 of the 100 new PRs were merged": a share of a population, checked against it.
_SHARE = re.compile(
    r"\b(\d+)\s+of\s+(?:the\s+)?(\d+)\s+new\s+PRs?\s+(?:were\s+|got\s+)?merged"
    r"|(\d+)\s*个[^，。0-9]{0,6}PR\s*(?:中[，,]?|[，,])[^0-9，。]{0,6}(\d+)\s*个[^，。0-9]{0,3}合并"
    r"|\b(\d+)\s+(?:new\s+)?PRs?[^.;]{0,30}?,\s*(?:of which|and)\s+(\d+)\s+"
    r"(?:were\s+|got\s+)?merged",
    re.I,
)
# A vendor's figure by bucket: as a heading ("Merged PRs (9)", "已合并 PR（9）") and in its
# one line ("9 merged PRs", "已合并 PR 9").
_FIGURES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (bucket, re.compile(pattern, re.I))
    for bucket, pattern in (
        ("merged", r"merged PRs?\s*\((\d+)\)|\b(\d+) merged PRs?\b|已合并 PR\s*[（(]?(\d+)"),
        ("review", r"PRs? in review\s*\((\d+)\)|\b(\d+) PRs? in review\b|审阅中 PR\s*[（(]?(\d+)"),
        (
            "new",
            r"new issues? (?:and|or) draft PRs?\s*\((\d+)\)|\b(\d+) new issues? (?:and|or) draft"
            r"|新 Issue 与草稿 PR\s*[（(]?(\d+)",
        ),
        (
            "done",
            r"earlier issues? closed\s*\((\d+)\)|\b(\d+) earlier issues? closed"
            r"|关闭的?旧 Issue\s*[（(]?(\d+)",
        ),
        (
            "closed",
            r"PRs? closed without merging\s*\((\d+)\)|\b(\d+) PRs? closed unmerged"
            r"|未合并关闭 PR\s*[（(]?(\d+)",
        ),
    )
)


# Closings by a sweep, as a model writes them ("28 stale or bulk closings"); per list in our
# own counts line, so read in prose we publish only.
_SWEEP_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "swept",
        (
            r"\b(\d+)\s+(?:\w+\s+){0,2}(?:stale|bulk)\b[^.;,]{0,30}\bor\b[^.;,]{0,20}"
            r"\b(?:stale|bulk|low-effort)",
            r"(\d+)\s*个?[^。；，]{0,6}(?:过期或批量|过期与批量|批量或过期)",
        ),
    ),
    (
        "stale",
        (
            r"\b(\d+)\s+(?:\w+\s+){0,2}(?:closed\s+)?by\s+the\s+stale\s+bot",
            r"\b(\d+)\s+stale\b",
            r"过期关闭\s*(?:了\s*)?(\d+)",
        ),
    ),
    (
        "stale_prs",
        (
            r"\b(\d+)\s+(?:\w+\s+){0,2}PRs?\s+(?:were\s+)?(?:closed\s+)?(?:as|by the)\s+stale",
            r"(\d+)\s*个\s*PR[^，。；]{0,24}(?:stale|过期)",
        ),
    ),
    (
        "stale_issues",
        (
            r"\b(\d+)\s+(?:\w+\s+){0,2}issues?\s+(?:were\s+)?(?:closed\s+)?(?:as|by the)\s+stale",
            r"(\d+)\s*个\s*issue[^，。；]{0,24}(?:stale|过期)",
        ),
    ),
    (
        "open_prs",
        (
            r"\bopen\s+PRs?\s*\((\d+)\)",
            r"\b(\d+)\s+(?:still\s+)?open\s+PRs?\b",
            r"(\d+)\s*个\s*(?:仍在)?(?:审阅中|待合并|开放)的?\s*PR",
        ),
    ),
    (
        "low_effort",
        (
            r"\b(\d+)\s+(?:\w+\s+){0,2}(?:closed\s+)?(?:as\s+)?low-effort",
            r"\b(\d+)\s+(?:\w+\s+){0,2}closed\s+in\s+bulk",
            r"批量关闭\s*(?:了\s*)?(\d+)",
        ),
    ),
)
_SWEEP_PATTERNS = tuple(
    (re.compile("|".join(f"(?:{p})" for p in patterns), re.I), population)
    for population, patterns in _SWEEP_WORDS
)


def count_claims(text: str, sentence: str, report: Report, *, strict: bool = False) -> list[Claim]:
    """The window's figures `text` (a sentence in the writer's own words) states, each
    against the lists; `sentence` is the sentence as written. `strict` (prose we publish)
    also reads closings by a sweep (the stale bot's, the bulk closing's) and open PRs."""
    stats = _populations(report)
    claims: list[Claim] = []
    taken: list[tuple[int, int]] = []
    for share in _SHARE.finditer(text):
        claims.append(_share_claim(share, sentence, report))
        taken.append(share.span())
    claims += split_claims(text, sentence, report)
    patterns = (*_SWEEP_PATTERNS, *_COUNT_PATTERNS) if strict else _COUNT_PATTERNS
    for pattern, population in patterns:
        for match in pattern.finditer(text):
            if any(a <= match.start() < b for a, b in taken):
                continue
            value = next(g for g in match.groups() if g)
            truth = stats[population]
            verdict = "correct" if int(value) == truth else "wrong"
            claimed, real = f"{population} {value}", f"{population} {truth}"
            claims.append(Claim(None, "count", sentence, claimed, verdict, real))
            taken.append(match.span())
    return claims


# How a closure count splits, as our counts line writes it: "Closed issues 10 (8 by people,
# 2 by the stale bot)", "关闭未合并 PR 74（作者或维护者关闭 21 个，因低质量被批量关闭 52 个，
# 过期关闭 1 个）". Each part is a figure the facts decide.
_SPLIT_LISTS = (
    (ListName.CLOSED_ISSUES, r"(?-i:Closed issues) \d+ \(([^)]*)\)|关闭 Issue \d+（([^）]*)）"),
    (
        ListName.CLOSED_UNMERGED_PRS,
        r"(?-i:Closed without merging) \d+ \(([^)]*)\)|关闭未合并 PR \d+（([^）]*)）",
    ),
)
_SPLIT_PARTS = (
    ("resolved", r"(\d+) by (?:people|authors or maintainers)|(?:人工|作者或维护者)关闭 (\d+) 个"),
    ("low_effort", r"(\d+) closed as low-effort in bulk|因低质量被批量关闭 (\d+) 个"),
    ("stale", r"(\d+) by the stale bot|过期关闭 (\d+) 个"),
)


def split_claims(text: str, sentence: str, report: Report) -> list[Claim]:
    """The parts of a closure count in our counts line, each against the closures."""
    claims: list[Claim] = []
    for name, pattern in _SPLIT_LISTS:
        split = report.closures.get(name)
        for match in re.finditer(pattern, text):
            inside = next(g for g in match.groups() if g is not None)
            for part, words in _SPLIT_PARTS:
                found = re.search(words, inside)
                if found is None:
                    continue
                value = int(next(g for g in found.groups() if g))
                truth = getattr(split, part) if split is not None else 0
                claimed, real = f"{name.value} {part} {value}", f"{name.value} {part} {truth}"
                verdict = "correct" if value == truth else "wrong"
                claims.append(Claim(None, "count", sentence, claimed, verdict, real))
    return claims


def _populations(report: Report) -> dict[str, int]:
    """Each population a count may be of: the five lists, and the sweeps and open PRs."""
    stats = {name.value: count for name, count in report.stats.items()}
    stats["new_items"] = stats["new_issues"] + stats["new_prs"]
    stats["stale"] = sum(split.stale for split in report.closures.values())
    stats["low_effort"] = sum(split.low_effort for split in report.closures.values())
    stats["swept"] = stats["stale"] + stats["low_effort"]
    closed_prs = report.closures.get(ListName.CLOSED_UNMERGED_PRS)
    closed_issues = report.closures.get(ListName.CLOSED_ISSUES)
    stats["stale_prs"] = closed_prs.stale if closed_prs is not None else 0
    stats["stale_issues"] = closed_issues.stale if closed_issues is not None else 0
    end = report.window.end
    stats["open_prs"] = sum(
        1
        for n in report.lists[ListName.NEW_PRS]
        if not _ended(report.items[n].merged_at, end) and not _ended(report.items[n].closed_at, end)
    )
    return stats


def _ended(moment: datetime | None, end: datetime) -> bool:
    return moment is not None and moment < end


def _share_claim(share: re.Match[str], sentence: str, report: Report) -> Claim:
    if share.group(1):
        merged, of = int(share.group(1)), int(share.group(2))
    elif share.group(3):
        of, merged = int(share.group(3)), int(share.group(4))
    else:
        of, merged = int(share.group(5)), int(share.group(6))
    new_prs = [report.items[n] for n in report.lists[ListName.NEW_PRS]]
    truth_of = len(new_prs)
    truth_merged = sum(
        1 for it in new_prs if it.merged_at is not None and it.merged_at < report.window.end
    )
    ok = (merged, of) == (truth_merged, truth_of)
    return Claim(
        None,
        "count",
        sentence,
        f"{merged} of {of} new PRs merged",
        "correct" if ok else "wrong",
        f"{truth_merged} of {truth_of} new PRs merged",
    )


def vendor_figure_claims(text: str, sentence: str, key: str, facts: Facts) -> list[Claim]:
    """A vendor's figures `text` states, each against the items of that bucket."""
    figures = facts.figures(key)
    if figures is None:
        return []
    claims = []
    for bucket, pattern in _FIGURES:
        for match in pattern.finditer(text):
            said = int(next(g for g in match.groups() if g))
            truth = len(figures.get(bucket, ()))
            verdict = "correct" if said == truth else "wrong"
            claimed, real = f"{key} {bucket} {said}", f"{key} {bucket} {truth}"
            claims.append(Claim(None, "count", sentence, claimed, verdict, real))
    return claims


def line_vendor(line: str, names: Mapping[str, str]) -> str | None:
    """The vendor a line speaks for when it starts with its name and a colon ("NVIDIA: 9
    merged PRs · …", "🎯 AMD/ROCm 生态：…")."""
    head = line.lstrip(" -*>•🎯\t")
    for name, key in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if head.lower().startswith(name) and head[len(name) : len(name) + 1] in (":", "："):
            return key
    return None
