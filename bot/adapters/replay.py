"""Refusing replayed HTTP requests: a signature seen within the replay window is refused.

Shared by the Slack (HMAC v0) and Discord (Ed25519) HTTP endpoints. The memory is per
process: behind a load balancer, a replay sent to another replica is still refused by the
timestamp check (5 minutes) but not by this cache; see the README's deployment notes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

REPLAY_WINDOW = 300  # seconds; Slack's own timestamp tolerance, used for Discord too


class ReplayGuard:
    """Remembers request signatures for the replay window; a second sighting is refused."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._seen: dict[str, float] = {}

    def fresh(self, signature: str | None) -> bool:
        if not signature:
            return True  # Socket Mode: no signature, nothing to replay over HTTP
        now = self.clock()
        self._seen = {s: t for s, t in self._seen.items() if now - t < REPLAY_WINDOW}
        if signature in self._seen:
            return False
        self._seen[signature] = now
        return True
