"""Hints' reasons (``Game.explain``): every game says why its ``normal`` player makes its
move, in one line of card names from the seat's own view, and says nothing for a move
``normal`` would not make."""

from __future__ import annotations

import random

import pytest

import games
from games.rng import rng_for

PLAYERS = {"back_alley": 4, "craits": 4, "gin_rummy": 2, "ono99": 4, "spades": 2}
gin_reason = games.get("gin_rummy").explain
spades_reason = games.get("spades").explain
craits_reason = games.get("craits").explain


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_normal_move_of_a_game_has_a_reason(name: str) -> None:
    game = games.get(name)
    for seed in range(3):
        state = game.new(PLAYERS[name], seed=seed)
        rng = rng_for(seed, "reasons")
        for _ in range(400):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            move = game.choose(state, seat, "normal", random.Random(0))
            said = game.explain(view, legal, move)
            assert said and "\n" not in said and len(said) < 200, (move, said)
            assert "{" not in said and "}" not in said, said
            others = [a for a in legal if a != move]
            if others:
                assert game.explain(view, legal, rng.choice(others)) == ""
            state = game.apply(state, seat, rng.choice([move, *others[:1]]))


def test_gin_names_the_near_meld_kept_and_the_card_thrown() -> None:
    hand = ["2H", "3H", "4H", "5C", "5D", "5S", "3S", "4S", "6D", "2C", "9D"]
    view = {"seat": 0, "hand": hand, "known": [[], []], "stock": 10}
    legal = [f"discard {c}" for c in hand]
    said = gin_reason(view, legal, "discard 9D")
    assert said == "keeps 3♠ 4♠ for a run; 9♦ is your highest unmatched card"
    assert gin_reason(view, legal, "discard 2C") == ""
    # With 10 deadwood or less in reach, the least deadwood counts, not the near-meld.
    low = [*hand[:-1], "AD"]
    low_legal = [f"discard {c}" for c in low]
    assert gin_reason({**view, "hand": low}, low_legal, "discard 6D") == (
        "at this low deadwood each point counts more than a near-meld;"
        " 6♦ is your highest unmatched card")


def test_gin_knocks_and_takes_with_their_numbers() -> None:
    hand = ["2H", "3H", "4H", "5C", "5D", "5S", "3S", "4S", "6D", "2C", "AD"]
    view = {"seat": 0, "hand": hand, "known": [[], []], "stock": 25}
    legal = [f"discard {c}" for c in hand] + [f"knock {c}" for c in hand]
    assert gin_reason(view, legal, "knock 6D") == (
        "throwing 6♦ leaves 10 deadwood, and with 25 cards left in the stock knocking with"
        " that pays more than waiting"
    )
    late = {**view, "stock": 12}  # knocking with 10 no longer pays: it waits, and says so
    assert gin_reason(late, legal, "knock 6D") == ""
    assert gin_reason(late, legal, "discard 6D") == (
        "knocking with 10 deadwood pays less than waiting; 6♦ is your highest unmatched card")
    take = {"hand": hand[:10], "discard_top": "5H", "seat": 0, "known": [[], []], "stock": 25}
    assert gin_reason(take, ["draw", "take"], "take").startswith("5♥ ")


def test_spades_says_why_it_ducks_or_wins() -> None:
    view = {
        "seat": 0, "phase": "play", "hand": ["AH", "9H", "2H"], "bids": [3, 4],
        "tricks": [3, 4], "trick": [[1, "KH"]], "played": [], "face_up_discards": [],
    }
    legal = ["play AH", "play 9H", "play 2H"]
    said = spades_reason(view, legal, "play 9H")
    assert said.startswith("your bid is made") and "9♥ is your highest card that loses" in said
    short = {**view, "tricks": [1, 2]}
    assert spades_reason(short, legal, "play AH") == (
        "you still need tricks for your bid; A♥ is your cheapest card that wins the trick"
    )


def test_craits_says_what_a_play_sheds_and_what_it_keeps() -> None:
    view = {"seat": 0, "players": 3, "direction": 1, "hand_counts": [6, 5, 5], "crank": 0,
            "hand": ["5S", "7S", "9S", "8D", "3C", "QH"]}
    legal = ["play 5S", "play 7S", "play 9S", "play 9S as C",
             *(f"play 8D as {s}" for s in "SHDC")]
    assert craits_reason(view, legal, "play 5S") == (
        "5♠ sheds 30 points; you keep 2 spades to follow with, an 8 as an escape and a 3 to"
        " cancel with"
    )
    assert craits_reason(view, ["play 7S"], "play 7S") == "7♠ is the only card you can play"
    assert craits_reason(view, legal, "play 7S") == ""
    threes = {**view, "hand": ["3S", "3C", "9S", "QH"]}
    assert craits_reason(threes, ["play 3S", "play 3C"], "play 3S") == (
        "you can play only 3s; you keep 1 spade to follow with and 3♣ to match it"
    )
