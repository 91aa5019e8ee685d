"""Every game takes the same move words: the card's name, and the card's place in the hand
as the seat's view lists it (``play #2``; ``play 2`` where 2 is no card's name)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games import IllegalAction
from games.simulate import play_game
from tests.games.support import stacked

#: Per game: options, a verb that takes a card, and how many moves to play first so that
#: the seat to act holds cards and may use that verb.
CARD_MOVES: dict[str, tuple[dict[str, Any], str]] = {
    "back_alley": ({}, "play"),
    "craits": ({}, "play"),
    "gin_rummy": ({}, "discard"),
    "ono99": ({}, "play"),
    "spades": ({}, "play"),
}


def first_state_with(name: str, verb: str) -> tuple[games.Game[Any], Any, int]:
    """A state of a seeded game where the seat to act may use ``verb``."""
    game = games.get(name)
    players = 4 if name == "back_alley" else 2
    options = CARD_MOVES[name][0]
    actions = play_game(game, players, 5, ["normal"] * players, options).actions
    state = game.new(players, seed=5, options=options)
    for seat, action in actions:
        if any(a.startswith(verb + " ") for a in game.legal_actions(state, seat)):
            return game, state, seat
        state = game.apply(state, seat, action)
    raise AssertionError(f"{name}: never a {verb!r} move")


@pytest.mark.parametrize("name", games.names())
def test_a_card_by_its_place_in_the_hand(name: str) -> None:
    verb = CARD_MOVES[name][1]
    game, state, seat = first_state_with(name, verb)
    hand = game.view(state, seat)["hand"]
    move = next(a for a in game.legal_actions(state, seat) if a.startswith(verb + " "))
    _, card, *rest = move.split()  # Craits: "play 8H as S"
    typed = " ".join([verb, f"#{hand.index(card) + 1}", *rest])
    assert game.read_action(state, seat, typed) == move
    assert game.read_action(state, seat, " " + typed.upper().replace(" ", "  ")) == move
    assert game.read_action(state, seat, move) == move
    assert game.apply(state, seat, typed).events == game.apply(state, seat, move).events
    with pytest.raises(IllegalAction, match=f"from 1 to {len(hand)}"):
        game.read_action(state, seat, f"{verb} #{len(hand) + 1}")
    with pytest.raises(IllegalAction):
        game.parse_action(typed)  # a place needs the hand: read_action


@pytest.mark.parametrize("name", ["back_alley", "craits", "gin_rummy", "spades"])
def test_a_bare_number_is_a_place_where_no_card_has_that_name(name: str) -> None:
    verb = CARD_MOVES[name][1]
    game, state, seat = first_state_with(name, verb)
    hand = game.view(state, seat)["hand"]
    assert game.read_action(state, seat, f"{verb} 2") == f"{verb} {hand[1]}"
    assert game.read_action(state, seat, f"{verb} 10 h") == f"{verb} TH"  # a card, not a place


def test_ono99_play_2_plays_the_card_2_and_says_how_to_name_a_place() -> None:
    """In ONO 99 number cards are numbers: 'play 2' is the 2 (the canonical action), the
    place in the hand is 'play #2'."""
    game = games.get("ono99")
    state = game.new(2, seed=1, deck=stacked(game, [["1", "5", "6", "8"], ["2", "3", "4", "7"]]))
    seat = state.to_act[0]
    assert game.view(state, seat)["hand"] == ["2", "3", "4", "7"]
    assert game.read_action(state, seat, "play 2") == "play 2"
    assert game.read_action(state, seat, "play #2") == "play 3"
    assert game.read_action(state, seat, "play reverse") == "play REV"
    other = 1 - seat
    assert game.view(state, other)["hand"] == ["1", "5", "6", "8"]
    after = game.apply(state, seat, "play #4")
    assert after.total == 7
    with pytest.raises(IllegalAction, match=r"no 2 card.*'play #2'"):
        game.apply(after, other, "play 2")


def test_craits_a_place_keeps_the_rest_of_the_move() -> None:
    game = games.get("craits")
    hands = [["2C", "3C", "4C"], ["8H", "KD", "5S"]]
    state = game.new(2, seed=1, options={"short": True}, deck=stacked(game, hands, ["9H"]))
    seat = state.to_act[0]
    hand = game.view(state, seat)["hand"]
    assert game.read_action(state, seat, f"play #{hand.index('8H') + 1} as S") == "play 8H as S"


#: Numbers as a player might type them: huge (past Python's 4,300-digit limit on reading
#: numbers), negative, zero-padded, or in digits other than ASCII.
NUMBERS = st.one_of(
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(["0" * 5000 + "1", "²", "٣", "-0", "#", "--1"]),
)


@pytest.mark.parametrize("name", games.names())
@settings(max_examples=60, deadline=None)
@given(
    number=NUMBERS,
    form=st.sampled_from(["{verb} #{n}", "{verb} {n}", "{n}", "bid {n}", "callout {n}",
                          "{verb} {n} as S", "{verb} #{n} #{n}"]),
)
def test_any_number_in_a_move_is_read_or_refused_plainly(
    name: str, number: str, form: str
) -> None:
    verb = CARD_MOVES[name][1]
    game, state, seat = first_state_with(name, verb)
    try:
        game.apply(state, seat, form.format(verb=verb, n=number))
    except IllegalAction as refused:
        # Python's own refusal ("Exceeds the limit (4300 digits) for integer string
        # conversion …") never reaches a player; a number echoed back may hold "4300".
        assert "limit (4300" not in str(refused) and "int()" not in str(refused)


@given(NUMBERS)
def test_an_option_number_is_read_or_refused_by_name(number: str) -> None:
    try:
        games.get("spades").check_options({"target": number})
    except ValueError as refused:
        assert "'target'" in str(refused)
