"""Nothing waits on GitHub for ever (bot/collect/deadline.py, wire.py): a server that sends
its headers and then one byte at a time is hung up on when its answer is not whole by its
deadline, and a section's time limit, once spent, sends no more requests. Each ends in one
sentence with the limit, never a wait that outlives the daily post."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.collect import deadline
from bot.collect.client import Collector
from bot.collect.source import CollectError, GitHubSource
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub, Fault

DAY = anchor_days()[2]  # 2026-03-25


def collector(fake: FakeGitHub) -> Collector:
    # Retries as the bot has them (no backoff): a hung-up answer is not asked again.
    source = GitHubSource("vllm-project/vllm", api_url=fake.url, token="t", backoff=0.0)
    return Collector(source)


def test_an_answer_that_trickles_is_hung_up_on_at_its_deadline(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deadline, "ANSWER_SECONDS", 1.0)
    fake_github.fail_next(Fault.trickle(every=0.3))
    github = collector(fake_github)
    with pytest.raises(CollectError) as caught:
        github.search_span(DAY.start, DAY.start + timedelta(hours=1))
    github.close()
    assert str(caught.value) == (
        f"GitHub at {fake_github.url} sent no whole answer within 1 s; try again later"
    )
    # The client hung up (the server sees it at its next byte): the answer never finished.
    assert fake_github.hung_up_on.wait(timeout=30)


def test_an_answer_that_arrives_whole_in_time_is_read(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deadline, "ANSWER_SECONDS", 30.0)
    fake_github.fail_next(Fault.trickle(every=0.0001))  # slow, but whole long before 30 s
    github = collector(fake_github)
    found = github.search_span(DAY.start, DAY.start + timedelta(hours=2))
    github.close()
    assert found.items and fake_github.hung_up == 0


def test_a_sections_limit_hangs_up_and_then_sends_nothing(fake_github: FakeGitHub) -> None:
    fake_github.fail_next(Fault.trickle(every=0.3))
    github = collector(fake_github)
    with deadline.limited("the review queue", 1.0), pytest.raises(CollectError) as caught:
        github.search_span(DAY.start, DAY.end)
    assert str(caught.value) == (
        f"GitHub at {fake_github.url} did not answer within the 1 s allowed for the review queue"
    )
    sent = len(fake_github.requests)
    with deadline.limited("the review queue", 0.0), pytest.raises(CollectError):
        github.search_span(DAY.start, DAY.end)
    assert len(fake_github.requests) == sent  # a spent limit asks nothing more
    found = github.search_span(DAY.start, DAY.end)  # outside the limit: asked as ever
    github.close()
    assert found.items


def test_a_tighter_outer_limit_stays_in_force() -> None:
    with (
        deadline.limited("Red on main", 0.0),
        deadline.limited("its evidence", 100.0),
        pytest.raises(deadline.OutOfTime, match="allowed for Red on main"),
    ):
        deadline.check("GitHub")
