"""A claim read in a report's text and its verdict against the facts (bot.analyze.claims
reads and checks them; `vllm-report check` and the prose writer use them)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.model.windows import Window

CLAIM_TYPES = ("author", "kind", "title", "state", "count", "vendor", "reference")
VERDICTS = ("correct", "wrong", "unverifiable")


@dataclass(frozen=True)
class Claim:
    number: int | None
    type: str  # one of CLAIM_TYPES
    quote: str  # the sentence it was read from
    claimed: str
    verdict: str  # one of VERDICTS
    truth: str = ""


@dataclass(frozen=True)
class CheckResult:
    """The claims of one text about one window, and how much of the text could be checked."""

    window: Window
    claims: tuple[Claim, ...]
    sentences: int  # sentences read
    checkable: int  # of them, those with a claim the facts could settle

    @property
    def wrong(self) -> tuple[Claim, ...]:
        return tuple(c for c in self.claims if c.verdict == "wrong")
