"""A run's personal messages (bot.features.personal.messages and service.by_destination), as
a person sees them: one message per person and platform whatever their subscriptions, a
group per subscription, the day's groups before the week's. Real digests of 2026-03-25
drawn for Slack; only what `PersonalDigests.due` decided is given, not collected."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

from bot.delivery import Destination
from bot.features.personal.messages import PersonalMessages
from bot.features.personal.model import PersonalDigest
from bot.features.personal.selection import personal_digest
from bot.features.personal.service import STREAM, Due
from bot.model.report import Report
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window, span_window
from bot.service.daily_run import DigestMessage
from bot.store import Subscription
from tests.anchor_data import REPO, anchor_days, anchor_items, as_activity
from tests.slack_text import body_lines

DAY = anchor_days()[2]  # 2026-03-25
WINDOW = Window(DAY.start, DAY.end, "Asia/Shanghai", DAY.label)
ITEMS = [as_activity(f) for f in anchor_items()]
CST = ZoneInfo("Asia/Shanghai")
START = WINDOW.start.astimezone(CST)
WEEK = span_window(START.date() - timedelta(days=6), START.date(), CST, START.time())
HEADING = re.compile(r"^\*(.+) \((\d+)\)\*$")


class Decided:
    """PersonalDigests as PersonalMessages reads it: these digests are due, as they are."""

    def __init__(self, due: list[Due]) -> None:
        self._due = due

    def due(self, report: Report, subscriptions: object, now: datetime) -> list[Due]:
        return self._due

    def completed(self, digest: PersonalDigest, report: Report) -> PersonalDigest:
        return digest


def due(user: str, topic: str, cadence: str = "daily", platform: str = "slack") -> Due:
    """`user`'s subscription to `topic` in their DMs, and its digest of the day (daily) or of
    the week up to it (weekly)."""
    key = SubscriptionKey.parse(topic)
    assert key.filter is not None
    window = WINDOW if cadence == "daily" else WEEK
    digest = personal_digest(REPO, window, key.filter, ITEMS, {})
    assert digest.entries, topic  # a group with something in it: the message tells it
    return Due(Subscription(platform, "dm", user, key, user, cadence), digest)


def messages(*decided: Due) -> list[DigestMessage]:
    report: Any = SimpleNamespace(window=WINDOW, repo=REPO)
    return PersonalMessages(Decided(list(decided))).messages(report, [], DAY.end, "en")  # type: ignore[arg-type]


def to(user: str, found: list[DigestMessage], platform: str = "slack") -> list[DigestMessage]:
    return [m for m in found if m.destination == Destination(platform, user, "dm", STREAM)]


def headings(message: DigestMessage) -> list[str]:
    """The group headings of a Slack message, top to bottom."""
    (part,) = message.parts  # one message: one Slack post
    rows = body_lines(part[1])
    return [found.group(1) for row in rows if (found := HEADING.match(row))]


def test_a_person_with_two_subscriptions_gets_one_message_holding_both() -> None:
    """U7's label:rocm and author:AndreasKaratzas are one message with both groups; U8's
    and U7's Discord DMs are other places, each their own message."""
    found = messages(
        due("U7", "label:rocm"),
        due("U8", "label:rocm"),
        due("U7", "author:andreaskaratzas"),
        due("U7", "label:rocm", platform="discord"),
    )
    assert len(found) == 3
    (mine,) = to("U7", found)
    assert headings(mine) == ["label rocm", "opened by andreaskaratzas"]
    assert "2 subscriptions" in json.dumps(mine.parts, ensure_ascii=False)
    assert mine.name == f"vLLM digest {DAY.label}"  # one delivery a run for the place
    (other,) = to("U8", found)
    assert "label rocm · 33 items" in json.dumps(other.parts, ensure_ascii=False)
    assert len(to("U7", found, "discord")) == 1


def test_the_days_groups_come_before_the_weeks() -> None:
    """Subscribed weekly, daily, weekly, daily: on the weekly day the message tells the
    day's groups first, then the week's, each cadence's in the order subscribed."""
    found = messages(
        due("U7", "label:deepseek", "weekly"),
        due("U7", "author:hmellor"),
        due("U7", "label:gpt-oss", "weekly"),
        due("U7", "label:cpu"),
    )
    (one,) = found
    day = f" · {DAY.label}"  # a daily group in a weekly message names its day
    assert headings(one) == [
        "opened by hmellor" + day,
        "label cpu" + day,
        "label deepseek",
        "label gpt-oss",
    ]
    title = one.parts[0][1]["blocks"][0]["text"]["text"]
    assert title == f"vLLM digest for you · {WEEK.label}"
