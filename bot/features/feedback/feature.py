"""Readers' feedback, as the bot meets it: what the 👍 / 👎 buttons under the daily post's
sections do when pressed, and `vllm-report feedback`. The buttons are drawn only when
VLLM_REPORT_FEEDBACK is on; a press is answered either way (a post drawn before it was
turned off still has them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.features import Feature, FeatureContext

if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping

    from bot.commands.base import Press
    from bot.model.buttons import ButtonsFor


def _presses(ctx: FeatureContext) -> Mapping[str, Press]:
    from bot.features.feedback.press import PREFIX, Feedback
    from bot.features.feedback.store import Votes

    return {PREFIX: Feedback(Votes(ctx.store.transactions), ctx.settings.lang, ctx.clock)}


def _buttons(ctx: FeatureContext) -> ButtonsFor | None:
    """👍 / 👎 under each section of the daily post, when VLLM_REPORT_FEEDBACK is on."""
    if not ctx.settings.feedback:
        return None
    from bot.features.feedback.press import buttons

    return buttons


def _cli(commands: argparse._SubParsersAction[Any]) -> None:
    from bot.features.feedback.cli import add_feedback_command

    add_feedback_command(commands)


FEATURE = Feature("feedback", presses=_presses, buttons=_buttons, cli=_cli)
