"""A button under a posted message: its label, its id and its value, drawn by each platform
its own way (Slack's `button` element, Discord's button component). Pressed, the platform
hands the id and the value to `Commands.press`, which finds the feature's answer by the id's
prefix. Every id of ours starts with `PRESSED`, so a platform routes ours and no other's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PRESSED = "vr."
# Slack: an action_id and a value each at most 255 characters; Discord: a custom_id (which
# carries both, joined by `|`) at most 100 (Block Kit's button element; Discord's Button
# component reference).
ID_LIMIT = 100


@dataclass(frozen=True)
class Button:
    label: str
    action: str  # `vr.feedback.useful`
    value: str  # `2026-03-25|summary`

    def __post_init__(self) -> None:
        if not self.action.startswith(PRESSED) or len(self.custom_id) > ID_LIMIT:
            raise ValueError(f"button id {self.custom_id!r}: ours start {PRESSED}, fit {ID_LIMIT}")

    @property
    def custom_id(self) -> str:
        """Discord's one id for the button: the action and the value."""
        return f"{self.action}|{self.value}"

    @classmethod
    def parse(cls, custom_id: str) -> tuple[str, str]:
        """(action, value) of a Discord custom_id made by `custom_id`."""
        action, _, value = custom_id.partition("|")
        return action, value


# The buttons a posted section gets: given the report's window label, the section's part name
# and the language, what to draw under it (none: nothing).
ButtonsFor = Callable[[str, str, str], tuple[Button, ...]]
