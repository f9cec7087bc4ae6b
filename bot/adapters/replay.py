"""Refusing replayed HTTP requests: a signature seen within the replay window is refused.

Shared by the Slack (HMAC v0) and Discord (Ed25519) HTTP endpoints. The memory is per
process: behind a load balancer, a replay sent to another replica is still refused by the
timestamp check (5 minutes) but not by this cache; see docs/operating.md,
"Deployment modes".
"""

from __future__ import annotations

import time
from collections.abc import Callable

REPLAY_WINDOW = 300  # seconds; Slack's own timestamp tolerance, used for Discord too


class ReplayGuard:
    """Remembers request signatures for the replay window; a second sighting is refused."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._seen: dict[str, tuple[float, float | None]] = {}  # signature → seen at, stamp

    def fresh(self, signature: str | None, stamp: float | None = None) -> bool:
        """False when `signature` was seen within the window. `stamp`, the request's signed
        timestamp: the signature is also remembered for as long as that timestamp is
        accepted (up to `REPLAY_WINDOW` past it), which is longer when the sender's clock
        runs ahead of ours."""
        if not signature:
            return True  # Socket Mode: no signature, nothing to replay over HTTP
        now = self.clock()
        self._seen = {s: seen for s, seen in self._seen.items() if _remembered(seen, now)}
        if signature in self._seen:
            return False
        self._seen[signature] = (now, stamp)
        return True


def _remembered(seen: tuple[float, float | None], now: float) -> bool:
    at, stamp = seen
    return now - at < REPLAY_WINDOW or (stamp is not None and now - stamp <= REPLAY_WINDOW)
