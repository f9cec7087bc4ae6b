"""`vllm-report queue --topic`: which topics have a review queue, said in one sentence.

The queue's lists are GitHub searches by label, so a topic known by its title rules alone
(the shipped `moe`, whose `labels` are empty) has none. Asking for it is refused before
anything is opened, naming every topic that has one; every other shipped topic is taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.model import asking
from bot.model.rules import load_rules

RULES = load_rules(None)
LABELLED = [t.key for t in RULES.topics if t.key in RULES.queue.topic_labels]


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("vllm-report: "), err
    return lines[0]


def test_a_shipped_topic_without_labels_is_refused_naming_those_with_a_queue(
    capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    assert "moe" not in LABELLED and RULES.topic("moe") is not None
    said = refusal(capsys, "queue", "--topic", "moe")
    assert "topic 'moe' has no labels for the review queue" in said
    assert f"use one of {', '.join(LABELLED)}" in said
    assert "queue_labels" in said  # and how an operator gives it one
    assert not list(clean_env.rglob("*.sqlite3*"))  # refused before the store is opened


@pytest.mark.parametrize("key", LABELLED)
def test_every_other_shipped_topic_has_a_queue(key: str) -> None:
    assert asking.queue_topic(key.upper(), RULES) == key


@pytest.mark.parametrize("key", [t.key for t in RULES.topics])
def test_every_shipped_topic_is_taken_by_the_report(key: str) -> None:
    assert asking.topic(key, RULES) == key


def test_an_unknown_queue_topic_suggests_only_topics_with_a_queue(
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = refusal(capsys, "queue", "--topic", "amdd")
    assert "did you mean 'amd'?" in said
    assert said.endswith(f"Topics with a review queue: {', '.join(LABELLED)}.")
