"""The breakage radar's culprits told with whom to ask, and people's corrections applied.

`bot.features.radar.reading` finds the culprits; this adds what a reader needs to act on one:

- `detailed`: each culprit's upstream PR title, author and merge time (the archived item
  GitHub confirmed it with: no request more), and whether upstream has since reverted it: a
  merged upstream PR titled "Revert …" that names it (GitHub's own `Revert "Title (#N)"`,
  its body's `Reverts vllm-project/vllm#N`, or "revert #N"), merged after it. Not reverted
  is said only as far as the archive holds vLLM's PRs from the culprit's merge on; past that
  it is not known.
- `corrected`: the links with each cause a person said is wrong (`/vllm-radar wrong`) marked
  `corrected`, so it is never confirmed again and never a culprit; with the corrections that
  took a culprit off (what the radar's precision counts).

Pure: culprits, archived items, coverage and corrections in; culprits and links out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from bot.analyze.references import reverted_numbers
from bot.features.radar.model import Correction, Culprit, PluginLink, Revert
from bot.model.report import ActivityItem


def reverted_by(
    number: int, merged_at: datetime, candidates: Iterable[ActivityItem]
) -> Revert | None:
    """The first merged upstream PR after `merged_at` that reverts #number, or None."""
    found = [
        item
        for item in candidates
        if item.merged_at is not None
        and item.merged_at > merged_at
        and number in reverted_numbers(item)
    ]
    if not found:
        return None
    first = min(found, key=lambda item: (item.merged_at or merged_at, item.number))
    return Revert(first.number, first.title, first.merged_at or merged_at)


def read_until(moment: datetime, covered: Sequence[tuple[datetime, datetime]]) -> datetime | None:
    """Where the archive's unbroken hold of upstream from `moment` ends (`covered`: the
    merged spans of upstream it holds whole), or None when it does not hold `moment`."""
    for start, end in covered:
        if start <= moment < end:
            return end
    return None


def detailed(
    culprits: Iterable[Culprit],
    items: Mapping[int, ActivityItem],
    reverts: Iterable[ActivityItem],
    covered: Sequence[tuple[datetime, datetime]],
) -> list[Culprit]:
    """Each culprit with its upstream PR's title, author and merge time (`items`: the
    archived upstream items by number) and its revert, if any (`reverts`: archived upstream
    PRs that may be reverts; `covered`: the spans of upstream the archive holds whole)."""
    candidates = list(reverts)
    out = []
    for culprit in culprits:
        number = culprit.ref.number
        item = items.get(number) if number is not None else None
        if number is None or item is None or item.merged_at is None:
            out.append(culprit)
            continue
        merged = item.merged_at
        out.append(
            replace(
                culprit,
                title=culprit.title or item.title or None,
                author=item.author,
                merged_at=merged,
                reverted_by=reverted_by(number, merged, candidates),
                reverts_read_until=read_until(merged, covered),
            )
        )
    return out


def corrected(
    links: Iterable[PluginLink], corrections: Iterable[Correction]
) -> tuple[list[PluginLink], tuple[Correction, ...]]:
    """The links with each confirmed cause a person corrected marked `corrected` (no longer
    confirmed: never a culprit), and the corrections that took a breakage fix's culprit off,
    in the order they were said."""
    wanted = {c.key: c for c in corrections}
    applied: set[tuple[str, int, int]] = set()
    out = []
    for link in links:
        refs = []
        for ref in link.upstream:
            key = (link.plugin_repo, link.number, ref.number)
            if ref.number is not None and ref.confirmed and key in wanted:
                refs.append(replace(ref, verdict="corrected"))
                if link.relation == "breakage-fix":
                    applied.add((link.plugin_repo, link.number, ref.number))
            else:
                refs.append(ref)
        out.append(replace(link, upstream=tuple(refs)) if refs != list(link.upstream) else link)
    return out, tuple(c for key, c in wanted.items() if key in applied)
