"""The Craits state: plain JSON fields only (see ``games.base.State``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.base import State


@dataclass(kw_only=True)
class CraitsState(State):
    """Everything about a game of Craits.

    ``draw_pile`` is top first; ``discard`` is bottom first (its last card is the top).
    ``current`` is the seat whose turn it is. ``announced[s]`` is true once seat ``s``'s
    last card is safe from a call-out (announced, or already called out); it is cleared
    whenever the seat draws. ``skipped[s]`` counts turns seat ``s`` has still to lose.
    ``out`` is the seat that went out while a crank it started (or fed) runs to its end.
    """

    round_no: int = 1
    dealer: int = 0
    hands: list[list[str]] = field(default_factory=list)
    draw_pile: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    suit: str = "S"
    crank: int = 0
    direction: int = 1
    current: int = 0
    out: int | None = None
    announced: list[bool] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)
    shuffles: int = 0

    def clone(self) -> CraitsState:
        """An independent copy, field by field (faster than the generic deep walk)."""
        new = object.__new__(CraitsState)
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new.events = [dict(e) for e in self.events]
        new.hands = [list(h) for h in self.hands]
        new.draw_pile = list(self.draw_pile)
        new.discard = list(self.discard)
        new.announced = list(self.announced)
        new.skipped = list(self.skipped)
        new.scores = list(self.scores)
        new.round_scores = [list(r) for r in self.round_scores]
        return new
