"""A report's chat payloads, the platform-neutral pieces: a picture's file and where it goes
among a post's parts (`placed`: Discord's; Slack draws the chart itself and posts the PNG as
the reply after it, formatters.slack_blocks.with_picture). Which platform draws them is
bot.platforms' business (`platform_named(name).report_parts(...)`, `.with_picture(...)`).

A picture is a payload with a `file` (name, PNG bytes, alt text, title) next to its text
(`text` on Slack, `content`/embeds on Discord); the transports upload it (Slack's external
upload, a Discord attachment) and stamp its name with the part's identity.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from formatters.charts import Chart

ALT_LIMIT = 1000  # Slack's alt_txt and Discord's attachment description both fit this

Message = dict[str, Any]
Parts = list[tuple[str, Message]]


def picture_file(picture: Chart, lang: str, label: str) -> tuple[str, dict[str, Any]]:
    """A chart's caption and the file a transport uploads (the same on every platform)."""
    from formatters import wording as w
    from formatters._text import truncate

    caption = w.text(lang, f"chart_{picture.kind}", days=picture.days)
    file = {
        "name": f"vllm-report-{label}-{picture.kind}.png",
        "data": picture.png,
        "alt": truncate(picture.alt, ALT_LIMIT),
        "title": caption.removeprefix("📈 "),
    }
    return caption, file


def placed(parts: Parts, merged: Callable[[Message], Message], alone: Message) -> Parts:
    """The parts with a picture: inside the trends reply (`merged` draws that reply with it),
    where it belongs and so the post stays within its message budget; else `alone` as the
    first reply after the headline."""
    names = [name for name, _ in parts]
    if "trends" in names:
        index = names.index("trends")
        parts = list(parts)
        parts[index] = ("trends", merged(parts[index][1]))
        return parts
    return [*parts[:1], ("chart", alone), *parts[1:]]
