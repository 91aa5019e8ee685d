"""What the public history of a Craits round tells about the hidden hands: a player who
drew because they could not play (a turn's or the crank's draw) held no card they could
have played then — no 8, nothing of the suit to follow or the top card's rank; during the
crank no ace or 2 — and the cards they still hold from then keep that gap: of a hand of
``n`` after drawing ``d`` cards since, at least ``n - d`` are such cards (fewer if the drawn
ones were played). Each refusal is kept for that many cards, the later refusals for the
cards held since the earlier ones too. The expert's worlds and the learned value read it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from games.craits.moves import playable


@dataclass
class Refusal:
    """A draw by a player who could not play: the top card, the suit to follow and the
    crank count then, and the cards the player drew since (this draw's included)."""

    top: str
    suit: str
    crank: int
    drawn: int

    def fits(self, card: str) -> bool:
        """Whether the player may still hold ``card`` from before this draw."""
        return not playable(card, self.top, self.suit, self.crank)


def refusals(history: Sequence[dict[str, Any]], players: int) -> list[list[Refusal]]:
    """Every player's refusals this round, oldest first, read from the public history."""
    out: list[list[Refusal]] = [[] for _ in range(players)]
    top, suit, crank = "", "", 0
    for e in history:
        kind = e["type"]
        if kind in ("turn_up", "play"):
            top = e["card"]
            suit = e.get("suit") or top[1]
        elif kind == "crank":
            crank = e["count"]
        elif kind == "crank_end":
            crank = 0
        elif kind == "draw":
            seat, count = e["seat"], e["count"]
            for r in out[seat]:
                r.drawn += count
            if e["reason"] in ("turn", "crank") and top:
                out[seat].append(Refusal(top, suit, crank, count))
    return out


def _fits_all(refused: Sequence[Refusal], card: str) -> bool:
    return all(r.fits(card) for r in refused)


def slots(held: int, refused: Sequence[Refusal]) -> list[tuple[int, Callable[[str], bool] | None]]:
    """A hand of ``held`` cards split by what each part is known not to hold: the cards
    held since the oldest refusal keep every refusal's gap, those since the next keep the
    later ones', and so on; the rest are free."""
    out: list[tuple[int, Callable[[str], bool] | None]] = []
    counted = 0
    for i, r in enumerate(refused):
        since = max(0, held - r.drawn)
        if since > counted:
            out.append((since - counted, partial(_fits_all, refused[i:])))
            counted = since
    if held > counted:
        out.append((held - counted, None))
    return out
