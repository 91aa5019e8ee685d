"""Craits' learned value of a play (``games/craits/learned.py``): its features on hand-built
positions, and the shipped value choosing among legal plays in seeded games."""

from __future__ import annotations

import numpy as np
import pytest

import games
from games.craits import bots, learned, moves
from games.craits.reading import Refusal
from games.rng import rng_for


def _chance(refused: list[Refusal], action: str) -> float:
    view = {"hand_counts": [5, 2, 5, 5]}
    unseen = ["2H", "3H", "KS", "7D", "8C"]
    return learned.stuck_chance(view, moves.read_play(action), 1, refused, unseen)


def test_the_next_players_chance_to_be_stuck_reads_its_refusals() -> None:
    """Seat 1 holds two cards; unseen are 2♥ 3♥ K♠ 7♦ 8♣. Of a random pair, neither follows
    7♠ with chance (2/5)²; if it drew on 7♠ one draw ago, the card it kept from then is a
    heart (nothing else fails 7♠), so only the drawn card may follow: 2/5."""
    refused = [Refusal(top="7S", suit="S", crank=0, drawn=1)]
    assert _chance([], "play 7S") == pytest.approx(0.16)
    assert _chance(refused, "play 7S") == pytest.approx(0.4)
    # on a heart, the kept card surely follows
    assert _chance(refused, "play 2H") == 0.0
    # an 8 naming spades is followed by a spade or an 8, no longer by the 7♦: 3/5
    assert _chance(refused, "play 8D as S") == pytest.approx(0.6)


def test_an_eights_suits_are_one_candidate_and_last_card_plays_are_kept_apart() -> None:
    view = {"hand": ["8D", "5D", "5C"], "crank": 0, "seat": 0, "players": 4,
            "hand_counts": [3, 5, 5, 5], "direction": 1}
    legal = ["play 8D as S", "play 8D as H", "play 8D as D", "play 8D as C", "play 5D"]
    plays = learned.candidates(view, legal)
    assert sorted(p.split()[1] for p in plays) == ["5D", "8D"]
    assert learned.candidates(view, ["play 5D", "play 5D last", "play 5C last"]) == [
        "play 5D last", "play 5C last"]


def test_the_shipped_value_was_trained_on_these_features() -> None:
    value = learned.shipped()
    assert value.names == learned.NAMES and np.isfinite(value.weights).all()
    assert value.about["command"].startswith("python -m bench.craits_train")


@pytest.mark.parametrize("seed", range(3))
def test_the_learned_player_plays_legal_moves_and_leaves_the_rest_to_normal(seed: int) -> None:
    """At every decision of seeded games it names a legal move, the expert's; during the
    crank, when a call is open and when it cannot play it makes ``normal``'s move; elsewhere
    it differs from ``normal`` at some decisions."""
    game = games.get("craits")
    state = game.new(4, seed=seed, options={"short": True})
    rng = rng_for(seed, "learned")
    differs = choices = 0
    while not state.is_over:
        seat = state.to_act[0]
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        mine, usual = learned.choose(view, legal), bots.decide(view, legal)[0]
        assert mine in legal
        assert game.bots["expert"](view, legal, rng) == mine  # the expert is this player
        if view["crank"] or not any(a.startswith("play") for a in legal) or any(
            a.split()[0] in ("announce", "callout") for a in legal
        ):
            assert mine == usual
        elif len(learned.candidates(view, legal)) > 1:
            choices += 1
            differs += mine != usual
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
    assert choices > 20 and 0 < differs < choices

