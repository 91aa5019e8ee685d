"""Per-user rate limits on the Discord edge: nobody can flood Deckhand (or, through it,
Discord's global limit) with commands or clicks.

Decision: a token bucket per user — a burst of ``BURST`` interactions, refilled at
``PER_SECOND`` — which no player reaches by playing (a move is one click, a page turn
another), while a script opening lobbies or asking for the table 30 times a second is
told to slow down. Users whose bucket is full again are forgotten, so memory stays small.
"""

from __future__ import annotations

import time
from collections.abc import Callable

BURST = 8
PER_SECOND = 2.0  # DECKHAND_USER_RATE; the burst is four seconds' worth
SLOW_DOWN = "You're going a little fast; wait a moment, then try again."


class Cooldown:
    """A token bucket per user."""

    def __init__(
        self,
        *,
        burst: int = BURST,
        per_second: float = PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst, self.per_second, self._clock = burst, per_second, clock
        self._buckets: dict[int, tuple[float, float]] = {}

    def allow(self, user_id: int) -> bool:
        """Take one interaction from the user's bucket; False when it is empty."""
        now = self._clock()
        tokens, then = self._buckets.get(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        if tokens < 1:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - 1, now)
        if len(self._buckets) > 1000:
            self._forget_rested(now)
        return True

    def tracked(self) -> int:
        """How many users have a bucket in memory."""
        return len(self._buckets)

    def _forget_rested(self, now: float) -> None:
        full = self.burst / self.per_second
        self._buckets = {u: b for u, b in self._buckets.items() if now - b[1] < full}
