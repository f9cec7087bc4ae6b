"""What the day was about: the topics with the most weight, each named by its weightiest
stories' leads, for the summary ("the day's weightiest work: speculative decoding (#38174),
AMD / ROCm (#38086, #36574) …").

A topic weighs what its top stories weigh (weight.py, routine work counting nothing), so a
topic busy with CI fixes and stale sweeps never outranks one with a new method in review.
Only stories whose lead's title names the topic count for it (a label the labeler put on a
deprecation PR does not make it "CI & build" news). Each story is named under one theme
only: the first that claims it.
"""

from __future__ import annotations

from collections.abc import Mapping, Set

from bot.model.report import Story, Theme, TopicSection

THEMES = 3
STORIES_COUNTED = 3  # a topic weighs what its three weightiest stories weigh
NAMED = 2  # leads named per theme
MIN_WEIGHT = 1.0  # below this, a topic had nothing a reader would call a theme
LIVE = ("merged", "review", "new")  # work landed or under way, not closed attempts


def themes(
    sections: Mapping[str, TopicSection],
    stories: Mapping[str, Story],
    weights: Mapping[int, float],
    titled: Mapping[str, Set[int]],
    limit: int = THEMES,
) -> tuple[Theme, ...]:
    """The `limit` weightiest topics, heaviest first, each with the leads it is named by.
    `titled`: per topic, the items whose title names it (a tag or a keyword)."""

    def worth(story_id: str) -> float:
        return max(0.0, weights.get(stories[story_id].lead, 0.0))

    ranked = []
    for key, section in sections.items():
        named_here = titled.get(key, set())
        live = [s for b in LIVE for s in section.buckets.get(b, ())]
        own = [s for s in live if stories[s].lead in named_here]
        ordered = sorted(own, key=lambda s: (-worth(s), stories[s].lead))
        weight = sum(worth(s) for s in ordered[:STORIES_COUNTED])
        if weight >= MIN_WEIGHT:
            ranked.append((weight, key, ordered))
    ranked.sort(key=lambda entry: (-entry[0], entry[1]))
    named: set[str] = set()
    out = []
    for weight, key, ordered in ranked:
        fresh = [s for s in ordered if s not in named and worth(s) > 0][:NAMED]
        if not fresh:
            continue
        named.update(fresh)
        out.append(Theme(key, tuple(stories[s].lead for s in fresh), round(weight, 2)))
        if len(out) == limit:
            break
    return tuple(out)
