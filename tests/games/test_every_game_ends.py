"""A guard for every game: every player count and option set ends, within a step cap and a
time limit per game (an engine that loops inside one ``new``/``apply`` would otherwise
freeze the bot's event loop for every server). The suite plays ten seeds of each (about
3 s); the large run, 2,000 seeds of each (about 10 minutes on one core), is marked
``slow`` and runs only with ``DECKHAND_LONG_TESTS=1``, so CI's plain ``pytest`` stays
short."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import games
from games.simulate import play_game

#: Option sets beyond the defaults: every scoring, the classic options together, short
#: games, small targets.
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "gin_rummy": [{}, {"target": 25}],
    "spades": [{}, {"target": 100}, {"target": 100, "blind_nil": False}],
    "back_alley": [{}, {"deals": 3}],
    "craits": [{}, {"short": True}],
    "ono99": [
        {},
        {"scoring": "tokens"},
        {"scoring": "points", "target": 100},
        {"scoring": "points", "target": 100, "points_end": "lowest"},
        {"negative_totals": True, "ono_on_tens": True},
        {"scoring": "points", "negative_totals": True, "ono_on_tens": True},
    ],
}
#: Uniformly random Spades bidding only loses points, and uniformly random Gin Rummy
#: almost never knocks (hands end as walls, the game could run for ever in practice), so
#: those are played by ``normal``.
LEVEL = {"spades": "normal", "back_alley": "normal", "gin_rummy": "normal"}
STEP_CAP = 20_000
FAST_SEEDS = 10
SECONDS_PER_GAME = 20


@contextmanager
def time_limit(what: str) -> Iterator[None]:
    """Fail (naming ``what``) if the block runs longer than ``SECONDS_PER_GAME``."""

    def expired(signum: int, frame: object) -> None:
        raise AssertionError(f"{what} did not end within {SECONDS_PER_GAME} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_GAME)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def cases() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for name in games.names():
        g = games.get(name)
        for players in range(g.min_players, g.max_players + 1):
            for options in OPTION_SETS[name]:
                yield name, players, options


def play_seeds(name: str, players: int, options: dict[str, Any], seeds: range) -> None:
    g = games.get(name)
    level = LEVEL.get(name, "random")
    for seed in seeds:
        what = f"{name} with {players} players, options {options}, seed {seed}"
        with time_limit(what):
            played = play_game(g, players, seed, [level] * players, options, STEP_CAP)
        assert played.state.is_over, what


@pytest.mark.parametrize(("name", "players", "options"), list(cases()))
def test_every_option_set_ends(name: str, players: int, options: dict[str, Any]) -> None:
    play_seeds(name, players, options, range(FAST_SEEDS))


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("DECKHAND_LONG_TESTS"),
    reason="the 2,000-game run takes long: set DECKHAND_LONG_TESTS=1",
)
@pytest.mark.parametrize(("name", "players", "options"), list(cases()))
def test_two_thousand_games_of_every_option_set_end(
    name: str, players: int, options: dict[str, Any]
) -> None:
    play_seeds(name, players, options, range(2000))
