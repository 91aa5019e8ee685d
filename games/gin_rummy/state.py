"""The Gin Rummy state: plain JSON fields only (see ``games.base.State``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.base import State

#: Phases: the first-turn upcard offer, drawing, discarding (or knocking), game over.
OFFER, DRAW, DISCARD, OVER = "offer", "draw", "discard", "over"


@dataclass(kw_only=True)
class GinState(State):
    """A game of Gin Rummy between seats 0 and 1."""

    hand_no: int = 1
    dealer: int = 0
    #: Shuffles made so far (the salt of the next one).
    shuffles: int = 0
    hands: list[list[str]] = field(default_factory=list)
    #: The stock, top card first.
    stock: list[str] = field(default_factory=list)
    #: The face-up discard pile, bottom first (the last card is on top).
    discards: list[str] = field(default_factory=list)
    phase: str = OFFER
    #: True after both players passed the upcard: the non-dealer must draw from the stock.
    stock_only: bool = False
    #: The card the player to act took from the discard pile this turn (may not discard it).
    taken: str | None = None
    #: The knock card of the hand just ended, face down: seen by nobody, in no view.
    face_down: str | None = None
    #: Turns in a row begun by taking the discard pile's top card (``TAKE_LIMIT``).
    takes: int = 0
    #: Per seat, cards taken from the discard pile and still held (public knowledge).
    known: list[list[str]] = field(default_factory=lambda: [[], []])
    scores: list[int] = field(default_factory=lambda: [0, 0])
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    #: Hands that ended at the wall (drawn).
    walls: int = 0
    #: Per seat, its knocks this game (not gin): [deadwood, stock cards left, cards the
    #: other seat held from the pile], public as they happened; how it likes to knock.
    knocks: list[list[list[int]]] = field(default_factory=lambda: [[], []])
    #: The previous hand's public result (melds, lay-offs, deadwood, points), if any.
    last_hand: dict[str, Any] | None = None
    #: The final totals and their breakdown once the game is over.
    final: dict[str, Any] | None = None

    def clone(self) -> GinState:
        """A fast independent copy: the card lists are copied; ``options``, ``last_hand``
        and ``final`` are shared because they are only ever replaced, never changed."""
        d = self.__dict__.copy()
        d["hands"] = [h.copy() for h in self.hands]
        d["stock"] = self.stock.copy()
        d["discards"] = self.discards.copy()
        d["known"] = [k.copy() for k in self.known]
        d["scores"] = self.scores.copy()
        d["hands_won"] = self.hands_won.copy()
        d["knocks"] = [k.copy() for k in self.knocks]
        d["events"] = self.events.copy()
        new = object.__new__(GinState)
        new.__dict__ = d
        return new
