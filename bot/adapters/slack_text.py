"""Slack's command text → typed requests: undo Slack's escaping, read the words.

Slack sends a slash command's arguments as one string, with `&`, `<`, `>` escaped and
links and mentions wrapped as `<url|text>`. Discord has typed options and needs none of
this. The words are only sorted here (a date, a section, a topic, a language...); the
service checks their values.
"""

from __future__ import annotations

import difflib
import html
import re

from bot.model.asking import REPO_NAME, did_you_mean
from bot.model.report import SECTIONS
from bot.service.commands import CommandError, QueueRequest, RadarRequest, ReportRequest

_SLACK_WRAP = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")
_WHEN = re.compile(r"^(\d{4}-\d{2}-\d{2}(\.\.\d{4}-\d{2}-\d{2})?|\d{1,3}d|today|yesterday)$")
MAX_ARGS = 12
MAX_TEXT = 300


def inbound(text: str) -> str:
    """Slack sends `&amp;` and wraps links as `<url|text>`: undo both before parsing."""
    text = _SLACK_WRAP.sub(lambda m: m.group(2) or m.group(1), text)
    return html.unescape(text).strip()[:MAX_TEXT]


def parse_report(text: str, topics: list[str]) -> ReportRequest:
    """`2026-03-26 amd zh public` → a ReportRequest; an unknown word → CommandError."""
    words = inbound(text).split()
    if len(words) > MAX_ARGS:
        raise CommandError(f"too many words ({len(words)}); try `/vllm-report yesterday amd`")
    when: list[str] = []
    values: dict[str, str | bool] = {}
    vocabulary = [*SECTIONS, *topics, "public", "en", "zh", "today", "yesterday"]
    index = 0
    while index < len(words):
        word = words[index]
        low = word.lower()
        if low == "last":  # "last 7 days": the window parser reads the three words
            when += words[index : index + 3]
            index += 3
            continue
        if low in ("public", "post"):
            values["public"] = True
        elif low in ("en", "zh"):
            values["lang"] = low
        elif low in topics:
            values["topic"] = low
        elif low in SECTIONS:
            values["section"] = low
        elif REPO_NAME.match(word):
            values["repo"] = word
        elif _WHEN.match(low):
            when.append(word)
        else:
            close = difflib.get_close_matches(low, vocabulary, n=1, cutoff=0.6)
            kind = "topic" if close and close[0] in topics else "word"
            hint = did_you_mean(low, vocabulary)
            raise CommandError(
                f"unknown {kind} '{word}'{hint} Try `/vllm-report 2026-03-26 amd` or "
                "`/vllm-topics` for the topics."
            )
        index += 1
    return ReportRequest(
        when=" ".join(when) or "yesterday",
        section=_text(values.get("section")),
        topic=_text(values.get("topic")),
        repo=_text(values.get("repo")),
        lang=_text(values.get("lang")),
        public=bool(values.get("public", False)),
    )


def parse_queue(text: str, topics: list[str]) -> QueueRequest:
    """`/vllm-queue amd`, `/vllm-queue amd 7d zh public` → a QueueRequest."""
    words = inbound(text).split()
    if len(words) > MAX_ARGS:
        raise CommandError(f"too many words ({len(words)}); try `/vllm-queue amd`")
    values: dict[str, str | bool] = {}
    when: list[str] = []
    vocabulary = [*topics, "public", "en", "zh", "today", "yesterday"]
    for word in words:
        low = word.lower()
        if low in ("public", "post"):
            values["public"] = True
        elif low in ("en", "zh"):
            values["lang"] = low
        elif low in topics:
            values["topic"] = low
        elif _WHEN.match(low):
            when.append(word)
        else:
            close = difflib.get_close_matches(low, vocabulary, n=1, cutoff=0.6)
            kind = "topic" if close and close[0] in topics else "word"
            raise CommandError(
                f"unknown {kind} '{word}'{did_you_mean(low, vocabulary)} Try `/vllm-queue amd` "
                "or `/vllm-topics` for the topics."
            )
    return QueueRequest(
        topic=_text(values.get("topic")),
        when=" ".join(when) or "yesterday",
        lang=_text(values.get("lang")),
        public=bool(values.get("public", False)),
    )


def parse_radar(text: str) -> RadarRequest:
    """`/vllm-radar`, `/vllm-radar gaudi`, `/vllm-radar ascend 30d public` → a RadarRequest
    (the plugin is checked by the service, which knows the watched ones)."""
    words = inbound(text).split()
    if len(words) > MAX_ARGS:
        raise CommandError(f"too many words ({len(words)}); try `/vllm-radar gaudi 7d`")
    plugin: str | None = None
    when: list[str] = []
    public = False
    for word in words:
        low = word.lower()
        if low in ("public", "post"):
            public = True
        elif _WHEN.match(low):
            when.append(word)
        elif plugin is None:
            plugin = word
        else:
            raise CommandError(f"one plugin at a time ('{plugin}', then '{word}')")
    return RadarRequest(plugin=plugin, when=" ".join(when) or "7d", public=public)


def parse_subscription(text: str) -> tuple[str, str]:
    """`amd dm` → ("amd", "dm"); the topic is checked by the service."""
    words = inbound(text).lower().split()
    if not words:
        raise CommandError("say which topic: `/vllm-subscribe amd` (see `/vllm-topics`)")
    return words[0], (" ".join(words[1:]) or "here")


def _text(value: str | bool | None) -> str | None:
    return value if isinstance(value, str) else None
