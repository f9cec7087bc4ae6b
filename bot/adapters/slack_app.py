"""Slack slash commands through slack_bolt: ack at once, answer through the response URL.

Socket Mode when `SLACK_APP_TOKEN` is set (no public URL needed), else HTTP mode on
`SLACK_PORT` with every request verified by Bolt on its raw body (HMAC v0, 5-minute
window) and, on top, refused when replayed: a signature already seen in that window gets
401 and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.adapters.drawn import drawn, key_of
from bot.adapters.replay import REPLAY_WINDOW, ReplayGuard
from bot.adapters.slack_text import (
    inbound,
    parse_queue,
    parse_radar,
    parse_report,
    parse_subscription,
)
from bot.adapters.slack_transport import slack_client
from bot.service.commands import Answer, CommandError, CommandService
from bot.service.radar_wrong import correct, wrong_words
from config.settings import Settings
from formatters._text import slack_escape, truncate
from formatters.radar import render_radar_slack
from formatters.slack_blocks import render_slack, render_slack_queue

log = logging.getLogger(__name__)

__all__ = [
    "REPLAY_WINDOW",
    "ReplayGuard",
    "build_slack_app",
    "send_answer",
    "slack_web_app",
    "start_slack",
]

RESPONSE_URL_POSTS = 5  # Slack accepts this many responses per response_url
# A sentence answer's length: Slack truncates a message's text above 40,000 characters and
# advises staying under 4,000 (shared/facts/platform-facts.md).
ANSWER_TEXT_LIMIT = 4000
Respond = Callable[..., Awaitable[Any]]


def build_slack_app(settings: Settings, service: CommandService) -> AsyncApp:
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

    @app.command("/vllm-report")
    async def report(ack: Any, command: dict[str, Any], respond: Respond) -> None:
        await ack()
        try:
            request = parse_report(command.get("text", ""), service.topic_keys)
        except CommandError as exc:
            await send_answer(respond, Answer(text=str(exc)))
            return
        answer = await service.report(f"slack:{command['user_id']}", request)
        await send_answer(respond, answer)

    async def subscription(
        ack: Any, command: dict[str, Any], respond: Respond, client: Any, remove: bool
    ) -> None:
        await ack()
        user, channel = command["user_id"], command["channel_id"]
        try:
            topic, where = parse_subscription(command.get("text", ""))
        except CommandError as exc:
            await send_answer(respond, Answer(text=str(exc)))
            return
        allowed = await can_manage(client, user, settings.slack_admin_list)
        answer = service.subscribe("slack", user, channel, topic, where, allowed, remove=remove)
        await send_answer(respond, answer)

    @app.command("/vllm-subscribe")
    async def subscribe(ack: Any, command: dict[str, Any], respond: Respond, client: Any) -> None:
        await subscription(ack, command, respond, client, remove=False)

    @app.command("/vllm-unsubscribe")
    async def unsubscribe(ack: Any, command: dict[str, Any], respond: Respond, client: Any) -> None:
        await subscription(ack, command, respond, client, remove=True)

    @app.command("/vllm-subscriptions")
    async def subscriptions(ack: Any, command: dict[str, Any], respond: Respond) -> None:
        await ack()
        answer = service.subscriptions("slack", command["user_id"], command["channel_id"])
        await send_answer(respond, answer)

    @app.command("/vllm-queue")
    async def queue(ack: Any, command: dict[str, Any], respond: Respond) -> None:
        await ack()
        try:
            request = parse_queue(command.get("text", ""), service.topic_keys)
        except CommandError as exc:
            await send_answer(respond, Answer(text=str(exc)))
            return
        answer = await service.queue(f"slack:{command['user_id']}", request)
        await send_answer(respond, answer)

    @app.command("/vllm-radar")
    async def radar(ack: Any, command: dict[str, Any], respond: Respond) -> None:
        await ack()
        wrong = wrong_words(inbound(command.get("text", "")))
        if wrong is not None:  # `/vllm-radar wrong <plugin PR> <upstream PR>`
            await send_answer(respond, await correct(service, f"slack:{command['user_id']}", wrong))
            return
        try:
            request = parse_radar(command.get("text", ""))
        except CommandError as exc:
            await send_answer(respond, Answer(text=str(exc)))
            return
        answer = await service.radar(f"slack:{command['user_id']}", request)
        await send_answer(respond, answer)

    @app.command("/vllm-topics")
    async def topics(ack: Any, respond: Respond) -> None:
        await ack()
        await send_answer(respond, service.topics())

    return app


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


def _stamp(values: Sequence[str] | None) -> int | None:
    """The request's timestamp (Bolt has checked it is within 5 minutes), when it has one."""
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


async def send_answer(respond: Respond, answer: Answer) -> None:
    kind = "ephemeral" if answer.ephemeral else "in_channel"
    if answer.queue is not None:
        for message in render_slack_queue(answer.queue, answer.lang):
            await respond(text=message["text"], blocks=message["blocks"], response_type=kind)
        return
    if answer.radar is not None:
        message = render_radar_slack(answer.radar)
        await respond(text=message["text"], blocks=message["blocks"], response_type=kind)
        return
    if answer.report is None:
        # Escaping can grow a text fourfold (`<` is `&lt;`): cut after it, so an answer that
        # echoes what was typed stays within what Slack shows whole.
        text = truncate(slack_escape(answer.text or ""), ANSWER_TEXT_LIMIT)
        await respond(text=text, response_type=kind)
        return
    report = answer.report
    key = key_of("slack", report, answer.lang, answer.only, answer.link)
    messages = await asyncio.to_thread(
        drawn, key, lambda: render_slack(report, answer.lang, only=answer.only, link=answer.link)
    )
    if len(messages) > RESPONSE_URL_POSTS:
        kept = messages[: RESPONSE_URL_POSTS - 1]
        more = len(messages) - len(kept)
        where = f" <{answer.link}|Full report>" if answer.link else ""
        tail = {"text": f"…and {more} more messages in this section.{where}"}
        messages = [*kept, tail]
    for message in messages:
        await respond(text=message["text"], blocks=message.get("blocks"), response_type=kind)


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


async def start_slack(settings: Settings, service: CommandService, stop: asyncio.Event) -> None:
    app = build_slack_app(settings, service)
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
