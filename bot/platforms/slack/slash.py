"""Slack ⇄ the commands: two converters, as bolt-python's own adapters are.

`asker` turns a slash command's payload into who asked (`Asker`); `typed` undoes Slack's
escaping of the command text; `deliver` sends an answer's messages through the command's
response_url. Everything between is bot.commands'.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.commands import Answer, Asker, CommandError
from bot.platforms.registry import SLACK

Respond = Callable[..., Awaitable[Any]]
_SLACK_WRAP = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")
_LINK = re.compile(r"(?i)^(?:https?://|mailto:)")
MAX_TEXT = 300  # what is read of a command's text: no command takes more words


def typed(text: str) -> str:
    """Slack sends `&amp;` and wraps links and mentions as `<target|text>`: undo both before
    reading. Slack auto-links typed words that look like a domain (`x.py`, `setup.py`,
    `vllm/v1/x.py` all end in a country's domain) as `<http://x.py|x.py>`: the text is what
    was typed. A link whose text is not its URL was pasted or formatted, so neither is surely
    what the person meant (`path:<http://x|y>` must not become `path:y` unsaid): CommandError."""
    text = _SLACK_WRAP.sub(_unwrapped, text)
    return html.unescape(text).strip()[:MAX_TEXT]


def _unwrapped(match: re.Match[str]) -> str:
    target, label = html.unescape(match.group(1)), html.unescape(match.group(2) or "")
    if not label or not _LINK.match(target):  # a bare URL, or a mention: <@U1|alice>
        return match.group(2) or match.group(1)
    if label.lower() in (target.lower(), _LINK.sub("", target).lower()):  # Slack's auto-link
        return match.group(2)
    raise CommandError(
        f"`{label}` came as a link to {target}, not as typed text: type it again as plain "
        "text (not pasted as a link)"
    )


def asker(command: dict[str, Any], client: Any, admins: Sequence[str]) -> Asker:
    """Who asked: the user and channel; whether they may manage it is asked of Slack only
    when a command needs to know."""
    user = str(command.get("user_id") or "")

    async def may_manage() -> bool:
        return await can_manage(client, user, admins)

    return Asker("slack", user, str(command.get("channel_id") or ""), may_manage=may_manage)


async def can_manage(client: Any, user: str, admins: Sequence[str]) -> bool:
    """Whether `user` may subscribe (or unsubscribe) a channel: listed in SLACK_ADMINS, or a
    workspace admin or owner as `users.info` says; no when Slack cannot say (no users:read
    scope, no role in the answer)."""
    if user in admins:
        return True
    try:
        info = await client.users_info(user=user)
    except Exception:  # a missing users:read scope must not crash the command
        return False
    person = info.get("user") or {}
    return bool(person.get("is_admin") or person.get("is_owner"))


async def deliver(respond: Respond, answer: Answer) -> None:
    """The answer's messages through the response_url, ephemeral unless it is public."""
    kind = "ephemeral" if answer.ephemeral else "in_channel"
    for message in await asyncio.to_thread(answer.draw, SLACK):
        await respond(text=message["text"], blocks=message.get("blocks"), response_type=kind)
