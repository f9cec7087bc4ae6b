"""The daily run's personal messages (bot.service.daily_run.DestinationDigests): each
destination with personal subscriptions due today gets one message of all of them, a group
each; one with nothing in any of them gets none, and each quiet subscription is told."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.delivery import Destination
from bot.features.personal.render import combined_parts
from bot.features.personal.service import STREAM, PersonalDigests, by_destination
from bot.model.report import Report
from bot.service.daily_run import DigestMessage
from bot.store import Subscription


class PersonalMessages:
    def __init__(self, digests: PersonalDigests) -> None:
        self.digests = digests

    def messages(
        self, report: Report, subscriptions: Sequence[Subscription], now: datetime, lang: str
    ) -> list[DigestMessage]:
        found = []
        for group in by_destination(self.digests.due(report, subscriptions, now)):
            first = group[0].subscription
            target = Destination(first.platform, first.target_id, first.target_kind, STREAM)
            digests, quiet = [], []
            for one in group:
                digest = self.digests.completed(one.digest, report)
                if digest.empty:
                    quiet.append(str(one.subscription.key))
                else:
                    digests.append(digest)
            parts = combined_parts(first.platform, digests, lang) if digests else []
            # Keyed by the run's window, whatever the digests cover: one message a run.
            name = f"vLLM digest {report.window.label}"
            found.append(DigestMessage(target, parts, name, tuple(quiet)))
        return found
