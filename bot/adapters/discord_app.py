"""Discord slash commands through discord.py's CommandTree: defer at once, then follow up.

Typed options with autocomplete for topics and sections (at most 25 choices, Discord's
limit). Every answer goes out with no mentions allowed. Subscribing a channel needs the
Manage Channels permission; in DMs, `here` means the DM itself.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

import discord
from discord import app_commands

from bot.adapters.discord_answers import answer_messages
from bot.adapters.discord_transport import set_api_base
from bot.model.report import SECTIONS
from bot.service.commands import (
    Answer,
    CommandService,
    QueueRequest,
    RadarRequest,
    ReportRequest,
)
from bot.service.radar_wrong import correct
from config.settings import Settings

log = logging.getLogger(__name__)

AUTOCOMPLETE_CHOICES = 25  # Discord's limit per autocomplete answer
NO_MENTIONS = discord.AllowedMentions.none()


class DiscordCommands:
    """The command callbacks, apart from discord.py's registration so tests can call them."""

    def __init__(self, service: CommandService) -> None:
        self.service = service

    async def report(
        self,
        interaction: discord.Interaction,
        when: str | None = None,
        section: str | None = None,
        topic: str | None = None,
        lang: Literal["en", "zh"] | None = None,
        public: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        request = ReportRequest(
            when=when or "yesterday", section=section, topic=topic, lang=lang, public=public
        )
        answer = await self.service.report(f"discord:{interaction.user.id}", request)
        await send_answer(interaction, answer)

    async def subscribe(
        self,
        interaction: discord.Interaction,
        topic: str,
        where: str = "here",
        remove: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        in_dm = interaction.guild is None
        where = "dm" if in_dm else where
        allowed = in_dm or bool(
            interaction.permissions.manage_channels or interaction.permissions.administrator
        )
        answer = self.service.subscribe(
            "discord",
            str(interaction.user.id),
            str(interaction.channel_id),
            topic,
            where,
            allowed,
            remove=remove,
        )
        await send_answer(interaction, answer)

    async def subscriptions(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        answer = self.service.subscriptions(
            "discord", str(interaction.user.id), str(interaction.channel_id)
        )
        await send_answer(interaction, answer)

    async def queue(
        self,
        interaction: discord.Interaction,
        topic: str | None = None,
        when: str | None = None,
        lang: Literal["en", "zh"] | None = None,
        public: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        request = QueueRequest(topic=topic, when=when or "yesterday", lang=lang, public=public)
        answer = await self.service.queue(f"discord:{interaction.user.id}", request)
        await send_answer(interaction, answer)

    async def radar(
        self,
        interaction: discord.Interaction,
        plugin: str | None = None,
        when: str | None = None,
        public: bool = False,
        wrong: str | None = None,
    ) -> None:
        if wrong is not None:  # a correction: `wrong: vllm-ascend#3221 24982`
            await interaction.response.defer(ephemeral=True)
            user = f"discord:{interaction.user.id}"
            await send_answer(interaction, await correct(self.service, user, wrong.split()))
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        request = RadarRequest(plugin=plugin, when=when or "7d", public=public)
        answer = await self.service.radar(f"discord:{interaction.user.id}", request)
        await send_answer(interaction, answer)

    async def topics(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await send_answer(interaction, self.service.topics())

    async def topic_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        rules = self.service.rules
        found = [t for t in rules.topics if current.lower() in f"{t.key} {t.name}".lower()]
        return [
            app_commands.Choice(name=f"{t.key} — {t.name}"[:100], value=t.key)
            for t in found[:AUTOCOMPLETE_CHOICES]
        ]

    async def section_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = [*SECTIONS, *self.service.topic_keys]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][
            :AUTOCOMPLETE_CHOICES
        ]


def build_tree(client: discord.Client, commands: DiscordCommands) -> app_commands.CommandTree:
    tree = app_commands.CommandTree(client)

    @tree.command(name="vllm-report", description="A report for any window (default: yesterday)")
    @app_commands.describe(
        when="2026-03-26, 2026-03-20..2026-03-26, yesterday, 7d",
        section="one section",
        topic="limit to one topic",
        public="post it in the channel instead of only to you",
    )
    @app_commands.autocomplete(section=commands.section_choices, topic=commands.topic_choices)
    async def vllm_report(
        interaction: discord.Interaction,
        when: str | None = None,
        section: str | None = None,
        topic: str | None = None,
        lang: Literal["en", "zh"] | None = None,
        public: bool = False,
    ) -> None:
        await commands.report(interaction, when, section, topic, lang, public)

    @tree.command(name="vllm-subscribe", description="Get a topic's daily digest")
    @app_commands.autocomplete(topic=commands.topic_choices)
    async def vllm_subscribe(
        interaction: discord.Interaction, topic: str, where: Literal["here", "dm"] = "here"
    ) -> None:
        await commands.subscribe(interaction, topic, where)

    @tree.command(name="vllm-unsubscribe", description="Stop a topic's daily digest")
    @app_commands.autocomplete(topic=commands.topic_choices)
    async def vllm_unsubscribe(
        interaction: discord.Interaction, topic: str, where: Literal["here", "dm"] = "here"
    ) -> None:
        await commands.subscribe(interaction, topic, where, remove=True)

    @tree.command(name="vllm-subscriptions", description="What this channel and you receive")
    async def vllm_subscriptions(interaction: discord.Interaction) -> None:
        await commands.subscriptions(interaction)

    @tree.command(name="vllm-queue", description="What waits on whom: reviews, response times")
    @app_commands.describe(
        topic="your topic first (default: every vendor)",
        when="the window of the response times (default: yesterday)",
        public="post it in the channel instead of only to you",
    )
    @app_commands.autocomplete(topic=commands.topic_choices)
    async def vllm_queue(
        interaction: discord.Interaction,
        topic: str | None = None,
        when: str | None = None,
        lang: Literal["en", "zh"] | None = None,
        public: bool = False,
    ) -> None:
        await commands.queue(interaction, topic, when, lang, public)

    @tree.command(name="vllm-radar", description="Which upstream vLLM changes broke which plugin")
    @app_commands.describe(
        plugin="one plugin, e.g. gaudi (default: every watched plugin)",
        when="the window (default: the last 7 days)",
        public="post it in the channel instead of only to you",
        wrong="a culprit is wrong: <plugin PR> <upstream PR>, e.g. vllm-ascend#3221 24982",
    )
    async def vllm_radar(
        interaction: discord.Interaction,
        plugin: str | None = None,
        when: str | None = None,
        public: bool = False,
        wrong: str | None = None,
    ) -> None:
        await commands.radar(interaction, plugin, when, public, wrong)

    @tree.command(name="vllm-topics", description="The topics a report can be limited to")
    async def vllm_topics(interaction: discord.Interaction) -> None:
        await commands.topics(interaction)

    return tree


async def send_answer(interaction: discord.Interaction, answer: Answer) -> None:
    for message in await asyncio.to_thread(answer_messages, answer):
        if "content" in message:
            await interaction.followup.send(
                content=message["content"], ephemeral=answer.ephemeral, allowed_mentions=NO_MENTIONS
            )
            continue
        embeds = [discord.Embed.from_dict(raw) for raw in message["embeds"]]
        await interaction.followup.send(
            embeds=embeds, ephemeral=answer.ephemeral, allowed_mentions=NO_MENTIONS
        )


async def start_discord(settings: Settings, service: CommandService, stop: asyncio.Event) -> None:
    """The gateway client until `stop`; Discord being down is logged and retried, never fatal
    (Slack and the daily job carry on meanwhile)."""
    set_api_base(settings.discord_api_url)
    guild = discord.Object(int(settings.discord_guild_id)) if settings.discord_guild_id else None
    token = settings.discord_bot_token.get_secret_value() if settings.discord_bot_token else ""
    delay = 5.0
    while not stop.is_set():
        client = discord.Client(intents=discord.Intents.none(), allowed_mentions=NO_MENTIONS)
        tree = build_tree(client, DiscordCommands(service))

        async def setup_hook(tree: app_commands.CommandTree = tree) -> None:
            if guild is not None:
                tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
            log.info(
                "Discord: %d commands synced %s",
                len(synced),
                f"to server {guild.id}" if guild else "globally (may take up to an hour)",
            )

        client.setup_hook = setup_hook  # type: ignore[method-assign]
        runner = asyncio.create_task(client.start(token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not runner.done():
            await client.close()
            runner.cancel()
            return
        failure = runner.exception()
        await client.close()
        if isinstance(failure, discord.LoginFailure):
            log.error("Discord refused the bot token: check DISCORD_BOT_TOKEN (commands are off)")
            return
        log.warning("Discord gateway stopped (%s); retrying in %.0f s", failure, delay)
        try:
            await asyncio.wait_for(stop.wait(), delay)
        except TimeoutError:
            delay = min(delay * 2, 300.0)
