"""How grave a bug report is, from its title and problem statement: the severity signals a
maintainer reads first (a security problem, a crash, a hang, a regression, wrong output,
running out of memory). Notable issues weigh them (changes.py); an issue's Chinese
sentence says them (formatters/gloss_zh); ties read them (stories.py).
"""

from __future__ import annotations

import re

from bot.analyze.titles import title_tags
from bot.analyze.what import what_line
from bot.model.report import ActivityItem

SEVERITY: tuple[tuple[str, str, float], ...] = (
    ("security", r"security|CVE-\d+|vulnerab\w*|RCE|injection", 5.0),
    (
        "crash",
        r"crash\w*|segfault|segmentation fault|illegal memory access|core dumped|"
        r"SIGSEGV|SIGABRT|RuntimeError|CUDA error|AssertionError|IndexError|KeyError",
        3.0,
    ),
    ("hang", r"hang(s|ing)?|stuck|deadlock\w*|freez\w*|never returns|livelock", 3.0),
    ("regression", r"regress\w*", 3.0),
    (
        "wrong output",
        r"wrong|incorrect|garbage|gibberish|!{3,}|exclamation|accuracy|"
        r"nonsense|NaN|only 1 token|repeat\w*",
        3.0,
    ),
    ("OOM", r"OOM|out of memory|memory leak|leak\w*", 2.5),
)
# A word starts at a word boundary; a run of "!!!" has none (a space before it is no \b).
_SEVERITY_RES = tuple(
    (name, re.compile(rf"(?:\b|(?=!))(?:{p})", re.I), w) for name, p, w in SEVERITY
)
_BUG_TAGS = frozenset({"bug", "bug report", "bugs"})


def is_bug_report(item: ActivityItem) -> bool:
    tags = set(title_tags(item.title))
    labels = {label.lower() for label in item.labels}
    return bool(
        tags & _BUG_TAGS or "bug" in labels or (item.body and "Describe the bug" in item.body)
    )


def severity(item: ActivityItem) -> list[tuple[str, float]]:
    """Severity signals of a bug report, read in its title and problem statement."""
    if not is_bug_report(item):
        return []
    text = item.title + "\n" + what_line(item, limit=600)
    return [(name, w) for name, pattern, w in _SEVERITY_RES if pattern.search(text)]
