"""What the facts say an item does and why it matters: the line under each item a report
tells first, written without a model.

The kind of work comes from the title's tags, its labels and its first words (a fix, a
performance change, new model support …; for an issue: a bug report, a feature request, an
RFC …); what it concerns from its topics (vendors first) and the hardware and models its
title names; why a reader should care from facts anyone can check: the benchmark figures
its description claims (quoted), a results table or a paper, the issues it says it fixes,
the PRs that say they fix it, a revert, its size and reviewers (pulls API), an issue's
severity and the comments it drew. Facts only, no words: formatters/wording.py says them
in English and Chinese, and a model may add beside them, never instead of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.analyze.changes import severity
from bot.analyze.references import Link
from bot.analyze.titles import prefix_tag, title_tags, untagged
from bot.analyze.weight import REVERT, evidence, figures, routine, weighty_tags
from bot.model.report import ActivityItem, Explanation, PullDetails
from bot.model.rules import TopicRules

# A PR's title tags (and the words of its weighty tags) by the kind of work they name, in
# the order a mixed title is read: "[Bugfix][Perf]" is a fix.
_PR_TAGS: tuple[tuple[str, frozenset[str]], ...] = (
    ("fix", frozenset({"bugfix", "bug", "fix", "hotfix", "bug fix"})),
    ("model", frozenset({"new model", "new-model", "model"})),
    ("quantization", frozenset({"quantization", "quant"})),
    ("performance", frozenset({"perf", "performance", "optimization"})),
    ("kernel", frozenset({"kernel", "kernels"})),
    ("feature", frozenset({"feature", "feat", "frontend", "api", "spec decode", "kv cache"})),
    ("release", frozenset({"release", "releases"})),
    ("deprecation", frozenset({"deprecation"})),
    ("refactor", frozenset({"refactor", "cleanup", "chore", "misc", "core"})),
)
_ROUTINE_WORK = {
    "tests": "test",
    "CI": "ci",
    "docs": "docs",
    "typo": "docs",
    "benchmark script": "benchmark",
    "revert": "revert",
    "backport": "backport",
}
_WEIGHTY_WORK = {
    "performance": "performance",
    "quantization": "quantization",
    "new model": "model",
    "feature": "feature",
    "release": "release",
    "deprecation": "deprecation",
}
_ISSUE_TAGS: tuple[tuple[str, frozenset[str]], ...] = (
    ("rfc", frozenset({"rfc"})),
    ("bug", frozenset({"bug", "bug report"})),
    ("ci_failure", frozenset({"ci failure", "ci"})),
    ("feature_request", frozenset({"feature", "feature request"})),
    ("model_request", frozenset({"new model", "model"})),
    ("performance", frozenset({"performance", "perf"})),
    ("usage", frozenset({"usage", "question"})),
    ("installation", frozenset({"installation", "install"})),
    ("docs", frozenset({"doc", "docs", "documentation"})),
)
_ISSUE_LABELS = {
    "bug": "bug",
    "feature request": "feature_request",
    "rfc": "rfc",
    "usage": "usage",
    "ci-failure": "ci_failure",
    "installation": "installation",
    "performance": "performance",
    "documentation": "docs",
    "new-model": "model_request",
}
_FIX_WORDS = re.compile(
    r"^\W*(?:fix|fixes|fixed|fixing|resolve|resolves|correct|bug ?fix(?:es)?)\b", re.I
)
_NEW_WORK = re.compile(
    r"^\W*(?:add|adds|added|support|enable|introduce|implement|integrate)\b", re.I
)
_REFACTOR_WORDS = re.compile(r"^\W*(?:refactor|clean ?up|remove|rename|move|simplify)\b", re.I)
_PERF_WORDS = re.compile(
    r"\b(?:optimi[sz]e\w*|speed ?up|faster|fus(?:e|ed|ion)|throughput)\b", re.I
)


def pr_work(item: ActivityItem) -> str | None:
    """What kind of work a PR is: its title's tags and words first (a label follows the
    files touched), then its labels."""
    kind = routine(item)
    if kind in ("revert", "backport"):
        return _ROUTINE_WORK[kind]
    prefix, rest = prefix_tag(item.title)
    whole = set(title_tags(item.title)) | ({prefix} if prefix else set())
    tags = whole | {w for t in whole for w in t.split()}  # "[Kernel Bugfix]" is a fix
    words = untagged(rest)
    if tags & _PR_TAGS[0][1] or _FIX_WORDS.search(words):  # a fix, whatever else it is
        return "fix"
    for work, names in _PR_TAGS[1:]:
        # "[Model Runner V2]" is not new model support: that kind is named by a whole tag
        if (whole if work == "model" else tags) & names and work != "refactor":
            return work
    if kind is not None:
        return _ROUTINE_WORK[kind]
    weighty = weighty_tags(item)
    if weighty and weighty[0] in _WEIGHTY_WORK:
        return _WEIGHTY_WORK[weighty[0]]
    if _PERF_WORDS.search(words):
        return "performance"
    if _NEW_WORK.search(words):
        return "feature"
    if tags & _PR_TAGS[-1][1] or _REFACTOR_WORDS.search(words):
        return "refactor"
    return None


def issue_work(item: ActivityItem) -> str | None:
    """What kind of issue it is, as its template's tag or its labels say."""
    tags = set(title_tags(item.title))
    for work, names in _ISSUE_TAGS:
        if tags & names:
            return work
    if re.match(r"^\W*rfc\b", item.title, re.I):
        return "rfc"
    for label in item.labels:
        found = _ISSUE_LABELS.get(label.lower())
        if found is not None:
            return found
    return None


