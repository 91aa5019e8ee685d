"""Play whole games between computer players (for ``deckhand simulate``, tests, benchmarks).

Pure and deterministic: the computer players share one generator seeded with the game
seed. When several seats may act, the first in ``to_act`` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Game, State
from games.rng import rng_for


@dataclass
class Played:
    """A finished simulated game and the actions that led to it."""

    state: State
    actions: list[tuple[int, str]]


def play_game(
    game: Game[Any],
    players: int,
    seed: int,
    levels: Sequence[str],
    options: Mapping[str, object] | None = None,
    max_moves: int = 100_000,
) -> Played:
    """Play a game to the end with ``levels[seat]`` choosing for each seat."""
    state = game.new(players, seed=seed, options=options)
    actions: list[tuple[int, str]] = []
    rng = rng_for(seed, "bots")
    while not state.is_over:
        if len(actions) >= max_moves:
            raise RuntimeError(f"{game.name} seed {seed} did not end in {max_moves} moves")
        seat = state.to_act[0]
        action = game.choose(state, seat, levels[seat], rng)
        state = game.apply(state, seat, action)
        actions.append((seat, action))
    return Played(state, actions)
