"""What Gin Rummy's learned evaluation sees of a position: numbers read from one seat's view.

A ``Table`` is everything the seat knows, as card masks (``melds.to_mask``): its hand, the
discard pile, the cards the opponent took from the pile and still holds (public), the cards
it threw this hand and those it let go (the pile's top when it drew from the stock instead,
or the upcard it passed), the cards the seat itself took, and the stock left. Cards in none
of the seat's hand, the pile or the opponent's known cards are *unseen*: each is as likely
as any other to be the next stock card.

``vector`` turns a 10-card hand of the seat and a card on top of the pile into the numbers
the evaluation weighs (``NAMES`` says what each is):

* the hand: its least deadwood, the cards in melds and the high cards left loose, and its
  *outs* — over every unseen card, the deadwood after drawing it and throwing the best
  card (on average, and how often it lets the hand knock, go gin or improve at all);
* what a knock would show: unseen cards and cards the opponent holds that it could lay off
  on the hand's melds;
* the table: stock left, the cards each side took, the opponent's discards (how many, and
  the values of its last two: low ones say its hand is nearly done), how likely the
  opponent plays like the eager player (``expert.eager_chance``'s reading);
* the top card: its value, and whether the opponent is collecting near it (cards it took),
  let such cards go (its discards and passes), and how many melds it could still make.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games import melds
from games.cards import INDEX

_RANKS = 13
_SUIT = (1 << _RANKS) - 1
_ALL = (1 << 52) - 1
#: Each card's rank column (the four cards of its rank) and its suit's cards within two ranks.
_COLUMN = tuple(sum(1 << (s * _RANKS + i % _RANKS) for s in range(4)) for i in range(52))
_BESIDE = tuple(
    sum(1 << j for j in range(i - i % _RANKS, i - i % _RANKS + _RANKS) if 0 < abs(j - i) <= 2)
    for i in range(52)
)
#: Cards that could make a meld with each card: its rank, and its suit within two ranks.
NEAR = tuple((_COLUMN[i] | _BESIDE[i]) & ~(1 << i) for i in range(52))
#: Per card, the pairs of other cards that make a three-card meld with it.
_TRIOS = tuple(
    tuple(
        [_COLUMN[i] & ~(1 << i | 1 << j) for j in melds.bits(_COLUMN[i]) if j != i]
        + [
            sum(1 << (i + a) for a in pair)
            for pair in ((-2, -1), (-1, 1), (1, 2))
            if i % _RANKS + min(pair) >= 0 and i % _RANKS + max(pair) < _RANKS
        ]
    )
    for i in range(52)
)

#: What each number of ``vector`` is, in order.
NAMES = (
    "deadwood", "gin", "may knock", "melded cards", "loose high cards", "loose cards",
    "deadwood after the next draw", "next draw lets it knock", "next draw makes gin",
    "next draw improves", "unseen lay-offs", "opponent's lay-offs",
    "stock", "opponent took", "opponent threw", "I took", "opponent eager",
    "opponent's last discard", "opponent's discard before",
    "top value", "top near what they took", "top near what they let go",
    "top melds left", "first turn",
)


@dataclass(frozen=True)
class Table:
    """What one seat knows of a hand in play, as card masks (see the module docstring)."""

    hand: int
    pile: int
    theirs: int
    threw: int
    passed: int
    mine: int
    stock: int
    eager: float = 0.5
    offer: bool = False
    #: The values of the opponent's last two discards, the last first (0: none).
    recent: tuple[int, int] = (0, 0)

    @property
    def unseen(self) -> int:
        """Cards the seat cannot place: in the stock or the opponent's unknown cards."""
        return _ALL & ~(self.hand | self.pile | self.theirs)


def table(view: Mapping[str, Any], eager: float = 0.5) -> Table:
    """The ``Table`` of a seat's view (``hand``, ``discards``, ``known``, ``stock``,
    ``history`` and ``seat`` are read); ``eager``: how likely the opponent is the eager
    player."""
    me: int = view["seat"]
    threw = passed = 0
    recent = [0, 0]
    top: str | None = None
    for event in view["history"]:
        kind = event["type"]
        if kind == "new_hand":
            top = event["upcard"]
        elif kind == "discard":
            if event["seat"] != me:
                threw |= 1 << INDEX[event["card"]]
                recent = [melds.card_value(event["card"]), recent[0]]
            top = event["card"]
        elif kind == "pass":
            if event["seat"] != me and top is not None:
                passed |= 1 << INDEX[top]
        elif kind == "draw":
            if event["source"] == "discard":
                top = None
            elif event["seat"] != me and top is not None:
                passed |= 1 << INDEX[top]
    return Table(
        hand=melds.to_mask(view["hand"]), pile=melds.to_mask(view["discards"]),
        theirs=melds.to_mask(view["known"][1 - me]), threw=threw, passed=passed,
        mine=melds.to_mask(view["known"][me]), stock=view["stock"], eager=eager,
        offer=view.get("phase") == "offer", recent=(recent[0], recent[1]),
    )


