"""What the facts say an item is and why it matters to a user: the line under each item a
report tells first, written without a model.

The kind of work (a fix, a performance change, new model support …; for an issue a bug
report, a feature request, an RFC …) comes from the title's kind tags, its routine kind and
its first verb; it labels the item and a vendor's tally, and is never told as a reason. Why
it matters comes only from facts anyone can check, and only those the title does not
already give: the issues it says it fixes (each with its title), the PRs that say they fix
it, what it reverts or backports and to which release, the author's benchmark figures, a
default it changes (quoted), the description's sentence that says what changes or goes
wrong and for whom (effects.py, quoted), what its landing waits on. No fact, no line: a
size, a category, a comment count or a name without what happens to it is never offered in
its place. Facts only, no words: formatters/why.py says them in English and Chinese, and a
model may add beside them, never instead of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.analyze.effects import effect_sentence, waits_on
from bot.analyze.reasons import changed_default, release_of
from bot.analyze.references import Link
from bot.analyze.severity import severity
from bot.analyze.titles import prefix_tag, title_tags, untagged
from bot.analyze.weight import REVERT, figures, routine
from bot.model.report import ActivityItem, Explanation
from bot.model.rules import TopicRules

# The title tags that name a kind of work, in the order a mixed title is read ("[Bugfix]
# [Perf]" is a fix). A tag that names a subject ([Kernel], [MoE], [Quantization], [KV Cache],
# [Frontend], [Model]) names no kind: "[MoE Refactor] Rename …" is a refactor, not a
# performance change; the title's first verb tells the rest.
_FIX_TAGS = frozenset({"bugfix", "bug", "fix", "hotfix", "bug fix"})
_KIND_TAGS: tuple[tuple[str, frozenset[str]], ...] = (
    ("model", frozenset({"new model", "new-model"})),
    ("performance", frozenset({"perf", "performance", "optimization", "optimisation"})),
    ("deprecation", frozenset({"deprecation", "deprecate"})),
    ("release", frozenset({"release", "releases"})),
    ("refactor", frozenset({"refactor", "cleanup", "clean-up"})),
    ("feature", frozenset({"feature", "feat"})),
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
_REFACTOR_WORDS = re.compile(
    r"^\W*(?:refactor|clean ?up|remove|rename|move|simplify|extract|reorgani[sz]e|unify)\b",
    re.I,
)
_PERF_WORDS = re.compile(
    r"\b(?:optimi[sz]e\w*|speed ?up|faster|fus(?:e|ed|ion)|throughput)\b", re.I
)


def pr_work(item: ActivityItem) -> str | None:
    """What kind of work a PR is: its title's kind tags, then its routine kind, then its
    first verb (a label follows the files touched, a subject tag names no kind)."""
    kind = routine(item)
    if kind in ("revert", "backport"):
        return _ROUTINE_WORK[kind]
    prefix, rest = prefix_tag(item.title)
    whole = set(title_tags(item.title)) | ({prefix} if prefix else set())
    tags = whole | {w for t in whole for w in t.split()}  # "[Kernel Bugfix]" is a fix
    words = untagged(rest)
    if tags & _FIX_TAGS or _FIX_WORDS.search(words):  # a fix, whatever else it is
        return "fix"
    for work, names in _KIND_TAGS:
        if tags & names:
            return work
    if kind is not None:
        return _ROUTINE_WORK[kind]
    if _REFACTOR_WORDS.search(words):
        return "refactor"
    if _PERF_WORDS.search(words):
        return "performance"
    if _NEW_WORK.search(words):
        return "model" if "model" in whole and _NEW_MODEL.search(words) else "feature"
    return None


# "[Model] Add support for X-7B": a new model; "[Model] Add LoRA to X" is a feature of one.
_NEW_MODEL = re.compile(
    r"^\W*(?:add|adds|added|support)\s+(?:support\s+for\s+)?\S+\s*$|"
    r"^\W*(?:add|adds|added)\s+(?:support\s+for\s+)?(?:the\s+)?\S+(?:\s+model)",
    re.I,
)


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
    own: str = "",
) -> Explanation:
    """The facts of one item; `links`: each item's own links, `cited`: who names whom
    (`cited_by`), `known`: the window's items and its context, `own`: its own line
    (what.py), which a reason or a default must not merely repeat."""
    number = item.number
    named_by = cited.get(number, {})
    mine = links.get(number, ())
    is_pr = item.kind == "pr"
    backport = is_pr and routine(item) == "backport"
    default = changed_default(item, own)
    return Explanation(
        number=number,
        kind=item.kind,
        work=pr_work(item) if is_pr else issue_work(item),
        areas=tuple(areas),
        hardware=_named(rules.hardware, item.title) + _standing(rules.hardware, own, item.title),
        models=_named(rules.models, item.title),
        figures=figures(item),
        default=default,
        effect=effect_sentence(item, " ".join(s for s in (own, default) if s)),
        waits_on=waits_on(item),
        signals=tuple(name for name, _ in severity(item)) if not is_pr else (),
        fixes=_targets(mine, "fixes", known, "issue") if is_pr else (),
        fixed_by=tuple(n for n in named_by.get("fixes", ()) if _kind(known, n) == "pr"),
        reverts=_targets(mine, "reverts", known, "pr") if REVERT.match(item.title) else (),
        reverted_by=tuple(n for n in named_by.get("reverts", ()) if n != number),
        backports=_backported(mine) if backport else (),
        release=release_of(item) if backport else None,
    )


def _backported(own: Sequence[Link]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(link.target for link in own if link.kind == "backports"))


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


def _standing(pattern: re.Pattern[str] | None, own: str, title: str) -> tuple[str, ...]:
    """Hardware its own line names as a word of its own ("on MI355 (gfx950)"), not inside a
    CI agent's or a path's name ("mi325_1", "linux-mi325"), and its title does not."""
    if pattern is None:
        return ()
    said = title.lower()
    found: dict[str, str] = {}
    for match in pattern.finditer(own):
        name = match.group(0).rstrip(".,;:")
        before = own[match.start() - 1 : match.start()]
        after = own[match.end() : match.end() + 1]
        glued = bool(before and before in "_-/") or bool(after and after in "_-/")
        if glued or name.lower() in said:
            continue
        found.setdefault(name.lower(), name)
    return tuple(found.values())[:2]


def _named(pattern: re.Pattern[str] | None, text: str) -> tuple[str, ...]:
    if pattern is None:
        return ()
    seen: dict[str, str] = {}
    for match in pattern.finditer(text):
        name = match.group(0).rstrip(".,;:")  # "DeepSeek-V3." ends a sentence, not a name
        seen.setdefault(name.lower(), name)
    # "Qwen" beside "Qwen3-30B-A3B-FP8" names nothing more.
    kept = [name for low, name in seen.items() if not any(low in o and low != o for o in seen)]
    return tuple(kept)[:3]
