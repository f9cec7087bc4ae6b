"""The facts in an item's own words that change users' days: a default it changes (quoted),
a security problem it answers, the release a backport goes to.

Extractive only, like what.py: a default is told in the author's sentence, never
paraphrased. What a reader already has is left out (a default the title itself states is
on the head line). `flips_default` and `security` are what the ranking reads (changes.py):
a merged change of a default or a security fix changes every user's day, whatever its size.
"""

from __future__ import annotations

import re

from bot.analyze.what import REASON_LIMIT, cut, plain_sentences
from bot.model.report import ActivityItem

# A sentence that changes a default, not one that merely mentions one ("falls through to
# the default 500 error path" describes; "disable custom op by default" decides).
_DEFAULT_CHANGE = re.compile(
    r"\b(?:enabl|disabl|turn|switch|flip|mak|set|chang|default|use|us|keep|is|are|will|now)"
    r"\w*\b[^.;]{0,80}\b(?:by default|on by default|off by default)\b"
    r"|\bnow defaults?\s+(?:to|from)\s+\S|\bdefault (?:changes|changed|is now)\b"
    r"|\b(?:change|changes|changed|changing|flip|flips|new)\s+(?:the\s+)?default\b"
    r"|\bas (?:the |a )?(?:new )?default\b",
    re.I,
)
# A title that says it changes a default: "Enable tcmalloc by default", "Make V1 the
# default", "Default to FLASHINFER", "Disable custom op by default".
_DEFAULT_TITLE = re.compile(
    r"\bby default\b|\b(?:on|off) by default\b|\bas (?:the )?default\b|\bthe default\b"
    r"|^\W*(?:\[[^\]]*\]\s*)*default(?:s)?\s+(?:to|the)\b|\bdefault (?:to|on|off)\b",
    re.I,
)
# A security problem: a CVE, an advisory, a vulnerability, a security fix.
_SECURITY = re.compile(
    r"\bCVE-\d{4}-\d{3,}\b|\bGHSA-[\w-]{14}\b|\bsecurity\b|\bvulnerab\w*|\bRCE\b"
    r"|\bremote code execution\b|\barbitrary (?:code|file)\b|\bpath traversal\b|\bSSRF\b",
    re.I,
)
# "Backport PR #31816 to v0.13.0", "[v0.13.0] …", "cherry-pick … into release/v0.14".
_RELEASE = re.compile(
    r"\b(?:to|into|for|on)\s+(?:the\s+)?(?:release[/ -]?)?(v?\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)\b"
    r"|\[(v\d+\.\d+(?:\.\d+)?)\]",
    re.I,
)
DEFAULT_LIMIT = 200


def changed_default(item: ActivityItem, own: str) -> str:
    """The author's sentence that says which default the change sets, from its description;
    "" when only the title says it (the head line shows that) or nothing does."""
    if item.kind != "pr" or not item.body:
        return ""
    title = item.title.lower()
    for sentence in plain_sentences(item.body, item.repo):
        if not _DEFAULT_CHANGE.search(sentence) or len(sentence) > REASON_LIMIT:
            continue
        low = sentence.lower()
        if low.rstrip(". ") in title or low in own.lower():
            continue  # the head line or the item's own line says it already
        return cut(sentence, DEFAULT_LIMIT)
    return ""


def flips_default(item: ActivityItem) -> bool:
    """A PR whose title says it changes a default, or whose description decides one."""
    if item.kind != "pr":
        return False
    if _DEFAULT_TITLE.search(item.title):
        return True
    return any(_DEFAULT_CHANGE.search(s) for s in plain_sentences(item.body or "", item.repo)[:8])


def security(item: ActivityItem) -> bool:
    """An item about a security problem: its title, labels or the opening of its
    description name a CVE, an advisory, a vulnerability or a security fix."""
    if any(label.lower() in ("security", "cve") for label in item.labels):
        return True
    opening = " ".join(plain_sentences(item.body or "", item.repo)[:4])
    return bool(_SECURITY.search(item.title) or _SECURITY.search(opening))


def release_of(item: ActivityItem) -> str | None:
    """The release a backport goes to, as its title names it ("v0.13.0")."""
    match = _RELEASE.search(item.title)
    if match is None:
        return None
    found = match.group(1) or match.group(2)
    return found if found.lower().startswith("v") else "v" + found
