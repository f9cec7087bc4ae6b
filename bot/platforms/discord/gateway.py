"""Discord slash commands through discord.py's CommandTree: defer at once, then follow up.

Every command of the table is registered in one loop (`build_tree`), its options typed
from the command's own (`Literal` choices, booleans, autocomplete for topics and sections).
Every answer goes out with no mentions allowed. Subscribing a channel needs the Manage
Channels permission; in DMs, `here` means the DM itself.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any, Literal

import discord
from discord import app_commands

from bot.commands import Answer, Asker, Command, Commands, Option
from bot.model.buttons import PRESSED, Button
from bot.platforms.discord.choices import choices
from bot.platforms.discord.transport import set_api_base
from bot.platforms.registry import DISCORD
from config.settings import Settings

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


def asker(interaction: discord.Interaction) -> Asker:
    in_dm = interaction.guild is None

    async def may_manage() -> bool:
        permissions = interaction.permissions
        return bool(permissions.manage_channels or permissions.administrator)

    return Asker(
        "discord", str(interaction.user.id), str(interaction.channel_id), in_dm, may_manage
    )


class Gateway:
    """The table's commands as discord.py callbacks (apart from the tree, so tests can call
    them with an autospec'd Interaction)."""

    def __init__(self, commands: Commands) -> None:
        self.commands = commands

    async def run(self, name: str, interaction: discord.Interaction, **values: Any) -> None:
        command = self.commands.table[name]
        request = self.commands.request(command, values)
        ephemeral = not request.public
        if command.is_costly(request):
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        else:
            await interaction.response.defer(ephemeral=ephemeral)
        answer = await self.commands.answer(command, asker(interaction), request)
        await send_answer(interaction, answer)

    async def choose(self, complete: str | None, current: str) -> list[app_commands.Choice[str]]:
        found = choices(self.commands, complete, current)
        return [app_commands.Choice(name=name, value=value) for name, value in found]


def build_tree(client: discord.Client, gateway: Gateway) -> app_commands.CommandTree:
    tree = app_commands.CommandTree(client)
    for command in gateway.commands:
        tree.add_command(_slash(command, gateway))
    return tree


def _slash(command: Command[Any, Any], gateway: Gateway) -> app_commands.Command[Any, Any, None]:
    """The command as discord.py wants it: a callback whose signature types each option."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await gateway.run(command.name, interaction, **values)

    first = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [first.replace(annotation=discord.Interaction), *map(_parameter, command.options)]
    )
    callback = app_commands.describe(**{o.name: o.description for o in command.options})(callback)
    completing = {o.name: _completer(gateway, o.complete) for o in command.options if o.complete}
    if completing:
        callback = app_commands.autocomplete(**completing)(callback)
    return app_commands.Command(
        name=command.name,
        description=command.description,
        callback=callback,  # type: ignore[arg-type]  # the signature above, not the def's
    )


def _parameter(option: Option) -> inspect.Parameter:
    kind: Any = bool if option.flag else str
    if option.choices:
        kind = Literal[option.choices]  # Discord shows them as a list
    default: Any = False if option.flag else None
    if option.required:
        default = inspect.Parameter.empty
    elif not option.flag:
        kind = kind | None
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default
    )


def _completer(gateway: Gateway, complete: str | None) -> Any:
    async def complete_(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await gateway.choose(complete, current)

    return complete_


async def send_answer(interaction: discord.Interaction, answer: Answer) -> None:
    for message in await asyncio.to_thread(answer.draw, DISCORD):
        if "content" in message:
            await interaction.followup.send(
                content=message["content"],
                ephemeral=answer.ephemeral,
                allowed_mentions=NO_MENTIONS,
                wait=True,  # the saved message back, as on every webhook send
            )
            continue
        embeds = [discord.Embed.from_dict(raw) for raw in message["embeds"]]
        await interaction.followup.send(
            embeds=embeds, ephemeral=answer.ephemeral, allowed_mentions=NO_MENTIONS, wait=True
        )


def _pressed(commands: Commands) -> Any:
    """A button of ours pressed on a posted message (a component whose id starts `vr.`):
    the feature's sentence to the presser alone. The command tree answers commands."""

    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        action, value = Button.parse(str(data.get("custom_id", "")))
        if not action.startswith(PRESSED):
            return
        said = await commands.press(action, value, asker(interaction))
        await interaction.response.send_message(said.text, ephemeral=True)

    return on_interaction


async def start_discord(settings: Settings, commands: Commands, stop: asyncio.Event) -> None:
    """The gateway client until `stop`; Discord being down is logged and retried, never fatal
    (Slack and the daily job carry on meanwhile)."""
    set_api_base(settings.discord_api_url)
    guild = discord.Object(int(settings.discord_guild_id)) if settings.discord_guild_id else None
    token = settings.discord_bot_token.get_secret_value() if settings.discord_bot_token else ""
    delay = 5.0
    while not stop.is_set():
        client = discord.Client(intents=discord.Intents.none(), allowed_mentions=NO_MENTIONS)
        tree = build_tree(client, Gateway(commands))

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
        client.event(_pressed(commands))
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
