"""Every sentence a model wrote, checked before a reader sees it.

Two checks, both against the computed facts. The citation check (bot.analyze.citations):
a sentence cites only items it was given and writes only figures it was given. The claims
check (bot.analyze.claims, strict): what it says of an item — its kind, author, title,
state at the window's end, vendor, what it fixes — and of the window's counts must be what
the facts say. A sentence failing either is dropped, with the reason kept for the JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.analyze.citations import fault, join, numbers_in, split_sentences
from bot.analyze.claims import Facts, claims_in
from bot.model.report import ActivityItem, Report
from bot.prose.inputs import Unit


@dataclass(frozen=True)
class Vetted:
    text: str  # the sentences kept, joined
    kept: int
    rejected: tuple[tuple[str, str], ...]  # (sentence, why)


class Vetter:
    def __init__(self, report: Report, vendor_names: Mapping[str, Sequence[str]]) -> None:
        self.report = report
        self.facts = Facts(report, {}, topics_of(report), vendor_names)
        counts = [str(v) for v in report.stats.values()]
        counts.append(str(sum(split.stale for split in report.closures.values())))
        self.figures = set(counts)

    def vet(self, text: object, unit: Unit) -> Vetted:
        if not isinstance(text, str):
            return Vetted("", 0, ((repr(text)[:80], "not text"),))
        scope = set(unit.scope) | (set(self.report.items) if unit.section == "day" else set())
        allowed = numbers_in([json.dumps(unit.facts, ensure_ascii=False)]) | self.figures
        about = unit.number or None
        kept: list[str] = []
        rejected: list[tuple[str, str]] = []
        for sentence in split_sentences(text):
            why = fault(
                sentence, items=scope, figures=self.figures, allowed=allowed, about=about
            ) or self._contradiction(sentence, about)
            if why:
                rejected.append((sentence, why))
            else:
                kept.append(sentence)
        return Vetted(join(kept), len(kept), tuple(rejected))

    def _contradiction(self, sentence: str, about: int | None) -> str | None:
        """What the sentence says that the facts contradict (a note's sentence without
        `#N` speaks of the item it is printed beside)."""
        probe = sentence if "#" in sentence or about is None else f"#{about} {sentence}"
        for claim in claims_in(probe, self.facts, strict=True):
            if claim.verdict == "wrong":
                said = claim.claimed
                if claim.type in ("state", "kind", "vendor", "author", "title"):
                    said = (
                        f"#{claim.number} is {said}"
                        if claim.type != "author"
                        else (f"#{claim.number} is by {said}")
                    )
                return f"{claim.type}: says {said}; the facts: {claim.truth}"
        return None


def topics_of(report: Report) -> Callable[[ActivityItem], set[str]]:
    """Which topics (vendors among them) the report files each item under."""
    placed: dict[int, set[str]] = {}
    if report.sections is not None:
        for key, section in report.sections.topics.items():
            for number in (*section.issues, *section.prs):
                placed.setdefault(number, set()).add(key)
    return lambda item: set(placed.get(item.number, ()))
