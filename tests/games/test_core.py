"""Cards, dealing, seeded shuffles, options, ranking and trick resolution."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import cards, tricks
from games.actions import take_cards
from games.base import Option, rank_scores
from games.rng import shuffled


@given(st.sampled_from(cards.DECK_WITH_JOKERS))
def test_card_codes_round_trip(code: str) -> None:
    card = cards.Card.parse(code.lower())
    assert card == code and str(card) == code
    assert cards.Card.parse(f" {code[0]} {code[1]} ") == code
    assert code in cards.JOKERS or cards.Card.parse(card.pretty()) == code


def test_card_parsing_accepts_ten_and_symbols_and_refuses_junk() -> None:
    assert cards.Card.parse("10h") == "TH"
    assert cards.Card.parse("q♠").pretty() == "Q♠"
    assert cards.Card.parse("Big Blooper") == "BJ"
    assert cards.Card.parse("7c").rank == "7" and cards.Card.parse("7c").suit == "C"
    assert cards.Card.parse("lj").suit is None
    for junk in ("", "1", "11H", "ZZ", "AX", "10"):
        with pytest.raises(ValueError):
            cards.Card.parse(junk)
    assert take_cards(["10", "h", "QS"], cards.parse_code) == ["TH", "QS"]


def test_rank_tables() -> None:
    assert len(cards.STANDARD_DECK) == 52 and len(set(cards.DECK_WITH_JOKERS)) == 54
    assert cards.LOW_RANK["AS"] == 1 and cards.HIGH_RANK["AS"] == 14
    assert cards.HIGH_RANK["KD"] == 13 and cards.LOW_RANK["TC"] == 10
    assert cards.sort_hand(["KS", "AH", "2S", "BJ"]) == ["BJ", "2S", "KS", "AH"]


def test_sort_hand_ace_high_first_suit_and_descending() -> None:
    hand = ["KS", "AH", "2S", "LJ", "TD", "BJ", "AS", "3H"]
    assert cards.sort_hand(hand) == ["LJ", "BJ", "AS", "2S", "KS", "AH", "3H", "TD"]
    assert cards.sort_hand(hand, ace_high=True) == [
        "LJ", "BJ", "2S", "KS", "AS", "3H", "AH", "TD"
    ]
    # Trumps (here diamonds) first, high to low, jokers leading: Back Alley's hand order.
    assert cards.sort_hand(hand, ace_high=True, first="D", descending=True) == [
        "BJ", "LJ", "TD", "AS", "KS", "2S", "AH", "3H"
    ]
    assert cards.sort_hand(["2C", "AC", "KH"], suits="CH", first="H") == ["KH", "AC", "2C"]


def test_deal_one_at_a_time_from_left_of_dealer() -> None:
    hands, rest = cards.deal(cards.STANDARD_DECK, 3, 2, dealer=1)
    assert hands[2] == ["AS", "4S"] and hands[0] == ["2S", "5S"] and hands[1] == ["3S", "6S"]
    assert rest[0] == "7S" and len(rest) == 46


def test_shuffles_are_seeded_and_salted() -> None:
    a = shuffled(cards.STANDARD_DECK, 7, 0)
    assert a == shuffled(cards.STANDARD_DECK, 7, 0)
    assert a != shuffled(cards.STANDARD_DECK, 7, 1) != shuffled(cards.STANDARD_DECK, 8, 0)
    assert sorted(a) == sorted(cards.STANDARD_DECK)


def test_options_coerce_and_refuse() -> None:
    target = Option(100, "points to play to", minimum=10, maximum=1000)
    assert target.coerce("target", "250") == 250
    with pytest.raises(ValueError, match="at least 10"):
        target.coerce("target", 5)
    with pytest.raises(ValueError, match="whole number"):
        target.coerce("target", True)
    flag = Option(False, "a switch")
    assert flag.coerce("short", "on") is True and flag.coerce("short", False) is False
    with pytest.raises(ValueError, match="on or off"):
        flag.coerce("short", 1)
    mode = Option("tokens", "mode", choices=("tokens", "points"))
    assert mode.coerce("scoring", " Points ") == "points"
    with pytest.raises(ValueError, match="one of"):
        mode.coerce("scoring", "chips")


def test_competition_ranking() -> None:
    assert rank_scores([10, 30, 30, 5]) == (3, 1, 1, 4)
    assert rank_scores([10, 30, 30, 5], higher_is_better=False) == (2, 3, 3, 1)
    assert rank_scores([40, 90, 40, 90], teams=[0, 1, 0, 1]) == (2, 1, 2, 1)
    assert rank_scores([40, 40, 40, 40], teams=[0, 1, 0, 1]) == (1, 1, 1, 1)


def _suit(c: str) -> str:
    return c[1]


def _high(c: str) -> int:
    return cards.HIGH_RANK[c]


def test_trick_winner_trump_beats_led_suit_and_off_suit_never_wins() -> None:
    assert tricks.trick_winner([[0, "2H"], [1, "AD"], [2, "KH"]], _suit, _high, "S") == 2
    assert tricks.trick_winner([[0, "2H"], [1, "3S"], [2, "AH"], [3, "2S"]], _suit, _high, "S") == 1
    assert tricks.trick_winner([[3, "QC"], [0, "KC"]], _suit, _high, None) == 0
    assert tricks.follow_options(["2H", "3S", "KH"], "H", _suit) == ["2H", "KH"]
    assert tricks.follow_options(["2H", "3S"], "D", _suit) == ["2H", "3S"]


@given(st.lists(st.sampled_from(cards.STANDARD_DECK), min_size=2, max_size=4, unique=True),
       st.sampled_from([None, *cards.SUITS]))
def test_a_trick_has_one_consistent_winner(plays: list[str], trump: str | None) -> None:
    w = tricks.winning_index(plays, _suit, _high, trump)
    led = plays[0][1]
    best_suit = trump if trump and any(c[1] == trump for c in plays) else led
    contenders = [c for c in plays if c[1] == best_suit]
    assert plays[w] == max(contenders, key=_high)
