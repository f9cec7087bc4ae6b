"""Red on main on its own: `vllm-report ci` (Markdown, JSON, a payload) and `/vllm-ci`'s
one message (drawn on Slack and Discord by bot.platforms), from the daily section's outline
(`bot.features.ci.outline`), capped like its chat reply."""

from __future__ import annotations

from dataclasses import replace

from bot.features.ci import phrases
from bot.features.ci.model import CiState
from bot.features.ci.outline import chat_blocks, ci_section
from bot.features.ci.words import HARDWARE_NAMES, when
from bot.model.outline_parts import OneMessage
from formatters.markdown import section_text

EVENT_TYPE = "vllm_report_ci"


def answer_title(state: CiState, label: str, lang: str) -> str:
    return phrases.said(lang, "answer_title", label=label)


def answer_context(state: CiState, lang: str) -> str:
    tz = state.end.tzinfo
    topic = f" · {HARDWARE_NAMES[state.topic]}" if state.topic else ""
    return phrases.said(
        lang, "answer_context", start=when(state.start, tz), end=when(state.end, tz), topic=topic
    )


def render_ci_markdown(state: CiState, label: str, lang: str) -> str:
    section = ci_section(state, lang)
    title = answer_title(state, label, lang)
    body = section_text(section).split("\n", 1)[1]  # its own title is the page's
    return f"# {title}\n\n{answer_context(state, lang)}\n{body}\n"


def ci_message(state: CiState, label: str, lang: str) -> OneMessage:
    """`/vllm-ci`'s one message before a platform draws it: the daily section capped like
    its chat reply (bot.platforms draws it for each platform)."""
    section = ci_section(state, lang)
    payload = {"window": label, "topic": state.topic or "", "part": "ci"}
    return OneMessage(
        answer_title(state, label, lang),
        answer_context(state, lang),
        replace(section, blocks=chat_blocks(section, label, lang)),
        EVENT_TYPE,
        payload,
    )
