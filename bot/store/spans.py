"""Spans of time `[start, end)`: the archive's coverage arithmetic (pure)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Span:
    """A half-open span of time, `[start, end)`."""

    start: datetime
    end: datetime


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: s.start):
        if merged and span.start <= merged[-1].end:
            if span.end > merged[-1].end:
                merged[-1] = Span(merged[-1].start, span.end)
        else:
            merged.append(span)
    return merged


def subtract_spans(wanted: Span, covered: Iterable[Span]) -> list[Span]:
    gaps: list[Span] = []
    cursor = wanted.start
    for span in merge_spans(covered):
        if span.end <= cursor or span.start >= wanted.end:
            continue
        if span.start > cursor:
            gaps.append(Span(cursor, span.start))
        cursor = max(cursor, span.end)
    if cursor < wanted.end:
        gaps.append(Span(cursor, wanted.end))
    return gaps
