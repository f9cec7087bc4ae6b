"""An item's state as a state word's key (formatters.wording.STATES), now or as a moment came:
one rule for what the report says of an item and what continuity remembers of it."""

from __future__ import annotations

import re
from datetime import datetime

from bot.model.report import ActivityItem

RFC = re.compile(r"\[\s*rfc\s*\]|^\s*rfc\b", re.I)  # an issue that proposes a design
ISSUE_CLOSURES = {
    "completed": "issue_completed",
    "not_planned": "issue_not_planned",
    "duplicate": "issue_duplicate",
}


def state_key(item: ActivityItem, end: datetime | None = None) -> str:
    """A PR merges or closes without merging; an issue closes as completed, not planned or a
    duplicate (GitHub's `state_reason`). With `end`, what happened at or after it has not."""
    merged = item.merged_at is not None and (end is None or item.merged_at < end)
    closed = item.closed_at is not None and (end is None or item.closed_at < end)
    if merged:
        return "merged"
    if closed:
        if "stale" in item.labels:
            return "stale"
        if item.kind == "pr":
            return "closed_pr"
        return ISSUE_CLOSURES.get(item.state_reason or "", "closed_issue")
    if item.kind == "pr":
        return "draft" if item.draft else "review"
    return "rfc_open" if RFC.search(item.title) else "open_issue"
