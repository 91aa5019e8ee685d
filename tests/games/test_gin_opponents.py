"""Gin Rummy's models of the opponent: the eager player, ``normal``'s knock rule, the knocks a
game records, and how the ``expert`` weighs the two models by what the opponent did."""

from __future__ import annotations

import random
from typing import Any

import games
from games import melds
from games.gin_rummy import bots, eager, expert
from games.gin_rummy.bots import KnockRule
from tests.games.test_gin_rules import JUNK0, JUNK1, both_pass_then_draw, new, play

G: Any = games.get("gin_rummy")


def cards(text: str) -> list[str]:
    return text.split()


def lean(hand: list[str], top: str | None = None, stock: int = 20) -> dict[str, Any]:
    return {"seat": 0, "hand": hand, "known": [[], []], "stock": stock, "discard_top": top}


def test_the_eager_player_takes_only_what_melds_or_lets_it_knock() -> None:
    hand = cards("KS QH JD 9C 7S 7D 3C AH 2D 4S")
    assert eager.takes(hand, "7H")  # three sevens
    assert not eager.takes(hand, "2C")  # would cut its deadwood, but melds nothing
    near = cards("AS 2S 3S 4H 5H 6H 8C 8D 8H KD")  # deadwood 10, the KD
    assert eager.takes(near, "2C")  # throwing KD then leaves 2: a knock
    assert eager.eager_bot(lean(hand, "2C"), ["take", "pass"], random.Random(0)) == "pass"


def test_the_eager_player_knocks_at_once_and_else_throws_its_highest_loose_card() -> None:
    hand = cards("AS 2S 3S 4H 5H 6H 8C 8D 8H KD 9C")
    legal = [f"discard {c}" for c in hand] + [f"knock {c}" for c in ("KD", "9C")]
    assert eager.eager_bot(lean(hand), legal, random.Random(0)) == "knock KD"
    loose = cards("KS QH JD 9C 7S 5D 3C AH 2D 4S KH")
    legal = [f"discard {c}" for c in loose]
    # Two kings unmatched: the later suit in OpenSpiel's order (spades, clubs, diamonds,
    # hearts) goes, as SimpleGinRummyBot throws it.
    assert eager.eager_bot(lean(loose), legal, random.Random(0)) == "discard KH"
    taken = [a for a in legal if a != "discard KH"]
    assert eager.eager_bot(lean(loose), taken, random.Random(0)) == "discard KS"


def test_a_knock_rule_pays_from_its_stock_and_later_for_each_held_card() -> None:
    rule = KnockRule(from_stock={7: 20}, per_taken=2)
    assert rule.pays(7, 20, 0) and not rule.pays(7, 19, 0)
    assert rule.least_stock(7, 2) == 24 and not rule.pays(7, 23, 2)
    assert rule.least_stock(3, 0) is None and not rule.pays(3, 31, 0)
    assert all(bots.KNOCK.pays(d, 31, 0) for d in bots.KNOCK.from_stock)


def test_normal_waits_with_little_deadwood_and_knocks_early_with_more() -> None:
    hand = cards("AS 2S 3S 4H 5H 6H 8C 8D 8H KD 2C")  # KD out: 2 deadwood
    legal = [f"discard {c}" for c in hand] + [f"knock {c}" for c in ("KD",)]
    assert bots.decide(lean(hand, stock=28), legal)[0].startswith("discard ")
    seven = cards("AS 2S 3S 4H 5H 6H 8C 8D 8H KD 7C")  # KD out: 7 deadwood
    legal = [f"discard {c}" for c in seven] + ["knock KD"]
    assert bots.decide(lean(seven, stock=28), legal)[0] == "knock KD"
    assert bots.decide(lean(seven, stock=8), legal)[0].startswith("discard ")


