"""Key technical changes and notable issues: ranked by signals anyone can check.

Key changes are merged PRs, PRs opened in the window, and RFCs, scored by state, title
tags and discussion; routine CI/doc/misc work is pushed down. Notable issues are issues
with a severity signal in the title or opening lines (crash, hang, OOM, regression, wrong
output, security), ranked by that signal and by activity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.analyze.counts import is_stale_closure
from bot.analyze.references import purpose
from bot.analyze.topics import title_tags
from bot.model.report import ActivityItem, KeyChange, NotableIssue
from bot.model.rules import TopicRules
from bot.model.windows import Window

SIGNIFICANT_TAGS = frozenset(
    {
        "perf",
        "performance",
        "feature",
        "feat",
        "model",
        "new model",
        "core",
        "kernel",
        "rfc",
        "frontend",
        "quantization",
        "spec decode",
        "kv cache",
        "moe",
        "release",
        "releases",
    }
)
ROUTINE_TAGS = frozenset(
    {
        "ci",
        "ci/build",
        "doc",
        "docs",
        "misc",
        "test",
        "tests",
        "typo",
        "minor",
        "chore",
        "wip",
        "draft",
        "do not merge",
        "revert",
        "ci failure",
    }
)
SEVERITY: tuple[tuple[str, str, float], ...] = (
    ("security", r"security|CVE-\d+|vulnerab\w*|RCE|injection", 5.0),
    (
        "crash",
        r"crash\w*|segfault|segmentation fault|illegal memory access|core dumped|"
        r"SIGSEGV|SIGABRT|RuntimeError|CUDA error",
        3.0,
    ),
    ("hang", r"hang(s|ing)?|stuck|deadlock\w*|freez\w*|never returns|timeout", 3.0),
    ("regression", r"regress\w*", 3.0),
    (
        "wrong output",
        r"wrong|incorrect|garbage|gibberish|!{3,}|exclamation|accuracy|"
        r"nonsense|NaN|inf loss|only 1 token|repeat\w*",
        3.0,
    ),
    ("OOM", r"OOM|out of memory|memory leak|leak\w*", 2.5),
)
_SEVERITY_RES = tuple((name, re.compile(rf"\b(?:{p})", re.I), w) for name, p, w in SEVERITY)


def state_of(item: ActivityItem) -> str:
    if item.merged_at is not None:
        return "merged"
    return "closed" if item.closed_at is not None else "open"


DESCRIBED = 0.5  # a change that says what it does ranks a little higher


def key_changes(
    items: Sequence[ActivityItem], window: Window, rules: TopicRules, limit: int = 5
) -> tuple[KeyChange, ...]:
    scored: list[tuple[float, ActivityItem]] = []
    for it in items:
        if rules.is_bot(it.author):
            continue
        tags = set(title_tags(it.title))
        merged_here = it.merged_at is not None and window.contains(it.merged_at)
        opened_here = window.contains(it.created_at)
        is_rfc = "rfc" in tags or "RFC" in it.labels
        if it.kind == "pr" and not (merged_here or (opened_here and it.closed_at is None)):
            continue
        if it.kind == "issue" and not (is_rfc and opened_here):
            continue
        score = 3.0 if merged_here else 1.0
        score += 2.0 if tags & SIGNIFICANT_TAGS or is_rfc else 0.0
        score -= 3.0 if tags & ROUTINE_TAGS else 0.0
        score += min(it.comments, 20) / 4 + it.reactions / 2
        score += 1.0 if "ready" in it.labels else 0.0
        scored.append((score, it))
    # A description adds at most DESCRIBED to a score, so only items within that of the
    # limit-th best can make the list: the (costly) description is read for those alone.
    scored.sort(key=lambda pair: (-pair[0], pair[1].number))
    floor = scored[limit - 1][0] - DESCRIBED if len(scored) >= limit else float("-inf")
    ranked = []
    for score, it in scored:
        if score < floor:
            break
        description = purpose(it.body)
        total = score + (DESCRIBED if description else 0.0)
        ranked.append(KeyChange(it.number, state_of(it), description, round(total, 2)))
    ranked.sort(key=lambda k: (-k.score, k.number))
    return tuple(ranked[:limit])


def severity(item: ActivityItem) -> list[tuple[str, float]]:
    text = item.title + "\n" + (item.body or "")[:600]
    return [(name, w) for name, pattern, w in _SEVERITY_RES if pattern.search(text)]


def notable_issues(
    items: Sequence[ActivityItem], window: Window, rules: TopicRules, limit: int = 5
) -> tuple[NotableIssue, ...]:
    """Issues opened in the window, or resolved in it; a stale sweep is not news."""
    scored = []
    for it in items:
        if it.kind != "issue" or rules.is_bot(it.author):
            continue
        if not window.contains(it.created_at) and is_stale_closure(it):
            continue
        signals = severity(it)
        if not signals:
            continue
        text = it.title + "\n" + (it.body or "")[:2000]
        hardware = _distinct(_find(rules.hardware, text))
        models = _distinct(_find(rules.models, it.title))
        score = sum(w for _, w in signals) + min(it.comments, 30) / 3 + it.reactions
        score += 1.0 if "bug" in it.labels else 0.0
        scored.append(
            NotableIssue(it.number, tuple(n for n, _ in signals), hardware, models, round(score, 2))
        )
    scored.sort(key=lambda n: (-n.score, n.number))
    return tuple(scored[:limit])


def _find(pattern: re.Pattern[str] | None, text: str) -> list[str]:
    return [m.group(0) for m in pattern.finditer(text)] if pattern is not None else []


def _distinct(found: list[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in found:
        seen.setdefault(value.lower(), value)
    return tuple(seen.values())[:4]
