"""Gin Rummy's learned evaluation: what it reads of a view (``features``), the shipped
weights (``learned``), and the expert that plays by them."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import games
from games.cards import INDEX
from games.gin_rummy import bots, expert, features, learned
from games.gin_rummy.state import GinState
from games.melds import to_mask
from games.rng import rng_for
from tests.games.support import stacked

G: Any = games.get("gin_rummy")


def _new(h0: str, h1: str, up: str) -> GinState:
    """Seat 0 deals ``h0``, seat 1 ``h1``; ``up`` is the upcard."""
    state: GinState = G.new(2, seed=1, deck=stacked(G, [h0.split(), h1.split()], [up]))
    return state


def test_the_shipped_weights_load_and_say_how_they_were_trained() -> None:
    ev = learned.shipped()
    assert set(ev.nets) == set(learned.KINDS)
    assert ev.about["command"].startswith("python -m bench.gin_train")
    assert ev.about["hands"] > 0 and "seed" in ev.about
    for net in ev.nets.values():
        assert net.w1.shape == (len(features.NAMES), net.b1.shape[0])


def test_meldable_cards_are_those_that_make_a_meld_with_two_held() -> None:
    hand = to_mask(["5H", "6H", "9C", "9D", "KS"])
    near = {c for c in G.full_deck if features.meldable(hand) >> INDEX[c] & 1}
    assert near == {"4H", "7H", "9H", "9S"}


def test_outs_count_the_deadwood_after_each_draw() -> None:
    hand = to_mask(["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9S", "KD"])  # K: 10
    after = features.outs(hand)
    assert after[INDEX["9H"]] == 0  # the fourth nine: gin, throwing the K
    assert after[INDEX["QD"]] == 10  # a loose card: throw one of the two ten-pointers
    assert after[INDEX["2D"]] == 2  # throw the K, keep the 2
    assert all(after[i] == 0 for i in range(52) if hand >> i & 1)


def test_every_value_is_finite_and_choose_is_legal_through_a_seeded_game() -> None:
    ev = learned.shipped()
    for seed in range(3):
        state = G.new(2, seed=seed, options={"target": 1000})
        rng = rng_for(seed, "learned")
        while state.hand_no == 1:
            seat = state.to_act[0]
            view = G.view(state, seat)
            legal = G.legal_actions(state, seat)
            if len(legal) > 1 and "biggin" not in legal:
                vals = learned.values(features.table(view), legal, view["discard_top"], ev)
                assert set(vals) <= set(legal) and vals
                assert all(math.isfinite(v) for v in vals.values())
            move = expert.expert_bot(view, legal, rng)
            assert move in legal
            state = G.apply(state, seat, move)


def test_the_evaluation_values_a_gin_knock_above_breaking_a_meld_and_the_expert_plays_it() -> None:
    state = _new(
        "KS QH JD 8C 7S 5D 3C AH 2D 4S", "AS 2S 3S 4H 5H 6H 9C 9D 9S KD", "9H",
    )
    state = G.apply(state, 1, "take")  # four nines: the K is the only loose card
    view = G.view(state, 1)
    legal = G.legal_actions(state, 1)
    assert expert.expert_bot(view, legal, random.Random(0)) == "knock KD"
    # Half-way through the stock (on the first turn the knock net, which never saw gin
    # that early, values it below holding on: gin is played, not weighed, by ``choose``).
    t = replace(features.table(view), stock=15)
    vals = learned.values(t, legal, view["discard_top"], learned.shipped())
    breaking = [v for a, v in vals.items() if a.startswith("discard ") and a != "discard KD"]
    assert vals["knock KD"] > max(breaking) + 5
    assert vals["knock KD"] > max(v for a, v in vals.items() if a.startswith("knock 9"))


def test_the_expert_leaves_normal_only_for_a_move_valued_more_than_the_margin() -> None:
    state = G.new(2, seed=5, options={"target": 1000})
    rng = random.Random(5)
    ev = learned.shipped()
    left = 0
    while state.hand_no == 1:
        seat = state.to_act[0]
        view = G.view(state, seat)
        legal = G.legal_actions(state, seat)
        usual = bots.normal_bot(view, legal, rng)
        chosen = learned.choose(view, legal, usual, 0.5, 1e9, ev)
        assert chosen == usual  # no move is worth a billion points more
        left += learned.choose(view, legal, usual, 0.5, -1e9, ev) != usual
        state = G.apply(state, seat, usual)
    assert left  # with any margin allowed, the evaluation's own choice differs somewhere
