"""What a person asked, checked once for every surface: the command line and the slash
commands read a topic, a section, a language, a repository and a window through these
functions, so both refuse the same words in the same sentence ("unknown topic 'amdd' — did
you mean 'amd'? Topics: amd, nvidia, …"). Pure: no I/O; the clock is passed in.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from datetime import datetime
from datetime import time as time_of_day
from zoneinfo import ZoneInfo

from bot.model.errors import InputError
from bot.model.rules import TopicRules
from bot.model.windows import ReleaseLookup, Window, parse_window

LANGUAGES = ("en", "zh")
REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


class AskError(InputError, ValueError):
    """What was asked cannot be answered; the message is the whole answer (exit status 2)."""


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """` — did you mean 'amd'?` for a near miss, else ''."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""


def topic(name: str, rules: TopicRules) -> str:
    """A topic key as typed (any case, spaces around), or AskError naming the topics."""
    key = name.strip().lower()
    keys = [t.key for t in rules.topics]
    if key not in keys:
        hint = did_you_mean(key, keys)
        raise AskError(f"unknown topic '{name}'{hint} Topics: {', '.join(keys)}.")
    return key


def queue_topic(name: str, rules: TopicRules) -> str:
    """A topic the review queue can follow: one with GitHub labels, since the queue's lists
    are GitHub searches by label (a topic known by its title rules alone has no queue)."""
    key = name.strip().lower()
    labelled = [t.key for t in rules.topics if t.key in rules.queue.topic_labels]
    if key in labelled:
        return key
    if rules.topic(key) is None:
        raise AskError(
            f"unknown topic '{name}'{did_you_mean(key, labelled)} Topics with a review queue: "
            f"{', '.join(labelled)}."
        )
    raise AskError(
        f"topic '{key}' has no labels for the review queue (its lists are GitHub searches by "
        f"label): use one of {', '.join(labelled)}, or give {key} `queue_labels` in the "
        "topic rules file"
    )


def section(name: str, rules: TopicRules, words: Sequence[str]) -> str:
    """A section word (`words`: summary, vendors, hot, …, the features' too) or a topic key."""
    key = name.strip().lower()
    valid = [*words, *(t.key for t in rules.topics)]
    if key not in valid:
        raise AskError(
            f"unknown section '{name}'{did_you_mean(key, valid)} "
            f"Sections: {', '.join(words)}, or a topic."
        )
    return key


def language(name: str) -> str:
    lang = name.strip().lower()
    if lang not in LANGUAGES:
        raise AskError(f"unknown language '{name}': use en or zh")
    return lang


def repository(name: str) -> str:
    if not REPO_NAME.match(name):
        raise AskError(f"'{name}' is not a repository: write owner/name")
    return name


def window(
    when: str,
    *,
    now: datetime,
    tz: ZoneInfo,
    cutoff: time_of_day,
    max_days: int,
    releases: ReleaseLookup | None = None,
) -> Window:
    """The window a phrase means (`yesterday`, `2026-03-26`, `7d`, `D1..D2`, `since v0.33.0`:
    `releases` says when a release came out); WindowError (an InputError) says what to type
    instead."""
    return parse_window(when, now=now, tz=tz, cutoff=cutoff, max_days=max_days, releases=releases)


__all__ = [
    "LANGUAGES",
    "AskError",
    "did_you_mean",
    "language",
    "queue_topic",
    "repository",
    "section",
    "topic",
    "window",
]
