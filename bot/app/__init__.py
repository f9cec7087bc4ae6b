"""Composition root: every service is built and wired once (wiring.py) and handed down; the
CLI, the daily run and the slash commands share them. `serve` (serve.py) runs the bot."""

from bot.app.features import table
from bot.app.serve import serve
from bot.app.wiring import (
    Bot,
    ci,
    commands,
    daily_job,
    doctor,
    github_source,
    now,
    open_bot,
    post_once,
    prose_writer,
    queue_digest,
    radar,
    site_builder,
    transports,
)

__all__ = [
    "Bot",
    "ci",
    "commands",
    "daily_job",
    "doctor",
    "github_source",
    "now",
    "open_bot",
    "post_once",
    "prose_writer",
    "queue_digest",
    "radar",
    "serve",
    "site_builder",
    "table",
    "transports",
]
