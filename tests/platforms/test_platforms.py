"""The chat platforms as objects (bot.platforms): the registry, an unknown name's sentence,
and each platform's limits kept by a message far longer than they allow."""

from __future__ import annotations

import pytest

from bot.model import outline_parts as ol
from bot.model.errors import InputError
from bot.platforms.registry import DISCORD, PLATFORMS, SLACK, platform_named
from tests.fakes.block_kit import check_message, text_size
from tests.slack_text import block_lines


def block_text(block: dict[str, object]) -> str:
    return "\n".join(block_lines(block))


LONG = "x" * 30_000  # longer than any one message on either platform


def long_message() -> ol.OneMessage:
    """A digest whose title, context and rows each overflow every limit."""
    entries = tuple(
        ol.Entry((ol.Ref(n, f"https://github.com/o/r/pull/{n}"), ol.Our(" " + "word " * 60)))
        for n in range(1, 400)
    )
    section = ol.Section("queue", "T" * 500, (ol.Block("heading", entries, "list"),))
    return ol.OneMessage("T" * 500, "C" * 5000, section, "vllm_test", {"part": "test"})


def test_the_registry_names_each_platform_by_its_key() -> None:
    assert set(PLATFORMS) == {"slack", "discord"}
    assert platform_named("slack") is SLACK and platform_named("discord") is DISCORD
    assert all(platform.name == name for name, platform in PLATFORMS.items())


def test_an_unknown_name_is_one_sentence_naming_the_known_ones() -> None:
    with pytest.raises(InputError) as raised:
        platform_named("teams")
    said = str(raised.value)
    assert said == "no chat platform is called 'teams': the known ones are discord, slack"
    assert "\n" not in said


def test_each_platform_names_its_own_fix_when_a_channel_refuses_it() -> None:
    assert "SLACK_CHANNELS" in SLACK.destination_hint()
    assert "DISCORD_CHANNELS" in DISCORD.destination_hint()


def test_a_long_sentence_is_cut_to_each_platform_s_text_limit() -> None:
    slack = SLACK.said("<" + LONG)  # escaping grows `<` to `&lt;`: cut after escaping
    assert len(slack["text"]) == SLACK.text_limit == 4000
    assert slack["text"].startswith("&lt;")
    discord = DISCORD.said(LONG)
    assert len(discord["content"]) == DISCORD.text_limit == DISCORD.content_limit == 2000


def test_a_long_digest_is_one_slack_message_within_its_limits() -> None:
    [message] = SLACK.one_message(long_message(), "en")
    blocks = message["blocks"]
    assert len(blocks) <= SLACK.blocks_limit
    assert len(blocks[0]["text"]["text"]) == SLACK.header_limit == 150
    assert len(blocks[1]["elements"][0]["text"]) <= SLACK.section_limit  # the context line
    texts = [b for b in blocks if b["type"] == "rich_text"]
    assert texts and all(text_size(b) <= SLACK.section_limit for b in texts)
    assert "in the full report" in block_text(texts[-1])  # the rows cut are said, not dropped
    assert check_message(blocks) is None  # as Slack checks it
    assert message["metadata"] == {"event_type": "vllm_test", "event_payload": {"part": "test"}}


def test_a_long_digest_is_one_discord_message_within_its_limits() -> None:
    [message] = DISCORD.one_message(long_message(), "en")
    embeds = message["embeds"]
    assert 0 < len(embeds) <= DISCORD.embeds_limit
    assert len(embeds[0]["title"]) == DISCORD.header_limit == 256
    assert all(len(e["description"]) <= DISCORD.description_limit for e in embeds)
    total = sum(len(e.get("title", "")) + len(e["description"]) for e in embeds)
    assert total <= DISCORD.message_embed_limit
    assert message["allowed_mentions"] == {"parse": []}


def test_a_cut_says_how_many_rows_did_not_fit() -> None:
    rows = ["a" * 10] * 5
    kept = ol.fit_rows(rows, 25, lambda hidden: f"+{hidden}")
    assert kept == ["a" * 10, "a" * 10, "+3"]
    assert ol.fit_rows(rows, 1000, str, max_rows=4) == ["a" * 10] * 4 + ["1"]
    assert ol.fit_rows(rows, 1000, str) == rows
