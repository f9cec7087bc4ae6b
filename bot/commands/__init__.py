"""Slash commands as a table: one module per command, answered the same on every platform.

base.py      what a command is (options, request, check, answer) and who asks
words.py     words typed as text (Slack) sorted into a command's options
answers.py   the answers, each drawn for Slack and Discord
services.py  what commands work with (settings, rules, reports, store, queue, radar)
table.py     TABLE, and the one wrapper (limits, failures, log line, latency metric)
filters.py   a personal subscription's words (label:, author:, path:, mine; cadence)
report.py, queue.py, radar.py, subscribe.py, subscriptions.py, me.py, topics.py: the commands
"""

from bot.commands.answers import Answer, QueueShown, RadarShown, ReportShown, Said
from bot.commands.base import Asker, Command, Request
from bot.commands.services import RateLimiter, Services
from bot.commands.table import TABLE, Commands
from bot.commands.words import CommandError, Option

__all__ = [
    "TABLE",
    "Answer",
    "Asker",
    "Command",
    "CommandError",
    "Commands",
    "Option",
    "QueueShown",
    "RadarShown",
    "RateLimiter",
    "ReportShown",
    "Request",
    "Said",
    "Services",
]
