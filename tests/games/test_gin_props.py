"""Gin Rummy property tests: random decks and random legal (and illegal) moves."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games import IllegalAction, melds
from games.cards import STANDARD_DECK, sort_hand
from games.gin_rummy.state import GinState

G: Any = games.get("gin_rummy")
CODE = re.compile(r"\b[A2-9TJQK][SHDC]\b")
GARBAGE = ["", "fold", "discard", "discard ZZ", "knock 11H", "take 3", "biggin now", "play QH"]


def cards_in(thing: Any) -> set[str]:
    return set(CODE.findall(json.dumps(thing)))


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
    """Invariants of every state."""
    assert G.loads(G.dumps(state)) == state
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
        assert not cards_in(view) & hidden_from(state, seat), seat
        if seat is not None:
            assert view["hand"] == sort_hand(state.hands[seat])
            assert view["deadwood"] == melds.min_deadwood(state.hands[seat])


def choose(state: GinState, seat: int, legal: list[str], pick: int) -> str:
    """Mostly the ``normal`` player's move (so hands end in knocks), else a random one."""
    if pick % 3:
        return G.choose(state, seat, "normal")
    return legal[pick % len(legal)]


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
    options = {"target": target}
    state: GinState = G.new(2, seed=picks[0], options=options, deck=deck)
    log: list[tuple[int, str]] = []
    for pick in picks:
        check(state)
        if state.is_over:
            break
        seat = state.to_act[0]
        legal = G.legal_actions(state, seat)
        assert legal and G.legal_actions(state, 1 - seat) == []
        before = G.dumps(state)
        for bad_seat, bad in ((seat, garbage), (1 - seat, legal[0])):
            try:
                G.apply(state, bad_seat, bad)
            except IllegalAction as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{bad!r} by seat {bad_seat} was accepted")
        assert G.dumps(state) == before
        action = choose(state, seat, legal, pick)
        new = G.apply(state, seat, action)
        assert G.dumps(state) == before, "apply must not change its input"
        kinds = [e["type"] for e in new.events]
        if "hand_result" in kinds:
            result = new.events[kinds.index("hand_result")]
            gained = result["points"]
            assert [a + b for a, b in zip(state.scores, gained, strict=True)] == new.scores
            assert min(gained) == 0 and (max(gained) > 0) == (result["winner"] is not None)
            if new.face_down:
                assert new.face_down not in cards_in(new.events)
            if not new.is_over:
                deal = new.events[-1]
                assert deal["type"] == "new_hand" and deal["upcard"] == new.discards[-1]
        else:
            assert not cards_in(new.events) & hidden_from(new, None), new.events
        log.append((seat, action))
        state = new
    replay: GinState = G.new(2, seed=picks[0], options=options, deck=deck)
    for seat, action in log:
        replay = G.apply(replay, seat, action)
    assert replay == state


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
