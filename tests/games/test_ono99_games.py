"""Whole seeded ONO 99 games: invariants, replay, computer players."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from games.ono99 import GAME
from games.ono99.state import OnoState
from games.simulate import play_game

MODES: list[dict[str, Any]] = [
    {},
    {"scoring": "tokens"},
    {"scoring": "points", "target": 60},
    {"scoring": "points", "target": 60, "points_end": "lowest"},
    {"negative_totals": True, "ono_on_tens": True},
]


def check_finished(state: OnoState) -> None:
    n = state.players
    assert state.is_over and state.to_act == ()
    outcome = GAME.outcome(state)
    winners = state.events[-1]["winners"]
    assert state.events[-1]["type"] == "game_over"
    assert winners == [s for s in range(n) if outcome.ranks[s] == 1]
    mode = state.options["scoring"]
    if mode == "elimination":
        assert sorted(outcome.scores) == list(range(n))
        assert outcome.ranks == tuple(n - s for s in outcome.scores)
        assert state.in_round.count(True) == 1
    elif mode == "tokens":
        assert state.left_at.count(None) == 1 and all(t >= 0 for t in state.tokens)
        assert winners == [state.left_at.index(None)]
    elif state.options["points_end"] == "lowest":
        assert max(state.points) >= state.options["target"]
        assert outcome.ranks == tuple(1 + sum(o < p for o in state.points) for p in state.points)
    else:
        assert state.left_at.count(None) <= 1


@pytest.mark.parametrize("options", MODES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_games_end_keep_the_rules_and_replay(players: int, options: dict[str, Any]) -> None:
    for seed, levels in ((players, ["random"] * players), (players + 50, ["normal"] * players)):
        played = play_game(GAME, players, seed, levels, options)
        state = GAME.new(players, seed=seed, options=options)
        gained = [0] * players
        for seat, action in played.actions:
            before = GAME.dumps(state)
            after = GAME.apply(state, seat, action)
            assert GAME.dumps(state) == before
            assert GAME.loads(GAME.dumps(after)) == after
            for event in after.events:
                if event["type"] == "round_over" and "gained" in event:
                    gained = [a + b for a, b in zip(gained, event["gained"], strict=True)]
            state = after
        assert state == played.state
        check_finished(state)
        if options.get("scoring") == "points":
            assert gained == state.points


def test_normal_beats_random_heads_up() -> None:
    wins = 0
    for i in range(200):
        me = i % 2
        levels = ["random", "random"]
        levels[me] = "normal"
        final = play_game(GAME, 2, 7000 + i, levels).state
        assert isinstance(final, OnoState)
        wins += GAME.outcome(final).ranks[me] == 1
    assert wins / 200 > 0.6


def test_normal_moves_are_fast() -> None:
    times: list[float] = []
    for seed in range(12):
        state = GAME.new(6, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            start = time.process_time()
            action = GAME.choose(state, seat, "normal", rng)
            times.append(time.process_time() - start)
            state = GAME.apply(state, seat, action)
    times.sort()
    assert times[int(len(times) * 0.99)] < 0.02


def test_a_counting_player_reads_the_shares_from_the_cards_it_has_not_seen() -> None:
    """At 95 a card is unplayable if it is an ONO 99 or a number above 3: 10 + 6 × 6 + 10
    = 56 of the 112 cards. With every ONO 99 and every 10 in the discard pile, 36 of the
    88 cards left unseen are (no hand is shown; the seat's own four are seen too)."""
    from games.ono99.bots import _bad_share, _unseen_bad_share

    view = {"hand": ["0", "1", "2", "3"], "discards": ["ONO"] * 10 + ["10"] * 10,
            "revealed": [None] * 4}
    assert _bad_share(95) == 56 / 112
    assert _unseen_bad_share(view)(95) == 36 / (112 - 24)
