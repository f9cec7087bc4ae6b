"""manifest.yml creates the Slack app in one paste: its slash commands are the command
table's (a command missing there is one Slack never sends us), and its scopes cover every
Slack Web API method the bot calls (a missing one is `missing_scope` on the first post that
needs it: the chart upload, a DM digest, finding a message after an interrupted post)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.app import table as whole_table

TABLE = whole_table()


ROOT = Path(__file__).resolve().parents[2]
# Each Web API method the adapters call, and the bot scopes it needs (api.slack.com/methods).
SCOPES = {
    "chat_postMessage": {"chat:write"},
    "chat_delete": {"chat:write"},
    "files_upload_v2": {"files:write"},
    "files_delete": {"files:write"},
    "conversations_history": {"channels:history", "groups:history", "im:history"},
    "conversations_replies": {"channels:history", "groups:history", "im:history"},
    "conversations_open": {"im:write"},
    "users_info": {"users:read"},
}


def manifest() -> dict[str, object]:
    loaded = yaml.safe_load((ROOT / "manifest.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_manifest_holds_every_command_of_the_table_as_the_bot_describes_it() -> None:
    commands = manifest()["features"]["slash_commands"]  # type: ignore[index]
    assert {c["command"]: c["description"] for c in commands} == {
        f"/{command.name}": command.description for command in TABLE
    }
    assert all(len(c["description"]) <= 100 for c in commands)  # Slack's limit


def test_the_manifest_grants_each_scope_the_bot_uses_and_nothing_more() -> None:
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "bot/platforms/slack").glob("*.py")
    )
    called = set(re.findall(r"client\.([a-z_0-9]+[A-Za-z]*)", source))
    assert called <= set(SCOPES), f"give these methods their scopes: {called - set(SCOPES)}"
    needed = {"commands"}.union(*(SCOPES[m] for m in called))
    granted = set(manifest()["oauth_config"]["scopes"]["bot"])  # type: ignore[index]
    assert granted == needed


def test_the_manifest_runs_in_socket_mode_as_the_readme_starts_the_bot() -> None:
    assert manifest()["settings"]["socket_mode_enabled"] is True  # type: ignore[index]
