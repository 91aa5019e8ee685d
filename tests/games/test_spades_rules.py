"""Two-player Spades: hand-built scenarios for every rule and scoring line (RULES.md §2)."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import STANDARD_DECK
from games.spades import GAME as G
from games.spades.scoring import score_hand
from games.spades.state import SpadesState
from tests.games.support import assert_parsing, assert_refused

SPADES = [r + "S" for r in "23456789TJQKA"]
HEARTS = [r + "H" for r in "23456789TJQKA"]
DIAMONDS = [r + "D" for r in "23456789TJQKA"]
CLUBS = [r + "C" for r in "23456789TJQKA"]


def stacked(hand0: list[str], hand1: list[str]) -> list[str]:
    """A deck that gives these hands when both players keep every card (seat 0 first);
    the other 26 cards, in deck order, go face down."""
    rest = [c for c in STANDARD_DECK if c not in hand0 + hand1]
    deck: list[str] = []
    for i in range(13):
        deck += [hand0[i], rest[2 * i], hand1[i], rest[2 * i + 1]]
    return deck


def drafted(hand0: list[str], hand1: list[str], **options: Any) -> SpadesState:
    """A game whose first hand was drafted by keeping every card."""
    state: SpadesState = G.new(2, seed=3, options=options, deck=stacked(hand0, hand1))
    for _ in range(26):
        state = G.apply(state, state.to_act[0], "keep")
    return state


def bid(state: SpadesState, first: int, second: int) -> SpadesState:
    """Both bid: the second player (seat 1 in hand 1) first."""
    state = G.apply(state, 1, f"bid {second}")
    return G.apply(state, 0, f"bid {first}")


def play(state: SpadesState, *moves: tuple[int, str]) -> SpadesState:
    for seat, card in moves:
        state = G.apply(state, seat, f"play {card}")
    return state


def spades_take_all(state: SpadesState) -> SpadesState:
    """Seat 1 (all hearts) leads; seat 0 (all spades) ruffs and then leads spades."""
    state = play(state, (1, HEARTS[0]), (0, SPADES[0]))
    for i in range(1, 13):
        state = play(state, (0, SPADES[i]), (1, HEARTS[i]))
    return state


# -- draft ---------------------------------------------------------------------------


def test_keep_sends_the_next_card_face_down_unseen() -> None:
    deck = list(STANDARD_DECK)
    s0 = G.new(2, seed=1, deck=deck)
    assert s0.to_act == (0,) and s0.first_player == 0 and s0.phase == "draft"
    s1 = G.apply(s0, 0, "keep")
    assert s1.hands == [[deck[0]], []] and s1.discards == [deck[1]] and s1.face_up == []
    assert s1.events == [{"type": "keep", "seat": 0}]
    assert s1.to_act == (1,) and len(s1.stock) == 50
    for seat in (0, 1, None):
        view = G.view(s1, seat)
        assert deck[1] not in str(view) and view["face_up_discards"] == []


def test_discard_puts_the_top_card_face_up_and_takes_the_next() -> None:
    deck = list(STANDARD_DECK)
    s = G.apply(G.new(2, seed=1, deck=deck), 0, "discard")
    assert s.hands[0] == [deck[1]] and s.face_up == [deck[0]] and s.discards == [deck[0]]
    assert s.events == [{"type": "discard", "seat": 0, "card": deck[0]}]
    assert G.view(s, None)["face_up_discards"] == [deck[0]]
    assert deck[1] not in str(G.view(s, 1)) and deck[1] not in str(G.view(s, None))
    assert G.view(s, 0)["hand"] == [deck[1]]


def test_the_top_card_is_shown_to_the_drafter_only_and_not_before_blind_nil_is_decided() -> None:
    deck = list(STANDARD_DECK)
    s = G.new(2, seed=1, deck=deck)
    assert G.legal_actions(s, 0) == ["look", "keep", "discard", "blindnil"]
    assert G.view(s, 0)["drawn"] is None
    looked = G.apply(s, 0, "look")
    assert looked.events == [] and G.legal_actions(looked, 0) == ["keep", "discard"]
    assert G.view(looked, 0)["drawn"] == deck[0]
    assert G.view(looked, 1)["drawn"] is None and "drawn" not in G.view(looked, None)
    assert_refused(G, looked, 0, "look", "already see")
    assert_refused(G, looked, 0, "blindnil", "Too late")
    s = G.apply(looked, 0, "keep")
    assert G.view(s, 1)["drawn"] is None  # seat 1 has not decided about Blind Nil yet
    s = G.apply(s, 1, "look")
    assert G.view(s, 1)["drawn"] == deck[2] and G.view(s, 0)["drawn"] is None
    s = G.apply(G.apply(s, 1, "discard"), 0, "keep")
    assert G.legal_actions(s, 1) == ["keep", "discard"]  # seat 1's second pick: no look
    assert G.view(s, 1)["drawn"] == deck[6]


def test_without_blind_nil_the_top_card_is_shown_at_once() -> None:
    s = G.new(2, seed=1, options={"blind_nil": False}, deck=list(STANDARD_DECK))
    assert G.legal_actions(s, 0) == ["keep", "discard"]
    assert G.view(s, 0)["drawn"] == "AS"
    assert_refused(G, s, 0, "blindnil", "not played at this table")
    assert_refused(G, s, 0, "look", "already see")


def test_the_draft_alternates_until_each_player_has_13_cards() -> None:
    deck = list(STANDARD_DECK)
    s = G.new(2, seed=1, deck=deck)
    order = []
    for i in range(26):
        order.append(s.to_act[0])
        s = G.apply(s, s.to_act[0], "keep" if i % 3 else "discard")
    assert order == [0, 1] * 13
    assert [len(h) for h in s.hands] == [13, 13] and len(s.discards) == 26 and not s.stock
    assert sorted(s.hands[0] + s.hands[1] + s.discards) == sorted(deck)
    assert s.phase == "bid" and s.to_act == (1,)
    assert len(s.face_up) == 9 and G.view(s, None)["face_up_discards"] == s.face_up


def test_the_first_player_alternates_each_hand() -> None:
    s = drafted(SPADES, HEARTS)
    s = spades_take_all(bid(s, 13, 0))
    assert s.hand_no == 2 and s.first_player == 1 and s.to_act == (1,)
    assert s.phase == "draft" and s.hands == [[], []] and len(s.stock) == 52
    s = G.apply(s, 1, "keep")
    assert s.to_act == (0,)


# -- Blind Nil -----------------------------------------------------------------------


def test_blind_nil_is_declared_before_the_first_pick_and_fixes_the_bid() -> None:
    s = G.new(2, seed=1, deck=list(STANDARD_DECK))
    s = G.apply(s, 0, "blindnil")
    assert s.blind == [True, False] and s.events == [{"type": "blind_nil", "seat": 0}]
    assert G.view(s, None)["bids"] == ["blind nil", None]
    assert G.view(s, 0)["drawn"] == "AS" and G.legal_actions(s, 0) == ["keep", "discard"]
    assert_refused(G, s, 0, "blindnil", "Too late")
    s = G.apply(s, 0, "keep")
    s = G.apply(s, 1, "keep")
    assert_refused(G, s, 1, "blind nil", "not your turn")


def test_blind_nil_too_late_after_the_first_pick() -> None:
    s = G.apply(G.new(2, seed=1), 0, "discard")
    s = G.apply(s, 1, "keep")
    assert_refused(G, s, 0, "blindnil", "before you take your first card")


def test_blind_nil_exchange_second_player_first_then_bidding() -> None:
    s = G.new(2, seed=9, deck=stacked(SPADES, HEARTS))
    s = G.apply(s, 0, "blindnil")
    s = G.apply(s, 0, "keep")
    s = G.apply(s, 1, "blindnil")
    while s.phase == "draft":
        s = G.apply(s, s.to_act[0], "keep")
    assert s.phase == "exchange" and s.to_act == (1,)  # the second player first
    assert G.view(s, None)["bids"] == ["blind nil", "blind nil"]
    assert len(G.legal_actions(s, 1)) == 1 + 13 + 78 + 286
    assert_refused(G, s, 1, "exchange 2S", "do not hold 2S")
    assert_refused(G, s, 1, "exchange 2H 3H 4H 5H", "at most three")
    assert_refused(G, s, 1, "exchange 2H 2h", "only once")
    assert_refused(G, s, 1, "bid 3", "Blind Nil")
    pile = list(s.discards)
    s2 = G.apply(s, 1, "exchange ah KH 10h")
    assert s2.events == [{"type": "exchange", "seat": 1, "count": 3}]
    got = [c for c in s2.hands[1] if c not in HEARTS]
    assert len(got) == 3 and set(got) <= set(pile)
    assert {"AH", "KH", "TH"} <= set(s2.discards) and len(s2.discards) == 26
    assert not {"AH", "KH", "TH"} & set(s2.hands[1])
    assert s2.to_act == (0,) and G.view(s2, None)["exchanged"] == [None, 3]
    assert G.apply(s, 1, "exchange TH KH AH") == s2  # seeded and order-free
    s3 = G.apply(s2, 0, "exchange")
    assert s3.events == [{"type": "exchange", "seat": 0, "count": 0}]
    assert s3.hands[0] == s2.hands[0]
    assert s3.phase == "play" and s3.to_act == (1,)  # both bids fixed: no bidding


def test_one_blind_nil_player_exchanges_and_the_other_bids() -> None:
    s = G.new(2, seed=4, deck=stacked(SPADES, HEARTS))
    s = G.apply(s, 0, "keep")
    s = G.apply(s, 1, "blindnil")
    while s.phase == "draft":
        s = G.apply(s, s.to_act[0], "keep")
    assert s.phase == "exchange" and s.to_act == (1,)
    s = G.apply(s, 1, "exchange 2h")
    assert s.phase == "bid" and s.to_act == (0,)
    s = G.apply(s, 0, "bid 13")
    assert s.phase == "play" and s.bids == [13, 0] and s.blind == [False, True]


# -- bidding -------------------------------------------------------------------------


def test_bidding_second_player_first_with_clear_refusals() -> None:
    s = drafted(SPADES, HEARTS)
    assert s.phase == "bid" and s.to_act == (1,)
    assert G.legal_actions(s, 1) == [f"bid {n}" for n in range(14)]
    assert_refused(G, s, 1, "bid 14", "0 \\(Nil\\) to 13 tricks, not 14")
    assert_refused(G, s, 1, "bid", "how many")
    assert_refused(G, s, 1, "bid lots", "must be a number")
    assert_refused(G, s, 0, "bid 3", "second player bids first")
    assert_refused(G, s, 1, "play 2H", "after the bidding")
    assert_refused(G, s, 1, "keep", "draft is over")
    s = G.apply(s, 1, "BID  nil")
    assert s.bids == [None, 0] and s.events == [{"type": "bid", "seat": 1, "bid": 0}]
    assert_refused(G, s, 1, "bid 2", "already bid 0")
    s = G.apply(s, 0, "bid 12")
    assert s.phase == "play" and s.to_act == (1,) and G.view(s, 0)["bids"] == [12, 0]
    assert_refused(G, s, 0, "bid 3", "Bidding is closed")


def test_bid_during_the_draft_is_refused() -> None:
    s = G.new(2, seed=1)
    assert_refused(G, s, 0, "bid 3", "after the draft")
    assert_refused(G, s, 1, "bid 3", "after the draft")


# -- play ----------------------------------------------------------------------------


def mixed() -> SpadesState:
    hand0 = ["AS", "2S", "AH", "KH", "3H", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"]
    hand1 = ["KS", "3S", "4S", "QH", "2H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    return bid(drafted(hand0, hand1), 4, 3)


def test_follow_suit_and_spades_not_broken() -> None:
    s = mixed()
    assert s.to_act == (1,)  # the second player leads
    assert all(not a.endswith("S") for a in G.legal_actions(s, 1))
    assert_refused(G, s, 1, "play KS", "Spades are not broken yet")
    assert_refused(G, s, 1, "play AS", "do not hold AS")
    assert_refused(G, s, 1, "play", "Which card")
    s = play(s, (1, "2H"))
    assert G.legal_actions(s, 0) == ["play 3H", "play KH", "play AH"]
    assert_refused(G, s, 0, "play AD", "You must follow hearts")
    s = play(s, (0, "3H"))
    assert s.tricks == [1, 0] and s.to_act == (0,) and not s.spades_broken
    assert s.last_trick == {"plays": [[1, "2H"], [0, "3H"]], "winner": 0}
    assert s.events[-1] == {"type": "trick", "seat": 0, "plays": [[1, "2H"], [0, "3H"]]}
    assert G.view(s, None)["played"] == ["2H", "3H"]


def test_a_spade_on_an_unfollowable_trick_wins_and_breaks_spades() -> None:
    s = play(mixed(), (1, "2C"))
    assert len(G.legal_actions(s, 0)) == 13  # void in clubs: anything
    s = play(s, (0, "2S"))
    assert s.spades_broken and s.tricks == [1, 0]
    assert {"type": "spades_broken", "seat": 0} in s.events
    s = play(s, (0, "AS"), (1, "3S"))  # spades may now be led
    assert s.tricks == [2, 0]


def test_an_off_suit_discard_loses_to_the_led_suit() -> None:
    s = play(mixed(), (1, "2H"), (0, "AH"), (0, "AD"), (1, "2C"))
    assert s.tricks == [2, 0] and not s.spades_broken


def test_higher_card_of_the_led_suit_wins() -> None:
    s = play(mixed(), (1, "QH"), (0, "KH"))
    assert s.tricks == [1, 0]
    s = play(mixed(), (1, "QH"), (0, "3H"))
    assert s.tricks == [0, 1] and s.to_act == (1,)


def test_a_leader_holding_only_spades_may_lead_one_and_breaks_spades() -> None:
    s = bid(drafted(HEARTS, SPADES), 0, 13)
    assert s.to_act == (1,)
    assert G.legal_actions(s, 1) == ["play " + c for c in SPADES]
    s = play(s, (1, "2S"))
    assert s.spades_broken and {"type": "spades_broken", "seat": 1} in s.events
    s = play(s, (0, "AH"))
    assert s.tricks == [0, 1]


# -- scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid_", "blind", "tricks", "bags_before", "expected"),
    [
        (4, False, 4, 0, {"result": "made", "contract": 40, "bags": 0, "points": 40}),
        (4, False, 6, 0, {"result": "made", "contract": 40, "bags": 2, "points": 42}),
        (5, False, 4, 3, {"result": "missed", "contract": -50, "bags": 0, "points": -50}),
        (0, False, 0, 0, {"result": "nil made", "contract": 100, "points": 100}),
        (0, False, 3, 9, {"result": "nil failed", "bags": 0, "bags_total": 9, "points": -100}),
        (0, True, 0, 0, {"result": "blind nil made", "contract": 200, "points": 200}),
        (0, True, 1, 0, {"result": "blind nil failed", "contract": -200, "bags": 0}),
        (3, False, 5, 8, {"bags": 2, "bag_penalty": -100, "bags_total": 0, "points": -68}),
        (1, False, 13, 9, {"bags": 12, "bag_penalty": -200, "bags_total": 1, "points": -178}),
        (2, False, 3, 4, {"bags": 1, "bag_penalty": 0, "bags_total": 5, "points": 21}),
    ],
)
def test_score_lines(
    bid_: int, blind: bool, tricks: int, bags_before: int, expected: dict[str, Any]
) -> None:
    line = score_hand(bid_, blind, tricks, bags_before)
    assert {k: line[k] for k in expected} == expected
    assert line["points"] == line["contract"] + line["bags"] + line["bag_penalty"]
    assert line["bid"] == ("blind nil" if blind else bid_)


def test_a_whole_hand_is_scored_and_the_next_hand_dealt() -> None:
    s = spades_take_all(bid(drafted(SPADES, HEARTS), 10, 0))
    assert s.scores == [103, 100] and s.bags == [3, 0] and s.hand_no == 2
    scored = next(e for e in s.events if e["type"] == "hand_scored")
    assert scored["lines"][0] == {
        "seat": 0, "bid": 10, "tricks": 13, "result": "made", "contract": 100, "bags": 3,
        "bag_penalty": 0, "bags_total": 3, "points": 103, "score": 103,
    }
    assert scored["lines"][1]["result"] == "nil made"
    assert [e["type"] for e in s.events][-2:] == ["hand_scored", "hand_start"]
    assert G.view(s, None)["last_hand"] == scored["lines"]


def last_trick(scores: list[int], target: int) -> SpadesState:
    """Seat 1 leads the last trick of a hand bid 1–1 with one trick each so far."""
    s = bid(drafted(SPADES, HEARTS, target=target), 1, 1)
    s.hands = [["AS"], ["2H"]]
    s.tricks = [6, 6]
    s.scores = list(scores)
    s.spades_broken = True
    return s


def test_reaching_the_target_ends_the_game_highest_wins() -> None:
    s = play(last_trick([450, 480], 500), (1, "2H"), (0, "AS"))
    assert s.scores == [450 + 16, 480 + 15]
    assert s.hand_no == 2 and not s.is_over  # nobody at 500 yet
    s = play(last_trick([480, 495], 500), (1, "2H"), (0, "AS"))
    assert s.scores == [496, 510] and s.is_over and s.winner == 1 and s.phase == "over"
    assert s.events[-1] == {"type": "game_over", "seat": 1, "scores": [496, 510]}
    assert G.outcome(s).ranks == (2, 1) and G.legal_actions(s, 0) == []
    assert_refused(G, s, 0, "play AS", "over")


def test_a_tie_at_the_target_plays_another_hand() -> None:
    s = play(last_trick([495, 496], 500), (1, "2H"), (0, "AS"))
    assert s.scores == [511, 511] and not s.is_over and s.hand_no == 2
    s = play(last_trick([495, 300], 500), (1, "2H"), (0, "AS"))
    assert s.is_over and s.winner == 0


# -- parsing -------------------------------------------------------------------------


def test_tolerant_parsing() -> None:
    assert_parsing(
        G,
        {"  PLAY 10 h ": "play TH", "Blind Nil": "blindnil",
         "exchange qh 10s 2c": "exchange TS QH 2C", "exchange": "exchange", "bid NIL": "bid 0"},
        junk=("keep 2", "fold", "bid 3 4", "play ZZ", "blind", "bid -1"),
    )
