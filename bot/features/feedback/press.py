"""A 👍 or 👎 pressed under a section of the day's post: counted once per reader, section
and day (pressed again, the vote changes), and answered in a sentence only the presser sees.

A button's id is `vr.feedback.useful` or `vr.feedback.not`; its value `<day>|<section>`,
the report's window label and the section's key, as the post drew them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.commands.answers import Said
from bot.commands.base import Asker
from bot.features.feedback.phrases import said
from bot.features.feedback.store import Vote, Votes
from bot.model.buttons import ID_LIMIT, Button

PREFIX = "vr.feedback"
USEFUL, NOT_USEFUL = ".useful", ".not"
LIMIT = 60  # a day's label and a section's key, as the store keeps them


def buttons(day: str, section: str, lang: str) -> tuple[Button, ...]:
    """The pair under one section of a day's post; none where the id would not fit (a
    window label too long for Discord's 100-character custom_id)."""
    value = f"{day}|{section}"
    if len(day) > LIMIT or len(section) > LIMIT or len(f"{PREFIX}{NOT_USEFUL}|{value}") > ID_LIMIT:
        return ()
    return (
        Button(said(lang, "useful"), f"{PREFIX}{USEFUL}", value),
        Button(said(lang, "not_useful"), f"{PREFIX}{NOT_USEFUL}", value),
    )


class Feedback:
    """Presses of the feedback buttons, kept in `votes`."""

    def __init__(self, votes: Votes, lang: str, clock: Callable[[], datetime]) -> None:
        self.votes, self.lang, self.clock = votes, lang, clock

    async def __call__(self, asker: Asker, rest: str, value: str) -> Said:
        day, bar, section = value.partition("|")
        if rest not in (USEFUL, NOT_USEFUL) or not bar or not day or not section:
            return Said(said(self.lang, "bad"))
        if len(day) > LIMIT or len(section) > LIMIT:
            return Said(said(self.lang, "bad"))
        useful = rest == USEFUL
        vote = Vote(asker.platform, asker.user, day, section, useful, self.clock())
        before = self.votes.record(vote)
        text = said(
            self.lang, "counted_useful" if useful else "counted_not", section=section, day=day
        )
        if before is not None and before != useful:
            was = said(self.lang, "was_useful" if before else "was_not")
            text += said(self.lang, "changed", before=was)
        return Said(text)
