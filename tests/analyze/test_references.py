"""What a merged revert undoes (`bot.analyze.references.reverted_numbers`): read by Red on
main (a suspect reverted since) and the radar (a culprit reverted since)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.analyze.references import reverted_numbers
from bot.model.report import ActivityItem
from tests.factories import item

MERGED = datetime(2025, 9, 28, 8, tzinfo=UTC)


def revert(number: int, title: str, body: str | None = None) -> ActivityItem:
    return item(number, "pr", title=title, body=body, merged_at=MERGED, closed_at=MERGED)


def test_githubs_own_revert_names_what_it_reverts() -> None:
    assert reverted_numbers(revert(25500, 'Revert "[Model] Move the sampler (#24982)"')) == {24982}
    body = "Reverts vllm-project/vllm#24982\n\nIt broke every plugin."
    assert reverted_numbers(revert(25501, "Revert the sampler move", body)) == {24982}
    assert reverted_numbers(revert(25502, "[Revert] revert #24982: breaks TPU")) == {24982}


def test_only_a_merged_pr_titled_revert_reverts() -> None:
    # A revert of the revert re-lands the change: it reverts #25500, not #24982.
    again = revert(25600, 'Revert "Revert "[Model] Move the sampler (#24982)" (#25500)"')
    assert reverted_numbers(again) == {25500}
    # Named, but not a revert: a fix that mentions it.
    assert reverted_numbers(revert(25503, "Fix the sampler after #24982")) == set()
    opened = item(25504, "pr", title='Revert "[Model] Move the sampler (#24982)"')
    assert reverted_numbers(opened) == set()  # proposed, never merged
    issue = item(25505, title='Revert "[Model] Move the sampler (#24982)"')
    assert reverted_numbers(issue) == set()


def test_a_revert_of_another_repository_is_not_this_ones() -> None:
    body = "Reverts vllm-project/vllm-ascend#24982"
    assert reverted_numbers(revert(25506, "Revert the sampler move", body)) == set()
