"""Two-player Spades: property tests over random decks and random legal (and illegal) moves."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games import IllegalAction
from games.cards import STANDARD_DECK
from games.spades.scoring import score_hand
from games.spades.state import SpadesState
from tests.games.support import current, leaked, random_walk, to_act_first

G: Any = games.get("spades")
GARBAGE = ["", "fold", "bid 14", "bid -1", "play ZZ", "exchange 2S 3S 4S 5S", "keep 3", "blind"]


def hidden_from(state: SpadesState, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) must not see: the other hands, the stock and the
    face-down discards. Face-up discards are public knowledge even if an exchange drew one
    back into a hand."""
    hidden = set(state.stock) | (set(state.discards) - set(state.face_up))
    for s in range(2):
        if s != seat:
            hidden |= set(state.hands[s]) - set(state.face_up)
    sees_top = seat is not None and state.phase == "draft" and state.to_act == (seat,)
    if sees_top and seat is not None and not state.may_blind[seat]:
        hidden.discard(state.stock[0])
    return hidden


def check(state: SpadesState) -> None:
    """Invariants of every state (besides ``random_walk``'s)."""
    if state.is_over:
        return
    everything = state.stock + state.discards + state.played + state.hands[0] + state.hands[1]
    assert Counter(everything) == Counter(STANDARD_DECK)
    assert len(state.hands[0]) - len(state.hands[1]) in (-1, 0, 1)
    for seat in (0, 1, None):
        view = G.view(state, seat)
        assert not leaked(current(view), hidden_from(state, seat)), seat
        if seat is not None:
            assert sorted(view["hand"]) == sorted(state.hands[seat])


def check_move(state: SpadesState, new: SpadesState) -> None:
    """A move's events show no secret card of the hand and scored hands add up."""
    secret = hidden_from(new, None) if new.hand_no == state.hand_no else set()
    for event in new.events:
        assert not leaked(event, secret), event
        if event["type"] == "hand_scored":
            gained = [line["points"] for line in event["lines"]]
            assert [b + g for b, g in zip(state.scores, gained, strict=True)] == new.scores


@settings(max_examples=25, deadline=None)
@given(
    deck=st.permutations(STANDARD_DECK),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=60, max_size=140),
    garbage=st.sampled_from(GARBAGE),
    blind_nil=st.booleans(),
)
def test_random_moves_keep_every_invariant(
    deck: list[str], picks: list[int], garbage: str, blind_nil: bool
) -> None:
    random_walk(
        G, lambda: G.new(2, seed=picks[0], options={"blind_nil": blind_nil}, deck=deck), picks,
        to_act_first(G), check=check, after=check_move, garbage=garbage,
    )


@given(
    bid=st.integers(0, 13),
    blind=st.booleans(),
    tricks=st.integers(0, 13),
    bags=st.integers(0, 9),
)
def test_score_lines_add_up(bid: int, blind: bool, tricks: int, bags: int) -> None:
    line = score_hand(bid, blind, tricks, bags)
    assert line["points"] == line["contract"] + line["bags"] + line["bag_penalty"]
    assert 0 <= line["bags_total"] <= 9
    assert bags + line["bags"] == line["bags_total"] - line["bag_penalty"] // 10
    if blind or bid == 0:
        assert line["bags"] == 0 and abs(line["contract"]) == (200 if blind else 100)
        assert (line["contract"] > 0) == (tricks == 0)
    else:
        assert line["bags"] == max(0, tricks - bid)
        assert line["contract"] == (10 * bid if tricks >= bid else -10 * bid)


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_parsed_or_refused_with_a_message(text: str) -> None:
    try:
        canonical = G.parse_action(text)
    except IllegalAction as exc:
        assert str(exc)
    else:
        assert G.parse_action(canonical) == canonical
