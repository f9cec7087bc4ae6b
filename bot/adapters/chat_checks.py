"""`doctor`'s look at the chat platforms: Slack `auth.test` and each channel, Discord's login
and each channel, with the SDKs the bot posts with (so a pass means a post can go out).

A Slack channel is read with `conversations.history` (limit 1): it needs exactly the scopes the
bot already asks for (`channels:history`, `groups:history`) and fails with `not_in_channel`
when the bot was never invited. A Discord channel is read likewise (one message), which needs
View Channel and Read Message History, the permissions the bot is added with; a forum, which
holds posts and no messages, is looked at (Get Channel): its tags, and whether it requires one
the bot's post would not have.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.service.doctor import Check
from config.settings import Settings

SLACK_FIXES = {
    "invalid_auth": "the token is not valid: copy the Bot User OAuth Token into SLACK_BOT_TOKEN",
    "not_authed": "no token reached Slack: set SLACK_BOT_TOKEN",
    "account_inactive": "the app was uninstalled: reinstall it and update SLACK_BOT_TOKEN",
    "token_revoked": "the token was revoked: reinstall the app and update SLACK_BOT_TOKEN",
    "channel_not_found": "no such channel (or a private one the bot is not in): check the ID",
    "not_in_channel": "the bot is not in it: /invite @your-bot in that channel",
    "is_archived": "the channel is archived: unarchive it or remove it from SLACK_CHANNELS",
    "missing_scope": "the app lacks a scope: add channels:history and groups:history, reinstall",
}


async def slack_checks(settings: Settings) -> list[Check]:
    if settings.slack_bot_token is None:
        return []
    from slack_sdk.errors import SlackApiError

    from bot.platforms.slack.transport import slack_client

    client = slack_client(
        settings.slack_bot_token.get_secret_value(), settings.slack_api_url, retries=1
    )
    try:
        answer: Any = await client.auth_test()
    except SlackApiError as exc:
        return [Check("slack", False, _slack_fix(exc.response.get("error")))]
    except Exception as exc:  # the host is unreachable, or not Slack
        return [
            Check(
                "slack",
                False,
                f"cannot reach Slack at {settings.slack_api_url} ({type(exc).__name__}): check "
                "the network or SLACK_API_URL",
            )
        ]
    found = [
        Check(
            "slack",
            True,
            f"signed in as {answer.get('user') or answer.get('user_id')} in "
            f"{answer.get('team') or answer.get('team_id')}",
        )
    ]
    for channel in settings.slack_channel_list:
        try:
            await client.conversations_history(channel=channel, limit=1)
        except SlackApiError as exc:
            found.append(
                Check(f"slack channel {channel}", False, _slack_fix(exc.response.get("error")))
            )
            continue
        found.append(Check(f"slack channel {channel}", True, "the bot is in it and can read it"))
    return found


def _slack_fix(error: object) -> str:
    code = str(error or "unknown error")
    return f"{code}: {SLACK_FIXES.get(code, 'see https://api.slack.com/methods for the code')}"


async def discord_checks(settings: Settings) -> list[Check]:
    if settings.discord_bot_token is None:
        return []
    import aiohttp
    import discord
    from discord.http import HTTPClient, Route

    from bot.platforms.discord import forum
    from bot.platforms.discord.transport import set_api_base

    set_api_base(settings.discord_api_url)
    where = settings.discord_api_url or "Discord"
    http = HTTPClient(loop=asyncio.get_running_loop())
    try:
        try:
            user = await asyncio.wait_for(
                http.static_login(settings.discord_bot_token.get_secret_value()), 30
            )
        except discord.LoginFailure:
            return [
                Check(
                    "discord",
                    False,
                    "Discord refused the token: reset it in the developer portal (Bot → Reset "
                    "Token) and update DISCORD_BOT_TOKEN",
                )
            ]
        except (aiohttp.ClientError, discord.HTTPException, OSError, TimeoutError) as exc:
            return [
                Check(
                    "discord",
                    False,
                    f"cannot reach {where} ({type(exc).__name__}): check the network or "
                    "DISCORD_API_URL",
                )
            ]
        found = [Check("discord", True, f"signed in as {user.get('username')} ({user.get('id')})")]
        for channel in settings.discord_channel_list:
            route = Route("GET", "/channels/{channel_id}/messages", channel_id=channel)
            try:
                info = await http.request(
                    Route("GET", "/channels/{channel_id}", channel_id=channel)
                )
                if int(info.get("type") or 0) in forum.FORUM_TYPES:  # holds posts, no messages
                    said, refused = forum.looked_at(info, settings.lang)
                    found.append(Check(f"discord channel {channel}", True, said, warn=refused))
                    continue
                await http.request(route, params={"limit": 1})
            except discord.NotFound:
                said = "unknown channel (10003): check the ID in DISCORD_CHANNELS"
                found.append(Check(f"discord channel {channel}", False, said))
                continue
            except discord.Forbidden:
                said = (
                    "missing access (50001): give the bot View Channel and Read Message "
                    "History there"
                )
                found.append(Check(f"discord channel {channel}", False, said))
                continue
            except (aiohttp.ClientError, discord.HTTPException) as exc:
                found.append(
                    Check(f"discord channel {channel}", False, f"{type(exc).__name__}: {exc}")
                )
                continue
            found.append(Check(f"discord channel {channel}", True, "the bot can see it"))
        return found
    finally:
        await http.close()
