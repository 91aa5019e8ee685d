"""Gin Rummy rules, scenario by scenario, with stacked decks (RULES.md §1)."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.gin_rummy.scoring import final_totals
from games.gin_rummy.state import GinState
from games.melds import to_cards, to_mask
from tests.games.support import assert_refused, current, stacked

G: Any = games.get("gin_rummy")


def stack(h0: str, h1: str, up: str, stock: str = "") -> list[str]:
    """A deck dealing ``h0`` to seat 0 (the dealer) and ``h1`` to seat 1, then the upcard
    and the top of the stock; every other card follows in deck order."""
    a, b = h0.split(), h1.split()
    assert len(a) == len(b) == 10
    return stacked(G, [a, b], [up, *stock.split()])


def new(h0: str, h1: str, up: str, stock: str = "", target: int = 100) -> GinState:
    state: GinState = G.new(2, seed=1, options={"target": target}, deck=stack(h0, h1, up, stock))
    return state


def play(state: GinState, *moves: tuple[int, str]) -> GinState:
    for seat, action in moves:
        state = G.apply(state, seat, action)
    return state


def both_pass_then_draw(state: GinState) -> GinState:
    """Seat 1 passes, seat 0 passes, seat 1 draws from the stock."""
    return play(state, (1, "pass"), (0, "pass"), (1, "draw"))


def events(state: GinState, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]


JUNK0 = "KS QH JD 9C 7S 5D 3C AH 2D 4S"  # no meld, deadwood 1+2+3+4+5+7+9+30 = 61
JUNK1 = "KH QS JC 9D 7C 5H 3S AD 2C 4D"
JUNK2 = "KC QH JD 9C 8S 5D TC 2D 6C AC"  # 71
JUNK3 = "KH QD JS 8D 7C 6H 3D 2C 9H TD"  # 75


def test_deal_upcard_stock_and_first_offer() -> None:
    s = new(JUNK0, JUNK1, "6H", "8S 8D")
    assert sorted(s.hands[0]) == sorted(JUNK0.split())
    assert sorted(s.hands[1]) == sorted(JUNK1.split())
    assert s.discards == ["6H"] and s.stock[:2] == ["8S", "8D"] and len(s.stock) == 31
    assert s.dealer == 0 and s.to_act == (1,) and s.phase == "offer"
    assert s.events == [{"type": "new_hand", "hand_no": 1, "dealer": 0, "upcard": "6H"}]
    assert G.legal_actions(s, 1) == ["take", "pass"] and G.legal_actions(s, 0) == []
    v = G.view(s, None)
    assert v["hand_no"] == 1 and v["stock"] == 31 and v["discard_top"] == "6H"
    assert v["dealer"] == 0 and v["phase"] == "offer" and "hand" not in v


def test_non_dealer_takes_the_upcard_and_may_not_throw_it_back() -> None:
    s = play(new(JUNK0, JUNK1, "6H"), (1, "take"))
    assert s.phase == "discard" and s.to_act == (1,) and "6H" in s.hands[1]
    assert s.events == [{"type": "draw", "seat": 1, "source": "discard", "card": "6H"}]
    assert "discard 6H" not in G.legal_actions(s, 1)
    assert_refused(G, s, 1, "discard 6h", "just took")
    assert_refused(G, s, 1, "knock 6H", "just took")
    v = G.view(s, 0)
    assert v["taken"] == "6H" and v["known"] == [[], ["6H"]] and v["discard_top"] is None
    s = play(s, (1, "discard KH"))
    assert s.to_act == (0,) and s.phase == "draw" and s.discards == ["KH"]
    assert G.legal_actions(s, 0) == ["draw", "take"]


def test_both_pass_then_the_non_dealer_must_draw_from_the_stock() -> None:
    s = play(new(JUNK0, JUNK1, "6H", "8S"), (1, "pass"))
    assert s.to_act == (0,) and s.phase == "offer"
    s = play(s, (0, "pass"))
    assert s.to_act == (1,) and s.phase == "draw" and G.legal_actions(s, 1) == ["draw"]
    assert_refused(G, s, 1, "take", "draw from the stock")
    assert_refused(G, s, 1, "pass", "first upcard")
    s = play(s, (1, "draw"))
    assert "8S" in s.hands[1] and s.taken is None and len(s.stock) == 30
    assert s.events == [{"type": "draw", "seat": 1, "source": "stock"}]
    assert "8S" not in str(G.view(s, 0)) and "8S" not in str(G.view(s, None))


def test_dealer_may_take_the_refused_upcard_then_the_non_dealer_plays() -> None:
    s = play(new(JUNK0, JUNK1, "6H"), (1, "pass"), (0, "take"), (0, "discard KS"))
    assert s.to_act == (1,) and s.phase == "draw" and s.discards == ["KS"]
    assert G.view(s, 1)["known"] == [["6H"], []]


def test_turn_order_and_phase_errors() -> None:
    s = new(JUNK0, JUNK1, "6H")
    assert_refused(G, s, 0, "take", "not your turn")
    assert_refused(G, s, 1, "discard KH", "take or pass")
    s = both_pass_then_draw(s)
    assert_refused(G, s, 1, "draw", "drawn already")
    assert_refused(G, s, 1, "discard KS", "don't hold")
    assert_refused(G, s, 1, "knock", "Which card")
    assert_refused(G, s, 1, "meld", "Unknown move")
    s = play(s, (1, "discard kh"))
    assert_refused(G, s, 0, "discard KS", "Draw first")
    assert G.parse_action("Big Gin") == "biggin"


# Knocker (seat 1): 2H3H4H + 3S3D (run or set, deadwood 6 either way) + 9C..KC.
KNOCKER = "2H 3H 4H 3S 3D 9C TC JC QC KC"
# Defender (seat 0): 5H 6H would chain onto a 2H3H4H run; nothing else melds. 71 deadwood.
DEFENDER = "5H 6H KS QS JD TD 9S 8D 2S AC"


def test_knock_scores_the_difference_and_picks_the_arrangement_best_for_the_knocker() -> None:
    s = both_pass_then_draw(new(DEFENDER, KNOCKER, "7S", "KD"))
    assert "knock KD" in G.legal_actions(s, 1)
    s = play(s, (1, "knock KD"))
    last = s.last_hand
    assert last is not None
    # Showing 3S3H3D as a set leaves 5H 6H stranded (71) instead of laid off (60).
    assert last["melds"][1] == [["3S", "3H", "3D"], ["9C", "TC", "JC", "QC", "KC"]]
    assert last["deadwood"] == [to_cards(to_mask(DEFENDER.split())), ["2H", "4H"]]
    assert last["lay_offs"] == []
    assert last["deadwood_points"] == [71, 6]
    assert last["points"] == [0, 65] and last["result"] == "knock" and last["winner"] == 1
    assert s.scores == [0, 65] and s.hands_won == [0, 1]
    kinds = [e["type"] for e in s.events]
    assert kinds == ["knock", "lay_down", "hand_result", "new_hand"]
    assert "KD" not in str(s.events) and "KD" not in str(G.view(s, None))
    # The next hand is dealt by seat 1.
    assert s.hand_no == 2 and s.dealer == 1 and s.to_act == (0,) and s.phase == "offer"
    assert len(s.hands[0]) == len(s.hands[1]) == 10 and len(s.stock) == 31


def test_knock_needs_deadwood_of_ten_or_less() -> None:
    s = both_pass_then_draw(new(JUNK1, "AH 2H 3H 4C 5C 6C 8S 9S KD QD", "7S", "JH"))
    # Without KD the deadwood is 8S 9S QD JH = 37.
    assert_refused(G, s, 1, "knock KD", "deadwood would be 37")
    assert not [a for a in G.legal_actions(s, 1) if a.startswith("knock")]


def test_defender_lays_off_chains_at_both_ends_and_the_fourth_of_a_set() -> None:
    knocker = "4H 5H 6H 9S 9D 9C JC QC KC AS"
    defender = "2H 3H 7H 9H KS QD JS TD 8C 5S"
    s = both_pass_then_draw(new(defender, knocker, "6D", "KD"))
    s = play(s, (1, "knock KD"))
    last = s.last_hand
    assert last is not None
    laid = sorted((lo["cards"], lo["onto"]) for lo in last["lay_offs"])
    assert laid == [
        (["2H", "3H"], ["4H", "5H", "6H"]),
        (["7H"], ["4H", "5H", "6H"]),
        (["9H"], ["9S", "9D", "9C"]),
    ]
    assert last["deadwood_points"] == [53, 1] and last["points"] == [0, 52]
    lay = events(s, "lay_down")[0]
    assert lay["seat"] == 0 and lay["points"] == 53 and len(lay["lay_offs"]) == 3


def test_undercut_when_the_defender_is_strictly_lower() -> None:
    knocker = "4H 5H 6H 9S 9D 9C JC QC KC 8S"  # deadwood 8
    defender = "AD 2D 3D 7C 7S 7D TS JS QS 5C"  # deadwood 5
    s = play(both_pass_then_draw(new(defender, knocker, "6D", "KD")), (1, "knock KD"))
    last = s.last_hand
    assert last is not None and last["result"] == "undercut" and last["undercut"]
    assert last["points"] == [25 + 3, 0] and last["winner"] == 0
    assert s.scores == [28, 0] and s.hands_won == [1, 0]
    assert events(s, "hand_result")[0]["result"] == "undercut"


def test_equal_deadwood_scores_nothing_and_wins_nothing() -> None:
    knocker = "4H 5H 6H 9S 9D 9C JC QC KC 5S"  # deadwood 5
    defender = "AD 2D 3D 7C 7S 7D TS JS QS 5C"  # deadwood 5
    s = play(both_pass_then_draw(new(defender, knocker, "6D", "KD")), (1, "knock KD"))
    last = s.last_hand
    assert last is not None and last["result"] == "tie" and last["winner"] is None
    assert s.scores == [0, 0] and s.hands_won == [0, 0]


def test_gin_scores_25_and_allows_no_lay_offs() -> None:
    knocker = "4H 5H 6H 9S 9D 9C JC QC KC 2S"
    defender = "7H 8C KS QD JS TD 8D 5S AD 2D"  # 7H would lay off on a knock
    s = both_pass_then_draw(new(defender, knocker, "6D", "TC"))
    assert "knock 2S" in G.legal_actions(s, 1)
    s = play(s, (1, "knock 2S"))
    last = s.last_hand
    assert last is not None and last["result"] == "gin" and last["lay_offs"] == []
    d = 7 + 8 + 10 + 10 + 10 + 10 + 8 + 5 + 1 + 2
    assert last["deadwood_points"] == [d, 0] and last["points"] == [0, d + 25]
    assert sorted(events(s, "gin")[0]["melds"]) == [
        ["4H", "5H", "6H"], ["9S", "9D", "9C"], ["TC", "JC", "QC", "KC"],
    ]


def test_the_hand_that_fools_best_arrangement_minus_highest_goes_gin() -> None:
    hand = "3S 7S 2H 4S 5S 3H AH 7D 3C 7H"
    s = both_pass_then_draw(new(JUNK2, hand, "KD", "6S"))
    assert "knock 3C" in G.legal_actions(s, 1)
    s = play(s, (1, "knock 3C"))
    assert s.last_hand is not None and s.last_hand["result"] == "gin"
    assert s.scores == [0, 71 + 25]


def test_big_gin_scores_31_without_a_discard() -> None:
    knocker = "AS 2S 3S 4S 5D 5C 5H 9C TC JC"
    s = both_pass_then_draw(new(JUNK3, knocker, "KD", "5S", target=200))
    legal = G.legal_actions(s, 1)
    assert legal[-1] == "biggin"
    s = play(s, (1, "biggin"))
    last = s.last_hand
    assert last is not None and last["result"] == "big_gin"
    assert last["points"] == [0, 75 + 31] and sum(len(m) for m in last["melds"][1]) == 11
    assert events(s, "big_gin")[0]["deadwood"] == []


def test_big_gin_needs_eleven_melded_cards() -> None:
    s = both_pass_then_draw(new(JUNK0, JUNK1, "KD", "5S"))
    assert_refused(G, s, 1, "biggin", "all 11 cards")


def test_the_wall_is_a_draw() -> None:
    s = new(JUNK0, JUNK1, "6H")
    s = play(s, (1, "pass"), (0, "pass"))
    draws = 0
    while s.hand_no == 1:
        seat = s.to_act[0]
        top = s.stock[0]
        s = play(s, (seat, "draw"), (seat, f"discard {top}"))
        draws += 1
    assert draws == 29
    assert [e["type"] for e in s.events] == ["discard", "hand_result", "new_hand"]
    assert events(s, "hand_result")[0]["result"] == "wall"
    assert s.scores == [0, 0] and s.walls == 1 and s.hands_won == [0, 0]
    assert s.last_hand is not None and s.last_hand["result"] == "wall"
    assert s.dealer == 1 and s.to_act == (0,)


def test_shutout_game_over_and_bonuses() -> None:
    s = both_pass_then_draw(new(DEFENDER, KNOCKER, "7S", "KD", target=50))
    s = play(s, (1, "knock KD"))
    assert s.is_over and s.phase == "over" and s.to_act == ()
    assert s.final == {
        "reached": 1, "winner": 1, "totals": [0, 65], "game_bonus": 100, "shutout": True,
        "line_bonus": [0, 25], "final": [0, (65 + 100) * 2 + 25],
    }
    assert G.outcome(s).scores == (0, 355) and G.outcome(s).ranks == (2, 1)
    assert events(s, "game_over")[0]["final"] == [0, 355]
    assert_refused(G, s, 0, "draw", "over")


def test_a_drawn_hand_spoils_the_shutout() -> None:
    assert final_totals([120, 0], [3, 0], 4) == {
        "reached": 0, "winner": 0, "totals": [120, 0], "game_bonus": 100, "shutout": False,
        "line_bonus": [75, 0], "final": [295, 0],
    }
    assert final_totals([30, 104], [2, 3], 5)["final"] == [80, 279]


def test_line_bonuses_can_make_the_other_player_the_winner() -> None:
    """One winner everywhere: the player ranked first by the final totals, not the one who
    reached the target (issue: 'winner: 1' with final totals 395 vs 325)."""
    final = final_totals([100, 95], [0, 12], 12)
    assert final["final"] == [200, 95 + 12 * 25] and (final["reached"], final["winner"]) == (0, 1)
    assert final_totals([100, 100], [0, 4], 4)["winner"] is None  # 200 against 100 + 4 × 25


def test_target_option_is_validated() -> None:
    assert G.new(2).options == {"target": 100}
    for bad in (5, 5000, "lots"):
        with pytest.raises(ValueError, match="target"):
            G.new(2, options={"target": bad})


def test_known_cards_follow_discard_pickups() -> None:
    s = play(new(JUNK0, JUNK1, "6H"), (1, "take"), (1, "discard KH"), (0, "take"))
    assert G.view(s, None)["known"] == [["KH"], ["6H"]]
    s = play(s, (0, "discard KS"), (1, "draw"), (1, "discard 6H"))
    assert G.view(s, None)["known"] == [["KH"], []]
    assert G.view(s, None)["discards"] == ["KS", "6H"]


def test_knocking_with_a_picked_up_card_keeps_it_secret() -> None:
    # Seat 1 takes 4C (known), later knocks with it and wins: the knock names no card and
    # 4C leaves what the views say now; the history keeps the take the table saw.
    knocker = "4H 5H 6H 9S 9D 9C JC QC KC 2S"
    s = new("KH QS 8D 7C 2H 3D AD 2C TD 8H", knocker, "4C", "3S", target=50)
    s = play(s, (1, "take"), (1, "discard 2S"), (0, "draw"), (0, "discard 3S"), (1, "draw"))
    assert G.view(s, 0)["known"] == [[], ["4C"]]
    s = play(s, (1, "knock 4C"))
    assert s.face_down == "4C" and s.known == [[], []]
    spectator = G.view(s, None)
    assert "4C" not in str(current(spectator)) and "4C" not in str(s.events)
    taken = [e for e in spectator["history"] if e.get("card") == "4C"]
    assert taken == [{"type": "draw", "seat": 1, "source": "discard", "card": "4C"}]
