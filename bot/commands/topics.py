"""`/vllm-topics`: the topics a report, a queue or a digest can be limited to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request
from bot.commands.services import Services
from bot.model.subscriptions import HARDWARE, PLUGINS_DIGEST, SubscriptionKey


class Topics(Command[Request, None]):
    name = "vllm-topics"
    description = "The topics a report can be limited to"

    def request(self, values: Mapping[str, Any]) -> Request:
        return Request()

    def check(self, services: Services, request: Request) -> None:
        return None

    async def answer(self, services: Services, asker: Asker, checked: None) -> Answer:
        lang = services.settings.lang
        lines = [
            f"{t.key} — {t.display_name(lang)}: {t.description}" for t in services.rules.topics
        ]
        plugins = services.settings.plugin_list
        if plugins:
            lines.append(
                f"{SubscriptionKey('plugins')} — {PLUGINS_DIGEST}: upstream changes that broke "
                "the watched hardware plugins, and pins lagging main (a subscription only; "
                "`/vllm-radar` for any window)"
            )
            names = ", ".join(str(SubscriptionKey.of_plugin(repo)) for repo in plugins)
            lines.append(f"{names} — the same for one plugin: its culprits, open breakage, pin")
        if services.settings.ci_source is not None:
            lines.append(
                f"{SubscriptionKey('ci')} — Red on main: CI jobs failing on vLLM's main, with "
                "their blame range and who to ask, and CI failures reported on GitHub (a "
                "subscription; `/vllm-ci` for any window)"
            )
            kinds = ", ".join(f"ci:{hardware}" for hardware in HARDWARE)
            lines.append(f"{kinds} — the same for one hardware (`ci:amd`: AMD's own CI too)")
        return Said("\n".join(lines))
