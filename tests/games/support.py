"""Checks and drivers the game and renderer tests share.

* ``leaked``: which of some cards appear anywhere in a JSON value (a view, events);
  ``current``: a view without its ``history`` (past events, checked when they happened).
* ``assert_refused`` and ``assert_only_legal_accepted``: illegal input raises
  ``IllegalAction`` with a message and changes nothing.
* ``assert_parsing``: tolerant spellings parse to their canonical actions, junk does not.
* ``stacked``: a full deck that deals given hands, one card at a time from the dealer's left.
* ``random_walk``: plays chosen moves from a new game, checking every state and move, and
  replays the log.
* ``RenderedGame``: replays a computer-played game through the game's renderer.
* ``of_a_game``: a state as the state of one of the games, for what each of them has.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import pytest

import games
from bot.render import renderer
from bot.render.markup import markdown_lines
from games import IllegalAction
from games.back_alley.state import BackAlleyState
from games.craits.state import CraitsState
from games.gin_rummy.state import GinState
from games.ono99.state import OnoState
from games.simulate import play_game
from games.spades.state import SpadesState

Move = tuple[int, str]
S = TypeVar("S", bound=games.State)
P = TypeVar("P")
_WORD = re.compile(r"\w+")
#: The state of any one of the games.
GameState = BackAlleyState | CraitsState | GinState | OnoState | SpadesState


# -- hidden cards ----------------------------------------------------------------------------
def of_a_game(state: games.State) -> GameState:
    """``state``, which must be the state of one of the games (each has ``hands``,
    ``shuffles``, …)."""
    assert isinstance(state, GameState), state
    return state


def leaked(thing: Any, cards: Iterable[str]) -> set[str]:
    """The ``cards`` that appear anywhere in the JSON value ``thing``: as a whole string, a
    key, or a word inside a string (``"play 8H"`` shows ``8H``)."""
    return set(_WORD.findall(json.dumps(thing))) & set(cards)


def current(view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` without its ``history``: the events of the hand so far, each of which was
    checked for hidden cards when it happened (``random_walk`` checks that the history is
    exactly those events). A card once shown may since have gone back into hiding (a
    played card reshuffled into the draw pile, a taken discard knocked face down); the
    table still saw it then."""
    return {k: v for k, v in view.items() if k != "history"}


# -- illegal input -----------------------------------------------------------------------------
def assert_refused(
    game: games.Game[Any], state: games.State, seat: int, text: str, match: str | None = None
) -> None:
    """``text`` by ``seat`` raises ``IllegalAction`` with a message (matching ``match``) and
    leaves ``state`` as it was."""
    before = game.dumps(state)
    with pytest.raises(IllegalAction, match=match) as refused:
        game.apply(state, seat, text)
    assert str(refused.value), f"{text!r} by seat {seat} was refused without a message"
    assert game.dumps(state) == before, f"refusing {text!r} changed the state"


def assert_only_legal_accepted(
    game: games.Game[Any], state: games.State, seat: int, texts: Iterable[str]
) -> None:
    """Each of ``texts`` that does not parse to one of ``seat``'s legal actions is refused."""
    legal = game.legal_actions(state, seat)
    for text in texts:
        try:
            canonical: str | None = game.parse_action(text)
        except IllegalAction:
            canonical = None
        if canonical not in legal:
            assert_refused(game, state, seat, text)


def assert_parsing(
    game: games.Game[Any], canonical: Mapping[str, str], junk: Iterable[str] = ()
) -> None:
    """Each text of ``canonical`` parses to its action (which parses to itself); each of
    ``junk`` is refused with a message."""
    for text, action in canonical.items():
        assert game.parse_action(text) == action, text
        assert game.parse_action(action) == action, action
    for text in junk:
        with pytest.raises(IllegalAction) as refused:
            game.parse_action(text)
        assert str(refused.value), text


# -- stacked decks ----------------------------------------------------------------------------
def stacked(
    game: games.Game[Any], hands: Sequence[Sequence[str]], then: Sequence[str] = (),
    dealer: int = 0,
) -> list[str]:
    """A deck of ``game`` dealing ``hands`` (by seat, one card at a time starting left of
    ``dealer``), then ``then``, then the rest of the deck in its usual order."""
    n, size = len(hands), len(hands[0])
    assert all(len(h) == size for h in hands), "every hand has the same size"
    deck = [hands[(dealer + k) % n][r] for r in range(size) for k in range(1, n + 1)]
    deck += then
    rest = Counter(game.full_deck) - Counter(deck)
    for card in game.full_deck:
        if rest[card]:
            rest[card] -= 1
            deck.append(card)
    assert Counter(deck) == Counter(game.full_deck), "a card is stacked twice"
    return deck


# -- random play ------------------------------------------------------------------------------
def to_act_first(game: games.Game[Any]) -> Callable[[Any, int], Move]:
    """A ``choose`` for ``random_walk``: the first seat to act plays legal move ``pick``
    (modulo how many there are)."""

    def choose(state: Any, pick: int) -> Move:
        seat = state.to_act[0]
        legal = game.legal_actions(state, seat)
        return seat, legal[pick % len(legal)]

    return choose


