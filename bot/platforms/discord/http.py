"""Discord slash commands over HTTP (an interactions endpoint), for stateless replicas.

The gateway client (gateway.py) keeps one WebSocket per bot, so only one process can
answer commands through it. With `DISCORD_PUBLIC_KEY` set, `serve` answers them on
`POST /discord/interactions` instead (port `DISCORD_INTERACTIONS_PORT`): any number of
replicas behind a load balancer, no connection held.

Each request is verified before anything is read from it: Ed25519 (PyNaCl) over the
`X-Signature-Timestamp` header followed by the *raw* body, against the application's public
key; a bad or missing signature, a timestamp more than 5 minutes off, or a replayed signature
gets 401 and changes nothing (Discord sends invalid signatures on purpose to check this).
`PING` → `PONG`; a command is acknowledged at once with a deferred response (type 5, so the
3-second limit is met whatever the work costs), and answered by follow-ups on the
interaction's webhook (`POST /webhooks/{application_id}/{token}`, valid 15 minutes), with no
mentions allowed. Autocomplete is answered inline (type 8).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from bot.adapters.replay import REPLAY_WINDOW, ReplayGuard
from bot.commands import Answer, Asker, Command, Commands, Request, Said
from bot.model.buttons import Button
from bot.platforms.discord.choices import choices, completes
from bot.platforms.registry import DISCORD
from config.settings import Settings

log = logging.getLogger(__name__)

PING, APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE = 1, 2, 3, 4
PONG, ANSWER, DEFERRED_ANSWER, AUTOCOMPLETE_RESULT = 1, 4, 5, 8
EPHEMERAL = 1 << 6
MANAGE_CHANNELS, ADMINISTRATOR = 1 << 4, 1 << 3
NO_MENTIONS: dict[str, list[str]] = {"parse": []}
DEFAULT_API = "https://discord.com/api/v10"
Response = tuple[int, dict[str, Any]]


def verify(public_key: VerifyKey, signature: str, timestamp: str, body: bytes) -> bool:
    """Ed25519 over timestamp + raw body, as Discord signs it."""
    try:
        public_key.verify(timestamp.encode() + body, bytes.fromhex(signature))
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


class Interactions:
    """Verify, then answer: the endpoint's logic, apart from the web server for tests."""

    def __init__(
        self,
        commands: Commands,
        public_key: str,
        api_url: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.commands = commands
        self.key = VerifyKey(bytes.fromhex(public_key))
        self.api_url = (api_url or DEFAULT_API).rstrip("/")
        self.clock = clock
        self.guard = ReplayGuard(clock)
        self.pending: set[asyncio.Task[None]] = set()
        self._session: aiohttp.ClientSession | None = None

    async def handle(self, body: bytes, headers: dict[str, str]) -> Response:
        """One request: (status, JSON body). Never raises for anything a caller sends."""
        lowered = {k.lower(): v for k, v in headers.items()}
        signature = lowered.get("x-signature-ed25519", "")
        timestamp = lowered.get("x-signature-timestamp", "")
        if not (signature and timestamp and verify(self.key, signature, timestamp, body)):
            return 401, {"error": "invalid request signature"}
        try:
            stamp = int(timestamp)
        except ValueError:
            return 401, {"error": "stale or replayed request"}
        seen = bytes.fromhex(signature).hex()  # one spelling: `AB` and `ab` are the same bytes
        if abs(self.clock() - stamp) > REPLAY_WINDOW or not self.guard.fresh(seen, stamp):
            return 401, {"error": "stale or replayed request"}
        try:
            interaction = json.loads(body)
        except ValueError:
            return 400, {"error": "not an interaction"}
        wrong = malformed(interaction)
        if wrong is not None:
            return 400, {"error": f"not an interaction: {wrong}"}
        kind = interaction["type"]
        if kind == PING:
            return 200, {"type": PONG}
        if kind == AUTOCOMPLETE:
            return 200, {
                "type": AUTOCOMPLETE_RESULT,
                "data": {"choices": self._choices(interaction)},
            }
        if kind == APPLICATION_COMMAND:
            command = self.commands.table.get(_name(interaction))
            request = self.commands.request(command, _options(interaction)) if command else None
            public = request is not None and request.public
            task = asyncio.create_task(self._answer(interaction, command, request))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)
            return 200, {"type": DEFERRED_ANSWER, "data": {"flags": 0 if public else EPHEMERAL}}
        if kind == COMPONENT:  # a button of ours pressed: the feature answers at once
            action, value = Button.parse(str((interaction.get("data") or {}).get("custom_id", "")))
            said = await self.commands.press(action, value, _asker(interaction))
            return 200, {"type": ANSWER, "data": {"content": said.text, "flags": EPHEMERAL}}
        return 400, {"error": f"interaction type {kind} is not handled"}

    async def _answer(
        self,
        interaction: dict[str, Any],
        command: Command[Any, Any] | None,
        request: Request | None,
    ) -> None:
        try:
            if command is None or request is None:
                answer: Answer = Said(f"unknown command '{_name(interaction)}'")
            else:
                answer = await self.commands.answer(command, _asker(interaction), request)
            await self._follow_up(interaction, answer, ephemeral=answer.ephemeral)
        except (aiohttp.ClientError, TimeoutError) as exc:
            # Discord did not take the answer (unreachable, or too slow under a burst): no
            # bug of ours, so one log line and no traceback; a second try would fail alike.
            said = str(exc) or type(exc).__name__
            log.warning("Discord did not take the answer to /%s (%s)", _name(interaction), said)
        except Exception:  # the person gets a sentence; the log gets the rest
            log.exception("Discord interaction failed")
            await self._follow_up(
                interaction, Said("something went wrong; try again"), ephemeral=True
            )

    async def _follow_up(
        self, interaction: dict[str, Any], answer: Answer, ephemeral: bool
    ) -> None:
        # `wait=true`: Discord answers with the message it saved (a follow-up always waits;
        # said anyway, as on every webhook send, so a refused message is never silent).
        hook = f"{self.api_url}/webhooks/{interaction['application_id']}/{interaction['token']}"
        url = f"{hook}?wait=true"
        flags = EPHEMERAL if ephemeral else 0
        messages = await asyncio.to_thread(answer.draw, DISCORD)
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        for message in messages:
            payload = {**message, "flags": flags, "allowed_mentions": NO_MENTIONS}
            async with self._session.post(url, json=payload) as response:
                if response.status >= 400:
                    log.warning("Discord refused a follow-up (%d)", response.status)
                    return

    def _choices(self, interaction: dict[str, Any]) -> list[dict[str, str]]:
        focused = _focused(interaction)
        if focused is None:
            return []
        field, current = focused
        complete = completes(self.commands.table.get(_name(interaction)), field)
        return [{"name": n, "value": v} for n, v in choices(self.commands, complete, current)]

    async def drain(self) -> None:
        """Wait for the follow-ups in flight (tests, shutdown)."""
        while self.pending:
            await asyncio.gather(*list(self.pending), return_exceptions=True)

    async def close(self) -> None:
        await self.drain()
        if self._session is not None:
            await self._session.close()
            self._session = None