Cited = Mapping[int, Mapping[str, tuple[int, ...]]]  # item → link kind → who names it so


def cited_by(links: Mapping[int, Sequence[Link]]) -> dict[int, dict[str, tuple[int, ...]]]:
    """Who names each item, by the kind of link (read once for the report)."""
    found: dict[int, dict[str, list[int]]] = {}
    for number, own in links.items():
        for link in own:
            found.setdefault(link.target, {}).setdefault(link.kind, []).append(number)
    return {
        target: {kind: tuple(sorted(set(ns))) for kind, ns in kinds.items()}
        for target, kinds in found.items()
    }


def explain(
    item: ActivityItem,
    *,
    areas: Sequence[str],
    rules: TopicRules,
    links: Mapping[int, Sequence[Link]],
    cited: Cited,
    known: Mapping[int, ActivityItem],
    details: PullDetails | None = None,
    discussed: int = 0,
) -> Explanation:
    """The facts of one item; `links`: each item's own links, `cited`: who names whom
    (`cited_by`), `known`: the window's items and its context."""
    number = item.number
    named_by = cited.get(number, {})
    own = links.get(number, ())
    size = None
    reviewers = None
    if details is not None and details.additions is not None and details.deletions is not None:
        size = (details.additions, details.deletions, details.changed_files or 0)
        reviewers = sum(not rules.is_bot(login) for login in details.reviewers)
    is_pr = item.kind == "pr"
    return Explanation(
        number=number,
        kind=item.kind,
        work=pr_work(item) if is_pr else issue_work(item),
        areas=tuple(areas),
        hardware=_named(rules.hardware, item.title),
        models=_named(rules.models, item.title),
        figures=figures(item),
        evidence=evidence(item),
        signals=tuple(name for name, _ in severity(item)) if not is_pr else (),
        fixes=_targets(own, "fixes", known, "issue") if is_pr else (),
        fixed_by=tuple(n for n in named_by.get("fixes", ()) if _kind(known, n) == "pr"),
        reverts=_targets(own, "reverts", known, "pr") if REVERT.match(item.title) else (),
        reverted_by=tuple(n for n in named_by.get("reverts", ()) if n != number),
        size=size,
        reviewers=reviewers,
        comments=item.comments,
        discussed=discussed,
        first_time=(item.author_association or "").upper() in _FIRST_TIMERS,
    )


_FIRST_TIMERS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})


def _targets(
    own: Sequence[Link], kind: str, known: Mapping[int, ActivityItem], of: str
) -> tuple[int, ...]:
    return tuple(
        dict.fromkeys(
            link.target for link in own if link.kind == kind and _kind(known, link.target) == of
        )
    )


def _kind(known: Mapping[int, ActivityItem], number: int) -> str | None:
    found = known.get(number)
    return found.kind if found is not None else None


def _named(pattern: re.Pattern[str] | None, text: str) -> tuple[str, ...]:
    if pattern is None:
        return ()
    seen: dict[str, str] = {}
    for match in pattern.finditer(text):
        seen.setdefault(match.group(0).lower(), match.group(0))
    # "Qwen" beside "Qwen3-30B-A3B-FP8" names nothing more.
    kept = [name for low, name in seen.items() if not any(low in o and low != o for o in seen)]
    return tuple(kept)[:3]
