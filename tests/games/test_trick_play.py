"""Computer-player helpers shared by the trick-taking games (games.trick_play)."""

from __future__ import annotations

from games.back_alley.rules import STRENGTH, SUIT_OF
from games.cards import DECK_WITH_JOKERS, HIGH_RANK, STANDARD_DECK, SUIT
from games.trick_play import TrickRules, unseen

#: Spades-like: spades are trumps, aces high.
SPADES = TrickRules(SUIT.__getitem__, HIGH_RANK.__getitem__, "S")
#: No trumps at all.
NO_TRUMP = TrickRules(SUIT.__getitem__, HIGH_RANK.__getitem__)
#: Back Alley with hearts trumps: the jokers are the two highest hearts.
HEARTS = TrickRules(SUIT_OF["H"].__getitem__, STRENGTH.__getitem__, "H")


def test_unseen_removes_every_known_group() -> None:
    pool = unseen(STANDARD_DECK, ["AS", "KS"], ["2C"], [])
    assert len(pool) == 49 and not {"AS", "KS", "2C"} & pool
    assert unseen(["AS", "KS"], ["AS", "KS"]) == set()


def test_trumps_and_side_keep_order() -> None:
    cards = ["2H", "AS", "KD", "3S"]
    assert SPADES.trumps(cards) == ["AS", "3S"] and SPADES.side(cards) == ["2H", "KD"]
    assert HEARTS.trumps([*cards, "LJ"]) == ["2H", "LJ"]
    assert NO_TRUMP.trumps(["AS", "2H"]) == [] and not NO_TRUMP.is_trump("AS")


def test_by_suit_strongest_first() -> None:
    hand = ["2H", "AS", "KH", "TD", "3S"]
    assert SPADES.by_suit(hand) == {"S": ["AS", "3S"], "H": ["KH", "2H"], "D": ["TD"]}
    # Requested suits are always keys, in front, even when empty.
    suits = SPADES.by_suit(hand, "SHDC")
    assert list(suits) == ["S", "H", "D", "C"] and suits["C"] == []
    # Jokers sort with the trumps, above the ace.
    assert HEARTS.by_suit(["AH", "BJ", "5C", "LJ"]) == {"H": ["BJ", "LJ", "AH"], "C": ["5C"]}


def test_higher_masters_and_top_master() -> None:
    pool = unseen(STANDARD_DECK, ["AS", "QS", "KH", "2C"], ["AH"])
    assert SPADES.higher("QS", pool) == 1  # the KS; the AS is mine
    assert SPADES.higher("KH", pool) == 0 and SPADES.higher("2C", pool) == 12
    assert SPADES.masters(["AS", "QS", "KH", "2C"], pool) == ["AS", "KH"]
    assert SPADES.top_master(["QS", "KH", "2C"], pool) == "KH"
    assert SPADES.top_master(["QS", "2C"], pool) is None
    # Equal strength in two suits: the first one wins the tie.
    assert NO_TRUMP.top_master(["AD", "AC"], set()) == "AD"
    # The Big Blooper outranks the ace of trumps.
    assert HEARTS.higher("AH", {"BJ", "KH", "AS"}) == 1


def test_safe_needs_no_unseen_trump_for_a_side_card() -> None:
    assert SPADES.safe("AH", {"KH", "2D"}) and not SPADES.safe("AH", {"KH", "2S"})
    assert SPADES.safe("AS", {"KS", "AH"}) and not SPADES.safe("KS", {"AS"})
    assert NO_TRUMP.safe("AH", {"2S"})
    assert not HEARTS.safe("AS", {"LJ"})  # a joker is a trump that could ruff


def test_beats_follows_suit_and_trumps() -> None:
    assert SPADES.beats("KH", "QH") and not SPADES.beats("QH", "KH")
    assert SPADES.beats("2S", "AH") and not SPADES.beats("AD", "KH")
    assert not SPADES.beats("AH", "2S")
    assert not NO_TRUMP.beats("AS", "2H")
    assert HEARTS.beats("LJ", "AH") and HEARTS.beats("BJ", "LJ") and HEARTS.beats("2H", "AS")


def test_winning_play_of_a_partial_trick() -> None:
    trick: list[list[object]] = [[1, "KH"], [2, "AH"], [3, "2S"], [0, "QH"]]
    assert SPADES.winning(trick) == (3, "2S")
    assert NO_TRUMP.winning(trick) == (2, "AH")
    assert HEARTS.winning([[0, "AH"], [1, "LJ"], [2, "2H"]]) == (1, "LJ")


def test_cost_orders_side_cards_before_trumps() -> None:
    cards = ["2S", "AH", "5D", "KS", "5C"]
    assert SPADES.by_cost(cards) == ["5D", "5C", "AH", "2S", "KS"]
    assert SPADES.cheapest(cards) == "5D"  # ties: the first given
    assert SPADES.cheapest(["AS", "2S"]) == "2S"
    assert HEARTS.cheapest(["BJ", "3H", "KC"]) == "KC"


def test_split_winners_and_losers_cheapest_first() -> None:
    winners, losers = SPADES.split(["AH", "2H", "3S", "KH", "9D", "AS"], "QH")
    assert winners == ["KH", "AH", "3S", "AS"] and losers == ["2H", "9D"]
    assert SPADES.split(["2D"], "QH") == ([], ["2D"])


def test_helpers_cover_the_joker_deck() -> None:
    # Every Back Alley card has a suit and strength under every trump.
    for trump in (*"SHDC", None):
        rules = TrickRules(SUIT_OF[trump].__getitem__, STRENGTH.__getitem__, trump)
        suits = rules.by_suit(DECK_WITH_JOKERS)
        assert sum(map(len, suits.values())) == 54
        assert (trump is None) == ("J" in suits)


def test_distinct_merges_cards_no_live_card_separates() -> None:
    hand = ["9S", "JS", "KS", "2H", "3H", "5H"]
    # The TS is gone: 9S and JS win the same tricks; the QS separates JS from KS.
    live = unseen(STANDARD_DECK, hand, ["TS", "4C"])
    assert SPADES.distinct(hand, live) == ["JS", "KS", "3H", "5H"]
    # The requested card stands for its run, in the order of the cards given.
    assert SPADES.distinct(hand, live, keep="9S") == ["9S", "KS", "3H", "5H"]
    # With the 4H played too, 2H, 3H and 5H touch; but while the 4H lies in the trick in
    # progress it is live and keeps 3H and 5H apart.
    gone = unseen(STANDARD_DECK, hand, ["TS", "4H"])
    assert SPADES.distinct(hand, gone, keep="2H") == ["JS", "KS", "2H"]
    assert SPADES.distinct(hand, gone | {"4H"}, keep="2H") == ["JS", "KS", "2H", "5H"]
    # Jokers order with the trumps: LJ, BJ and AH touch once nothing lies between.
    assert HEARTS.distinct(["AH", "LJ", "BJ", "5C"], set()) == ["BJ", "5C"]


def test_outranking_counts_as_higher_does() -> None:
    pool = ["AH", "LJ", "9H", "KS", "2C", "TD"]
    higher = HEARTS.outranking(pool)
    for card in DECK_WITH_JOKERS:
        assert higher(card) == HEARTS.higher(card, pool), card
    assert NO_TRUMP.outranking([])("AS") == 0