def random_walk(
    game: games.Game[S],
    new: Callable[[], S],
    picks: Iterable[P],
    choose: Callable[[S, P], Move],
    *,
    check: Callable[[S], None] = lambda state: None,
    after: Callable[[S, S], None] = lambda state, new: None,
    garbage: str | None = None,
) -> list[S]:
    """Play from ``new()``, a move per pick (``choose(state, pick)``) until the game is over,
    and return every state, the first and the last included.

    Every state: survives ``dumps``/``loads``, only seats to act have legal actions, and
    ``check(state)`` passes. Every move: it is legal; ``garbage`` (if any) by the seat and
    the move by a seat not to act are refused; ``apply`` leaves its input alone,
    its public history is the old one plus the move's events (or restarts with the event
    that dealt a new hand), the same in every view, and ``after(state, new_state)``
    passes. Last, ``new()`` replayed with the moves gives the same final state."""
    state = new()
    states = [state]
    log: list[Move] = []
    for pick in picks:
        _check_state(game, state, check)
        if state.is_over:
            break
        seat, action = choose(state, pick)
        legal = game.legal_actions(state, seat)
        assert action in legal, (seat, action, legal)
        if garbage is not None:
            assert_refused(game, state, seat, garbage)
        waiting = [s for s in range(state.players) if s not in state.to_act]
        if waiting:
            assert_refused(game, state, waiting[0], action)
        before = game.dumps(state)
        nxt = game.apply(state, seat, action)
        assert game.dumps(state) == before, "apply must not change its input"
        _check_history(game, state, nxt)
        after(state, nxt)
        log.append((seat, action))
        state = nxt
        states.append(state)
    _check_state(game, state, check)
    replay = new()
    for seat, action in log:
        replay = game.apply(replay, seat, action)
    assert replay == state, "replaying the moves gives the same state"
    return states


def _check_history(game: games.Game[S], state: S, nxt: S) -> None:
    """``nxt``'s history is ``state``'s plus the move's events, or the move's events from
    the one that dealt a new hand; every seat and a spectator see it alike."""
    starts = [i for i, e in enumerate(nxt.events) if nxt.history and e is nxt.history[0]]
    if starts:
        assert nxt.history == tuple(nxt.events[starts[-1]:])
    else:
        assert nxt.history == (*state.history, *nxt.events)
    for seat in (*range(nxt.players), None):
        assert game.view(nxt, seat)["history"] == list(nxt.history)


def _check_state(
    game: games.Game[S], state: S, check: Callable[[S], None]
) -> None:
    assert game.loads(game.dumps(state)) == state
    for seat in range(state.players):
        if seat not in state.to_act:
            assert game.legal_actions(state, seat) == [], seat
    check(state)


# -- rendering --------------------------------------------------------------------------------
class RenderedGame:
    """A game the computer plays, replayed through the game's renderer.

    Iterating yields ``(state, public table text)`` for the new game and after every move,
    having checked that every move played and every legal move has a label, every seat's
    hand renders, and every event renders to a line (``None`` only for events ``silent``
    allows) that never says ``None``. ``kinds`` collects the event types seen; ``state``
    ends as the final state."""

    def __init__(
        self, name: str, players: int, seed: int, levels: Sequence[str],
        options: Mapping[str, object] | None = None, *, names: Sequence[str],
        silent: Callable[[dict[str, Any]], bool] = lambda event: False,
    ) -> None:
        self.game: games.Game[Any] = games.get(name)
        self.renderer = renderer(name)
        self.players, self.seed, self.options = players, seed, options
        self.levels, self.names, self.silent = list(levels), list(names[:players]), silent
        self.kinds: set[str] = set()
        self.state: Any = None

    def table(self, state: games.State) -> str:
        """The public table of ``state`` as one text (as Discord shows it)."""
        return "\n".join(markdown_lines(self.renderer.table(self.game.view(state, None),
                                                             self.names)))

    def __iter__(self) -> Iterator[tuple[Any, str]]:
        game, r = self.game, self.renderer
        played = play_game(game, self.players, self.seed, self.levels, self.options)
        self.state = game.new(self.players, seed=self.seed, options=self.options)
        yield self._rendered(self.state)
        for seat, action in played.actions:
            assert r.action_label(action), action
            for legal in game.legal_actions(self.state, seat):
                assert r.action_label(legal), legal
            self.state = game.apply(self.state, seat, action)
            yield self._rendered(self.state)
        assert self.state == played.state and self.state.is_over

    def _rendered(self, state: games.State) -> tuple[Any, str]:
        for seat in range(self.players):
            assert self.renderer.hand(self.game.view(state, seat)), seat
        for event in state.events:
            self.kinds.add(event["type"])
            line = self.renderer.event(event, self.names)
            if line is None:
                assert self.silent(event), event
            else:
                assert str(line).strip() and "None" not in str(line), (event, line)
        return state, self.table(state)