def _asker(interaction: dict[str, Any]) -> Asker:
    async def may_manage() -> bool:
        return may_manage_channel(interaction)

    channel = str(interaction.get("channel_id") or "")
    in_dm = not interaction.get("guild_id")
    return Asker("discord", _user(interaction), channel, in_dm, may_manage)


def may_manage_channel(interaction: dict[str, Any]) -> bool:
    """Whether the asker may subscribe (or unsubscribe) the channel a command came from: in
    a DM, yes (`here` is their own DMs); in a server only with Manage Channels or
    Administrator, and no when Discord does not say (no member, no permissions)."""
    if not interaction.get("guild_id"):
        return True
    permissions = int((interaction.get("member") or {}).get("permissions") or 0)
    return bool(permissions & (MANAGE_CHANNELS | ADMINISTRATOR))


_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
_TOKEN = re.compile(r"[A-Za-z0-9._-]{1,500}")  # it goes into the follow-up's URL path


def malformed(interaction: Any) -> str | None:
    """What makes a verified body unusable, said in a few words; None when every field the
    handlers read has Discord's shape. Checked once here, so nothing below meets a missing
    key, a non-numeric permission or a token that would change the follow-up's URL."""
    if not isinstance(interaction, dict) or type(interaction.get("type")) is not int:
        return "an object with an integer `type` is expected"
    wrong = _malformed_asker(interaction)
    if wrong is None and interaction["type"] in (APPLICATION_COMMAND, AUTOCOMPLETE):
        wrong = _malformed_command(interaction)
    elif wrong is None and not isinstance(interaction.get("data", {}), dict | None):
        wrong = "`data` is not an object"
    return wrong


