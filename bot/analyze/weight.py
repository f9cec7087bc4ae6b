"""What an item is worth reading about, from what it says it is (before any size is known)."""

from __future__ import annotations

import re

from bot.analyze.titles import title_tags
from bot.model.report import ActivityItem

REVERT = re.compile(r'^\s*(?:\[revert\]|revert\b\s*")', re.I)

# Title tags and labels that make a change matter, and the word a reader sees for each.
WEIGHTY = {
    "perf": "performance",
    "performance": "performance",
    "kernel": "performance",
    "quantization": "quantization",
    "quant": "quantization",
    "new model": "new model",
    "new-model": "new model",
    "feature": "feature",
    "feat": "feature",
    "rfc": "RFC",
    "spec decode": "feature",
    "moe": "performance",
    "kv cache": "feature",
    "release": "release",
    "releases": "release",
}
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
        "ci failure",
        "benchmark",
    }
)


def significance(item: ActivityItem) -> float:
    """What an item is, as a number: weighty title tags count most, labels less (a bad
    rebase pastes many), routine CI, docs and test work counts against; then attention."""
    tags = set(title_tags(item.title))
    tagged = {WEIGHTY[t] for t in tags if t in WEIGHTY}
    labelled = {WEIGHTY[x.lower()] for x in item.labels if x.lower() in WEIGHTY} - tagged
    score = 1.5 * min(len(tagged), 2) + 0.75 * min(len(labelled), 1)
    score -= 3.0 if tags & ROUTINE_TAGS and not tagged else 0.0
    # Pulling a landed change back out is news a maintainer wants first.
    score += 3.0 if REVERT.match(item.title) else 0.0
    return score + min(item.reactions, 10) / 2
