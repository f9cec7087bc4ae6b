"""Values as GitHub's GraphQL answers spell them, read the way REST does: shared by every
GraphQL reader (the review queue, personal digests, pull details, numbers looked up)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


def login_of(actor: Any) -> str | None:
    """A GraphQL actor's login as REST spells it: apps end in `[bot]` there, not here."""
    if not isinstance(actor, dict) or not actor.get("login"):
        return None
    login = str(actor["login"])
    if actor.get("__typename") == "Bot" and not login.endswith("[bot]"):
        return f"{login}[bot]"
    return login


def moment(text: Any) -> datetime | None:
    if not text:
        return None
    return datetime.fromisoformat(str(text).replace("Z", "+00:00")).astimezone(UTC)
