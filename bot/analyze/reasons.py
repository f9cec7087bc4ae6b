"""The facts in an item's own words that say why it matters to a user: a default it changes
(quoted), the flags and environment variables it is about, the release a backport goes to.

Extractive only, like what.py: a default is told in the author's sentence, never
paraphrased; a flag is the string the author wrote. What a reader already has is left out
(a default the title itself states is on the head line).
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
# `--kv-cache-dtype`, `VLLM_ROCM_USE_AITER`: what a user types or sets.
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]{2,40}\b")
_ENV = re.compile(r"\bVLLM_[A-Z0-9_]{3,60}\b")
# "Backport PR #31816 to v0.13.0", "[v0.13.0] …", "cherry-pick … into release/v0.14".
_RELEASE = re.compile(
    r"\b(?:to|into|for|on)\s+(?:the\s+)?(?:release[/ -]?)?(v?\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)\b"
    r"|\[(v\d+\.\d+(?:\.\d+)?)\]",
    re.I,
)
OPTIONS_SHOWN = 3
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


def options(item: ActivityItem, own: str) -> tuple[str, ...]:
    """Flags and environment variables a PR's title or own line names (what a user sets;
    an issue's are the reporter's command line, not news)."""
    if item.kind != "pr":
        return ()
    text = f"{item.title}\n{own}"
    found = [m.group(0) for m in _FLAG.finditer(text)] + [m.group(0) for m in _ENV.finditer(text)]
    return tuple(dict.fromkeys(found))[:OPTIONS_SHOWN]


def release_of(item: ActivityItem) -> str | None:
    """The release a backport goes to, as its title names it ("v0.13.0")."""
    match = _RELEASE.search(item.title)
    if match is None:
        return None
    found = match.group(1) or match.group(2)
    return found if found.lower().startswith("v") else "v" + found
