"""The review queue's rules as the topic rules file gives them (`[queue]`, `[stale]`, each
topic's `queue_labels`): read with the topic rules (bot.model.rules), used by the review
queue feature (bot/features/queue/)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True)
class StaleRules:
    """vLLM's stale workflow (.github/workflows/stale.yml, actions/stale): an item without
    activity for `days_before_stale` days gets `label`; one still without activity
    `days_before_close` days later is closed, unless it carries an exempt label (or is a
    draft PR, when drafts are exempt)."""

    label: str = "stale"
    exempt_labels: tuple[str, ...] = ("keep-open",)
    exempt_drafts: bool = True
    days_before_stale: int = 90
    days_before_close: int = 30
    soon_days: int = 7  # "stale soon": closed within this many days

    def closes_at(self, updated_at: datetime) -> datetime:
        """When the workflow closes a stale item last touched at `updated_at` (the label's
        addition is a touch, so a stale item's last update starts the closing count)."""
        return updated_at + timedelta(days=self.days_before_close)

    def soon_cutoff(self, now: datetime) -> datetime:
        """Stale items last updated before this are closed within `soon_days` of `now`."""
        return now - timedelta(days=self.days_before_close - self.soon_days)


@dataclass(frozen=True)
class QueueRules:
    """The queue's rules from the topic rules file (`[queue]`, `[stale]`, each topic's
    `queue_labels`)."""

    stale: StaleRules = field(default_factory=StaleRules)
    rebase_label: str = "needs-rebase"
    ages: tuple[int, ...] = (2, 7, 30)  # days: "waiting over 2 days", over 7, over 30
    previous_days: int = 28  # response times are compared with this many days before
    oldest_shown: int = 3  # waiting PRs named per topic
    topic_labels: dict[str, tuple[str, ...]] = field(default_factory=dict)  # by topic key
