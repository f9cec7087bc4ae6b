"""Slash commands as a table: one module per command, answered the same on every platform.

base.py      what a command is (options, request, check, answer) and who asks
words.py     words typed as text (Slack) sorted into a command's options
answers.py   what an answer is, and the core's answers, each drawn for any platform
services.py  what commands work with (settings, rules, reports, store, queue, radar)
table.py     CORE_COMMANDS, and the one wrapper (limits, failures, log line, latency metric)
filters.py   a personal subscription's words (label:, author:, path:, mine; cadence)
report.py, subscribe.py, subscriptions.py, topics.py: the core's commands; the features'
(/vllm-queue, /vllm-radar, /vllm-ci, /vllm-me) are in bot/features/<name>/
"""

from bot.commands.answers import Answer, ReportShown, Said
from bot.commands.base import Asker, Command, Request
from bot.commands.services import RateLimiter, Services
from bot.commands.table import CORE_COMMANDS, CORE_RANKED, Commands
from bot.commands.words import CommandError, Option

__all__ = [
    "CORE_COMMANDS",
    "CORE_RANKED",
    "Answer",
    "Asker",
    "Command",
    "CommandError",
    "Commands",
    "Option",
    "RateLimiter",
    "ReportShown",
    "Request",
    "Said",
    "Services",
]
