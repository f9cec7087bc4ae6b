"""The standalone radar as one message on a chat platform (`/vllm-radar`, `vllm-report radar
--format slack|discord`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.features.radar.model import Radar
from bot.features.radar.render import render_radar_discord, render_radar_slack
from bot.platforms.registry import Platform

# The standalone radar keeps its own hand-built Blocks and embed (fields, footer): drawn
# through a platform's one-message digest its output would change. Looked up by the
# platform's name, never branched on.
_DRAWN: dict[str, Callable[[Radar, str], dict[str, Any]]] = {
    "slack": lambda radar, lang: render_radar_slack(radar, lang=lang),
    "discord": lambda radar, lang: render_radar_discord(radar, lang),
}


def radar_message(platform: Platform, radar: Radar, lang: str) -> dict[str, Any]:
    """The standalone breakage radar as one message on `platform`."""
    return _DRAWN[platform.name](radar, lang)
