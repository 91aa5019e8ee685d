"""An event's seeds: the secret its boards and tables are dealt from, and how each deal's
seed derives from it. Pure.

Decisions:
* A new event gets a **128-bit secret** from ``secrets`` (kept in ``events.secret``; no
  export, page, message or log line shows it). Board ``n``'s seed is the first 62 bits of
  HMAC-SHA256(secret, ``board:n``) and table ``t`` of round ``r``'s (Swiss, round robin)
  of HMAC-SHA256(secret, ``round:r:table:t``) — 62 bits like a table's own seed. A keyed
  hash: a finished game's seed (every export has it) tells nothing of the secret or of any
  other deal of the event; finding them means searching 2**128 secrets.
* Events made before keep their 31-bit ``seed`` and its unkeyed derivation (``rng_for``),
  so they go on pairing, dealing and replaying exactly as they did. Which derivation an
  event uses follows from its row alone: a secret, or none.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from games.rng import rng_for
from storage.events import EventRow

#: Bytes of a new event's secret.
SECRET_BYTES = 16
#: Bits of a derived seed (a table's own seed has as many).
SEED_BITS = 62


def new_secret() -> bytes:
    """A fresh event secret."""
    return secrets.token_bytes(SECRET_BYTES)


@dataclass(frozen=True)
class EventSeeds:
    """Where an event's deals come from: its ``secret`` (hex), or for an event made before
    secrets, its ``legacy`` seed."""

    secret: str | None = field(repr=False)
    legacy: int = 0

    def _derive(self, label: str, *legacy_salt: object) -> int:
        if self.secret is None:
            return rng_for(self.legacy, *legacy_salt).randrange(2**31)
        mac = hmac.new(bytes.fromhex(self.secret), label.encode(), hashlib.sha256).digest()
        return int.from_bytes(mac[:8], "big") >> (64 - SEED_BITS)

    def board(self, number: int) -> int:
        """The seed of duplicate board ``number`` (every table of the board gets it)."""
        return self._derive(f"board:{number}", "board", number)

    def table(self, round_no: int, table_no: int) -> int:
        """The seed of table ``table_no`` of round ``round_no`` (Swiss, round robin)."""
        return self._derive(
            f"round:{round_no}:table:{table_no}", "round", round_no, "table", table_no
        )


def of_event(event: EventRow) -> EventSeeds:
    """The seeds of a stored event."""
    return EventSeeds(event.secret, event.seed)
