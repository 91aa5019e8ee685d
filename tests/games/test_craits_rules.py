"""Craits rules, scenario by scenario: stacked decks and hand-built positions."""

from __future__ import annotations

from typing import Any

import pytest

from games import IllegalAction
from games.cards import STANDARD_DECK
from games.craits import GAME
from games.craits.engine import Craits
from games.craits.scoring import hand_score
from games.craits.state import CraitsState
from tests.games.support import assert_refused, stacked

assert isinstance(GAME, Craits)


def stacked_deck(hands: list[str], top: str, draw: str = "") -> list[str]:
    """A full deck dealing ``hands`` (8 cards each, dealer seat 0), then ``top``, ``draw``."""
    parsed = [h.split() for h in hands]
    assert all(len(h) == 8 for h in parsed)
    return stacked(GAME, parsed, [top, *draw.split()])


def position(
    hands: list[str], top: str, draw: str | None = None, *, under: str = "", **fields: Any
) -> CraitsState:
    """A hand-built position: ``hands`` per seat, ``top`` discard over ``under``; the draw
    pile is ``draw`` (every unused card, top first, when None)."""
    s = GAME.new(len(hands), seed=3)
    s.hands = [h.split() for h in hands]
    used = {c for h in s.hands for c in h} | {top} | set(under.split())
    rest = [c for c in STANDARD_DECK if c not in used]
    if draw is None:
        s.draw_pile = rest
        s.discard = [*under.split(), top]
    else:
        s.draw_pile = draw.split()
        s.discard = [c for c in rest if c not in s.draw_pile] + under.split() + [top]
    s.suit = fields.pop("suit", top[1])
    s.current = fields.pop("current", 0)
    s.announced = fields.pop("announced", [True] * len(hands))
    s.crank, s.direction, s.out, s.skipped = 0, 1, None, [0] * len(hands)
    for key, value in fields.items():
        setattr(s, key, value)
    s.events = []
    GAME._refresh(s)
    assert len({*s.draw_pile, *s.discard, *(c for h in s.hands for c in h)}) == 52
    return s


def kinds(s: CraitsState) -> list[str]:
    return [e["type"] for e in s.events]


def play(s: CraitsState, seat: int, action: str) -> CraitsState:
    return GAME.apply(s, seat, action)


# -- dealing and the turned-up card ----------------------------------------------------------

TWO = ["2S 3S 4S 5S 6S 7S 9S TS", "2D 3D 4D 5D 6D 7D 9D TD"]


def test_deal_one_at_a_time_from_the_left_of_the_dealer() -> None:
    s = GAME.new(2, deck=stacked_deck(TWO, "KH", "QH JH"))
    assert s.hands == [TWO[0].split(), TWO[1].split()]
    assert s.discard == ["KH"] and s.draw_pile[:2] == ["QH", "JH"] and len(s.draw_pile) == 35
    assert (s.round_no, s.dealer, s.current, s.suit, s.crank) == (1, 0, 1, "H", 0)
    assert s.to_act == (1,)
    assert s.events[:2] == [
        {"type": "deal", "round_no": 1, "dealer": 0, "size": 8},
        {"type": "turn_up", "seat": 0, "card": "KH"},
    ]


@pytest.mark.parametrize(
    ("top", "counts", "current", "extra"),
    [
        ("JH", [8, 8, 8], 1, {}),
        ("AH", [8, 8, 8], 1, {}),
        ("2H", [8, 8, 8], 1, {"crank": 2}),
        ("4H", [8, 8, 8], 2, {}),
        ("5H", [8, 9, 9], 1, {}),
        ("6H", [8, 8, 8], 0, {}),
        ("7H", [8, 9, 8], 1, {}),
        ("8H", [8, 8, 8], 1, {"suit": "H"}),
        ("9H", [8, 8, 8], 1, {"suit": "H"}),
        ("TH", [8, 8, 8], 2, {"direction": -1}),
    ],
)
def test_turned_card_is_the_dealers_first_play(
    top: str, counts: list[int], current: int, extra: dict[str, Any]
) -> None:
    hands = ["2S 3S 4S 5S 6S 7S 9S TS", "2D 3D 4D 5D 6D 7D 9D TD", "2C 3C 4C 5C 6C 7C 9C TC"]
    s = GAME.new(3, deck=stacked_deck(hands, top))
    assert [len(h) for h in s.hands] == counts
    assert s.current == current
    for key, value in extra.items():
        assert getattr(s, key) == value


