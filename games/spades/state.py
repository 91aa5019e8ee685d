"""The state of a two-player Spades game: plain JSON values only, so it clones and
serialises generically."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.base import State

DRAFT = "draft"
EXCHANGE = "exchange"
BID = "bid"
PLAY = "play"
OVER = "over"


@dataclass(kw_only=True)
class SpadesState(State):
    """One game; per-hand fields are reset by ``engine.start_hand``."""

    hand_no: int = 0
    first_player: int = 0
    shuffles: int = 0
    phase: str = DRAFT
    scores: list[int] = field(default_factory=lambda: [0, 0])
    bags: list[int] = field(default_factory=lambda: [0, 0])
    #: The undrafted stock, top card first.
    stock: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    #: The whole discard pile (face-down and face-up cards; hidden as a pile).
    discards: list[str] = field(default_factory=list)
    #: Cards discarded face up in this hand's draft, in order (public record).
    face_up: list[str] = field(default_factory=list)
    #: Seats that may still declare Blind Nil (not yet taken a first card this hand).
    may_blind: list[bool] = field(default_factory=lambda: [False, False])
    blind: list[bool] = field(default_factory=lambda: [False, False])
    #: Cards exchanged by each Blind Nil player (None until they exchange).
    exchanged: list[int | None] = field(default_factory=lambda: [None, None])
    bids: list[int | None] = field(default_factory=lambda: [None, None])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    #: The trick in progress as ``[seat, card]`` plays.
    trick: list[list[Any]] = field(default_factory=list)
    #: The last completed trick: ``{"plays": [[seat, card], …], "winner": seat}``.
    last_trick: dict[str, Any] | None = None
    spades_broken: bool = False
    #: Cards played to tricks this hand, in order.
    played: list[str] = field(default_factory=list)
    #: The per-seat breakdown of the last scored hand.
    last_hand: list[dict[str, Any]] | None = None
    winner: int | None = None

    def clone(self) -> SpadesState:
        """A fast independent copy: only the containers moves change are copied (the
        last trick and last hand are replaced, never changed in place)."""
        new = object.__new__(SpadesState)
        d = new.__dict__
        d.update(self.__dict__)
        d["options"] = dict(self.options)
        d["events"] = list(self.events)
        for name in (
            "scores", "bags", "stock", "discards", "face_up", "may_blind", "blind",
            "exchanged", "bids", "tricks", "played",
        ):
            d[name] = list(d[name])
        d["hands"] = [list(h) for h in self.hands]
        d["trick"] = [list(p) for p in self.trick]
        return new
