"""What a feature adds to a report: a `ReportPart`.

The radar's Plugins section, Red on main and the review queue are features the core report
knows nothing of. Each attaches one part to a report (`Report.with_part`); the part carries
its facts and says how it reads: its outline section, its line in the chat headline, its
chat reply, its JSON. The outline, the JSON and the chat post walk `Report.parts` in their
`rank` order, so drawing a new part touches no list in the core, nor does asking for it: a
part one may ask for by its section (`--section ci`, a slash command's section word) names
that word in its feature's declaration (`Feature.sections`; the queue's names none). The
slash commands' memo of drawn answers (bot/commands/drawn.py) still tells reports apart by
the queue part alone.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.model.outline_parts import Block, Section


class ReportPart(Protocol):
    """One feature's share of a report, drawn by every renderer through the outline."""

    @property
    def name(self) -> str:
        """Its section's key (`--section plugins`) and its chat reply's ledger name."""
        ...

    @property
    def json_key(self) -> str:
        """Its key in the report's JSON (`radar`, `ci`, `queue`)."""
        ...

    @property
    def rank(self) -> int:
        """Its place among the parts in the report: sections, headline lines, JSON keys."""
        ...

    @property
    def chat_rank(self) -> int | None:
        """Its place among the parts' replies in a daily chat post; None: never a reply."""
        ...

    @property
    def on_quiet_day(self) -> bool:
        """Whether it still follows a quiet day's one-message headline as a reply."""
        ...

    def section(self, lang: str) -> Section | None:
        """Its section of the report (None: nothing to say today)."""
        ...

    def headline(self, lang: str) -> str | None:
        """Its line in the chat headline, with its mark ("🚦 Red on main: …"), or None."""
        ...

    def chat_blocks(self, section: Section, label: str, lang: str) -> tuple[Block, ...]:
        """Its section as one capped chat reply (its "+N more" names its own command)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Its facts under `json_key` in the report's JSON."""
        ...
