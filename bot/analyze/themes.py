"""What the day was about, for the summary: its weightiest work as the key changes rank it
(changes.py), each named under the topic it is first filed under ("the day's weightiest
work: KV cache & offloading (#35781 perf), NVIDIA (#36799 deprecation), #36710 perf").

One ranking for every list a reader compares: "What happened", the summary and the key
changes name the same top items, in the same order. A topic is the one the item's title
names (vendors first), else the first it is filed under; consecutive items of one topic
share it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.model.report import KeyChange, Theme

THEMES = 3  # the top changes the summary names


def themes(
    key_changes: Sequence[KeyChange],
    topics: Mapping[int, Sequence[str]],
    limit: int = THEMES,
) -> tuple[Theme, ...]:
    """The top `limit` key changes, each under its first topic (`topics`: each item's
    topic keys, the ones its title names first; "" when it has none)."""
    out: list[Theme] = []
    for change in key_changes[:limit]:
        topic = next(iter(topics.get(change.number, ())), "")
        if out and out[-1].topic == topic:
            last = out[-1]
            out[-1] = Theme(topic, (*last.numbers, change.number), last.weight)
        else:
            out.append(Theme(topic, (change.number,), change.score))
    return tuple(out)
