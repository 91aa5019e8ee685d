"""The engine contract shared by every game (see DESIGN.md, "The engine contract").

A game is a stateless ``Game`` object; all that changes lives in a ``State`` dataclass whose
fields are plain JSON values (ints, strings, bools, ``None``, lists, string-keyed dicts)
apart from ``to_act`` and ``history``, tuples. That makes every state serialisable as it is
(``dumps``/``loads``) and cheap to copy.

Every view carries ``history``: the public events of the hand so far, in order (each a dict
with its ``type`` and, for a player's move, the ``seat``), from the event that dealt it —
what the table saw, by whom and when: cards played, discards taken or passed, bids, draws.
Events are public by contract, so the history is the same for every seat.

``Game.apply`` does the checks every game shares — game over, out of turn, malformed
action — then copies the state and lets the game's ``_apply`` change the copy, so the
caller's state is never touched, even when the move turns out to be illegal.

Computer players only ever see what a human in their seat would see: a bot is a function
of ``(view, legal_actions, rng)``. Every game has ``random``; games add ``normal`` and
``expert`` (a search over worlds sampled from the view: ``Game.world``, ``games.search``).
"""

from __future__ import annotations

import inspect
import json
import random
import sys
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

from games import cards
from i18n import N_, Message, _, lazy_gettext, lazy_ngettext
from i18n.extract import paragraphs

View = dict[str, Any]
Bot = Callable[[View, list[str], random.Random], str]
#: Why a rule of thumb made a move, cheap to build on a search's hot path and put into
#: words only when a player asks (``words``): a template with ``{}`` for each argument
#: that follows (card codes and tuples of them are named by the game, numbers as they
#: are), marked ``N_`` for the catalogs, or a function of the card namer and the
#: arguments that returns the sentence.
Why = tuple[Any, ...]


def words(why: Why, name: Callable[[str], str] = cards.pretty) -> str:
    """The sentence ``why`` stands for, cards named by ``name``, in the language spoken."""
    head, *args = why
    if callable(head):
        return str(head(name, *args))

    def named(arg: object) -> object:
        if isinstance(arg, str):
            return name(arg)
        if isinstance(arg, tuple):
            return " ".join(name(c) for c in arg)
        return arg

    return _(str(head)).format(*(named(a) for a in args))


class IllegalAction(ValueError):
    """A malformed, out-of-turn or illegal move; the message can be shown to a player.

    The message is a ``Message`` (``lazy_gettext``): ``str(exc)`` is its sentence in the
    language being spoken — English unless the caller speaks another."""


class UnknownGame(KeyError):
    """No game by that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else _("Unknown game.")


@dataclass(frozen=True)
class Outcome:
    """Per-seat cumulative scores and placements (1 = best; tied seats share a rank)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]


def rank_scores(
    scores: Sequence[int], higher_is_better: bool = True, teams: Sequence[int] | None = None
) -> tuple[int, ...]:
    """Competition ranking: 1 + the number of teams (default: seats) with a better score.

    Partners share a score, so partnerships rank as teams: ``(2, 1, 2, 1)``, not
    ``(3, 1, 3, 1)``.
    """
    sign = 1 if higher_is_better else -1
    team_of = list(teams) if teams is not None else list(range(len(scores)))
    best: dict[int, int] = {}
    for t, s in zip(team_of, scores, strict=True):
        best[t] = max(best.get(t, sign * s), sign * s)
    return tuple(1 + sum(1 for v in best.values() if v > sign * s) for s in scores)


#: Numbers a player types are read up to this size (every game's are far smaller): a
#: longer one reads as this bound, so it is refused as out of range like any other, and
#: Python's limit on reading long numbers (4,300 digits) is never met.
NUMBER_BOUND = 10**9


def read_number(word: str) -> int | None:
    """The whole number ``word`` writes in ASCII digits (``-`` before them for a negative
    one), clamped to ±``NUMBER_BOUND``; None if it is not one."""
    digits = word.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        return None
    long = len(digits) > len(str(NUMBER_BOUND))
    value = NUMBER_BOUND if long else min(int(digits), NUMBER_BOUND)
    return -value if word.startswith("-") else value


def _place(word: str) -> int | None:
    """The hand position a word names (``#2`` or ``2``), or None."""
    digits = word[1:] if word.startswith("#") else word
    return read_number(digits) if not digits.startswith("-") else None


