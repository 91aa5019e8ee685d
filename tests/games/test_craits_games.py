"""Whole seeded Craits games between computer players: they end, and add up."""

from __future__ import annotations

import pytest

from games.cards import STANDARD_DECK
from games.craits import GAME
from games.craits.state import CraitsState
from games.rng import rng_for
from games.simulate import play_game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("level", ["random", "normal"])
def test_seeded_games_end_and_add_up(players: int, level: str) -> None:
    seed = 40 + players
    played = play_game(GAME, players, seed, [level] * players, {"short": True})
    s = GAME.new(players, seed=seed, options={"short": True})
    rounds: list[list[int]] = []
    for seat, action in played.actions:
        assert GAME.loads(GAME.dumps(s)) == s
        s = GAME.apply(s, seat, action)
        cards = [c for h in s.hands for c in h] + s.draw_pile + s.discard
        assert sorted(cards) == sorted(STANDARD_DECK), "cards are conserved"
        for event in s.events:
            if event["type"] == "round":
                rounds.append(event["points"])
                assert any(h["cards"] == [] and h["points"] == 0 for h in event["hands"])
                assert event["points"] == [h["points"] for h in event["hands"]]
    assert s == played.state, "replaying the action log gives the same state"
    assert s.is_over and len(rounds) == 8 and s.round_scores == rounds
    assert list(GAME.outcome(s).scores) == [sum(r[t] for r in rounds) for t in range(players)]
    assert s.events[-1]["type"] == "game_over"


def test_a_full_game_has_fifteen_rounds() -> None:
    played = play_game(GAME, 3, 7, ["normal", "random", "normal"])
    assert isinstance(played.state, CraitsState)
    assert len(played.state.round_scores) == 15
    sizes = [e["size"] for e in GAME.new(3, seed=7).events if e["type"] == "deal"]
    assert sizes == [8]


def test_same_seed_same_game_and_stacked_first_deal() -> None:
    a = play_game(GAME, 4, 11, ["random"] * 4, {"short": True})
    b = play_game(GAME, 4, 11, ["random"] * 4, {"short": True})
    assert a.actions == b.actions and a.state == b.state
    deck = list(reversed(STANDARD_DECK))
    s = GAME.new(2, seed=5, deck=deck)
    assert s.hands[1][0] == deck[0] and s.hands[0][0] == deck[1] and s.discard[0] == deck[16]


def test_normal_beats_random() -> None:
    wins = 0
    for seed in range(24):
        players = 2 + seed % 4
        me = seed % players
        levels = ["random"] * players
        levels[me] = "normal"
        played = play_game(GAME, players, seed, levels, {"short": True})
        assert isinstance(played.state, CraitsState)
        wins += GAME.outcome(played.state).ranks[me] == 1
    assert wins >= 16, "a random player would win about 8 of these"


def test_normal_moves_announce_and_call_out() -> None:
    """(How quick its moves are is measured in BENCHMARKS.md, not timed here.)"""
    kinds: set[str] = set()
    s = GAME.new(4, seed=3, options={"short": True})
    step = 0
    while not s.is_over:
        seat = s.to_act[0]
        level = "normal" if seat == 0 else "random"
        action = GAME.choose(s, seat, level, rng_for(3, step))
        if seat == 0:
            kinds.add(action.split()[0])
            if len(s.hands[0]) == 2 and action.startswith("play"):
                assert action.endswith(" last"), "normal always announces"
            if any(a.startswith("callout") for a in GAME.legal_actions(s, 0)):
                assert action.startswith(("callout", "announce"))
        s = GAME.apply(s, seat, action)
        step += 1
    assert {"play", "draw", "callout"} <= kinds
