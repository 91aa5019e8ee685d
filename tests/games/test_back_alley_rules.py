"""Back Alley rules, one hand-built scenario per rule, decks stacked with ``deck=``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.back_alley import GAME
from games.back_alley.rules import PATTERN, deal_points, leader_of, team_contract
from games.back_alley.state import BackAlleyState
from games.cards import RANKS
from tests.games.support import assert_refused, stacked


def suit(s: str, ranks: str = RANKS) -> list[str]:
    return [r + s for r in ranks]


# One suit per seat; the Big Blooper turned (no trumps), the Little one undealt.
BY_SUIT = stacked(GAME, [suit("S"), suit("H"), suit("D"), suit("C")], ["BJ", "LJ"])

# Spades are trumps (2S turned, 3S below it).
TRUMPS = stacked(
    GAME,
    [
        ["7S", "6S", "5S", "4S", "5D", "4D", "3D", "2D", "6C", "5C", "4C", "3C", "2C"],
        ["BJ", "AS", "KS", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H"],
        ["LJ", "QS", "JS", "TS", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"],
        ["9S", "8S", "4H", "3H", "2H", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"],
    ],
    ["2S", "3S"],
)


def run(state: BackAlleyState, *moves: str) -> BackAlleyState:
    """Apply moves in turn order (each by the seat to act)."""
    for move in moves:
        state = GAME.apply(state, state.to_act[0], move)
    return state


def play_out(state: BackAlleyState) -> BackAlleyState:
    """Finish the current deal with everyone playing their first legal card."""
    deal_no = state.deal_no
    while not state.is_over and state.deal_no == deal_no:
        seat = state.to_act[0]
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def events(state: BackAlleyState, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]


# -- dealing ---------------------------------------------------------------------------


def test_deal_one_at_a_time_from_left_of_dealer_then_turn_trumps() -> None:
    s = GAME.new(4, deck=TRUMPS)
    assert s.hand_size == 13 and s.dealer == 0 and s.deal_no == 1
    assert sorted(s.hands[1]) == sorted(["BJ", "AS", "KS", *suit("H", "AKQJT98765")])
    assert s.turned == "2S" and s.trump == "S" and s.stock == ["3S"]
    assert s.to_act == (1,) and s.phase == "bidding"
    assert events(s, "deal") == [
        {"type": "deal", "deal_no": 1, "dealer": 0, "hand_size": 13, "turned": "2S",
         "trump": "S"}
    ]
    view = GAME.view(s, 1)
    assert view["hand"][:3] == ["BJ", "AS", "KS"]
    assert view["trump"] == "S" and view["turned"] == "2S"


def test_hand_sizes_and_dealers_follow_the_pattern() -> None:
    assert PATTERN == (13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                       2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
    s = GAME.new(4, seed=3, options={"deals": 3})
    seen = []
    while not s.is_over:
        if s.phase == "bidding" and s.bids == [None] * 4:
            seen.append((s.deal_no, s.hand_size, s.dealer, len(s.stock)))
        seat = s.to_act[0]
        legal = GAME.legal_actions(s, seat)
        s = GAME.apply(s, seat, "bid 1" if "bid 1" in legal else legal[0])
    assert seen == [(1, 13, 0, 1), (2, 12, 1, 5), (3, 11, 2, 9)]


def test_turned_joker_means_no_trumps_and_the_other_joker_is_swapped() -> None:
    hands = [suit("S"), suit("H"), ["LJ", *suit("D", "AKQJT98765432"[:12])], suit("C")]
    s = GAME.new(4, deck=stacked(GAME, hands, ["BJ", "2D"]))
    assert s.trump is None and s.turned == "BJ" and s.discarded == "LJ"
    assert sorted(s.hands[2]) == sorted(suit("D")) and s.stock == []
    assert events(s, "joker_swap") == [{"type": "joker_swap", "seat": 2, "card": "LJ"}]
    assert "2D" not in json.dumps(s.events)
    assert "2D" not in json.dumps(GAME.view(s, None)) and "2D" in GAME.view(s, 2)["hand"]


def test_turned_joker_with_the_other_undealt_swaps_nothing() -> None:
    s = GAME.new(4, deck=BY_SUIT)
    assert s.trump is None and s.discarded is None and s.stock == ["LJ"]
    assert events(s, "joker_swap") == []


# -- bidding ---------------------------------------------------------------------------


def test_bids_go_from_one_to_hand_size_minus_one() -> None:
    s = GAME.new(4, deck=TRUMPS)
    assert GAME.legal_actions(s, 1) == ["pass", *(f"bid {n}" for n in range(1, 13)), "board"]
    assert_refused(GAME, s, 1, "bid 13", "a bid is 1 to 12")
    assert_refused(GAME, s, 1, "play AH", "time to bid")
    assert_refused(GAME, s, 2, "bid 3", "not your turn")
    s = run(s, "BID  4", "0", "pass", "bid 12")
    assert s.bids == [12, 4, 0, 0]
    assert GAME.view(s, None)["bids"] == [12, 4, "pass", "pass"]
    assert [e["bid"] for e in events(s, "bid")] == [12]


def test_board_claims_multiply_in_order_and_the_last_claimant_leads() -> None:
    s = run(GAME.new(4, deck=BY_SUIT), "board", "board", "board", "board")
    assert s.boards == [4, 1, 2, 3]
    assert GAME.view(s, None)["bids"] == ["board x4", "board x1", "board x2", "board x3"]
    assert s.leader == 0 and s.to_act == (0,)
    assert GAME.view(s, None)["contracts"] == [{"tricks": 13, "board": 4},
                                               {"tricks": 13, "board": 3}]


def test_all_pass_redeals_the_same_size_by_the_next_dealer() -> None:
    s = run(GAME.new(4, seed=9, deck=TRUMPS), "pass", "pass", "pass", "pass")
    assert [e["type"] for e in s.events][-3:-1] == ["bid", "redeal"]
    assert s.deal_no == 1 and s.hand_size == 13 and s.dealer == 1 and s.to_act == (2,)
    assert s.phase == "bidding" and s.bids == [None] * 4 and s.shuffles == 2
    assert s.hands[1] != GAME.new(4, deck=TRUMPS).hands[1]


def test_leader_is_highest_numeric_bid_earliest_on_ties() -> None:
    assert leader_of([4, 4, 4, 4], [0, 0, 0, 0], dealer=0) == 1
    assert leader_of([4, 4, 4, 4], [0, 0, 0, 0], dealer=2) == 3
    assert leader_of([2, 5, 0, 5], [0, 0, 0, 0], dealer=1) == 3
    assert leader_of([9, 5, 0, 0], [0, 1, 0, 0], dealer=0) == 1
    s = run(GAME.new(4, deck=BY_SUIT), "bid 4", "bid 4", "bid 4", "bid 4")
    assert s.leader == 1 and s.to_act == (1,)


def test_team_contracts() -> None:
    assert team_contract([3, 2, 4, None], [0, 0, 0, 0], 0) == (7, 0)
    assert team_contract([3, 2, 4, 0], [0, 0, 0, 1], 1) == (0, 1)
    assert team_contract([0, 2, 0, 0], [1, 0, 3, 0], 0) == (0, 3)


# -- play --------------------------------------------------------------------------------


def test_trumps_cannot_be_led_before_one_is_played() -> None:
    s = run(GAME.new(4, deck=TRUMPS), "bid 3", "bid 2", "pass", "pass")
    assert s.to_act == (1,)
    assert GAME.legal_actions(s, 1) == ["play " + c for c in suit("H", "AKQJT98765")]
    assert_refused(GAME, s, 1, "play AS", "Trumps cannot be led yet")
    assert_refused(GAME, s, 1, "play bj", "Trumps cannot be led yet")


def test_follow_suit_ruff_and_trump_lead_once_a_trump_was_played() -> None:
    s = run(GAME.new(4, deck=TRUMPS), "bid 3", "bid 2", "pass", "pass", "play AH")
    assert len(GAME.legal_actions(s, 2)) == 13  # void in hearts: anything
    s = run(s, "play TS")
    assert s.trump_played
    assert_refused(GAME, s, 3, "play AC", "You must follow hearts")
    assert GAME.legal_actions(s, 3) == ["play 4H", "play 3H", "play 2H"]
    s = run(s, "play 2h", "play 2C")
    assert events(s, "trick") == [{"type": "trick", "seat": 2,
                                   "cards": ["AH", "TS", "2H", "2C"]}]
    assert s.tricks == [0, 0, 1, 0] and s.to_act == (2,) and s.last_trick[1] == [2, "TS"]
    # The Little Blooper leads: everyone plays their lowest trump.
    s = run(s, "play LJ")
    assert_refused(
        GAME, s, 3, "play 9S", "Little Blooper was led: you must play your lowest trump, the 8♠\\."
    )
    assert GAME.legal_actions(s, 3) == ["play 8S"]
    s = run(s, "play 8S", "play 4S")
    assert GAME.legal_actions(s, 1) == ["play KS"]
    s = run(s, "play KS")
    assert s.tricks == [0, 0, 2, 0] and s.to_act == (2,)
    # A trump lead: jokers follow trumps; the Big Blooper wins.
    s = run(s, "play QS")
    assert_refused(GAME, s, 3, "play AC", r"You must follow trumps \(spades\)")
    s = run(s, "play 9S", "play 5S")
    assert GAME.legal_actions(s, 1) == ["play BJ", "play AS"]
    s = run(s, "play BJ")
    assert s.tricks == [0, 1, 2, 0] and s.to_act == (1,)


def test_board_claimant_may_lead_trumps_and_big_blooper_draws_highest_trumps() -> None:
    s = run(GAME.new(4, deck=TRUMPS), "board", "pass", "pass", "pass")
    assert s.leader == 1
    assert "play BJ" in GAME.legal_actions(s, 1)
    s = run(s, "play BJ")
    assert_refused(
        GAME, s, 2, "play QS",
        "Big Blooper was led: you must play your highest trump, the Little🃏\\.",
    )
    s = run(s, "play LJ")
    assert GAME.legal_actions(s, 3) == ["play 9S"]
    s = run(s, "play 9S")
    assert GAME.legal_actions(s, 0) == ["play 7S"]
    s = run(s, "play 7S")
    assert s.tricks == [0, 1, 0, 0]


def test_player_without_trumps_plays_anything_on_a_blooper() -> None:
    hands = [
        ["BJ", *suit("S", "AKQJT98765")[:10], "AH", "KH"],
        suit("D"),
        ["LJ", "4S", "3S", "2S", *suit("H", "QJT98765"), "4H"],
        suit("C"),
    ]
    s = GAME.new(4, deck=stacked(GAME, hands, ["3H", "2H"]))
    assert s.trump == "H"
    s = run(s, "pass", "pass", "pass", "board")
    s = run(s, "play BJ")
    assert len(GAME.legal_actions(s, 1)) == 13
    s = run(s, "play 2D")
    assert GAME.legal_actions(s, 2) == ["play LJ"]


def test_leader_holding_only_trumps_may_lead_one() -> None:
    hands = [["BJ", "LJ", *suit("S", "AKQJT987654")], suit("H"), suit("D"), suit("C")]
    s = GAME.new(4, deck=stacked(GAME, hands, ["2S", "3S"]))
    s = run(s, "pass", "pass", "pass", "bid 12")
    assert s.to_act == (0,) and not s.trump_played
    assert len(GAME.legal_actions(s, 0)) == 13
    s = play_out(s)
    assert events(s, "deal_scored")[0]["teams"] == [
        {"contract": 12, "board": 0, "tricks": 13, "points": 61},
        {"contract": 0, "board": 0, "tricks": 0, "points": 0},
    ]


def test_illegal_plays_explain_and_change_nothing() -> None:
    s = run(GAME.new(4, deck=TRUMPS), "bid 3", "bid 2", "pass", "pass")
    assert_refused(GAME, s, 1, "play 2C", "don't hold the 2C")
    assert_refused(GAME, s, 1, "bid 3", "Bidding is over")
    assert_refused(GAME, s, 1, "play ZZ", "not a card")
    assert_refused(GAME, s, 0, "play 2C", "not your turn")
    assert GAME.apply(s, 1, " play  10 h ").trick == [[1, "TH"]]
    assert GAME.apply(s, 1, "ah").trick == [[1, "AH"]]


# -- scoring -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "board", "tricks", "size", "points"),
    [
        (4, 0, 4, 13, 20),     # made exactly: 5 × C
        (4, 0, 7, 13, 23),     # + 1 per extra trick
        (4, 0, 3, 13, -20),    # missed: −5 × C
        (0, 0, 5, 13, 5),      # contract 0: a point per trick
        (0, 0, 0, 13, 0),
        (0, 1, 6, 6, 60),      # board: +10 × size
        (0, 3, 6, 6, 180),     # triple board
        (0, 2, 5, 6, -120),    # failed double board
        (0, 4, 1, 1, 40),
    ],
)
def test_deal_points(contract: int, board: int, tricks: int, size: int, points: int) -> None:
    assert deal_points(contract, board, tricks, size) == points


def test_numeric_contracts_scored_after_a_deal_and_game_ends() -> None:
    s = run(GAME.new(4, deck=BY_SUIT, options={"deals": 1}), "bid 5", "bid 3", "pass", "bid 4")
    assert s.leader == 1
    s = play_out(s)
    assert s.tricks == [0, 13, 0, 0]
    assert events(s, "deal_scored") == [{
        "type": "deal_scored", "deal_no": 1, "scores": [-35, 33],
        "teams": [{"contract": 7, "board": 0, "tricks": 0, "points": -35},
                  {"contract": 5, "board": 0, "tricks": 13, "points": 33}],
    }]
    assert s.is_over and s.phase == "over"
    assert events(s, "game_over") == [{"type": "game_over", "scores": [-35, 33, -35, 33],
                                       "winner": 1}]
    outcome = GAME.outcome(s)
    assert outcome.scores == (-35, 33, -35, 33) and outcome.ranks == (2, 1, 2, 1)
    assert GAME.teams(4) == [0, 1, 0, 1]


def test_boards_scored_with_multipliers_and_next_deal_starts() -> None:
    s = run(GAME.new(4, deck=BY_SUIT), "board", "pass", "board", "bid 5")
    assert s.leader == 3
    s = play_out(s)
    assert [t["points"] for t in events(s, "deal_scored")[0]["teams"]] == [-25, 260]
    assert GAME.view(s, 0)["scores"] == [-25, 260, -25, 260]
    assert s.deal_no == 2 and s.hand_size == 12 and s.dealer == 1 and s.to_act == (2,)
    assert len(events(s, "deal")) == 1


def test_failed_board_loses() -> None:
    s = run(GAME.new(4, deck=TRUMPS, options={"deals": 1}), "pass", "pass", "pass", "board")
    s = play_out(s)
    team_b = s.tricks[1] + s.tricks[3]
    assert team_b > 0 and s.team_scores == [-130, team_b]


def test_equal_scores_are_a_draw() -> None:
    s = play_out(run(GAME.new(4, deck=BY_SUIT, options={"deals": 1}),
                     "bid 1", "pass", "pass", "pass"))
    s.team_scores = [7, 7]
    assert GAME.outcome(s).ranks == (1, 1, 1, 1)
