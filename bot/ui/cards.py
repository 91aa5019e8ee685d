"""Cards shown with Deckhand's own emojis (``/settings cards:emoji``), the text kept.

Decisions:

* Only a player's private messages are decorated, in their own palette (``deck``): their
  hand DM and channel panel. The public table message stays text, one palette for all.
* In text, each standard card (``Q♥``, ``10♠``, the Back Alley jokers) gets its emoji in
  front and keeps its label, so it still reads where the emoji is missing. ONO 99's cards
  are bare numbers in text (``total 7``), so its text is left as it is.
* A button or menu option whose move names exactly one card of the game's deck shows that
  card's emoji beside its label.
* Any card without an uploaded emoji (or ``cards:text``) is shown as text alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache

import games
from bot import custom_ids
from bot.card_emojis import CardEmojis
from bot.render.messages import Button, MessageSpec, Select
from bot.services.preferences import Preferences
from games.cards import BIG_JOKER, LITTLE_JOKER, parse_code, pretty

_PRETTY = re.compile(r"(?<![0-9A-Za-z>])(?:10|[2-9AJQK])[♠♥♦♣]|Big🃏|Little🃏")
_CARD_TEXT_GAMES = {"gin_rummy", "spades", "back_alley", "craits"}
JOKER_TEXT = {pretty(BIG_JOKER): BIG_JOKER, pretty(LITTLE_JOKER): LITTLE_JOKER}
Mark = Callable[[str | None], str]


@cache
def _deck(game: str) -> frozenset[str]:
    return frozenset(games.get(game).full_deck)


def _move_card(game: str, move: str) -> str | None:
    """The one card of ``game``'s deck a move (or a bare card, in a card menu) names."""
    deck = _deck(game)
    words = move.split()
    found = [t for t in (words if len(words) == 1 else words[1:]) if t in deck]
    return found[0] if len(found) == 1 else None


def _code(text: str) -> str:
    return JOKER_TEXT.get(text) or parse_code(text)


def decorate(spec: MessageSpec, game: str, emojis: CardEmojis, prefs: Preferences) -> MessageSpec:
    """``spec`` with card emojis for a player who asked for them (else unchanged)."""
    if prefs.cards != "emoji" or not len(emojis):
        return spec
    palette = prefs.deck

    def mark(card: str | None) -> str:
        md = emojis.markdown(card, palette) if card is not None else None
        return md or ""

    def text(match: re.Match[str]) -> str:
        return mark(_code(match.group(0))) + match.group(0)

    content = (
        _PRETTY.sub(text, spec.content) if game in _CARD_TEXT_GAMES else spec.content
    )

    def move_of(custom_id: str) -> str:
        try:
            cid = custom_ids.parse(custom_id)
        except custom_ids.BadCustomId:
            return ""
        return cid.arg if cid.kind == "act" else ""

    rows = tuple(
        tuple(
            replace(c, emoji=mark(_move_card(game, move_of(c.custom_id))))
            if isinstance(c, Button)
            else _select(c, game, mark)
            for c in row
        )
        for row in spec.rows
    )
    return replace(spec, content=content, rows=rows)


def _select(s: Select, game: str, mark: Mark) -> Select:
    emojis = tuple(mark(_move_card(game, value)) for _, value in s.options)
    return replace(s, emojis=emojis if any(emojis) else ())
