"""Open breakage: what is still broken at a moment, before any fix names its cause.

The radar's culprits are seen once a plugin fixes for them; a plugin maintainer also wants
what is broken now. At the window's end, a plugin PR or issue still open that

- says upstream broke it (read as a `breakage-fix`: "vllm#N breaks …", a gaudi
  `[FIX_FOR_VLLM_LATEST]` in review, "broken by upstream change …"): `broken`;
- takes back the plugin's own move to a newer vLLM ("Revert "Upgrade vLLM to …""): `revert`;
- moves the plugin to a newer vLLM and has been open BUMP_STALE_DAYS or more (a pin bump
  that does not land is usually one that breaks): `bump`;

is open breakage, with its age (from when it was opened to the moment). Pure: the plugin's
items in, the open breakages out, the oldest first (the longest broken is the most news).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.features.radar import words as words
from bot.features.radar.model import NOT_NAMED, OpenBreak
from bot.features.radar.reading import read
from bot.model.report import ActivityItem

# How far back an open breakage is looked for (each plugin's items of these days are read
# once, archived): a break open longer than this is the plugin's own long-running work.
OPEN_LOOK_BACK = timedelta(days=14)
# A pin bump open this long has usually hit a break (a clean bump lands within a day).
BUMP_STALE_DAYS = 2.0


def open_breaks(
    plugin: str, items: Iterable[ActivityItem], moment: datetime, own_max: int
) -> list[OpenBreak]:
    """The plugin's items open at `moment` that are open breakage (above), oldest first."""
    found = []
    for item in items:
        if not _open_at(item, moment):
            continue
        why = _why(item, moment, own_max)
        if why is None:
            continue
        reading = read(item.title, item.body, own_max)
        causes = tuple(
            ref.key for ref in reading.upstream if ref.cause and ref.role not in NOT_NAMED
        )
        found.append(
            OpenBreak(
                plugin_repo=plugin,
                number=item.number,
                kind=item.kind,
                title=item.title,
                url=item.url,
                author=item.author,
                opened_at=item.created_at,
                age_days=_days(moment - item.created_at),
                why=why,
                upstream=causes,
            )
        )
    return sorted(found, key=lambda b: (b.opened_at, b.plugin_repo, b.number))


def _open_at(item: ActivityItem, moment: datetime) -> bool:
    ended = item.merged_at or item.closed_at
    return item.created_at <= moment and (ended is None or ended > moment)


def _why(item: ActivityItem, moment: datetime, own_max: int) -> str | None:
    title = item.title
    if words.REVERT.search(title) and words.UPGRADE.search(title):
        return "revert"
    relation = read(title, item.body, own_max).relation
    if relation == "breakage-fix" or words.GAUDI_FIX_TAG.search(title):
        return "broken"
    upgrade = relation == "upgrade" or words.UPGRADE.search(title) is not None
    if upgrade and item.kind == "pr" and _days(moment - item.created_at) >= BUMP_STALE_DAYS:
        return "bump"
    return None


def _days(span: timedelta) -> float:
    return round(max(0.0, span.total_seconds()) / 86400, 1)
