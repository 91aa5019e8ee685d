"""Deckhand engine benchmarks: Gin Rummy random hands, deadwood, and every game's numbers.

Every function here runs in the project's own environment (no reference engine needed)
and returns plain data; ``bench.__main__`` turns it into the results table.

A Deckhand Gin Rummy *hand*: ``game.new`` (shuffle and deal), the first-turn upcard offer,
draws and discards until a knock, gin or big gin (the engine then lays both hands down,
lays off and scores inside ``apply``) or the wall (a discard leaving 2 stock cards). The
game is created with ``target`` 1000, so the hand ending never ends the game; the final
``apply`` also shuffles and deals the next hand, which is counted.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import games
from games import melds
from games.base import Game, State
from games.simulate import play_game

#: Seats and options per game for the full-game rows. Random play needs small targets to
#: end: random Gin Rummy rarely knocks, and random Spades bids drive both sides below 0.
GAME_SETUPS: dict[str, tuple[int, dict[str, object], dict[str, object]]] = {
    #  name: (players, options for random players, options for normal players)
    "back_alley": (4, {}, {}),
    "craits": (4, {}, {}),
    "gin_rummy": (2, {"target": 10}, {}),
    "ono99": (4, {}, {}),
    "spades": (2, {"target": 1}, {}),
}
#: A random game that has not ended after this many moves is abandoned (Spades: scores can
#: drift below zero for ever); the table reports how many were.
RANDOM_MOVE_CAP = 20_000


@dataclass
class Rate:
    """``count`` things done in ``seconds``."""

    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0


def median_rate(rates: Sequence[Rate]) -> Rate:
    """The run with the median rate (rounds of the same work, to damp machine noise)."""
    return sorted(rates, key=lambda r: r.per_second)[len(rates) // 2]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of already sorted values, nearest rank."""
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values) - 1e-9) - 1))
    return sorted_values[k]


# -- Gin Rummy: random hands and deadwood -----------------------------------------------
GIN = games.get("gin_rummy")


def gin_random_hand(seed: int) -> int:
    """Play one Deckhand Gin Rummy hand between uniform random players; return its moves."""
    rng = random.Random(seed)
    state = GIN.new(2, seed=seed, options={"target": 1000})
    legal, apply = GIN.legal_actions, GIN.apply
    moves = 0
    while state.hand_no == 1:
        seat = state.to_act[0]
        state = apply(state, seat, rng.choice(legal(state, seat)))
        moves += 1
    return moves


def gin_random_hands(hands: int, seed: int = 0) -> tuple[Rate, float]:
    """Hands per second and mean moves per hand over ``hands`` random hands."""
    t0 = time.perf_counter()
    moves = sum(gin_random_hand(seed + i) for i in range(hands))
    return Rate(hands, time.perf_counter() - t0), moves / hands


def random_11_card_hands(count: int, seed: int = 0) -> list[list[str]]:
    """``count`` random 11-card hands as Deckhand card codes (the shared benchmark input)."""
    rng = random.Random(seed)
    deck = list(games.cards.STANDARD_DECK)
    return [rng.sample(deck, 11) for _ in range(count)]


def deckhand_deadwood(hands: Sequence[Sequence[str]]) -> tuple[Rate, list[int]]:
    """Least deadwood after the best discard of each 11-card hand (``melds``, uncached)."""
    best = melds.best_discard_value
    t0 = time.perf_counter()
    values = [best(h) for h in hands]
    return Rate(len(hands), time.perf_counter() - t0), values


# -- every game ---------------------------------------------------------------------------
@dataclass
class GameNumbers:
    """One Deckhand game's engine numbers."""

    name: str
    players: int
    random_options: dict[str, object]
    random_games: Rate
    random_abandoned: int
    random_moves_per_game: float
    normal_games: Rate
    normal_moves_per_game: float
    steps: Rate
    dumps: Rate
    loads: Rate
    state_bytes: float
    normal_move_ms: list[float] = field(repr=False)

    def normal_ms(self, q: float) -> float:
        return percentile(self.normal_move_ms, q)


def play_games(
    game: Game[Any], players: int, level: str, options: Mapping[str, object], count: int,
    seed: int,
) -> tuple[Rate, int, list[tuple[int, list[tuple[int, str]]]]]:
    """``count`` full games via ``games.simulate.play_game`` from seed ``seed`` on.

    Returns the rate over the games that ended, how many were abandoned at
    ``RANDOM_MOVE_CAP`` moves (their time is not counted), and each ended game's
    ``(seed, actions)``.
    """
    logs: list[tuple[int, list[tuple[int, str]]]] = []
    abandoned = 0
    spent = 0.0
    s = seed
    while len(logs) < count:
        t0 = time.perf_counter()
        try:
            played = play_game(game, players, s, [level] * players, options, RANDOM_MOVE_CAP)
        except RuntimeError:
            abandoned += 1
        else:
            spent += time.perf_counter() - t0
            logs.append((s, played.actions))
        s += 1
    return Rate(count, spent), abandoned, logs


def replay_states(
    game: Game[Any], players: int, options: Mapping[str, object],
    logs: Sequence[tuple[int, Sequence[tuple[int, str]]]],
) -> list[State]:
    """Every state of the logged games, replayed."""
    out: list[State] = []
    for seed, log in logs:
        state = game.new(players, seed=seed, options=options)
        out.append(state)
        for seat, action in log:
            state = game.apply(state, seat, action)
            out.append(state)
    return out


def measure_game(name: str, games_per_row: int, seed: int = 0) -> GameNumbers:
    """All engine numbers for one game (``games_per_row`` full games per row)."""
    game = games.get(name)
    players, random_opts, normal_opts = GAME_SETUPS[name]
    random_rate, abandoned, random_logs = play_games(
        game, players, "random", random_opts, games_per_row, seed
    )
    normal_rate, _, normal_logs = play_games(
        game, players, "normal", normal_opts, games_per_row, seed
    )

    # legal_actions + apply, replaying the random games' moves.
    steps = 0
    t0 = time.perf_counter()
    for s, log in random_logs:
        state = game.new(players, seed=s, options=random_opts)
        for seat, action in log:
            game.legal_actions(state, seat)
            state = game.apply(state, seat, action)
        steps += len(log)
    step_rate = Rate(steps, time.perf_counter() - t0)

    # JSON round trips of every state of the normal games.
    states = replay_states(game, players, normal_opts, normal_logs)
    t0 = time.perf_counter()
    texts = [game.dumps(st) for st in states]
    dumps = Rate(len(texts), time.perf_counter() - t0)
    t0 = time.perf_counter()
    for text in texts:
        game.loads(text)
    loads = Rate(len(texts), time.perf_counter() - t0)

    # The normal computer player's decision (view + legal moves + choice) on those states.
    rng = random.Random(seed)
    latencies: list[float] = []
    for st in states:
        if st.is_over:
            continue
        seat = st.to_act[0]
        t1 = time.perf_counter()
        game.choose(st, seat, "normal", rng)
        latencies.append((time.perf_counter() - t1) * 1000)
    latencies.sort()
    return GameNumbers(
        name=name,
        players=players,
        random_options=random_opts,
        random_games=random_rate,
        random_abandoned=abandoned,
        random_moves_per_game=statistics.fmean(len(log) for _, log in random_logs),
        normal_games=normal_rate,
        normal_moves_per_game=statistics.fmean(len(log) for _, log in normal_logs),
        steps=step_rate,
        dumps=dumps,
        loads=loads,
        state_bytes=statistics.fmean(len(t) for t in texts),
        normal_move_ms=latencies,
    )