def test_turned_four_with_two_players_gives_the_dealer_the_first_turn() -> None:
    s = GAME.new(2, deck=stacked_deck(TWO, "4H"))
    assert s.current == 0
    assert {"type": "skip", "seat": 1, "reason": "four"} in s.events


# -- ordinary turns ----------------------------------------------------------------------------


def test_legal_plays_match_suit_or_rank_or_are_eights() -> None:
    s = position(["7C 2H KH 8S 9D 3C", "QD"], "7H")
    assert GAME.legal_actions(s, 0) == [
        "play 8S as S", "play 8S as H", "play 8S as D", "play 8S as C",
        "play 2H", "play KH", "play 7C",
    ]
    assert GAME.legal_actions(s, 1) == []


def test_a_card_that_does_not_match_is_refused_with_the_reason() -> None:
    s = position(["9D 3C", "QD"], "7H")
    before = GAME.dumps(s)
    assert_refused(GAME, s, 0, "play 9D", r"^Play a heart or a 7, or an 8\.$")
    assert_refused(GAME, s, 0, "play 5H", "do not hold")
    s2 = position(["AD 3C", "QD"], "8H", suit="S")
    assert_refused(GAME, s2, 0, "play AD", r"^Play a spade, or an 8\.$")
    assert GAME.dumps(s) == before


def test_draw_only_when_you_cannot_play_and_drawing_ends_the_turn() -> None:
    s = position(["7H 3C", "QD 4S"], "KH", draw="5C 6C")
    assert_refused(GAME, s, 0, "draw", "only draw when you cannot play")
    s = position(["9D 3C", "QD 4S"], "KH", draw="5C 6C")
    assert GAME.legal_actions(s, 0) == ["draw"]
    s = play(s, 0, "draw")
    assert s.hands[0] == ["9D", "3C", "5C"] and s.current == 1
    assert {"type": "draw", "seat": 0, "count": 1, "reason": "turn"} in s.events


def test_empty_draw_pile_reshuffles_the_discards_but_the_top() -> None:
    s = position(["9D 3C", "QD 4S"], "KH", draw="", under="")
    assert len(s.discard) == 48
    s = play(s, 0, "draw")
    assert s.discard == ["KH"] and len(s.draw_pile) == 46 and len(s.hands[0]) == 3
    assert kinds(s)[:2] == ["reshuffle", "draw"]
    again = play(position(["9D 3C", "QD 4S"], "KH", draw="", under=""), 0, "draw")
    assert again.draw_pile == s.draw_pile, "the reshuffle is seeded"


def test_nothing_to_draw_passes_the_turn() -> None:
    hands = [" ".join(STANDARD_DECK[:26]), " ".join(c for c in STANDARD_DECK[26:] if c != "KD")]
    s = position(hands, "KD", draw="", suit="D")
    s.hands[0] = [c for c in s.hands[0] if c[1] != "D" and c[0] not in "8K"]
    s.draw_pile = []
    s.discard = ["KD"]
    s = play(s, 0, "draw")
    assert s.current == 1
    assert {"type": "draw", "seat": 0, "count": 0, "reason": "turn"} in s.events


# -- powers ------------------------------------------------------------------------------------


