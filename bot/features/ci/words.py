"""How Red on main names hardware and marks a time's zone; its words are in
bot.features.ci.phrases."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

HARDWARE_NAMES = {
    "amd": "AMD",
    "nvidia": "NVIDIA",
    "intel": "Intel",
    "tpu": "TPU",
    "neuron": "Neuron",
    "ascend": "Ascend",
    "cpu": "CPU",
}


def zone(moment: datetime) -> str:
    """The zone a time is told in, as its offset: "UTC+8", "UTC+5:30", "UTC"."""
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    if not minutes:
        return "UTC"
    hours, rest = divmod(abs(minutes), 60)
    sign = "+" if minutes > 0 else "-"
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def when(moment: datetime, tz: tzinfo | None) -> str:
    """A time in the report's zone, marked with it."""
    here = moment.astimezone(tz)
    return f"{here:%Y-%m-%d %H:%M} {zone(here)}"


def day(moment: datetime, tz: tzinfo | None) -> str:
    return moment.astimezone(tz).date().isoformat()
