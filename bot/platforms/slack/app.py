"""Slack slash commands through slack_bolt: ack at once, answer through the response URL.

Socket Mode when `SLACK_APP_TOKEN` is set (no public URL needed), else HTTP mode on
`SLACK_PORT` with every request verified by Bolt on its raw body (HMAC v0, 5-minute
window) and, on top, refused when replayed: a signature already seen in that window gets
401 and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.adapters.replay import REPLAY_WINDOW, ReplayGuard
from bot.commands import Command, CommandError, Commands, Said
from bot.commands.base import Asker
from bot.model.buttons import PRESSED
from bot.platforms.slack.slash import Respond, asker, deliver, typed
from bot.platforms.slack.transport import slack_client
from config.settings import Settings

log = logging.getLogger(__name__)

__all__ = ["REPLAY_WINDOW", "ReplayGuard", "build_slack_app", "slack_web_app", "start_slack"]


def build_slack_app(settings: Settings, commands: Commands) -> AsyncApp:
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    secret = (
        settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    )
    app = AsyncApp(
        # The token travels in the client (which also carries our base URL and retries).
        signing_secret=secret,
        client=slack_client(token or "", settings.slack_api_url),
        request_verification_enabled=secret is not None,
    )
    guard = ReplayGuard()

    @app.middleware
    async def refuse_replays(req: AsyncBoltRequest, resp: BoltResponse, next: Any) -> Any:
        values = req.headers.get("x-slack-signature") or []
        signature = values[0] if values else None
        if not guard.fresh(signature, _stamp(req.headers.get("x-slack-request-timestamp"))):
            log.warning("refused a replayed Slack request")
            return BoltResponse(status=401, body="")
        return await next()

    for command in commands:
        app.command(f"/{command.name}")(_listener(command, commands, settings.slack_admin_list))
    app.action(re.compile(rf"^{re.escape(PRESSED)}"))(_pressed(commands))
    return app


def _pressed(commands: Commands) -> Any:
    """A button of ours pressed on a posted message (a block action whose id starts with
    `vr.`): ack at once, then the feature's sentence to the presser alone."""

    async def listener(
        ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Respond
    ) -> None:
        await ack()
        user = str((body.get("user") or {}).get("id", ""))
        channel = str((body.get("channel") or {}).get("id", ""))
        said = await commands.press(
            str(action.get("action_id", "")),
            str(action.get("value", "")),
            Asker("slack", user, channel),
        )
        await deliver(respond, said)

    return listener


def _listener(entry: Command[Any, Any], commands: Commands, admins: Sequence[str]) -> Any:
    """One command's Bolt listener: ack at once, read the words, answer by response_url.
    (Bolt passes a listener's arguments by name: `command` is the slash command's payload.)"""

    async def listener(ack: Any, command: dict[str, Any], respond: Respond, client: Any) -> None:
        await ack()
        try:
            request = commands.read(entry, typed(command.get("text", "")))
        except CommandError as exc:
            await deliver(respond, Said(str(exc)))
            return
        answer = await commands.answer(entry, asker(command, client, admins), request)
        await deliver(respond, answer)

    return listener


def _stamp(values: Sequence[str] | None) -> int | None:
    """The request's timestamp (Bolt has checked it is within 5 minutes), when it has one."""
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


def slack_web_app(app: AsyncApp, path: str = "/slack/events") -> Any:
    """Bolt's aiohttp app for HTTP mode, behind a check Bolt lacks: a timestamp header that
    is not a number is refused (401) before Bolt's verifier, which would fail on it with a
    500 and a traceback."""
    from aiohttp import web

    @web.middleware
    async def well_formed(request: web.Request, handler: Any) -> web.StreamResponse:
        stamp = request.headers.get("X-Slack-Request-Timestamp")
        if stamp is not None and not (stamp.strip().isascii() and stamp.strip().isdigit()):
            log.warning("refused a Slack request whose timestamp is not a number")
            return web.Response(status=401, text="")
        response: web.StreamResponse = await handler(request)
        return response

    web_app = app.web_app(path=path)
    web_app.middlewares.append(well_formed)
    return web_app


async def start_slack(settings: Settings, commands: Commands, stop: asyncio.Event) -> None:
    app = build_slack_app(settings, commands)
    if settings.slack_app_token:
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        handler = AsyncSocketModeHandler(app, settings.slack_app_token.get_secret_value())
        await handler.connect_async()  # type: ignore[no-untyped-call]
        log.info("Slack: Socket Mode connected")
        await stop.wait()
        await handler.close_async()  # type: ignore[no-untyped-call]
        return
    from aiohttp import web

    runner = web.AppRunner(slack_web_app(app))
    await runner.setup()
    site = web.TCPSite(runner, "0.0.0.0", settings.slack_port)  # noqa: S104 - a server
    await site.start()
    log.info("Slack: HTTP mode on port %d, path /slack/events", settings.slack_port)
    await stop.wait()
    await runner.cleanup()
