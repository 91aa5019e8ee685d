"""Craits computer players (``random`` is the shared one; this adds ``normal``).

``normal`` calls out whenever it can, always announces its last card, keeps the crank
going with its 2s (keeping aces as cheap defence), and otherwise picks the play that
sheds the most points while keeping an 8 as an escape and 3s to cancel with (a lone 3
left at the end scores −50). Powers are worth more when the next player is close to
going out, and suits are chosen (8s, 9s) for what it holds most of.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from games.base import View, Why
from games.cards import suit_count
from games.craits import moves
from games.craits.scoring import POINTS
from i18n import N_, _, listing, ngettext

#: Extra value of a power card played against a next player holding 1–2 cards.
ATTACK: Final = {"2": 40, "4": 45, "5": 25, "7": 30}


def _why_play(name: Callable[[str], str], view: View, action: str, only: bool) -> str:
    play = moves.read_play(action)
    card, rank = play.card, play.card[0]
    rest = [c for c in view["hand"] if c != card]
    if not rest:
        return _(N_("{card} is your last card: it goes out"), card=name(card))
    if play.last:
        return _(N_("{card} leaves you one card, which you announce"), card=name(card))
    if only:
        return _(N_("{card} is the only card you can play"), card=name(card))
    if view["crank"]:
        return _(N_("the crank is on: {card} sheds the most points"), card=name(card))
    counts: list[int] = view["hand_counts"]
    ahead = (view["seat"] + view["direction"]) % view["players"]
    if counts[ahead] <= 2 and rank in ATTACK:
        return ngettext(
            "the next player holds {n} card: the power of {card} holds them back",
            "the next player holds {n} cards: the power of {card} holds them back",
            counts[ahead], card=name(card),
        )
    suit = play.named or card[1]
    follow = [c for c in rest if c[1] == suit and c[0] not in "38"]
    twin = next((c for c in rest if c[0] == rank), None)
    kept = [_(N_("{cards} to follow with"), cards=suit_count(len(follow), suit))] if follow else []
    kept += [_(N_("{card} to match it"), card=name(twin))] if twin is not None else []
    if rank != "8" and any(c[0] == "8" for c in rest):
        kept.append(_("an 8 as an escape"))
    if rank != "3" and any(c[0] == "3" for c in rest):
        kept.append(_("a 3 to cancel with"))
    said = (  # normal values every other card above any 3 (see ``_value``)
        _("you can play only 3s") if rank == "3"
        else ngettext("{card} sheds {n} point", "{card} sheds {n} points", POINTS[rank],
                      card=name(card))
    )
    if not kept:
        return said
    return _(N_("{said}; you keep {kept}"), said=said, kept=listing(kept))


def decide(view: View, legal: list[str]) -> tuple[str, Why]:
    """The ``normal`` player's move, and why."""
    for action in legal:
        if action.startswith("callout"):
            return action, (N_("a player did not announce their last card: you call them out"),)
        if action.startswith("announce"):
            return action, (N_("you announce your last card before anyone calls you out"),)
    plays = [a for a in legal if a.startswith("play")]
    if not plays:
        return legal[0], (N_("none of your cards may be played"),)
    if any(a.endswith(" last") for a in plays):
        plays = [a for a in plays if a.endswith(" last")]
    action = max(plays, key=lambda a: _value(view, moves.read_play(a)))
    return action, (_why_play, view, action, len(plays) == 1)


def normal(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` computer player."""
    return decide(view, legal)[0]


def _value(view: View, play: moves.Play) -> float:
    hand: list[str] = view["hand"]
    card, rank = play.card, play.card[0]
    rest = [c for c in hand if c != card]
    if not rest:
        return 1000.0
    if view["crank"]:
        return POINTS[rank]
    seat, n = view["seat"], view["players"]
    counts: list[int] = view["hand_counts"]
    ahead = (seat + view["direction"]) % n
    behind = (seat - view["direction"]) % n
    value = float(POINTS[rank])
    if rank == "8":
        value -= 40
    elif rank == "3":
        value -= 90
    elif rank == "A":
        value -= 5
    if counts[ahead] <= 2:
        value += ATTACK.get(rank, 0)
        if rank == "T" and n > 2 and counts[behind] > counts[ahead]:
            value += 30
    if rank == "2":
        value += 10 if any(c[0] in "A2" for c in rest) else -10
    suit = play.named or card[1]
    follow = [c for c in rest if c[1] == suit and c[0] not in "38"]
    value += 4 * len(follow) + 0.05 * sum(POINTS[c[0]] for c in follow)
    value += 4 * sum(1 for c in rest if c[0] == rank)
    if rank == "6":
        value += 25 if follow or any(c[0] in "68" for c in rest) else -20
    return value