def _run_partners(pattern: int) -> int:
    """Ranks of one suit that would make a run of three with two of ``pattern``'s."""
    two = pattern & pattern << 1  # ranks r held with r - 1
    gap = pattern & pattern >> 2  # ranks r held with r + 2
    return (two << 1 | two >> 2 | gap << 1) & _SUIT & ~pattern


#: Per 13-bit suit pattern, ``_run_partners``.
_RUN_PARTNERS = tuple(_run_partners(p) for p in range(1 << _RANKS))


def meldable(hand: int) -> int:
    """Cards not in ``hand`` that would make a meld with two (or more) of its cards."""
    out = 0
    for s in range(4):
        out |= _RUN_PARTNERS[hand >> s * _RANKS & _SUIT] << s * _RANKS
    column = _COLUMN[0]
    for r in range(_RANKS):
        held = hand & column << r
        if held & (held - 1):  # two or more of the rank
            out |= column << r & ~hand
    return out


@lru_cache(maxsize=1 << 15)
def outs(hand: int) -> tuple[int, ...]:
    """For a 10-card ``hand``, per card of the deck (52 entries; those in the hand are 0):
    the least deadwood after drawing that card and throwing the best one. A card that makes
    no meld with the hand (``meldable``) can only replace a loose card: then it is the
    hand's deadwood or, if less, what throwing the hand's best card leaves plus the card."""
    dead = melds.min_deadwood_mask(hand)
    spare = melds.best_discard_value_mask(hand)
    near = meldable(hand)
    out = [0 if 1 << i & hand else min(dead, spare + melds.BIT_VALUE[i]) for i in range(52)]
    for i in melds.bits(near):
        out[i] = melds.best_discard_value_mask(hand | 1 << i)
    return tuple(out)


@lru_cache(maxsize=1 << 15)
def _shape(hand: int) -> tuple[int, int, int, int, int]:
    """Deadwood, melded cards, loose high cards, loose cards, and the mask of cards that
    could be laid off on the hand's best melds."""
    best = melds.best_arrangement(melds.to_cards(hand))
    loose = melds.to_mask(best.deadwood)
    lay = 0
    for seg, _ in melds.layoff_segments(best.melds):
        if seg & (seg - 1) == 0:  # one card: the next of a run, or a set's fourth
            lay |= seg
    high = sum(1 for i in melds.bits(loose) if melds.BIT_VALUE[i] == 10)
    return best.value, 10 - len(best.deadwood), high, len(best.deadwood), lay


def _count(mask: int) -> int:
    return mask.bit_count()


def vector(t: Table, hand: int, top: int | None) -> list[float]:
    """The numbers (``NAMES``) for the seat holding ``hand`` (10 cards) with ``top`` (a bit
    position, or None) on the discard pile, the rest of ``t`` as it is."""
    unseen = t.unseen & ~hand
    if top is not None:
        unseen &= ~(1 << top)
    dead, melded, high, loose, lay = _shape(hand)
    after = outs(hand)
    n = max(1, _count(unseen))
    total = knock = gin = better = 0
    for i in melds.bits(unseen):
        r = after[i]
        total += r
        knock += r <= 10
        gin += r == 0
        better += r < dead
    if top is None:
        top_part = [0.0, 0.0, 0.0, 0.0]
    else:
        near = NEAR[top]
        live = unseen | t.theirs
        top_part = [
            melds.BIT_VALUE[top] / 10, _count(near & t.theirs) / 2,
            _count(near & (t.threw | t.passed)) / 2,
            sum(1 for pair in _TRIOS[top] if pair & live == pair) / 6,
        ]
    return [
        dead / 10, float(dead == 0), float(dead <= 10), melded / 10, high / 5, loose / 10,
        total / n / 10, knock / n, gin / n, better / n,
        _count(lay & unseen) / 8, _count(lay & t.theirs) / 3,
        t.stock / 31, _count(t.theirs) / 4, _count(t.threw) / 15, _count(t.mine) / 4, t.eager,
        t.recent[0] / 10, t.recent[1] / 10,
        *top_part, float(t.offer),
    ]