def test_eight_must_name_a_suit_and_that_suit_is_followed() -> None:
    s = position(["8H KC 3C", "QS 4D 5C"], "7D")
    assert_refused(GAME, s, 0, "play 8H", r"^Name a suit: play 8H as S$")
    s = play(s, 0, "play 8h as spades")
    assert (s.suit, s.discard[-1], s.current) == ("S", "8H", 1)
    assert {"type": "play", "seat": 0, "card": "8H", "suit": "S", "last": False} in s.events
    assert GAME.legal_actions(s, 1) == ["play QS"]


def test_nine_may_switch_to_its_colour_mate_only() -> None:
    s = position(["9H KC 3C", "QD 4H KS"], "7H")
    with pytest.raises(
        IllegalAction, match=r"^A 9 can only switch to the other suit of its colour: diamonds$"
    ):
        play(s, 0, "play 9H as S")
    assert GAME.parse_action("play 9h as h") == "play 9H"
    assert "play 9H as D" in GAME.legal_actions(s, 0)
    switched = play(s, 0, "play 9H as D")
    assert switched.suit == "D" and GAME.legal_actions(switched, 1) == ["play QD"]
    kept = play(s, 0, "play 9H")
    assert kept.suit == "H" and GAME.legal_actions(kept, 1) == ["play 4H"]
    assert_refused(GAME, s, 0, "play KC as S", "Only an 8")


def test_four_skips_the_next_player() -> None:
    s = position(["4H KC 3C", "QD 4S", "JS 5S"], "7H")
    s = play(s, 0, "play 4H")
    assert s.current == 2
    assert {"type": "skip", "seat": 1, "reason": "four"} in s.events


def test_five_makes_every_other_player_draw() -> None:
    s = position(["5H KC 3C", "QD 4S", "JS 5S"], "7H")
    s = play(s, 0, "play 5H")
    assert [len(h) for h in s.hands] == [2, 3, 3] and s.current == 1


def test_six_plays_again_and_then_draws_if_it_cannot_play() -> None:
    s = position(["6H 6C 3D", "QD 4S"], "7H", draw="KD")
    s = play(s, 0, "play 6H")
    assert s.current == 0 and "again" in kinds(s)
    s = play(s, 0, "play 6C last")
    assert s.current == 0 and GAME.legal_actions(s, 0) == ["draw"]
    s = play(s, 0, "draw")
    assert s.current == 1 and s.hands[0] == ["3D", "KD"]


def test_seven_makes_the_next_player_draw_then_play_normally() -> None:
    s = position(["7C KC 3C", "QD 4S"], "7H", draw="JC")
    s = play(s, 0, "play 7C")
    assert s.hands[1] == ["QD", "4S", "JC"] and s.current == 1
    assert GAME.legal_actions(s, 1) == ["play JC"]


def test_ten_reverses_direction() -> None:
    s = position(["TH KC 3C", "QD 4S", "JS 5S"], "7H")
    s = play(s, 0, "play TH")
    assert (s.direction, s.current) == (-1, 2)
    s2 = position(["TH KC 3C", "QD 4S"], "7H")
    s2 = play(s2, 0, "play TH")
    assert s2.current == 1, "no effect on the order with two players"


# -- the crank ---------------------------------------------------------------------------------


def test_crank_counts_aces_and_twos_and_the_first_who_cannot_draws_the_count() -> None:
    s = position(["2H KC 3C", "AS QD 4S", "2C JS 5S"], "7H", draw="6D 6S 7S 7C 9C 9S")
    s = play(s, 0, "play 2H")
    assert (s.crank, s.current) == (2, 1)
    assert GAME.legal_actions(s, 1) == ["play AS"]
    assert_refused(GAME, s, 1, "play QD", r"crank is on \(count 2\)")
    s = play(s, 1, "play AS")
    assert (s.crank, s.current) == (3, 2)
    s = play(s, 2, "play 2C")
    assert (s.crank, s.current) == (5, 0)
    assert GAME.view(s, 0)["phase"] == "crank"
    assert GAME.legal_actions(s, 0) == ["draw"]
    s = play(s, 0, "draw")
    assert len(s.hands[0]) == 7 and s.crank == 0 and s.current == 1
    assert {"type": "crank_end", "seat": 0, "count": 5, "drew": 5} in s.events
    assert s.suit == "C" and s.discard[-1] == "2C"
    assert GAME.legal_actions(s, 1) == ["draw"], "the crank is over: match the 2C as usual"


