"""ONO 99 properties over random positions (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalAction
from games.ono99 import GAME
from games.ono99.state import OnoState
from tests.games.support import assert_only_legal_accepted, random_walk

OPTIONS = st.fixed_dictionaries({
    "scoring": st.sampled_from(["elimination", "tokens", "points"]),
    "target": st.sampled_from([25, 60]),
    "points_end": st.sampled_from(["last_standing", "lowest"]),
    "negative_totals": st.booleans(),
    "ono_on_tens": st.booleans(),
})


def positions(players: int, seed: int, options: dict[str, object], steps: int) -> list[OnoState]:
    """States along a random game (random legal moves), up to ``steps`` moves, checked by
    ``random_walk``."""
    rng = random.Random(seed)

    def choose(state: OnoState, _: int) -> tuple[int, str]:
        seat = state.to_act[0]
        return seat, rng.choice(GAME.legal_actions(state, seat))

    return random_walk(
        GAME, lambda: GAME.new(players, seed=seed, options=options), range(steps), choose
    )


def hide_and_shuffle(state: OnoState, salt: int) -> OnoState:
    """The same position with every card a seat may not see shuffled: the hands still in
    the round and the draw pile (seat 0's hand kept)."""
    other = state.clone()
    seats = [s for s in range(1, state.players) if state.in_round[s]]
    pool = [c for s in seats for c in other.hands[s]] + other.draw
    random.Random(salt).shuffle(pool)
    for s in seats:
        size = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:size]), pool[size:]
    other.draw = pool
    return other


GAMES = st.tuples(st.integers(2, 6), st.integers(0, 10**6), OPTIONS)
Setup = tuple[int, int, dict[str, object]]


@settings(max_examples=40, deadline=None)
@given(GAMES)
def test_cards_are_conserved_and_the_total_stays_below_99(game: Setup) -> None:
    players, seed, options = game
    for state in positions(players, seed, options, 400):
        held = [c for h in state.hands for c in h]
        assert Counter(held + state.draw + state.discard) == Counter(GAME.full_deck)
        assert state.total <= 98
        assert state.total >= (-10 * 112 if options["negative_totals"] else 0)
        for seat in range(players):
            if state.in_round[seat] and not state.is_over:
                assert len(state.hands[seat]) == 4
        assert state.owed in (1, 2)


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_views_never_show_a_hidden_card(game: Setup) -> None:
    players, seed, options = game
    for step, state in enumerate(positions(players, seed, options, 120)):
        other = hide_and_shuffle(state, step)
        assert GAME.view(other, 0) == GAME.view(state, 0)
        assert GAME.view(other, None) == GAME.view(state, None)
        assert "hand" not in GAME.view(state, None)
        for event in state.events:
            if event["type"] == "draw":
                assert set(event) == {"type", "seat", "source", "count"}
            json.dumps(event)


@settings(max_examples=30, deadline=None)
@given(GAMES, st.text(max_size=12))
def test_apply_never_mutates_and_illegal_input_changes_nothing(game: Setup, junk: str) -> None:
    players, seed, options = game
    for state in positions(players, seed, options, 60)[::5]:
        if state.is_over:
            continue
        seat = state.to_act[0]
        before = GAME.dumps(state)
        legal = GAME.legal_actions(state, seat)
        for action in legal:
            GAME.apply(state, seat, action)
        texts = [junk, *(f"play {c}" for c in ("0", "10", "-10", "REV", "P2", "ONO"))]
        assert_only_legal_accepted(GAME, state, seat, texts)
        assert GAME.dumps(state) == before


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_legal_actions_are_exactly_the_accepted_plays(players: int, seed: int) -> None:
    for state in positions(players, seed, {}, 80)[::4]:
        if state.is_over:
            continue
        seat = state.to_act[0]
        accepted = []
        for card in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                     "-10", "REV", "P2", "ONO"):
            try:
                GAME.apply(state, seat, "play " + card)
                accepted.append("play " + card)
            except IllegalAction:
                pass
        assert accepted == [a for a in GAME.legal_actions(state, seat) if a != "swap"]
