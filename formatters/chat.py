"""The chat payloads of a report for one platform, importing only that platform's renderer.

A picture is a payload with a `file` (name, PNG bytes, alt text, title) next to its caption
(`text` on Slack, `content` on Discord); the transports upload it (Slack's external upload,
a Discord attachment) and stamp its name with the part's identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.model.report import Report

if TYPE_CHECKING:
    from formatters.charts import Chart

ALT_LIMIT = 1000  # Slack's alt_txt and Discord's attachment description both fit this


def chat_parts(
    platform: str,
    report: Report,
    lang: str,
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> list[tuple[str, dict[str, Any]]]:
    """(part name, payload) pairs in posting order for `platform` ("slack" or "discord")."""
    if platform == "slack":
        from formatters.slack_blocks import slack_parts

        return slack_parts(report, lang, only=only, link=link, with_headline=with_headline)
    if platform == "discord":
        from formatters.discord_embeds import discord_parts

        return discord_parts(report, lang, only=only, link=link, with_headline=with_headline)
    raise ValueError(f"no chat renderer for {platform!r}")


def chart_part(platform: str, picture: Chart, lang: str, label: str) -> tuple[str, dict[str, Any]]:
    """A chart as one message of the thread: the picture, its caption and its alt text."""
    from formatters import wording as w
    from formatters._text import truncate

    caption = w.text(lang, f"chart_{picture.kind}", days=picture.days)
    file = {
        "name": f"vllm-report-{label}-{picture.kind}.png",
        "data": picture.png,
        "alt": truncate(picture.alt, ALT_LIMIT),
        "title": caption.removeprefix("📈 "),
    }
    if platform == "slack":
        return "chart", {"text": caption, "file": file}
    if platform == "discord":
        return "chart", {"content": caption, "file": file, "allowed_mentions": {"parse": []}}
    raise ValueError(f"no chat renderer for {platform!r}")
