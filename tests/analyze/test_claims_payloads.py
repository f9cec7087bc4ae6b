"""A chat payload read as its readers see it (bot.analyze.claims.payloads), before `check`
looks for claims in it: the words on screen, never a Slack message's notification fallback,
link targets or metadata."""

from __future__ import annotations

from bot.analyze.claims.payloads import payload_text

LINK = "https://github.com/vllm-project/vllm/pull/37833"


def slack(fallback: str, *sections: str) -> dict[str, object]:
    return {
        "text": fallback,
        "blocks": [
            {"type": "header", "text": {"type": "plain_text", "text": "vLLM daily report"}},
            *({"type": "section", "text": {"type": "mrkdwn", "text": s}} for s in sections),
        ],
        "metadata": {"event_type": "vllm_report", "event_payload": {"text": "Merged PRs 7"}},
    }


def test_a_slack_message_with_blocks_is_read_from_its_blocks_alone() -> None:
    """The fallback (a notification's summary: here a figure and an item the blocks never
    say) is not on screen, so none of its words are read, and the blocks' are read once."""
    message = slack(
        "Merged PRs 45 — #99999 merged by someone",
        "*Merged PRs* 44",
        f"• <{LINK}|#37833> [ROCm] Fix MoE kernel test failures — merged · AndreasKaratzas",
    )
    shown = payload_text(message)
    assert shown == (
        "vLLM daily report\n\nMerged PRs 44\n\n"
        "• #37833 [ROCm] Fix MoE kernel test failures — merged · AndreasKaratzas\n"
    )
    assert payload_text([message, slack("Merged PRs 44", "*New issues* 29")]) == (
        f"{shown.rstrip()}\n\nvLLM daily report\n\nNew issues 29\n"
    )  # each message's blocks, none of their fallbacks


def test_a_discord_messages_content_and_embeds_are_read() -> None:
    """Discord has no fallback: its content is on screen, as are the embeds' words (their
    escapes read as written), never their links."""
    message = {
        "content": "vLLM daily report · 2026-03-25",
        "embeds": [
            {
                "title": "\\[ROCm\\] Merged PRs 44",
                "url": LINK,
                "description": "**New issues** 29",
                "fields": [{"name": "AMD", "value": "merged 11"}],
                "footer": {"text": "vllm-project/vllm"},
            }
        ],
    }
    assert payload_text(message) == (
        "vLLM daily report · 2026-03-25\n\n[ROCm] Merged PRs 44\n\nNew issues 29\n\n"
        "AMD\n\nmerged 11\n\nvllm-project/vllm\n"
    )


def test_json_that_is_no_message_is_not_read() -> None:
    assert payload_text({"text": "Merged PRs 44"}) is None  # no blocks: not a message we send
    assert payload_text({"repo": "vllm-project/vllm", "items": []}) is None
    assert payload_text([]) is None


def test_rich_text_and_a_table_are_read_as_their_lines_and_the_chart_is_not() -> None:
    """A Slack message as we draw it: rich_text read a line per paragraph and list item, a
    table a row a line (its figures claim nothing), the trend chart and its figures (the
    archive's days, not the report's) left out, the fallback `text` never read."""
    bold = {"type": "text", "text": "Merged PRs", "style": {"bold": True}}
    message = {
        "text": "Merged PRs 45",
        "blocks": [
            {
                "type": "rich_text",
                "elements": [
                    {
                        "type": "rich_text_section",
                        "elements": [bold, {"type": "text", "text": " 44"}],
                    },
                    {
                        "type": "rich_text_list",
                        "style": "bullet",
                        "indent": 0,
                        "elements": [
                            {
                                "type": "rich_text_section",
                                "elements": [
                                    {"type": "link", "url": LINK, "text": "#37833"},
                                    {"type": "text", "text": " Fix MoE — merged"},
                                ],
                            }
                        ],
                    },
                ],
            },
            {
                "type": "data_table",
                "caption": "Vendors",
                "rows": [
                    [
                        {"type": "raw_text", "text": "Vendor"},
                        {"type": "raw_text", "text": "Merged"},
                    ],
                    [
                        {"type": "raw_text", "text": "AMD / ROCm"},
                        {"type": "raw_number", "value": 11, "text": "11"},
                    ],
                ],
            },
            {"type": "data_visualization", "block_id": "chart", "title": "Daily activity"},
            {
                "type": "context",
                "block_id": "chart-figures",
                "elements": [{"type": "plain_text", "text": "Merged PRs: 2, 34, 44"}],
            },
        ],
    }
    assert payload_text(message) == (
        "Merged PRs 44\n\n#37833 Fix MoE — merged\n\nVendor · Merged\n\nAMD / ROCm · 11\n"
    )
