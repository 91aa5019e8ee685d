"""Craits properties (hypothesis): random legal play keeps every invariant."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.cards import STANDARD_DECK
from games.craits import GAME
from games.craits.scoring import POINTS, hand_score
from games.craits.state import CraitsState
from tests.games.support import assert_refused, current, leaked, random_walk


def all_cards(s: CraitsState) -> list[str]:
    return [c for h in s.hands for c in h] + s.draw_pile + s.discard


def check(s: CraitsState) -> None:
    """Invariants of every state (besides ``random_walk``'s)."""
    assert sorted(all_cards(s)) == sorted(STANDARD_DECK)
    assert s.is_over or s.to_act[0] == s.current
    assert len(set(s.to_act)) == len(s.to_act)
    held = [set(h) for h in s.hands]
    assert not leaked(current(GAME.view(s, None)), set().union(*held))
    for seat in range(s.players):
        view = GAME.view(s, seat)
        assert sorted(view["hand"]) == sorted(s.hands[seat])
        assert view["hand_counts"] == [len(h) for h in s.hands]
        hidden = set().union(*(h for t, h in enumerate(held) if t != seat))
        assert not leaked(current(view), hidden)


def check_move(s: CraitsState, nxt: CraitsState) -> None:
    """The events of the current round show no held card (except at the game's end: the
    last round's scoring shows the hands left, as every round's does before the redeal);
    round scores add up."""
    deals = [i for i, e in enumerate(nxt.events) if e["type"] == "deal"]
    current_round = nxt.events[deals[-1]:] if deals else nxt.events
    if not nxt.is_over:
        assert not leaked(current_round, {c for h in nxt.hands for c in h})
    assert sum(map(sum, nxt.round_scores)) == sum(nxt.scores)


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
    def choose(s: CraitsState, _: int) -> tuple[int, str]:
        seat = choices.choice(s.to_act)
        return seat, choices.choice(GAME.legal_actions(s, seat))

    random_walk(
        GAME, lambda: GAME.new(players, seed=seed, options={"short": short}), range(steps),
        choose, check=check, after=check_move,
    )


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
    assert_refused(GAME, s, seat, text)
    for other in set(range(3)) - set(s.to_act):
        assert_refused(GAME, s, other, legal[0], "not your turn")


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