def test_crank_draws_only_what_there_is() -> None:
    s = position(["2H KC 3C", "QD 4S"], "7H", draw="6D", under="")
    s.discard = ["7H"]
    s.draw_pile = ["6D"]
    rest = [c for c in STANDARD_DECK if c not in {"2H", "KC", "3C", "QD", "4S", "7H", "6D"}]
    s.hands[0] += rest
    s = play(s, 0, "play 2H")
    s = play(s, 1, "draw")
    assert s.events[-2] == {"type": "draw", "seat": 1, "count": 2, "reason": "crank"}
    assert "reshuffle" in kinds(s)


# -- last card ---------------------------------------------------------------------------------


def test_play_last_announces() -> None:
    s = position(["KH 3C", "QD 4S 5S", "JS 5C"], "7H")
    s = play(s, 0, "play KH last")
    assert s.announced[0] and s.to_act == (1,)
    assert {"type": "play", "seat": 0, "card": "KH", "suit": "H", "last": True} in s.events
    assert_refused(GAME, s, 1, "callout 0", "already announced")


def test_unannounced_last_card_can_be_called_out_by_any_opponent() -> None:
    s = position(["KH 3C", "QD 4S 5S", "JS 5C"], "7H", announced=[False] * 3)
    s = play(s, 0, "play KH")
    assert s.to_act == (1, 2, 0)
    assert GAME.legal_actions(s, 0) == ["announce"]
    assert GAME.legal_actions(s, 2) == ["callout 0"]
    assert GAME.legal_actions(s, 1)[-1] == "callout 0"
    assert_refused(GAME, s, 2, "play JS", "not your turn")
    caught = play(s, 2, "callout 0")
    assert len(caught.hands[0]) == 3 and caught.skipped[0] == 1 and caught.current == 1
    assert caught.to_act == (1,)
    assert kinds(caught) == ["callout", "draw"]
    assert_refused(GAME, caught, 1, "callout 0", "holds 3 cards")
    # The seat on turn calls out without using its turn; the caught player loses a turn.
    by_turn = play(s, 1, "callout 0")
    assert by_turn.current == 1 and GAME.legal_actions(by_turn, 1) == ["draw"]
    passed = play(by_turn, 1, "draw")
    assert passed.current == 2
    passed = play(passed, 2, "draw")
    assert passed.current == 1 and passed.skipped[0] == 0
    assert {"type": "skip", "seat": 0, "reason": "callout"} in passed.events


def test_announcing_before_a_callout_is_safe() -> None:
    s = position(["KH 3C", "QD 4S 5S"], "7H", announced=[False] * 2)
    s = play(s, 0, "play KH")
    s = play(s, 0, "announce")
    assert s.announced[0] and s.to_act == (1,)
    assert_refused(GAME, s, 1, "callout 0", "already announced")
    alone = position(["KH", "QD 4S 5S"], "7H", announced=[False] * 2)
    assert_refused(GAME, alone, 0, "callout 0", "call yourself out")
    three = position(["KH 5H 3C", "QD"], "7H")
    assert_refused(GAME, three, 0, "play KH last", "only with a play that leaves you one card")


# -- end of round and scoring ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("3C 2H 8S", 20), ("3C 3D", -100), ("3C", -50), ("3C 3D KH", -50),
        ("AS 2S 4S 5S 6S 7S 8S 9S TS JS QS KS", 251), ("", 0), ("3C KH QH", 10),
    ],
)
def test_hand_score(hand: str, points: int) -> None:
    assert hand_score(hand.split())[0] == points


