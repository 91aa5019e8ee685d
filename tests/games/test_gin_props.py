"""Gin Rummy property tests: random decks and random legal (and illegal) moves."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games import IllegalAction, melds
from games.cards import STANDARD_DECK, sort_hand
from games.gin_rummy.state import GinState
from tests.games.support import current, leaked, random_walk

G: Any = games.get("gin_rummy")
GARBAGE = ["", "fold", "discard", "discard ZZ", "knock 11H", "take 3", "biggin now", "play QH"]


def hidden_from(state: GinState, seat: int | None) -> set[str]:
    """What ``seat`` (None: a spectator) must not see: the stock, the face-down knock card
    and the other hand except cards known from discard pick-ups. Once the game is over the
    last hands have been laid down, so they are public."""
    hidden = set(state.stock) | ({state.face_down} if state.face_down else set())
    if state.is_over:
        return hidden
    for s in (0, 1):
        if s != seat:
            hidden |= set(state.hands[s]) - set(state.known[s])
    return hidden


def check(state: GinState) -> None:
    """Invariants of every state (besides ``random_walk``'s)."""
    everything = state.stock + state.discards + state.hands[0] + state.hands[1]
    if state.face_down:
        everything.append(state.face_down)
    assert Counter(everything) == Counter(STANDARD_DECK)
    if not state.is_over:
        actor = state.to_act[0]
        sizes = [11 if state.phase == "discard" and s == actor else 10 for s in (0, 1)]
        assert [len(h) for h in state.hands] == sizes
        assert len(state.stock) > 2 or state.phase == "discard"
    for s in (0, 1):
        assert set(state.known[s]) <= set(state.hands[s])
    for seat in (0, 1, None):
        view = G.view(state, seat)
        # The previous hand's laid-down cards are public; they say nothing of this deal.
        assert view.pop("last_hand") == state.last_hand
        assert not leaked(current(view), hidden_from(state, seat)), seat
        if seat is not None:
            assert view["hand"] == sort_hand(state.hands[seat])
            assert view["deadwood"] == melds.min_deadwood(state.hands[seat])


def check_move(state: GinState, new: GinState) -> None:
    """A move's events: a hand's result adds up, the knock card stays secret, and no
    event shows a card nobody may see."""
    kinds = [e["type"] for e in new.events]
    if "hand_result" in kinds:
        result = new.events[kinds.index("hand_result")]
        gained = result["points"]
        assert [a + b for a, b in zip(state.scores, gained, strict=True)] == new.scores
        assert min(gained) == 0 and (max(gained) > 0) == (result["winner"] is not None)
        if new.face_down:
            assert not leaked(new.events, [new.face_down])
        if not new.is_over:
            deal = new.events[-1]
            assert deal["type"] == "new_hand" and deal["upcard"] == new.discards[-1]
    else:
        assert not leaked(new.events, hidden_from(new, None)), new.events


def choose(state: GinState, pick: int) -> tuple[int, str]:
    """Mostly the ``normal`` player's move (so hands end in knocks), else a random one."""
    seat = state.to_act[0]
    if pick % 3:
        return seat, G.choose(state, seat, "normal")
    legal = G.legal_actions(state, seat)
    return seat, legal[pick % len(legal)]


@settings(max_examples=25, deadline=None)
@given(
    deck=st.permutations(STANDARD_DECK),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=60, max_size=160),
    garbage=st.sampled_from(GARBAGE),
    target=st.sampled_from([10, 40, 100]),
)
def test_random_moves_keep_every_invariant(
    deck: list[str], picks: list[int], garbage: str, target: int
) -> None:
    random_walk(
        G, lambda: G.new(2, seed=picks[0], options={"target": target}, deck=deck), picks,
        choose, check=check, after=check_move, garbage=garbage,
    )


@settings(max_examples=40, deadline=None)
@given(st.permutations(STANDARD_DECK), st.integers(0, 10))
def test_every_listed_move_is_accepted_and_every_unlisted_discard_refused(
    deck: list[str], pick: int
) -> None:
    state: GinState = G.new(2, deck=deck)
    state = G.apply(state, 1, "take" if pick % 2 else "pass")
    seat = state.to_act[0]
    if state.phase == "offer":
        state = G.apply(state, seat, "pass")
        state = G.apply(state, 1, "draw")
        seat = 1
    legal = G.legal_actions(state, seat)
    for card in state.hands[seat]:
        for verb in ("discard", "knock"):
            action = f"{verb} {card}"
            if action in legal:
                G.apply(state, seat, action)
            else:
                try:
                    G.apply(state, seat, action)
                except IllegalAction:
                    continue
                raise AssertionError(f"{action} was accepted but not listed")
    assert ("biggin" in legal) == (melds.min_deadwood(state.hands[seat]) == 0)


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_either_an_action_or_an_illegal_action(text: str) -> None:
    state: GinState = G.new(2, seed=3)
    try:
        new = G.apply(state, 1, text)
    except IllegalAction as exc:
        assert str(exc)
    else:
        assert G.parse_action(text) in ("take", "pass") and new.to_act
