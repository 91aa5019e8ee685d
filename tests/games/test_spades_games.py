"""Two-player Spades: seeded whole games between computer players, with invariants."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import games
from games.cards import STANDARD_DECK
from games.simulate import play_game
from games.spades.state import SpadesState

G: Any = games.get("spades")


def replay_checked(
    levels: list[str], seed: int, options: dict[str, Any] | None = None
) -> SpadesState:
    """Play a seeded game, then replay its log checking every step."""
    played = play_game(G, 2, seed, levels, options)
    state: SpadesState = G.new(2, seed=seed, options=options)
    totals = [0, 0]
    hands_scored = 0
    for seat, action in played.actions:
        assert G.loads(G.dumps(state)) == state
        if state.phase != "over":
            deck = state.stock + state.discards + state.played + state.hands[0] + state.hands[1]
            assert Counter(deck) == Counter(STANDARD_DECK)
        assert action in G.legal_actions(state, seat)
        state = G.apply(state, seat, action)
        for event in state.events:
            if event["type"] == "hand_scored":
                hands_scored += 1
                lines = event["lines"]
                totals = [t + line["points"] for t, line in zip(totals, lines, strict=True)]
                assert [line["score"] for line in event["lines"]] == totals
    assert state == played.state
    assert state.is_over and state.scores == totals
    assert hands_scored == state.hand_no
    top = max(state.scores)
    assert top >= state.options["target"] and state.scores.count(top) == 1
    assert state.winner == state.scores.index(top) and G.outcome(state).ranks[state.winner] == 1
    assert all(0 <= b < 10 for b in state.bags)
    return state


@pytest.mark.parametrize(
    ("levels", "seed"),
    [(["normal", "random"], 1), (["random", "normal"], 2), (["normal", "normal"], 3)],
)
def test_seeded_games_end_with_consistent_scores(levels: list[str], seed: int) -> None:
    replay_checked(levels, seed)


def test_random_players_finish_a_short_game() -> None:
    # Random bidding loses points on average, so random-only games need a low target.
    state = replay_checked(["random", "random"], 1002, {"target": 10})
    assert state.hand_no >= 1


def test_blind_nil_off_never_offers_it() -> None:
    played = play_game(G, 2, 8, ["random", "normal"], {"blind_nil": False})
    assert not any(a in ("blindnil", "look") for _, a in played.actions)
    assert not any(a.startswith("exchange") for _, a in played.actions)


def test_normal_beats_random() -> None:
    wins = 0
    games_played = 20
    for seed in range(games_played):
        levels = ["normal", "random"] if seed % 2 else ["random", "normal"]
        state = play_game(G, 2, 500 + seed, levels).state
        wins += levels[G.outcome(state).ranks.index(1)] == "normal"
    assert wins >= 0.9 * games_played


def test_normal_bids_from_strength() -> None:
    bot = G.bots["normal"]
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "AD", "KD", "AC", "KC", "QC"]
    weak = ["2S", "3S", "2H", "3H", "4H", "5H", "2D", "3D", "4D", "2C", "3C", "4C", "5C"]
    middling = ["AS", "5S", "3S", "AH", "7H", "4H", "2H", "QD", "8D", "3D", "9C", "6C", "2C"]
    base = {"phase": "bid", "face_up_discards": [], "seat": 1}
    bids = [
        int(bot({**base, "hand": hand}, [], random.Random(0)).split()[1])
        for hand in (strong, weak, middling)
    ]
    assert bids[0] >= 10 and bids[1] == 0 and 2 <= bids[2] <= 5


def test_normal_blind_nil_when_far_behind_and_exchanges_its_worst_cards() -> None:
    state: SpadesState = G.new(2, seed=5, options={"target": 500})
    state.scores = [100, 420]
    assert G.choose(state, 0, "normal") == "blindnil"
    state.scores = [300, 420]
    assert G.choose(state, 0, "normal") == "look"
    view = {
        "phase": "exchange", "seat": 0,
        "hand": ["AS", "3S", "2H", "3H", "4H", "5H", "KD", "3D", "4D", "2C", "3C", "4C", "9C"],
    }
    action = G.bots["normal"](view, [], random.Random(0))
    assert action == "exchange AS KD 9C" and G.parse_action(action) == action  # canonical
