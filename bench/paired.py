"""One player against ``normal`` in the same seats, deal by deal: the paired measure the
trainers (``bench.ono_tune``, ``bench.craits_train``) keep or report a player by.

Each deal is played once by ``normal`` in every seat, then once with the learner in each
seat in turn against ``normal`` in the others; the deal's gain is the learner's share of
the win (``bench.strength.standing_of``) minus ``normal``'s in the same seat, averaged over
the seats. The cards' luck cancels deal by deal. ``normal`` must draw nothing from its
generator (then one all-``normal`` game per deal is the baseline); every game is seeded,
so the same call gives the same numbers, in worker processes or not.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import games
from bench.strength import MOVE_CAP, standing_of
from games.base import View
from games.rng import rng_for

#: A learner: its move from the seat's view and the legal moves (picklable, for workers).
Policy = Callable[[View, list[str]], str]


@dataclass(frozen=True)
class Table:
    """What is played: the game, the number of players, its options and the generators'
    salt (which keeps a trainer's past numbers reproducible)."""

    game: str
    players: int
    salt: str
    options: dict[str, Any] = field(default_factory=dict)


def shares(table: Table, deal: int, learner: int, policy: Policy | None) -> list[float]:
    """Every seat's share of the win on ``deal``, seat ``learner`` playing ``policy`` and
    the others ``normal`` (everyone ``normal`` when ``policy`` is None)."""
    game = games.get(table.game)
    state = game.new(table.players, seed=deal, options=dict(table.options))
    rng = rng_for(deal, table.salt)
    moves = 0
    while not state.is_over and moves < MOVE_CAP:
        seat = state.to_act[0]
        if policy is not None and seat == learner:
            action = policy(game.view(state, seat), game.legal_actions(state, seat))
        else:
            action = game.choose(state, seat, "normal", rng)
        state = game.apply(state, seat, action)
        moves += 1
    return [standing_of(game, state, {s})[0] for s in range(table.players)]


def _chunk(args: tuple[Table, Policy, int, int]) -> list[float]:
    table, policy, first, count = args
    out = []
    for deal in range(first, first + count):
        base = shares(table, deal, 0, None)
        out.append(sum(shares(table, deal, s, policy)[s] - base[s]
                       for s in range(table.players)) / table.players)
    return out


def gain(table: Table, policy: Policy, first: int, deals: int,
         pool: ProcessPoolExecutor | None, chunk: int = 250) -> list[float]:
    """Per deal, ``policy``'s wins minus ``normal``'s in the same seats (deals ``first``
    … ``first + deals - 1``), in order; ``pool`` shares the deals out by ``chunk``."""
    work = [(table, policy, f, min(chunk, first + deals - f))
            for f in range(first, first + deals, chunk)]
    parts = pool.map(_chunk, work) if pool is not None else map(_chunk, work)
    return [g for part in parts for g in part]