def test_a_game_records_each_knock_but_not_gin() -> None:
    knocker = "4H 5H 6H 9S 9D 9C JC QC KC 8S"  # deadwood 8 after the KD drawn
    defender = "AD 2D 3D 7C 7S 7D TS JS QS 5C"
    s = play(both_pass_then_draw(new(defender, knocker, "6D", "KD")), (1, "knock KD"))
    assert s.knocks == [[], [[8, 30, 0]]]
    assert G.view(s, 0)["knocks"] == [[], [[8, 30, 0]]]
    gin = "4H 5H 6H 7H 9S 9D 9C JC QC KC"
    s = play(both_pass_then_draw(new(defender, gin, "6D", "KD")), (1, "knock KD"))
    assert s.last_hand is not None and s.last_hand["result"] == "gin"
    assert s.knocks == [[], []]
    data = G.to_json(new(JUNK0, JUNK1, "6D"))
    del data["knocks"]
    assert G.from_json(data).knocks == [[], []]  # saved before the field existed


def _view_after(*moves: tuple[int, str], upcard: str = "2H", seat: int = 0) -> dict[str, Any]:
    state = play(new(JUNK0, JUNK1, upcard, "8S 8D"), *moves)
    return dict(G.view(state, seat))


def test_the_expert_reads_the_opponent_from_its_upcard_and_its_knocks() -> None:
    assert expert.eager_chance(_view_after()) == 0.5  # nothing seen yet
    passed_low = _view_after((1, "pass"))
    assert expert.eager_chance(passed_low) > 0.9  # normal takes a low upcard
    took_low = _view_after((1, "take"))
    assert expert.eager_chance(took_low) < 0.2
    high = _view_after((1, "pass"), upcard="KD")
    assert 0.4 < expert.eager_chance(high) < 0.6  # both pass a king alike
    late = {**_view_after(), "knocks": [[], [[3, 12, 0]]]}  # normal never knocks with 3
    assert expert.eager_chance(late) > 0.95
    early = {**_view_after(), "knocks": [[], [[8, 25, 0]], ]}
    assert expert.eager_chance(early) < 0.5


def test_worlds_hold_what_each_model_would_not_have_knocked_with() -> None:
    state = G.new(2, seed=3)
    rng = random.Random(3)
    while len(state.stock) > 24:
        seat = state.to_act[0]
        state = G.apply(state, seat, G.choose(state, seat, "normal", rng))
    seat = state.to_act[0]
    view = G.view(state, seat)
    assert expert.held_back(view, expert.EAGER) == frozenset(range(11))
    assert 0 in expert.held_back(view, expert.NORMAL)
    assert 3 not in expert.held_back(view, expert.NORMAL)
    for k in range(6):
        world = expert.world(view, random.Random(k), expert.EAGER)
        opponent = world.hands[1 - seat]
        assert len(opponent) == len(state.hands[1 - seat])
        assert sorted(world.hands[seat]) == sorted(state.hands[seat])
        assert melds.min_deadwood(opponent) > 10 or k  # fitted, unless FIT_TRIES ran out


def test_the_eager_player_throws_as_it_discards() -> None:
    loose = cards("KS QH JD 9C 7S 5D 3C AH 2D 4S KH")
    assert eager.throw(loose, loose) == "KH"
    assert eager.throw(loose, [c for c in loose if c != "KH"]) == "KS"
    melded = cards("AS 2S 3S 4S 4H 5H 6H 8C 8D 8H 8S")  # all melded: the least deadwood
    assert eager.throw(melded, melded) == "4S"
    assert expert.least_deadwood(loose, loose) == "JD"  # ties: the higher value, then by code


def test_worlds_of_the_eager_model_explain_its_last_discard() -> None:
    state = G.new(2, seed=3)
    rng = random.Random(3)
    while len(state.stock) > 22 or state.to_act[0] != 0 or state.phase != "draw":
        seat = state.to_act[0]
        state = G.apply(state, seat, G.choose(state, seat, "normal", rng))
    view = G.view(state, 0)
    threw = expert.last_discard(view)
    assert threw is not None and threw == state.discards[-1]
    drew = G.apply(state, 0, "draw")
    assert expert.last_discard(G.view(drew, 1)) is None  # seat 0 drew since
    explained = 0
    for k in range(6):
        world = expert.world(view, random.Random(k), expert.EAGER)
        assert G.dumps(world) == G.dumps(expert.world(view, random.Random(k), expert.EAGER))
        hand = [*world.hands[1], threw]
        unknown = [c for c in hand if c not in state.known[1]]
        explained += eager.throw(hand, unknown) == threw
    assert explained >= 4  # fitted, unless FIT_TRIES ran out
