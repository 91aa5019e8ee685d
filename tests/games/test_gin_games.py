"""Gin Rummy: seeded full games between computer players, replays and bot quality."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from games.cards import STANDARD_DECK
from games.gin_rummy import GAME as G
from games.gin_rummy.state import GinState
from games.rng import rng_for
from games.simulate import play_game


def check_finished(state: GinState, actions: list[tuple[int, str]], seed: int,
                   options: dict[str, Any]) -> None:
    assert state.is_over and state.phase == "over" and state.final is not None
    everything = [*state.stock, *state.discards, *state.hands[0], *state.hands[1]]
    if state.face_down:
        everything.append(state.face_down)
    assert Counter(everything) == Counter(STANDARD_DECK)
    target = options.get("target", 100)
    winner = state.final["reached"]
    assert state.scores[winner] >= target > state.scores[1 - winner]
    firsts = [s for s, r in enumerate(G.outcome(state).ranks) if r == 1]
    assert state.final["winner"] == (firsts[0] if len(firsts) == 1 else None)
    played = state.hand_no
    assert sum(state.hands_won) + state.walls <= played
    bonus = 2 if state.final["shutout"] else 1
    line = [25 * w for w in state.hands_won]
    assert state.final["final"][winner] == (state.scores[winner] + 100) * bonus + line[winner]
    loser = 1 - winner
    assert state.final["final"][loser] == state.scores[loser] + line[loser]
    assert G.outcome(state).scores == tuple(state.final["final"])
    replay: GinState = G.new(2, seed=seed, options=options)
    for seat, action in actions:
        replay = G.apply(replay, seat, action)
    assert replay == state
    assert G.loads(G.dumps(state)) == state


def hand_results(seed: int, levels: list[str], options: dict[str, Any]) -> list[dict[str, Any]]:
    """Play a game move by move; return its hand results after checking the scores add up."""
    state: GinState = G.new(2, seed=seed, options=options)
    results: list[dict[str, Any]] = []
    while not state.is_over:
        seat = state.to_act[0]
        action = G.choose(state, seat, levels[seat], rng_for(seed, "bot", len(results)))
        before = list(state.scores)
        state = G.apply(state, seat, action)
        for e in state.events:
            if e["type"] == "hand_result":
                assert [a + b for a, b in zip(before, e["points"], strict=True)] == e["scores"]
                results.append(e)
    assert sum(r["points"][0] for r in results) == state.scores[0]
    assert sum(r["points"][1] for r in results) == state.scores[1]
    return results


@pytest.mark.parametrize(
    ("seed", "levels", "options"),
    [
        (1, ["random", "random"], {"target": 10}),
        (2, ["normal", "random"], {}),
        (3, ["random", "normal"], {}),
        (4, ["normal", "normal"], {}),
        (5, ["normal", "normal"], {"target": 250}),
    ],
)
def test_seeded_games_end_with_consistent_totals(
    seed: int, levels: list[str], options: dict[str, Any]
) -> None:
    played = play_game(G, 2, seed, levels, options)
    state = played.state
    assert isinstance(state, GinState)
    check_finished(state, played.actions, seed, options)


def test_normal_games_see_every_kind_of_hand_result() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(6):
        kinds.update(r["result"] for r in hand_results(seed, ["normal", "normal"], {}))
    assert {"knock", "gin", "undercut"} <= set(kinds), kinds


def test_normal_beats_random() -> None:
    wins = 0
    for seed in range(20):
        levels = ["normal", "random"] if seed % 2 else ["random", "normal"]
        state = play_game(G, 2, seed, levels).state
        assert isinstance(state, GinState)
        normal = levels.index("normal")
        wins += G.outcome(state).ranks[normal] == 1
    assert wins >= 19


def test_normal_moves_are_fast() -> None:
    timings = []
    for seed in range(3):
        state: GinState = G.new(2, seed=seed)
        n = 0
        while not state.is_over:
            seat = state.to_act[0]
            start = time.process_time()
            action = G.choose(state, seat, "normal", rng_for(seed, n))
            timings.append(time.process_time() - start)
            state = G.apply(state, seat, action)
            n += 1
    timings.sort()
    assert timings[int(len(timings) * 0.99)] < 0.02
