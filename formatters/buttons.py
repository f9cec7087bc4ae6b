"""Buttons under a posted message (bot.model.buttons.Button), drawn for Slack (an `actions`
block of `button` elements) and Discord (an action row of button components).

Limits, as the platforms document them: Slack, at most 50 blocks a message, 25 elements an
`actions` block, a button's text 75 characters, its action_id 255 and value 2,000 (Block Kit
reference: blocks, actions block, button element); Discord, at most 5 action rows a message
and 5 buttons a row, a label 80 characters, a custom_id 100 (Message Components reference).
A message already at its platform's limit keeps its place and goes without buttons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.model.buttons import Button

Message = dict[str, Any]

SLACK_BLOCKS = 50
SLACK_ELEMENTS = 25
SLACK_TEXT = 75
DISCORD_ROWS = 5
DISCORD_PER_ROW = 5
DISCORD_LABEL = 80
DISCORD_SECONDARY = 2  # a grey button: the post's content stays what stands out


def slack_buttons(message: Message, buttons: Sequence[Button]) -> Message:
    """`message` with `buttons` as its last block (unchanged when it has no room)."""
    blocks = list(message.get("blocks") or [])
    if not buttons or len(blocks) >= SLACK_BLOCKS:
        return message
    elements = [
        {
            "type": "button",
            "text": {"type": "plain_text", "text": b.label[:SLACK_TEXT], "emoji": True},
            "action_id": b.action,
            "value": b.value,
        }
        for b in buttons[:SLACK_ELEMENTS]
    ]
    return {**message, "blocks": [*blocks, {"type": "actions", "elements": elements}]}


def discord_buttons(message: Message, buttons: Sequence[Button]) -> Message:
    """`message` with `buttons` in an action row (unchanged when it has no room)."""
    rows = list(message.get("components") or [])
    if not buttons or len(rows) >= DISCORD_ROWS:
        return message
    row = {
        "type": 1,
        "components": [
            {
                "type": 2,
                "style": DISCORD_SECONDARY,
                "label": b.label[:DISCORD_LABEL],
                "custom_id": b.custom_id,
            }
            for b in buttons[:DISCORD_PER_ROW]
        ],
    }
    return {**message, "components": [*rows, row]}
