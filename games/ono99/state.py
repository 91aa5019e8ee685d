"""The ONO 99 state: plain JSON fields only (see ``games.base.State``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from games.base import State


@dataclass(kw_only=True)
class OnoState(State):
    """Everything about one ONO 99 game.

    ``draw`` keeps its top card at the END of the list (so drawing is ``pop()``);
    ``discard`` keeps its top card at the end too. A seat out of the round keeps its hand,
    laid face up. ``left_at`` numbers the exits from the game (a later exit places
    higher; ``None`` while still in); ``exits`` counts them.
    """

    hands: list[list[str]]
    draw: list[str]
    discard: list[str]
    in_round: list[bool]
    left_at: list[int | None]
    tokens: list[int]
    points: list[int]
    total: int = 0
    direction: int = 1
    #: The seat whose turn it is (kept when the game is over).
    turn: int = 0
    #: Cards the player to act still has to play this turn (2 under a Play 2).
    owed: int = 1
    #: An ONO 99 was played this turn (``ono_on_tens``: at most one a turn).
    ono_played: bool = False
    dealer: int = 0
    round_no: int = 1
    shuffles: int = 1
    exits: int = 0
    last_played: int | None = None

    def clone(self) -> OnoState:
        """An independent copy, field by field (faster than the generic copy; events are
        never changed once recorded, so their contents are shared)."""
        new = copy.copy(self)
        new.options = dict(self.options)
        new.events = [dict(e) for e in self.events]
        new.hands = [h[:] for h in self.hands]
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.in_round = self.in_round[:]
        new.left_at = self.left_at[:]
        new.tokens = self.tokens[:]
        new.points = self.points[:]
        return new
