"""Profiles (cProfile) of the Gin Rummy random-hand loop and of every game's normal bot.

``top_functions`` runs a callable under cProfile and returns the functions with the most
own time. The normal-bot profile calls ``Game.choose(state, seat, "normal")`` on every
state of a few normal games (so it includes building the seat's view and its legal
moves, as the table service does).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import random
from collections.abc import Callable
from dataclasses import dataclass

import games
from bench import engines


@dataclass
class Hotspot:
    """One function's share of a profile."""

    function: str
    calls: int
    own_seconds: float
    cumulative_seconds: float
    own_share: float


def _label(key: tuple[str, int, str]) -> str:
    path, line, name = key
    if path == "~":
        return name
    root = os.getcwd() + os.sep
    return f"{path.removeprefix(root)}:{line}({name})"


def top_functions(fn: Callable[[], object], limit: int = 8) -> tuple[float, list[Hotspot]]:
    """Profile ``fn()``; return the total profiled seconds and the top functions by own
    time."""
    profiler = cProfile.Profile()
    profiler.runcall(fn)
    stats = pstats.Stats(profiler)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())
    rows = sorted(raw.items(), key=lambda kv: -kv[1][2])[:limit]
    return total, [
        Hotspot(_label(key), v[1], v[2], v[3], v[2] / total if total else 0.0)
        for key, v in rows
    ]


def gin_random_hands(hands: int) -> tuple[float, list[Hotspot]]:
    """Profile of ``hands`` Deckhand Gin Rummy random hands."""
    return top_functions(lambda: [engines.gin_random_hand(s) for s in range(hands)])


def normal_bot(name: str, games_to_play: int) -> tuple[float, list[Hotspot]]:
    """Profile of the ``normal`` bot deciding on every state of ``games_to_play`` games."""
    game = games.get(name)
    players, _, options = engines.GAME_SETUPS[name]
    _, _, logs = engines.play_games(game, players, "normal", options, games_to_play, 0)
    states = [s for s in engines.replay_states(game, players, options, logs) if not s.is_over]
    rng = random.Random(0)

    def decide_all() -> None:
        for st in states:
            game.choose(st, st.to_act[0], "normal", rng)

    return top_functions(decide_all)