_TRUE = frozenset({"1", "true", "on", "yes"})
_FALSE = frozenset({"0", "false", "off", "no"})


@dataclass(frozen=True)
class Option:
    """A table option: its default (whose type is the option's type) and its limits."""

    default: bool | int | str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None

    def coerce(self, name: str, value: object) -> bool | int | str:
        """Validate ``value`` (strings are converted); raise ``ValueError`` naming the option."""
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise ValueError(lazy_gettext(
                "Option {name!r} must be on or off, not {value!r}.",
                name=name, value=value,
            ))
        if isinstance(self.default, int):
            if isinstance(value, str):
                read = read_number(value.strip())
                value = value if read is None else read
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(lazy_gettext(
                    "Option {name!r} must be a whole number, not {value!r}.",
                    name=name, value=value,
                ))
            if self.minimum is not None and value < self.minimum:
                raise ValueError(lazy_gettext(
                    "Option {name!r} must be at least {minimum}.",
                    name=name, minimum=self.minimum,
                ))
            if self.maximum is not None and value > self.maximum:
                raise ValueError(lazy_gettext(
                    "Option {name!r} must be at most {maximum}.",
                    name=name, maximum=self.maximum,
                ))
            return value
        if not isinstance(value, str):
            raise ValueError(lazy_gettext(
                "Option {name!r} must be text, not {value!r}.",
                name=name, value=value,
            ))
        value = value.strip().lower()
        if self.choices is not None and value not in self.choices:
            raise ValueError(lazy_gettext(
                "Option {name!r} must be one of: {choices}.",
                name=name, choices=', '.join(self.choices),
            ))
        return value


_ATOMIC = frozenset({str, int, bool, float, type(None), tuple})


def _copy(value: Any) -> Any:
    if type(value) is list:
        return [x if type(x) in _ATOMIC else _copy(x) for x in value]
    if type(value) is dict:
        return {k: (x if type(x) in _ATOMIC else _copy(x)) for k, x in value.items()}
    return value


@dataclass(kw_only=True)
class State:
    """Fields every state has. ``events`` holds the public events of the last move,
    ``history`` those of the hand so far (a tuple, shared by copies: entries are never
    changed, only added)."""

    players: int
    seed: int
    options: dict[str, Any]
    to_act: tuple[int, ...] = ()
    events: list[dict[str, Any]] = field(default_factory=list)
    history: tuple[dict[str, Any], ...] = ()

    @property
    def is_over(self) -> bool:
        """True when nobody can act any more: the game has ended."""
        return not self.to_act

    def clone(self: S) -> S:
        """An independent copy (lists and dicts copied, immutable values shared)."""
        new = object.__new__(type(self))
        new.__dict__.update({k: _copy(v) for k, v in self.__dict__.items()})
        return new

    def event(self, kind: str, **data: Any) -> None:
        """Record a public event of the move being applied."""
        entry = {"type": kind, **data}
        self.events.append(entry)
        self.history = (*self.history, entry)

    def begin(self, kind: str, **data: Any) -> None:
        """Record the public event that deals a new hand (or round): the history restarts
        with it."""
        self.history = ()
        self.event(kind, **data)


S = TypeVar("S", bound=State)


#: What each computer level does, as /rules, the docs and the terminal say it.
LEVEL_NOTES = {
    "random": N_("plays any legal move at random (for testing, not for company)."),
    "normal": N_("plays by rules of thumb: quick, sound and predictable."),
    "expert": N_(
        "searches: deals the cards it cannot see in many ways that fit everything the"
        " table has shown, plays its candidate moves out on each deal, and leaves the"
        " normal player's move only for one that did better for its side over those deals"
        " (its partner's score counts as its own)."
    ),
}


def win_rates(measured: Mapping[str, float]) -> dict[str, int]:
    """The per-cent win rates a level note names (``{expert}``, ``{bound}``), from an
    expert's ``MEASURED``: its ``expert`` wins of ``games``, and the same search's shown
    every hand, ``clairvoyant`` wins of ``bound_games`` (or of ``games``), where measured."""
    rates = {"expert": round(100 * measured["expert"] / measured["games"])}
    if "clairvoyant" in measured:
        bound_games = measured.get("bound_games", measured["games"])
        rates["bound"] = round(100 * measured["clairvoyant"] / bound_games)
    return rates


