"""Discord ⇄ the commands, for both ways in: the gateway (gateway.py, discord.py's
CommandTree) and the HTTP interactions endpoint (http.py).

What both need is here: the choices autocomplete offers for an option, and Discord's limits
on them. Every answer is drawn by the answer itself
(`Answer.draw(DISCORD)`); each way in only delivers it.
"""

from __future__ import annotations

from typing import Any

from bot.commands import Command, Commands

# Discord shows at most 25 choices per autocomplete answer
# (https://discord.com/developers/docs/interactions/application-commands#autocomplete).
AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100  # a choice's name, at most 100 characters (same page)


def choices(commands: Commands, complete: str | None, current: str) -> list[tuple[str, str]]:
    """(name, value) of the choices for an option being typed: topics or sections."""
    current = current.lower()
    if complete == "topic":
        rules = commands.services.rules
        found = [t for t in rules.topics if current in f"{t.key} {t.name}".lower()]
        return [(f"{t.key} — {t.name}"[:CHOICE_NAME], t.key) for t in found][:AUTOCOMPLETE_CHOICES]
    if complete == "section":
        names = [*commands.services.section_words, *commands.services.topic_keys]
        return [(n, n) for n in names if current in n][:AUTOCOMPLETE_CHOICES]
    return []


def completes(command: Command[Any, Any] | None, option: str) -> str | None:
    """What an option of a command autocompletes ("topic", "section"), if anything."""
    found = [o for o in (command.options if command else ()) if o.name == option]
    return found[0].complete if found else None