def test_going_out_scores_the_round_and_deals_the_next() -> None:
    s = position(["KH", "QD 3C 8S", "JS 2C"], "7H")
    s = play(s, 0, "play KH")
    rnd = next(e for e in s.events if e["type"] == "round")
    assert rnd["points"] == [0, 10, 30] and s.scores == [0, 10, 30]
    assert rnd["hands"][1] == {"cards": ["8S", "QD", "3C"], "cancelled": ["8S"], "points": 10}
    assert s.round_scores == [[0, 10, 30]]
    assert (s.round_no, s.dealer) == (2, 1)
    assert [len(h) for h in s.hands] == [7, 7, 7]
    assert {"type": "turn_up", "seat": 1, "card": s.discard[0]} in s.events
    assert kinds(s)[:4] == ["play", "out", "round", "deal"]


def test_last_card_seven_still_makes_the_next_player_draw() -> None:
    s = position(["7C", "QD", "JS"], "7H", draw="KD")
    s = play(s, 0, "play 7C")
    rnd = next(e for e in s.events if e["type"] == "round")
    assert rnd["points"] == [0, 20, 10]


def test_last_card_two_runs_the_crank_before_scoring() -> None:
    s = position(["2H", "AS QD", "KS"], "7H", draw="6D 6S 7S")
    s = play(s, 0, "play 2H")
    assert s.round_no == 1 and s.out == 0 and s.crank == 2 and s.current == 1
    s = play(s, 1, "play AS")
    assert s.current == 2 and s.crank == 3
    s = play(s, 2, "draw")
    rnd = next(e for e in s.events if e["type"] == "round")
    assert rnd["points"] == [0, 10, 10 + 30 + 30 + 20] and rnd["out"] == 0


def test_closing_crank_passes_over_empty_hands_and_can_end_with_nobody_drawing() -> None:
    s = position(["2H", "AS"], "7H")
    s = play(s, 0, "play 2H")
    s = play(s, 1, "play AS")
    rnd = next(e for e in s.events if e["type"] == "round")
    assert rnd["points"] == [0, 0]
    assert {"type": "crank_end", "seat": None, "count": 3, "drew": 0} in s.events
    s = position(["2H", "AS KD", "QS"], "7H")
    s = play(s, 0, "play 2H")
    s = play(s, 1, "play AS last")
    assert s.current == 2
    s = play(s, 2, "draw")
    assert s.round_scores[-1][0] == 0


def test_game_ends_after_the_last_round() -> None:
    s = position(["KH", "QD"], "7H", round_no=8, options={"short": True},
                 round_scores=[[0, 0]] * 7, scores=[5, 9])
    s = play(s, 0, "play KH")
    assert s.is_over and s.to_act == ()
    assert s.events[-1] == {"type": "game_over", "scores": [5, 19], "ranks": [1, 2]}
    assert GAME.outcome(s).ranks == (1, 2)
    assert GAME.view(s, None)["phase"] == "over"


def test_a_single_card_dealt_needs_no_announcement() -> None:
    s = position(["KH", "QD"], "7H", round_no=7, round_scores=[[0, 0]] * 6, scores=[0, 0])
    s = play(s, 0, "play KH")
    assert s.round_no == 8 and all(len(h) == 1 for h in s.hands)
    assert s.announced == [True, True] and len(s.to_act) == 1


def test_a_callout_during_a_turn_in_progress_costs_the_next_turn_not_this_one() -> None:
    s = position(["6H 5H", "QD 4S 2C"], "7H", draw="KC QC JC 9S")
    s = play(s, 0, "play 6H")
    assert s.current == 0 and s.to_act == (0, 1)
    s = play(s, 1, "callout 0")
    assert s.hands[0] == ["5H", "KC", "QC"] and s.current == 0 and s.skipped == [1, 0]
    s = play(s, 0, "play 5H")
    assert s.current == 1 and s.skipped == [1, 0]
    s = play(s, 1, "draw")
    assert s.current == 1 and s.skipped == [0, 0]
