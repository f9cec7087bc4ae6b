"""The chat payloads of a report for one platform, importing only that platform's renderer.

A picture is a payload with a `file` (name, PNG bytes, alt text, title) next to its text
(`text` on Slack, `content`/embeds on Discord); the transports upload it (Slack's external
upload, a Discord attachment) and stamp its name with the part's identity.
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


def with_picture(
    platform: str,
    parts: list[tuple[str, dict[str, Any]]],
    picture: Chart,
    lang: str,
    label: str,
) -> list[tuple[str, dict[str, Any]]]:
    """The parts with the chart added: inside the trends reply, where it belongs (so the
    post stays within its message budget), else as the first reply after the headline."""
    from formatters import wording as w
    from formatters._text import truncate

    caption = w.text(lang, f"chart_{picture.kind}", days=picture.days)
    file = {
        "name": f"vllm-report-{label}-{picture.kind}.png",
        "data": picture.png,
        "alt": truncate(picture.alt, ALT_LIMIT),
        "title": caption.removeprefix("📈 "),
    }
    names = [name for name, _ in parts]
    if "trends" in names:
        index = names.index("trends")
        parts = list(parts)
        parts[index] = ("trends", _merged(platform, parts[index][1], file))
        return parts
    if platform == "slack":
        alone: dict[str, Any] = {"text": caption, "file": file}
    elif platform == "discord":
        alone = {"content": caption, "file": file, "allowed_mentions": {"parse": []}}
    else:
        raise ValueError(f"no chat renderer for {platform!r}")
    return [*parts[:1], ("chart", alone), *parts[1:]]


def _merged(platform: str, payload: dict[str, Any], file: dict[str, Any]) -> dict[str, Any]:
    if platform == "slack":  # a file share takes text, not blocks: the blocks' mrkdwn joined
        text = "\n".join(_block_text(block) for block in payload.get("blocks") or [])
        return {"text": text, "file": file}
    embeds = [dict(embed) for embed in payload.get("embeds") or []]
    if embeds:  # the picture inside the section's card
        embeds[-1]["image"] = {"url": f"attachment://{file['name']}"}
    return {**payload, "embeds": embeds, "file": file}


def _block_text(block: dict[str, Any]) -> str:
    if block.get("type") == "context":
        return " ".join(str(e.get("text", "")) for e in block.get("elements") or [])
    return str((block.get("text") or {}).get("text", ""))
