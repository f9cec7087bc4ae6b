"""Which items a sentence's words are said of: a list of items sharing one predicate ("#A & #B
by alice were merged", "#A、#B 已合并") says it of each; a list of items each with its own
label ("#37346 修复、#36808 新功能") is an enumeration, not one item acting on the next.

Read in the writer's own words (`Sentence.masked`, quotes blanked): a quoted title between
two numbers ("PR #38142 ([Realtime] …) & Issue #38141") leaves them one list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.analyze.claims.reading import FILL

# What may stand between two items of one subject list: emphasis, a quoted title's brackets,
# one joining word, and the next item's kind ("Issue #37992 & PR #37993").
_JOINER = re.compile(
    r"[\s*()（）]*(?:&|\band\b|和|与|及|、|,|，)[\s*]*"
    r"(?:(?:PRs?|Issues?|RFCs?|pull requests?|议题)[\s*:：]*)?",
    re.I,
)
# "、" between two items lists them: nothing said between them links one to the other.
_ENUMERATION = re.compile(r"、")
# In prose we publish: a plural verb of landing after a list ("#A and #B add …") says each is
# in, as "adds" after one item does; "a fix" / "the fix" is a noun.
PLURAL_LANDED = re.compile(
    r"(?<!\ba )(?<!\bthe )\b(?:fix|introduce|add|implement|enable|resolve|remove|bring|deliver)\b",
    re.I,
)


def subject_lists(found_refs: Sequence[tuple[int, int, int]], masked: str) -> list[list[int]]:
    """The indexes of `found_refs` in runs joined as one list ("#A & #B", "#A、#B", "#A and
    PR #B"): each run shares the words after its last item."""
    runs: list[list[int]] = []
    for index, (_, start, _) in enumerate(found_refs):
        if index and _JOINER.fullmatch(masked[found_refs[index - 1][2] : start].replace(FILL, "")):
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def last_of_list(found_refs: Sequence[tuple[int, int, int]], masked: str) -> list[int]:
    """For each item, the index of the last item of its list (whose words it shares)."""
    last = list(range(len(found_refs)))
    for run in subject_lists(found_refs, masked):
        for index in run:
            last[index] = run[-1]
    return last


def enumerated(between: str) -> bool:
    """Whether the words between two items list them ("#37346 修复、#36808 新功能")."""
    return _ENUMERATION.search(between) is not None
