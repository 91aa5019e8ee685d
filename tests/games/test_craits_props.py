"""Craits properties (hypothesis): random legal play keeps every invariant."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import games
from games import IllegalAction
from games.cards import STANDARD_DECK
from games.craits.scoring import POINTS, hand_score
from games.craits.state import CraitsState

GAME = games.get("craits")


def all_cards(s: CraitsState) -> list[str]:
    return [c for h in s.hands for c in h] + s.draw_pile + s.discard


def strings(value: Any) -> set[str]:
    """Every string anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value), set())
    return set()


def check_views(s: CraitsState) -> None:
    held = [set(h) for h in s.hands]
    assert not strings(GAME.view(s, None)) & set().union(*held)
    for seat in range(s.players):
        view = GAME.view(s, seat)
        assert sorted(view["hand"]) == sorted(s.hands[seat])
        assert view["hand_counts"] == [len(h) for h in s.hands]
        hidden = set().union(*(h for t, h in enumerate(held) if t != seat))
        assert not strings(view) & hidden


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    short=st.booleans(),
    steps=st.integers(1, 250),
    choices=st.randoms(use_true_random=False),
)
def test_random_play_keeps_invariants(
    players: int, seed: int, short: bool, steps: int, choices: random.Random
) -> None:
    s = GAME.new(players, seed=seed, options={"short": short})
    for _ in range(steps):
        if s.is_over:
            break
        assert sorted(all_cards(s)) == sorted(STANDARD_DECK)
        assert s.to_act[0] == s.current and len(set(s.to_act)) == len(s.to_act)
        assert GAME.loads(GAME.dumps(s)) == s
        check_views(s)
        seat = choices.choice(s.to_act)
        legal = GAME.legal_actions(s, seat)
        action = choices.choice(legal)
        before = GAME.dumps(s)
        nxt = GAME.apply(s, seat, action)
        assert GAME.dumps(s) == before, "apply never mutates its input"
        deals = [i for i, e in enumerate(nxt.events) if e["type"] == "deal"]
        current_round = nxt.events[deals[-1]:] if deals else nxt.events
        assert not strings(current_round) & {c for h in nxt.hands for c in h}
        assert sum(map(sum, nxt.round_scores)) == sum(nxt.scores)
        s = nxt


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    text=st.sampled_from(
        ["draw", "announce", "callout 9", "callout -1", "play ZZ", "play 8H", "play 9H as C",
         "play KH as S", "play AS AH", "play 7H last last", "jump", "callout", "draw 2"]
    ),
)
def test_illegal_input_raises_and_changes_nothing(seed: int, text: str) -> None:
    s = GAME.new(3, seed=seed)
    seat = s.to_act[0]
    legal = GAME.legal_actions(s, seat)
    assume(text not in legal)
    before = GAME.dumps(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, text)
    assert str(err.value)
    for other in set(range(3)) - set(s.to_act):
        with pytest.raises(IllegalAction, match="not your turn"):
            GAME.apply(s, other, legal[0])
    assert GAME.dumps(s) == before


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_tolerant_spelling_parses_to_the_legal_action(seed: int, data: st.DataObject) -> None:
    s = GAME.new(2, seed=seed)
    for action in GAME.legal_actions(s, s.to_act[0]):
        words = [w.upper() if data.draw(st.booleans()) else w for w in action.split()]
        words = [w.replace("T", "10", 1) if len(w) == 2 and w[0] in "Tt" else w for w in words]
        gap = " " * data.draw(st.integers(1, 3))
        assert GAME.parse_action(gap + gap.join(words) + gap) == action


@settings(max_examples=200, deadline=None)
@given(hand=st.lists(st.sampled_from(STANDARD_DECK), unique=True, max_size=12))
def test_threes_cancel_the_highest_cards(hand: list[str]) -> None:
    points, cancelled = hand_score(hand)
    threes = [c for c in hand if c[0] == "3"]
    others = sorted((POINTS[c[0]] for c in hand if c[0] != "3"), reverse=True)
    assert len(cancelled) == min(len(threes), len(others))
    assert points == sum(others[len(threes):]) - 50 * max(0, len(threes) - len(others))
    assert points <= sum(others)
