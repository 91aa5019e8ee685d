"""Per-user rate limits on the Discord edge: nobody can flood Deckhand (or, through it,
Discord's global limit) with commands or clicks.

Decision: a token bucket per user — a burst of ``BURST`` tokens, refilled at
``PER_SECOND`` — which no player reaches by playing (a move is one click, a page turn
another), while a script opening lobbies or asking for the table 30 times a second is
told to slow down. Users whose bucket is full again are forgotten, so memory stays small.

The budget covers cost, not only count: a click or a light command takes one token, a
command whose answer reads a whole history (``/stats``) takes ``HEAVY`` — it says so in
its ``extras`` (``cost(HEAVY)``), read back by ``cost_of``. A cost above the burst takes
the whole burst, so a heavy command stays possible at any rate.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from i18n import N_

BURST = 8
PER_SECOND = 2.0  # DECKHAND_USER_RATE; the burst is four seconds' worth
#: What a command that reads a whole history costs: at the default rate, two at once,
#: then one every two seconds.
HEAVY = 4.0
SLOW_DOWN = N_("You're going a little fast; wait a moment, then try again.")
_COST = "cost"


def cost(tokens: float) -> dict[str, float]:
    """A command's ``extras`` saying what it costs."""
    return {_COST: tokens}


def cost_of(extras: Mapping[str, object]) -> float:
    """What a command with those ``extras`` costs: one token unless it says otherwise."""
    tokens = extras.get(_COST, 1.0)
    return float(tokens) if isinstance(tokens, int | float) else 1.0


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

    def allow(self, user_id: int, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens (at most the burst) from the user's bucket; False, taking
        nothing, when it holds fewer."""
        now = self._clock()
        take = min(cost, float(self.burst))
        tokens, then = self._buckets.get(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        if tokens < take:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - take, now)
        if len(self._buckets) > 1000:
            self._forget_rested(now)
        return True

    def tracked(self) -> int:
        """How many users have a bucket in memory."""
        return len(self._buckets)

    def _forget_rested(self, now: float) -> None:
        full = self.burst / self.per_second
        self._buckets = {u: b for u, b in self._buckets.items() if now - b[1] < full}