def random_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``random`` computer player: any legal action, uniformly."""
    return rng.choice(legal)


class Game(ABC, Generic[S]):
    """One card game. Subclasses set the class attributes and implement the ``_`` hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[Mapping[str, Option]] = {}
    state_type: ClassVar[type[State]]
    #: The complete deck a stacked ``deck=`` must be a permutation of.
    full_deck: ClassVar[tuple[str, ...]] = cards.STANDARD_DECK
    #: Computer players beyond ``random``, by level name.
    bots: ClassVar[Mapping[str, Bot]] = {}
    #: What each computer level does (``LEVEL_NOTES``, where a game's level differs), and
    #: the measured numbers a note names (``{name}``).
    level_notes: ClassVar[Mapping[str, str]] = LEVEL_NOTES
    level_numbers: ClassVar[Mapping[str, int]] = {}
    #: The levels that search (up to a few hundred milliseconds a decision): callers with
    #: an event loop run them elsewhere.
    search_levels: ClassVar[frozenset[str]] = frozenset({"expert"})

    # -- creating -----------------------------------------------------------------------
    def new(
        self,
        players: int,
        seed: int = 0,
        options: Mapping[str, object] | None = None,
        deck: Sequence[str] | None = None,
    ) -> S:
        """A new game. Bad player counts, options or decks raise ``ValueError``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(lazy_gettext("The number of players must be a whole number."))
        if not self.min_players <= players <= self.max_players:
            span = (
                f"{self.min_players}" if self.min_players == self.max_players
                else f"{self.min_players}–{self.max_players}"
            )
            raise ValueError(lazy_gettext(
                "{title} is for {span} players, not {players}.",
                title=Message(self.title), span=span, players=players,
            ))
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(lazy_gettext("The seed must be a whole number."))
        opts = self.check_options(options or {})
        stack = self.check_deck(deck) if deck is not None else None
        return self._new(players, seed, opts, stack)

    def check_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        """Validated options with defaults filled in; unknown keys raise ``ValueError``."""
        unknown = set(options) - set(self.options)
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            named = ", ".join(sorted(unknown))
            raise ValueError(lazy_ngettext(
                "Unknown option for {title}: {named} (options: {known}).",
                "Unknown options for {title}: {named} (options: {known}).",
                len(unknown), title=Message(self.title), named=named, known=known,
            ))
        out = {k: o.default for k, o in self.options.items()}
        for k, v in options.items():
            out[k] = self.options[k].coerce(k, v)
        self._check_option_combination(out)
        return out

    def _check_option_combination(self, options: dict[str, Any]) -> None:
        """Hook for rules between options; raise ``ValueError``."""

    @property
    def rules(self) -> str:
        """The rules as Deckhand plays them: the game package's docstring, which states
        every rule decision (shown by ``/rules`` and the terminal's ``rules``)."""
        doc = sys.modules[type(self).__module__.rsplit(".", 1)[0]].__doc__
        return "\n\n".join(_(p) for p in paragraphs(inspect.cleandoc(doc or self.title)))

    def parse_card(self, text: str) -> str:
        """Canonical code of one card of this game's deck; ``ValueError`` if not a card."""
        return cards.parse_code(text)

    def check_deck(self, deck: Sequence[str]) -> list[str]:
        """Parse a stacked deck; it must hold exactly this game's full deck."""
        parsed = [self.parse_card(c) for c in deck]
        if Counter(parsed) != Counter(self.full_deck):
            raise ValueError(
                f"A stacked deck for {self.title} must hold exactly its {len(self.full_deck)}"
                " cards, each once (or as many times as the deck has it)."
            )
        return parsed

    # -- playing ------------------------------------------------------------------------
    def legal_actions(self, state: S, seat: int) -> list[str]:
        """Canonical legal actions of ``seat``, in a stable order; ``[]`` if not to act."""
        if seat not in state.to_act:
            return []
        return self._legal(state, seat)

    def apply(self, state: S, seat: int, action: str) -> S:
        """The state after ``seat`` plays ``action``; ``state`` itself is unchanged."""
        if state.is_over:
            raise IllegalAction(lazy_gettext("The game is over."))
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction(lazy_gettext("There is no seat {seat!r} at this table.", seat=seat))
        if seat not in state.to_act:
            raise IllegalAction(lazy_gettext("It is not your turn."))
        if not isinstance(action, str) or not action.strip():
            raise IllegalAction(
                lazy_gettext("Say what to do, e.g. {example}.", example=self.example_action())
            )
        canonical = self.read_action(state, seat, action)
        new = state.clone()
        new.events = []
        self._apply(new, seat, canonical)
        return new

    def advance(self, state: S, seat: int, action: str) -> S:
        """``apply`` for callers whose ``action`` is one of ``legal_actions(state, seat)``
        as listed (search rollouts): the same new state, without re-reading the action or
        the turn checks. The game's own rules still refuse an illegal move."""
        new = state.clone()
        new.events = []
        self._apply(new, seat, action)
        return new

    def parse_action(self, text: str) -> str:
        """The canonical form of an action string; ``IllegalAction`` if malformed."""
        try:
            return self._parse_action(text)
        except IllegalAction:
            raise
        except ValueError as exc:
            raise IllegalAction(*exc.args) from None

    #: Verbs whose arguments are cards of the player's hand (``play``, Gin's ``discard``).
    card_verbs: ClassVar[tuple[str, ...]] = ("play",)

    def read_action(self, state: S, seat: int, text: str) -> str:
        """The canonical form of a move as a player typed it at ``seat``: what
        ``parse_action`` reads, and also a card given by its place in the hand as the seat's
        view lists it, 1-based (``play #2``; ``play 2`` too where ``2`` is not a card's
        name — in ONO 99 it is, so there ``play 2`` plays the 2). ``IllegalAction`` if
        malformed."""
        try:
            return self.parse_action(text)
        except IllegalAction:
            verb, *words = text.split() or [""]
            verb = verb.lower()
            if verb not in self.card_verbs or not any(_place(w) for w in words):
                raise
        hand: list[str] = self.view(state, seat).get("hand", [])
        picked: list[str] = []
        for word in words:
            place = _place(word)
            if place is None:
                picked.append(word)
            elif 1 <= place <= len(hand):
                picked.append(hand[place - 1])
            elif not hand:
                raise IllegalAction(lazy_gettext("You hold no cards now."))
            else:
                raise IllegalAction(lazy_ngettext(
                    "You hold {n} card: say a place from 1 to {n} (e.g. '{verb} #1'), or the"
                    " card itself.",
                    "You hold {n} cards: say a place from 1 to {n} (e.g. '{verb} #1'), or the"
                    " card itself.",
                    len(hand), verb=verb,
                ))
        return self.parse_action(" ".join([verb, *picked]))

    def example_action(self) -> str:
        """An example action for help texts."""
        return "play QH"

    # -- observing ----------------------------------------------------------------------
    def view(self, state: S, seat: int | None) -> View:
        """What ``seat`` (or a spectator, ``None``) may see; JSON-able, no hidden cards."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        v: View = {
            "game": self.name,
            "seat": seat,
            "players": state.players,
            "to_act": list(state.to_act),
            "over": state.is_over,
            "options": dict(state.options),
            "history": list(state.history),
        }
        v.update(self._view(state, seat))
        return v

    def outcome(self, state: S) -> Outcome:
        """Scores and placements (final once the game is over, standings until then)."""
        scores = self._scores(state)
        teams = self.teams(state.players)
        better = self.higher_scores_win(state.options)
        return Outcome(tuple(scores), rank_scores(scores, better, teams))

    #: False for games where the lowest score wins.
    higher_is_better: ClassVar[bool] = True

    def higher_scores_win(self, options: Mapping[str, Any]) -> bool:
        """Whether a higher score is better under these options (a game may vary it)."""
        return self.higher_is_better

    def teams(self, players: int) -> list[int]:
        """Team number of each seat; every seat is its own team unless a game pairs them."""
        return list(range(players))

    # -- sampling worlds (for search) ------------------------------------------------------
    def world(self, view: View, rng: random.Random) -> S:
        """A full state consistent with everything a seat's ``view`` shows: its hand, the
        public piles, hand sizes, cards shown and suits shown void. Hidden cards are dealt
        from the cards the view does not place, using ``rng`` only, and the world gets a
        fresh seed (the real one would tell future shuffles). Built from the view alone,
        it cannot read a card the seat does not know."""
        if view.get("seat") is None:
            raise ValueError("A world is sampled from a seat's view, not a spectator's.")
        world = self._world(view, rng)
        world.history = tuple(view["history"])
        return world

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A state sampled from ``seat``'s knowledge of ``state`` (see ``world``)."""
        return self.world(self.view(state, seat), rng)

    # -- computer players ---------------------------------------------------------------
    @property
    def levels(self) -> tuple[str, ...]:
        """Names of this game's computer players."""
        return ("random", *self.bots)

    def explain_level(self, level: str) -> str:
        """What the ``level`` computer player does, in a sentence."""
        self.bot(level)
        notes = self.level_notes
        if level not in notes:
            return _("a computer player.")
        return _(notes[level]).format(**self.level_numbers)

    def explain(self, view: View, legal: list[str], move: str) -> str:
        """Why ``normal``'s rules of thumb make ``move`` here, in a few words: ``""`` when
        they would make another move, or have nothing to say."""
        decided = self._decide(view, legal)
        if decided is None or decided[0] != move:
            return ""
        return words(decided[1], self._card_name)

    def _decide(self, view: View, legal: list[str]) -> tuple[str, Why] | None:
        """``normal``'s move and why (each game's ``bots.decide``); ``None``: no reasons."""
        return None

    def _card_name(self, code: str) -> str:
        """A card as a hint names it."""
        return cards.pretty(code)

    def bot(self, level: str) -> Bot:
        """The computer player called ``level``; ``ValueError`` if there is none."""
        if level == "random":
            return random_bot
        if level in self.bots:
            return self.bots[level]
        known = ", ".join(self.levels)
        raise ValueError(lazy_gettext(
            "Unknown computer level {level!r} (levels: {known}).",
            level=level, known=known,
        ))

    def choose(
        self, state: S, seat: int, level: str = "normal", rng: random.Random | None = None
    ) -> str:
        """The action the ``level`` computer player picks for ``seat`` (from its view)."""
        bot = self.bot(level)
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(lazy_gettext("It is not that seat's turn."))
        rng = rng or random.Random(0)
        if bot is random_bot:  # it looks at nothing but the legal moves: skip the view
            return rng.choice(legal)
        return bot(self.view(state, seat), legal, rng)

    # -- serialising --------------------------------------------------------------------
    def to_json(self, state: S) -> dict[str, Any]:
        """A JSON-able dict of the whole state (shares lists with it: dump, don't mutate)."""
        d: dict[str, Any] = {"game": self.name}
        d.update(state.__dict__)
        return d

    def from_json(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from ``to_json`` output; ``ValueError`` if it does not fit. A
        field with a default may be missing (a state saved before the field existed: a
        game saved mid-hand before ``history`` loads with an empty one)."""
        if data.get("game") != self.name:
            raise ValueError(f"Not a {self.title} state.")
        body = {k: v for k, v in data.items() if k != "game"}
        known = {f.name for f in fields(self.state_type)}
        needed = {
            f.name for f in fields(self.state_type)
            if f.default is MISSING and f.default_factory is MISSING
        }
        if not needed <= set(body) <= known:
            raise ValueError(f"A {self.title} state has the wrong fields.")
        body["to_act"] = tuple(body.get("to_act", ()))
        body["history"] = tuple(body.get("history", ()))
        return self.state_type(**body)  # type: ignore[return-value]

    def dumps(self, state: S) -> str:
        """The state as compact JSON text."""
        return json.dumps(self.to_json(state), separators=(",", ":"))

    def loads(self, text: str) -> S:
        """A state from ``dumps`` output."""
        return self.from_json(json.loads(text))

    # -- hooks --------------------------------------------------------------------------
    @abstractmethod
    def _new(self, players: int, seed: int, options: dict[str, Any], deck: list[str] | None) -> S:
        """Deal and set up; ``deck`` (top first) replaces the first shuffle when given."""

    @abstractmethod
    def _parse_action(self, text: str) -> str:
        """Canonicalise ``text``; raise ``ValueError``/``IllegalAction`` if malformed."""

    @abstractmethod
    def _legal(self, state: S, seat: int) -> list[str]:
        """Legal actions for a seat that is in ``to_act``."""

    @abstractmethod
    def _apply(self, state: S, seat: int, action: str) -> None:
        """Apply a canonical action to ``state``, a private copy the caller discards if
        this raises ``IllegalAction``."""

    @abstractmethod
    def _view(self, state: S, seat: int | None) -> View:
        """Game-specific view fields: at least ``hand`` (seats only), ``scores``, ``phase``."""

    @abstractmethod
    def _world(self, view: View, rng: random.Random) -> S:
        """A full state consistent with ``view`` (a seat's); see ``world``."""

    @abstractmethod
    def _scores(self, state: S) -> list[int]:
        """Cumulative score per seat (partners carry the same number)."""
