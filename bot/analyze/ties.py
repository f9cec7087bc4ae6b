"""Ties that explain: items of a window that no link joins but whose facts say they are one
story, told once as that story.

- A regression or wrong-output report and a PR merged in the window before it was opened
  that changed a default, turned something on or off, or removed or replaced something the
  report names (a flag, an identifier, two of the rarer words of the PR's title): the
  report came after the change to what it names. Timing and a shared name are no proof
  of cause, so the tie says exactly that ("reported after the change in #N"), never
  "caused by".
- A CI-failure report and a PR of the window opened or merged after it whose title or
  description names the same test (`test_foo`, `tests/x/test_y.py`) or the same CI job
  ("LM Eval Large Models (H200)"): the PR works on the failing test.

Pure: items in, `(a, b, reason, kind)` ties out (stories.py makes them edges).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from bot.analyze.explain import issue_work
from bot.analyze.reasons import flips_default
from bot.analyze.severity import severity
from bot.analyze.titles import untagged
from bot.model.report import ActivityItem
from bot.model.windows import Window

Tie = tuple[int, int, str, str]  # (a, b, reason, kind): a's relation to b is the kind's

BODY = 3000  # characters of a report's description read for the names it holds
RARE = 3  # a title word in at most this many titles of the window is a name of its own
# A change of behaviour, as a title starts: what a report after it may be about.
_CHANGES = re.compile(
    r"^\W*(?:enabl|disabl|turn|switch|chang|remov|replac|drop|deprecat|mak|default|revert|"
    r"upgrad|bump|updat)\w*\b",
    re.I,
)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]|[A-Za-z0-9]")
# A name a title gives: a flag, an environment variable, an identifier with an underscore,
# a digit or a capital after its first letter (`--kv-cache-dtype`, `VLLM_USE_AITER`,
# `fuse_rope_kvcache`, `RMSNorm`, `sm100`).
_IDENTIFIER = re.compile(r"^(?:--[a-z][\w-]+|[A-Za-z]\w*(?:_\w+|\d\w*|[a-z][A-Z]\w*))$")
_PLAIN = frozenset(
    """
    a an the and or of to in on for with by from at as is are be into via not no when this
    that it its than then vs per only all any new old more less add support enable disable
    enabled disabled fix bug issue error default by turn on off switch change remove replace
    drop deprecate make update upgrade bump revert model models vllm test tests ci
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# The tests a CI-failure report names.
_TEST = re.compile(r"\btests?/[\w/.-]+\.py\b|\btest_[A-Za-z0-9_]+")
_FAILURE_TAG = re.compile(r"^\s*\[ci failure\]\s*:?\s*", re.I)
MIN_JOB = 2  # words a job's name needs to be matched by name
# A PR that works on a failing test says so in its title: it fixes, skips or marks it.
_WORKS_ON_TEST = re.compile(r"\b(?:fix\w*|skip\w*|xfail|disabl\w*|flaky|revert\w*|mark\w*)\b", re.I)


def ties(items: Sequence[ActivityItem], window: Window) -> list[Tie]:
    """Every tie of the window's items (see the module's doc)."""
    return _after_change(items, window) + _test_fixes(items, window)


_WRONG = {"regression", "wrong output"}  # what a report after a change says went wrong


def _after_change(items: Sequence[ActivityItem], window: Window) -> list[Tie]:
    frequency = Counter(w for it in items for w in {w.lower() for w in _words(it.title)})
    changes = [
        it
        for it in items
        if it.kind == "pr"
        and it.merged_at is not None
        and window.contains(it.merged_at)
        and (flips_default(it) or _CHANGES.search(untagged(it.title)))
    ]
    found: list[Tie] = []
    for report in items:
        if report.kind != "issue" or not window.contains(report.created_at):
            continue
        signals = {name for name, _ in severity(report)} & _WRONG
        best = _changed_before(report, changes, frequency) if signals else None
        if best is not None:
            change, shared = best
            quoted = ", ".join(f"'{n}'" for n in shared[:3])
            reason = (
                f"#{report.number} reports {' and '.join(sorted(signals))} after "
                f"#{change.number} merged, which changed what it names ({quoted})"
            )
            found.append((report.number, change.number, reason, "after_change"))
    return found


def _changed_before(
    report: ActivityItem, changes: Sequence[ActivityItem], frequency: Counter[str]
) -> tuple[ActivityItem, list[str]] | None:
    """The change merged before `report` was opened that shares most of what it names (an
    identifier, or two rarer words), with those names; None when none does."""
    said = set(_words(f"{report.title}\n{(report.body or '')[:BODY]}".lower()))
    best: tuple[int, ActivityItem, list[str]] | None = None
    for change in changes:
        if change.merged_at is None or change.merged_at > report.created_at:
            continue
        shared = sorted(n for n in _names(change, frequency) if n.lower() in said)
        strong = [n for n in shared if _IDENTIFIER.match(n)]
        rank = 2 * len(strong) + len(shared)
        if (strong or len(shared) >= 2) and (best is None or rank > best[0]):
            best = (rank, change, shared)
    return (best[1], best[2]) if best is not None else None


def _names(change: ActivityItem, frequency: Counter[str]) -> set[str]:
    """The names a change's title gives: identifiers, and its rarer words."""
    out = set()
    for word in _words(untagged(change.title)):
        low = word.lower()
        if low in _PLAIN or len(low) < 3:
            continue
        if _IDENTIFIER.match(word) or frequency[low] <= RARE:
            out.add(word)
    return out


def _words(text: str) -> list[str]:
    """A text's words, a compound's parts apart too ("allreduce+RMSNorm" → both)."""
    words = _WORD.findall(text.replace("+", " ").replace("/", " "))
    return words + [w.lstrip("-") for w in re.findall(r"--[a-z][\w-]+", text)]


def _test_fixes(items: Sequence[ActivityItem], window: Window) -> list[Tie]:
    found: list[Tie] = []
    prs = [it for it in items if it.kind == "pr" and _on_a_test(it, window)]
    for report in items:
        if report.kind != "issue" or issue_work(report) != "ci_failure":
            continue
        names = _failing(report) if window.contains(report.created_at) else []
        for pr in prs if names else ():
            if pr.merged_at is not None and pr.merged_at < report.created_at:
                continue  # landed before the failure was reported: no answer to it
            text = f"{pr.title}\n{pr.body or ''}".lower()
            named = [n for n in names if n in text]
            if named:
                reason = (
                    f"#{pr.number} names the test #{report.number} reports failing ({named[0]})"
                )
                found.append((pr.number, report.number, reason, "fixes_test"))
    return found


def _failing(report: ActivityItem) -> list[str]:
    """What a CI-failure report names as failing: its tests, else its CI job's name
    ("LM Eval Large Models (H200)"), lower case."""
    tests = sorted({t.lower() for t in _TEST.findall(f"{report.title}\n{report.body or ''}")})
    job = _FAILURE_TAG.sub("", report.title).strip().lower()
    named_job = _FAILURE_TAG.match(report.title) and len(job.split()) >= MIN_JOB
    return tests or ([job] if named_job else [])


def _on_a_test(pr: ActivityItem, window: Window) -> bool:
    """A PR of the window (opened or merged in it) whose title says it works on a test."""
    in_window = window.contains(pr.created_at) or (
        pr.merged_at is not None and window.contains(pr.merged_at)
    )
    return in_window and _WORKS_ON_TEST.search(pr.title) is not None
