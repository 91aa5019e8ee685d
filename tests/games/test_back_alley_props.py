"""Back Alley property tests: random legal and illegal play keeps every invariant."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.back_alley import GAME
from games.back_alley.rules import deal_points
from games.back_alley.state import BackAlleyState
from games.cards import DECK_WITH_JOKERS
from tests.games.support import (
    assert_only_legal_accepted,
    assert_refused,
    current,
    leaked,
    random_walk,
    to_act_first,
)


def all_cards(s: BackAlleyState) -> Counter[str]:
    cards = [c for h in s.hands for c in h] + s.stock + s.played + [s.turned]
    if s.discarded:
        cards.append(s.discarded)
    return Counter(cards)


def check(s: BackAlleyState) -> None:
    """Invariants of every state (besides ``random_walk``'s)."""
    assert all_cards(s) == Counter(DECK_WITH_JOKERS)
    assert sum(s.tricks) == len(s.played) // 4
    assert len({len(h) for h in s.hands}) <= 2
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(s, seat)
        for other in range(4):
            if other != seat:
                unplayed = set(s.hands[other]) - set(s.hands[seat] if seat is not None else ())
                assert not leaked(current(view), unplayed - {s.turned}), (seat, other)
        assert not leaked(current(view), s.stock), seat
    for e in s.events:
        json.dumps(e)
        if e["type"] in ("joker_swap",):
            assert set(e) == {"type", "seat", "card"}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), max_size=160))
def test_random_play_keeps_invariants(seed: int, picks: list[int]) -> None:
    random_walk(
        GAME, lambda: GAME.new(4, seed=seed, options={"deals": 2}), picks, to_act_first(GAME),
        check=check,
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), junk=st.text(max_size=12))
def test_illegal_input_raises_and_changes_nothing(seed: int, steps: int, junk: str) -> None:
    s = GAME.new(4, seed=seed, options={"deals": 1})
    for _ in range(steps):
        if s.is_over:
            return
        seat = s.to_act[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1])
    if s.is_over:
        return
    seat = s.to_act[0]
    candidates = [junk, *(f"play {c}" for c in DECK_WITH_JOKERS),
                  *(f"bid {n}" for n in range(-1, 15)), "pass", "board"]
    assert_only_legal_accepted(GAME, s, seat, candidates)
    for other in range(4):
        if other != seat:
            assert_refused(GAME, s, other, GAME.legal_actions(s, seat)[0], "not your turn")


@given(
    contract=st.integers(0, 24), board=st.integers(0, 4), size=st.integers(1, 13),
    tricks=st.integers(0, 13),
)
def test_deal_points_properties(contract: int, board: int, tricks: int, size: int) -> None:
    tricks = min(tricks, size)
    points = deal_points(contract, board, tricks, size)
    if board:
        assert abs(points) == 10 * size * board and (points > 0) == (tricks == size)
    elif contract == 0:
        assert points == tricks
    elif tricks >= contract:
        assert points == 5 * contract + tricks - contract
    else:
        assert points == -5 * contract


@pytest.mark.parametrize("text", ["PLAY 10 h", " play   th ", "10h", "Th", "play 10♥"])
def test_tolerant_card_input(text: str) -> None:
    assert GAME.parse_action(text) == "play TH"


@pytest.mark.parametrize(("text", "canonical"), [
    ("BID 3", "bid 3"), ("3", "bid 3"), ("bid 0", "pass"), ("Pass", "pass"),
    ("bid board", "board"), ("  BOARD ", "board"), ("bj", "play BJ"),
    ("play big blooper", "play BJ"),
])
def test_tolerant_bid_input(text: str, canonical: str) -> None:
    assert GAME.parse_action(text) == canonical
