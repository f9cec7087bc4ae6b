"""Answers drawn once per report and question, off the event loop's thread.

A slash command's answer is the whole report (or a section) drawn into Slack blocks or
Discord embeds: tens of milliseconds of CPU. Drawn on the event loop, every ack behind it
waits, and under concurrency acks passed Slack's 3-second limit. The adapters call `drawn`
in a worker thread (`asyncio.to_thread`), and a report asked again in the same words is
drawn once: the memo holds the last `SIZE` drawings, keyed by what the drawing depends on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bot.model.report import Report

SIZE = 64
_memo: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def key_of(
    platform: str, report: Report, lang: str, only: Any, link: str | None
) -> tuple[Any, ...]:
    window = report.window
    return (
        platform,
        report.repo,
        window.start,
        window.end,
        report.generated_at,
        report.complete,
        report.topic,
        report.prose is not None,
        report.part("queue") is not None,
        lang,
        tuple(only or ()),
        link,
    )


def drawn(key: tuple[Any, ...], draw: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """`draw()`'s messages, from the memo when the same drawing was made before."""
    with _lock:
        found = _memo.get(key)
        if found is not None:
            _memo.move_to_end(key)
            return found
    messages = draw()
    with _lock:
        _memo[key] = messages
        while len(_memo) > SIZE:
            _memo.popitem(last=False)
    return messages
