"""ONO 99 rules, one hand-built scenario per rule, decks stacked with ``deck=``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.base import rank_scores
from games.ono99 import GAME, scoring
from games.ono99.cards import parse_card
from games.ono99.state import OnoState
from tests.games.support import assert_parsing, assert_refused, stacked


def new(hands: Sequence[Sequence[str]], draws: Sequence[str] = (), **options: Any) -> OnoState:
    """A game dealing ``hands`` (seat 0 deals), with ``draws`` on top of the draw pile."""
    return GAME.new(len(hands), seed=3, options=options, deck=stacked(GAME, hands, draws))


def at(state: OnoState, total: int) -> OnoState:
    """The same position with the running total set (the player to act can still act)."""
    moved = state.clone()
    moved.total = total
    return moved


def play(state: OnoState, *moves: tuple[int, str]) -> OnoState:
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def kinds(state: OnoState) -> list[str]:
    return [e["type"] for e in state.events]


LOW = ["1", "2", "3", "4"]


# -- cards and set-up ------------------------------------------------------------------
def test_the_2022_deck_has_112_cards() -> None:
    counts = Counter(GAME.full_deck)
    assert len(GAME.full_deck) == 112
    assert counts["0"] == 8 and counts["10"] == 10
    assert all(counts[str(v)] == 6 for v in range(1, 10))
    assert all(counts[c] == 10 for c in ("REV", "-10", "P2", "ONO"))


@pytest.mark.parametrize(
    ("text", "code"),
    [("7", "7"), ("07", "7"), ("10", "10"), ("rev", "REV"), ("Reverse", "REV"),
     ("-10", "-10"), ("−10", "-10"), ("minus 10", "-10"), ("p2", "P2"), ("Play 2", "P2"),
     ("ono", "ONO"), ("ONO 99", "ONO")],
)
def test_cards_parse_tolerantly(text: str, code: str) -> None:
    assert parse_card(text) == code
    assert GAME.parse_card(text) == code


@pytest.mark.parametrize("text", ["11", "-5", "AS", "", "ono 98"])
def test_junk_is_not_a_card(text: str) -> None:
    with pytest.raises(ValueError, match="not an ONO 99 card"):
        parse_card(text)


def test_actions_parse_tolerantly() -> None:
    assert_parsing(
        GAME,
        {"  PLAY   reverse ": "play REV", "play minus 10": "play -10", "Play play 2": "play P2",
         "7": "play 7", "SWAP": "swap"},
        junk=("play", "play 11", "swap 4", "draw", "play 7 8"),
    )


def test_deal_four_each_from_the_dealers_left_who_starts() -> None:
    s = new([["0", "1", "2", "3"], ["4", "5", "6", "7"], ["8", "9", "10", "REV"]], ["P2"])
    assert s.hands == [["0", "1", "2", "3"], ["4", "5", "6", "7"], ["8", "9", "10", "REV"]]
    assert s.to_act == (1,) and s.total == 0 and s.direction == 1
    view = GAME.view(s, 1)
    assert view["draw_pile"] == 100 and view["hand_counts"] == [4, 4, 4]
    assert view["phase"] == "play" and view["must_play"] == 1
    assert s.events == [{"type": "deal", "round": 1, "dealer": 0}]


def test_an_unstacked_deal_is_seeded() -> None:
    assert GAME.new(4, seed=9) == GAME.new(4, seed=9)
    assert GAME.new(4, seed=9).hands != GAME.new(4, seed=10).hands


# -- a turn ----------------------------------------------------------------------------
def test_a_number_adds_its_value_then_the_top_card_is_drawn() -> None:
    s = new([LOW, ["5", "6", "7", "8"]], ["9", "10"])
    s = play(s, (1, "play 7"))
    assert s.total == 7 and s.hands[1] == ["5", "6", "8", "9"] and s.to_act == (0,)
    assert s.discard == ["7"]
    assert s.events == [
        {"type": "play", "seat": 1, "card": "7", "total": 7},
        {"type": "draw", "seat": 1, "source": "stock", "count": 1},
    ]
    s = play(s, (0, "play 4"))
    assert s.total == 11 and s.hands[0] == ["1", "2", "3", "10"] and s.to_act == (1,)


def test_the_total_must_stay_below_99() -> None:
    s = at(new([LOW, ["5", "6", "9", "REV"]]), 90)
    assert_refused(GAME, s, 1, "play 9", "That would make the total 99; it must stay below 99")
    assert GAME.legal_actions(s, 1) == ["play 5", "play 6", "play REV"]
    assert play(s, (1, "play 6")).total == 96


def test_you_can_only_play_what_you_hold_and_on_your_turn() -> None:
    s = new([LOW, ["5", "6", "7", "8"]])
    assert_refused(GAME, s, 1, "play 1", "You have no 1 card")
    assert_refused(GAME, s, 0, "play 1", "not your turn")
    assert_refused(GAME, s, 1, "swap", "four ONO 99")


def test_ono_can_never_be_played() -> None:
    s = new([LOW, ["5", "6", "7", "ONO"]])
    assert_refused(GAME, s, 1, "play ONO", "ONO 99 cards can never be played")
    assert "play ONO" not in GAME.legal_actions(s, 1)


def test_minus_ten_subtracts_and_stops_at_zero() -> None:
    s = at(new([LOW, ["-10", "-10", "7", "8"]]), 15)
    s = play(s, (1, "play -10"))
    assert s.total == 5
    s = play(s, (0, "play 1"), (1, "play -10"))
    assert s.total == 0


def test_negative_totals_option() -> None:
    s = new([LOW, ["-10", "6", "7", "8"]], negative_totals=True)
    assert play(s, (1, "play -10")).total == -10


def test_reverse_turns_play_around() -> None:
    s = new([LOW, ["REV", "6", "7", "8"], ["5", "6", "7", "8"]])
    s = play(s, (1, "play REV"))
    assert s.total == 0 and s.direction == -1 and s.to_act == (0,)
    assert {"type": "reverse", "seat": 1, "direction": -1} in s.events
    s = play(s, (0, "play 1"))
    assert s.to_act == (2,)


def test_reverse_with_two_players_is_just_a_zero() -> None:
    s = new([LOW, ["REV", "6", "7", "8"]])
    s = play(s, (1, "play REV"))
    assert s.direction == 1 and s.to_act == (0,) and "reverse" not in kinds(s)


# -- Play 2 ----------------------------------------------------------------------------
def test_play_two_makes_the_next_player_play_two_cards() -> None:
    s = new([LOW, ["P2", "6", "7", "8"], ["5", "6", "7", "8"]], ["0", "0", "0"])
    s = play(s, (1, "play P2"))
    assert s.to_act == (2,) and GAME.view(s, 2)["must_play"] == 2
    assert GAME.view(s, None)["phase"] == "play two"
    assert {"type": "play_two", "seat": 2, "by": 1, "passed_on": False} in s.events
    s = play(s, (2, "play 5"))
    assert s.to_act == (2,) and s.owed == 1 and s.total == 5
    s = play(s, (2, "play 6"))
    assert s.to_act == (0,) and s.owed == 1 and s.total == 11


@pytest.mark.parametrize("answer", ["P2", "REV"])
def test_play_two_is_passed_on_with_play_two_or_reverse(answer: str) -> None:
    s = new([LOW, ["P2", "6", "7", "8"], [answer, "6", "7", "8"]])
    s = play(s, (1, "play P2"), (2, "play " + answer))
    assert s.owed == 2
    assert s.to_act == ((1,) if answer == "REV" else (0,))
    assert {"type": "play_two", "seat": s.to_act[0], "by": 2, "passed_on": True} in s.events


def test_reverse_answers_play_two_with_two_players() -> None:
    s = new([["REV", "2", "3", "4"], ["P2", "6", "7", "8"]])
    s = play(s, (1, "play P2"), (0, "play REV"))
    assert s.to_act == (1,) and s.owed == 2 and s.direction == 1


def test_a_second_card_play_two_starts_a_new_obligation_and_reverse_only_turns() -> None:
    s = new([LOW, ["P2", "6", "7", "8"], ["5", "P2", "REV", "8"]])
    s = play(s, (1, "play P2"), (2, "play 5"), (2, "play P2"))
    assert s.to_act == (0,) and s.owed == 2
    s = new([LOW, ["P2", "6", "7", "8"], ["5", "P2", "REV", "8"]])
    s = play(s, (1, "play P2"), (2, "play 5"), (2, "play REV"))
    assert s.to_act == (1,) and s.owed == 1 and s.direction == -1


def test_failing_the_second_card_eliminates_and_the_next_is_not_forced() -> None:
    s = at(new([LOW, ["P2", "6", "7", "8"], ["9", "9", "9", "0"]], ["0", "9"]), 90)
    s = play(s, (1, "play P2"), (2, "play 0"))
    assert s.in_round == [True, True, False] and s.to_act == (0,) and s.owed == 1
    assert {"type": "eliminated", "seat": 2, "hand": ["9", "9", "9", "9"], "total": 90} in s.events


# -- elimination -----------------------------------------------------------------------
def test_a_player_who_cannot_play_is_eliminated_and_skipped() -> None:
    s = at(new([["1", "2", "3", "REV"], ["8", "7", "6", "5"], ["9", "10", "ONO", "9"]], ["9"]), 82)
    s = play(s, (1, "play 8"))
    assert kinds(s) == ["play", "draw", "eliminated", "out"]
    assert s.in_round == [True, True, False] and s.to_act == (0,) and s.total == 90
    view = GAME.view(s, None)
    assert view["eliminated"] == [False, False, True]
    assert view["revealed"] == [None, None, ["9", "9", "10", "ONO"]]
    assert view["scores"] == [1, 1, 0]
    s = play(s, (0, "play REV"))
    assert s.to_act == (1,)


def test_the_last_player_left_wins_and_later_eliminations_place_higher() -> None:
    s = at(new([["9", "9", "9", "10"], ["8", "7", "6", "5"], ["10", "10", "ONO", "9"]]), 82)
    s = play(s, (1, "play 8"))
    assert s.is_over and s.to_act == ()
    assert s.events[-1] == {"type": "game_over", "winners": [1], "ranks": [2, 1, 3]}
    outcome = GAME.outcome(s)
    assert outcome.scores == (1, 2, 0) and outcome.ranks == (2, 1, 3)
    assert GAME.view(s, 0)["phase"] == "over"


def test_the_last_player_to_play_wins_when_nobody_can_play() -> None:
    s = at(new([["9", "9", "9", "10"], ["8", "7", "6", "5"]]), 90)
    s = play(s, (1, "play 8"))
    assert s.is_over and GAME.outcome(s).ranks == (2, 1) and s.last_played == 1


# -- swapping four ONO 99 --------------------------------------------------------------
def test_four_ono_are_swapped_before_playing() -> None:
    ono = ["ONO"] * 4
    s = new([LOW, ono], ["5", "6", "7", "8"])
    assert GAME.legal_actions(s, 1) == ["swap"]
    s = play(s, (1, "swap"))
    assert s.hands[1] == ["5", "6", "7", "8"] and s.to_act == (1,) and s.discard == ono
    assert s.events == [
        {"type": "swap", "seat": 1},
        {"type": "draw", "seat": 1, "source": "stock", "count": 4},
    ]
    assert play(s, (1, "play 8")).to_act == (0,)


def test_a_swap_into_an_unplayable_hand_eliminates() -> None:
    s = at(new([LOW, ["5", "6", "7", "8"], ["ONO"] * 4], ["0", "10", "10", "10", "10"]), 85)
    s = play(s, (1, "play 5"))
    assert s.to_act == (2,) and GAME.legal_actions(s, 2) == ["swap"]
    s = play(s, (2, "swap"))
    assert s.in_round == [True, True, False] and s.to_act == (0,)


# -- the draw pile ---------------------------------------------------------------------
def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() -> None:
    s = new([LOW, ["5", "6", "7", "8"]])
    s.draw = s.draw[-1:]
    s.discard = ["0", "0"]
    s = play(s, (1, "play 5"), (0, "play 1"))
    assert "reshuffle" in kinds(s)
    assert s.total == 6 and s.shuffles == 2
    assert len(s.draw) + len(s.discard) == 3 - 1 + 2 - 1


# -- classic options -------------------------------------------------------------------
def test_ono_on_tens_plays_an_ono_once_a_turn_when_the_total_ends_in_zero() -> None:
    s = new([LOW, ["ONO", "ONO", "P2", "5"], ["ONO", "ONO", "5", "6"]], ono_on_tens=True)
    assert "play ONO" in GAME.legal_actions(s, 1)
    s = play(s, (1, "play P2"), (2, "play ONO"))
    assert s.total == 0 and s.to_act == (2,)
    assert_refused(GAME, s, 2, "play ONO", "Only one ONO 99 may be played a turn")
    s = play(s, (2, "play 5"), (0, "play 1"))
    assert_refused(GAME, s, 1, "play ONO", r"ends in zero \(it is 6\)")


STUCK = ["9", "9", "10", "ONO"]


def test_tokens_a_stuck_player_loses_a_token_and_a_new_round_is_dealt() -> None:
    s = at(new([LOW, ["8", "7", "6", "5"], STUCK], scoring="tokens"), 82)
    s = play(s, (1, "play 8"))
    assert kinds(s)[2:] == ["eliminated", "token_lost", "round_over", "deal"]
    assert s.events[2] == {"type": "eliminated", "seat": 2, "hand": STUCK, "total": 90}
    assert s.tokens == [3, 3, 2] and s.round_no == 2 and s.dealer == 1 and s.total == 0
    assert s.to_act == (2,) and all(len(h) == 4 for h in s.hands)
    assert GAME.view(s, None)["scores"] == [3, 3, 2]


def test_tokens_losing_with_no_tokens_left_puts_you_out() -> None:
    s = at(new([LOW, ["8", "7", "6", "5"], STUCK], scoring="tokens"), 82)
    s.tokens = [3, 3, 0]
    s = play(s, (1, "play 8"))
    assert {"type": "out", "seat": 2} in s.events
    assert s.left_at == [None, None, 0] and s.hands[2] == [] and s.to_act == (0,)
    assert s.in_round == [True, True, False] and GAME.view(s, None)["out"] == [False, False, True]
    s = at(new([STUCK, ["8", "7", "6", "5"]], scoring="tokens"), 90)
    s.tokens = [0, 1]
    s = play(s, (1, "play 8"))
    assert s.is_over and GAME.outcome(s).ranks == (2, 1) and GAME.outcome(s).scores == (0, 1)


def test_points_out_of_the_round_scores_25_and_the_total_stays() -> None:
    s = at(new([LOW, ["8", "P2", "6", "5"], STUCK], ["0"], scoring="points"), 82)
    s = play(s, (1, "play 8"))
    assert s.in_round == [True, True, False] and s.total == 90 and s.to_act == (0,)
    assert s.hands[2] == STUCK and s.points == [0, 0, 0]
    assert GAME.view(s, None)["revealed"] == [None, None, STUCK]


def test_points_round_scoring_and_a_new_round() -> None:
    hands = [["9", "9", "ONO", "10"], ["8", "P2", "6", "5"]]
    s = at(new(hands, ["0"], scoring="points"), 82)
    s = play(s, (1, "play 8"))
    over = next(e for e in s.events if e["type"] == "round_over")
    # seat 1 keeps P2 6 5 0: 15 + 6 + 5 + 0; seat 0 is out of the round: its hand
    # 9 + 9 + 20 + 10, and 25 more
    assert over["gained"] == [73, 26] and over["points"] == [73, 26]
    assert over["hands"] == [["9", "9", "10", "ONO"], ["0", "5", "6", "P2"]]
    assert s.round_no == 2 and s.dealer == 1 and s.to_act == (0,) and not s.is_over
    assert GAME.view(s, None)["scores"] == [73, 26]


def test_round_points_lines() -> None:
    assert scoring.round_points(["ONO", "P2", "REV", "-10"], True) == 20 + 15 * 3
    assert scoring.round_points(["7", "0"], True) == 7 + 0 + 15 * 2
    assert scoring.round_points(["10", "10", "10", "10"], False) == 40 + 25


def test_points_four_ono_pass_without_playing() -> None:
    hands = [LOW, ["8", "P2", "6", "5"], ["ONO"] * 4]
    s = play(new(hands, scoring="points"), (1, "play P2"))
    assert kinds(s)[-1] == "pass" and s.to_act == (0,) and s.owed == 1
    assert s.in_round == [True, True, True]
    assert_refused(GAME, s, 0, "swap", "no swap in the points game")


def test_points_nobody_dealt_a_playable_card_ends_the_round() -> None:
    """It used to pass the turn round and round forever (issue: ONO 99 points hangs)."""
    s = new([["ONO"] * 4] * 2, scoring="points")
    over = next(e for e in s.events if e["type"] == "round_over")
    assert next(e for e in s.events if e["type"] == "stuck")["survivor"] is None
    assert over["gained"] == [80, 80] and s.round_no == 2 and not s.is_over


def test_points_nobody_can_play_the_last_to_play_survives_the_round() -> None:
    hands = [["ONO"] * 4, ["8", "ONO", "ONO", "ONO"]]
    s = play(new(hands, ["ONO"], scoring="points"), (1, "play 8"))
    assert kinds(s)[kinds(s).index("play"):][:4] == ["play", "draw", "pass", "stuck"]
    stuck = next(e for e in s.events if e["type"] == "stuck")
    assert stuck == {"type": "stuck", "survivor": 1, "out": [0]}
    over = next(e for e in s.events if e["type"] == "round_over")
    assert over["gained"] == [80 + 25, 80]


def test_points_last_standing_reaching_the_target_knocks_you_out() -> None:
    s = at(new([STUCK, ["8", "P2", "6", "5"], STUCK], ["0"], scoring="points"), 82)
    s.points = [0, 0, 80]
    s = play(s, (1, "play 8"))
    assert kinds(s)[2:] == ["eliminated", "eliminated", "round_over", "out", "deal"]
    assert s.points == [73, 26, 153] and s.left_at == [None, None, 0]
    assert s.round_no == 2 and s.dealer == 1 and s.to_act == (0,) and s.hands[2] == []
    assert GAME.outcome(s).ranks == (2, 1, 3)  # seat 1 has fewer points


def test_points_lowest_ends_when_someone_reaches_the_target() -> None:
    hands = [["9", "9", "ONO", "10"], ["8", "P2", "6", "5"]]
    s = at(new(hands, ["0"], scoring="points", target=25, points_end="lowest"), 82)
    s = play(s, (1, "play 8"))
    assert s.is_over and s.points == [73, 26]
    assert GAME.outcome(s).ranks == (2, 1)
    assert s.events[-1]["winners"] == [1]


def test_points_last_standing_ends_when_one_is_left() -> None:
    hands = [["9", "9", "ONO", "10"], ["8", "P2", "6", "5"]]
    s = at(new(hands, ["0"], scoring="points", target=25), 82)
    s = play(s, (1, "play 8"))
    assert s.is_over and s.left_at == [0, 0]
    assert GAME.outcome(s).ranks == (2, 1) and s.events[-1]["winners"] == [1]


def test_points_scores_are_lower_is_better() -> None:
    assert GAME.higher_scores_win(GAME.check_options({}))
    assert GAME.higher_scores_win(GAME.check_options({"scoring": "tokens"}))
    assert not GAME.higher_scores_win(GAME.check_options({"scoring": "points"}))
    hands = [["9", "9", "ONO", "10"], ["8", "P2", "6", "5"]]
    s = at(new(hands, ["0"], scoring="points", target=25, points_end="lowest"), 82)
    s = play(s, (1, "play 8"))
    outcome = GAME.outcome(s)
    assert outcome.scores == (73, 26)
    assert outcome.ranks == rank_scores(outcome.scores, GAME.higher_scores_win(s.options))


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="scoring"):
        GAME.new(2, options={"scoring": "golf"})
    with pytest.raises(ValueError, match="target"):
        GAME.new(2, options={"target": 5})
