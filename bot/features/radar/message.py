"""The standalone radar (`/vllm-radar`, `vllm-report radar --format slack|discord`) as one
message: its outline (a title, the counts line and a section) drawn by the platform's
one-message drawing, as every other digest is (cut to fit, saying how many rows were left
out). The culprits read as in the daily report's Plugins section; the standalone radar adds
what only it shows: every pin's lag, not just the lagging ones, and a window with nothing
broken says so."""

from __future__ import annotations

from typing import Any

from bot.features.radar.model import Radar
from bot.features.radar.outline import by_fixes, culprit_columns, culprit_entry, open_entry
from bot.features.radar.phrases import said, sentence, window_label
from bot.features.radar.render import (
    counts_line,
    incomplete_text,
    lag_text,
    pins_said_once,
    precision_line,
    reverts_said_once,
    short,
)
from bot.model import outline_parts as ol
from bot.platforms.registry import Platform

EVENT_TYPE = "vllm_radar"
# The culprits one message shows (the most plugins first): with them the pins, the open
# breakage and what is said of them all still fit Discord's message; the rest are named by
# the command that lists them all.
SHOWN = 8


def radar_message(platform: Platform, radar: Radar, lang: str) -> dict[str, Any]:
    """The standalone breakage radar as one message on `platform`."""
    (message,) = platform.one_message(radar_outline(radar, lang), lang)
    return message


def radar_outline(radar: Radar, lang: str) -> ol.OneMessage:
    title = said(lang, "title", label=window_label(lang, radar.window.label))
    plugins = ",".join(radar.plugins)
    payload = {"window": radar.window.label, "plugins": plugins, "part": "radar"}
    return ol.OneMessage(
        title, counts_line(radar, lang), radar_section(radar, lang), EVENT_TYPE, payload
    )


def radar_section(radar: Radar, lang: str) -> ol.Section:
    """The culprits (the most plugins first, each with its facts and the plugins' fixes) or
    the sentence that none was named; what is said once of them all; every pin's lag; the
    breakage still open; and, when a plugin could not be read, that the radar is not whole."""
    reverts = reverts_said_once(radar.culprits, lang)
    blocks: list[ol.Block] = []
    if radar.culprits:
        until = radar.window.end
        groups = by_fixes(radar.culprits)
        entries = tuple(
            culprit_entry(group, lang, until, reverts is None, upstream="vllm")
            for group in groups[:SHOWN]
        )
        hidden = sum(len(group) for group in groups[SHOWN:])
        more = said(lang, "more", n=hidden, where=said(lang, "shows_all")) if hidden else None
        rest = (ol.Our(more),) if more else None
        columns = culprit_columns(lang)
        blocks.append(ol.Block(said(lang, "culprits"), entries, "numbered", rest, columns=columns))
    else:
        blocks.append(_text(said(lang, "none_broke")))
    notes = [sentence(line, lang) for line in (reverts, precision_line(radar, lang)) if line]
    if notes:
        blocks.append(_text(said(lang, "sentence_sep").join(notes)))
    once = pins_said_once(radar.pins, lang)
    if once:
        blocks.append(_text(once))
    elif radar.pins:
        lines = tuple(
            ol.Entry((ol.Our(f"{short(pin.plugin_repo)}: {lag_text(pin, lang)}"),))
            for pin in radar.pins
        )
        blocks.append(ol.Block(said(lang, "pins_short"), lines))
    if radar.open:
        entries = tuple(open_entry(found, lang) for found in radar.open)
        blocks.append(ol.Block(said(lang, "open"), entries))
    if not radar.complete:
        blocks.append(_text(incomplete_text(radar, lang)))
    title = said(lang, "title", label=window_label(lang, radar.window.label))
    return ol.Section("radar", title, tuple(blocks))


def _text(sentence: str) -> ol.Block:
    return ol.Block(None, (ol.Entry((ol.Our(sentence),)),), "text")
