"""Composition root: the shared services are built and wired once per `open_bot`
(wiring.py), the features walked from their declarations (features.py), and handed down; the
CLI, the daily run and the slash commands share them. `serve` (serve.py) runs the bot."""

from bot.app.features import table
from bot.app.serve import serve
from bot.app.wiring import (
    Bot,
    commands,
    daily_job,
    doctor,
    github_source,
    now,
    open_bot,
    post_once,
    prose_writer,
    releases,
    site_builder,
    transports,
)

__all__ = [
    "Bot",
    "commands",
    "daily_job",
    "doctor",
    "github_source",
    "now",
    "open_bot",
    "post_once",
    "prose_writer",
    "releases",
    "serve",
    "site_builder",
    "table",
    "transports",
]