def _malformed_asker(interaction: dict[str, Any]) -> str | None:
    """Who asks and where: `member`, `user`, the permissions and the ids."""
    for part in ("member", "user"):
        if interaction.get(part) is not None and not isinstance(interaction[part], dict):
            return f"`{part}` is not an object"
    member = interaction.get("member") or {}
    if member.get("user") is not None and not isinstance(member["user"], dict):
        return "`member.user` is not an object"
    permissions = member.get("permissions")
    if permissions is not None and not _SNOWFLAKE.fullmatch(str(permissions)):
        return "`member.permissions` is not a number"
    for key in ("guild_id", "channel_id"):
        value = interaction.get(key)
        if value is not None and not _SNOWFLAKE.fullmatch(str(value)):
            return f"`{key}` is not a Discord id"
    return None


def _malformed_command(interaction: dict[str, Any]) -> str | None:
    """A command or an autocomplete: its name and options; a command also its follow-up's
    application id and token."""
    data = interaction.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return "a command needs `data` with its `name`"
    options = data.get("options") or []
    if not isinstance(options, list) or not all(
        isinstance(o, dict) and isinstance(o.get("name"), str) for o in options
    ):
        return "`data.options` is not a list of named options"
    if interaction["type"] != APPLICATION_COMMAND:
        return None
    if not _SNOWFLAKE.fullmatch(str(interaction.get("application_id") or "")):
        return "a command needs its `application_id`"
    token = interaction.get("token")
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return "a command needs its `token`"
    return None


def _name(interaction: dict[str, Any]) -> str:
    return str((interaction.get("data") or {}).get("name") or "")


def _user(interaction: dict[str, Any]) -> str:
    member = interaction.get("member") or {}
    user = member.get("user") or interaction.get("user") or {}
    return str(user.get("id") or "")


def _options(interaction: dict[str, Any]) -> dict[str, Any]:
    raw = (interaction.get("data") or {}).get("options") or []
    return {str(o.get("name")): o.get("value") for o in raw if isinstance(o, dict)}


def _focused(interaction: dict[str, Any]) -> tuple[str, str] | None:
    for option in (interaction.get("data") or {}).get("options") or []:
        if isinstance(option, dict) and option.get("focused"):
            return str(option.get("name")), str(option.get("value") or "")
    return None


def web_app(interactions: Interactions, path: str = "/discord/interactions") -> Any:
    """The aiohttp application serving the endpoint (the raw body is what is verified)."""
    from aiohttp import web

    async def endpoint(request: web.Request) -> web.Response:
        body = await request.read()
        status, payload = await interactions.handle(body, dict(request.headers))
        return web.json_response(payload, status=status)

    app = web.Application()
    app.router.add_post(path, endpoint)
    return app


async def start_interactions(settings: Settings, commands: Commands, stop: asyncio.Event) -> None:
    """Serve the interactions endpoint until `stop`."""
    from aiohttp import web

    key = settings.discord_public_key or ""
    interactions = Interactions(commands, key, settings.discord_api_url)
    runner = web.AppRunner(web_app(interactions))
    await runner.setup()
    site = web.TCPSite(runner, "0.0.0.0", settings.discord_interactions_port)  # noqa: S104
    await site.start()
    log.info(
        "Discord: interactions endpoint on port %d, path /discord/interactions",
        settings.discord_interactions_port,
    )
    await stop.wait()
    await interactions.close()
    await runner.cleanup()
