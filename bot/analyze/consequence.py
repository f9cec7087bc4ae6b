"""What a merged change does to users' days, whatever its size: the weight that puts it
ahead of open work in the key changes, the summary and What happened.

A merged security fix, a flipped default, a revert, a fix of a regression or of wrong
output change what every user of the next release gets; a change to how vLLM is released
changes what they install; a merged fix of a bug changes what its reporters get. Open
work, however weighty, changes nothing yet: it is weighed by what it is (weight.py) and
gets nothing here. Each reason is a fact anyone can check: the
title's or description's words (reasons.py), the title's kind of work, the severity of
the issues it says it fixes (severity.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.analyze.explain import pr_work
from bot.analyze.reasons import flips_default, security
from bot.analyze.severity import severity
from bot.analyze.weight import routine
from bot.model.report import ActivityItem

# What each consequence adds to a merged change's score (changes.py: a feature with
# figures and results weighs 6-9, a one-line fix 2-3).
SECURITY = 8.0
DEFAULT = 6.0
REGRESSION = 5.0
REVERT = 4.0
RELEASE = 4.0
FIX = 2.5
# A title about the project's own tests and CI ("Fix MoE kernel test failures on gfx950").
_FOR_CI = re.compile(r"\btests?\b|\bunit[- ]?tests?\b|\bCI\b|\bflaky\b|\bci[- ]failure", re.I)
# What a fix answers that users hit: a failure its title names.
_FAILURE = re.compile(
    r"\b(?:crash\w*|errors?|exceptions?|\w+Error|hang\w*|deadlock\w*|OOM|out of memory|leak\w*|"
    r"NaN|wrong|incorrect\w*|fail\w*|broken|corrupt\w*|illegal|segfault|invalid|mismatch\w*)\b",
    re.I,
)
# What a release change ships: a wheel, an image, a nightly, a package.
_SHIPS = re.compile(
    r"\b(?:wheels?|images?|docker|nightly|pypi|packages?|artifacts?|publish\w*)\b", re.I
)
# A fix of a regression or of wrong output says so in its title or description.
_REGRESSION = re.compile(
    r"\bregress\w*|\baccuracy (?:drop|regression|degradation|collapse|issue)|"
    r"\bintroduced (?:in|by) #\d+|\bbroken (?:since|after|by)\b|\bwrong (?:output|results?)\b|"
    r"\bgarbage\b|\bgibberish\b|\bNaNs?\b",
    re.I,
)


def consequence(
    item: ActivityItem, fixes: Sequence[int] = (), known: Mapping[int, ActivityItem] | None = None
) -> tuple[float, str | None]:
    """What a merged PR changes for users, as a weight and its reason (security, default,
    regression, revert, fix), or (0, None): not merged, or nothing of the kind. `fixes`:
    the issues it says it fixes, looked up in `known`."""
    if item.kind != "pr" or item.merged_at is None:
        return 0.0, None
    if security(item):
        return SECURITY, "security"
    if flips_default(item):
        return DEFAULT, "default"
    kind = routine(item)
    if kind == "revert":
        return REVERT, "revert"
    if kind is not None or _FOR_CI.search(item.title):
        return 0.0, None  # tests, CI, docs: what the work is for, not what users get
    work = pr_work(item)
    if work == "release" and _SHIPS.search(item.title):  # what users install changes
        return RELEASE, "release"
    if work != "fix":
        return 0.0, None
    text = f"{item.title}\n{(item.body or '')[:2000]}"
    graver = any(
        name in ("regression", "wrong output", "security")
        for n in fixes
        if known is not None and n in known
        for name, _ in severity(known[n])
    )
    if graver or _REGRESSION.search(text):
        return REGRESSION, "regression"
    if _FAILURE.search(item.title) or fixes:
        return FIX + 0.5, "fix"  # a failure users hit: a crash, an error, a reported bug
    return FIX, "fix"
