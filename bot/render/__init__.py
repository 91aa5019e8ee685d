"""Engine views and events → text, shared by the Discord adapter and the terminal.

Each game has a module here exposing ``RENDERER`` (a ``GameRenderer``). Renderers only
ever receive views, so they cannot show a card the viewer may not see: the public table
is rendered from the spectator view (``game.view(state, None)``), a hand from that seat's
view. Output is ``Text`` (``bot.render.markup``): words with emphasis marked, in no
surface's markup, so Discord, the standings page and the terminal each show the same
lines in their own.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.render.markup import Text

View = dict[str, Any]


class GameRenderer(Protocol):
    """How one game is shown to people."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        """Lines of the public table (from the spectator view): trick/discard/total, bids."""

    def hand(self, view: View) -> list[Text]:
        """Lines describing a seat's private position (from that seat's view)."""

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        """One line for a public event ("Alice knocked with 4"), or None to skip it."""

    def action_label(self, action: str) -> str:
        """A short label for a legal action, for buttons and menus ("Discard Q♥")."""

    #: Moves that stake much and cannot be taken back, each with the question a person at
    #: a terminal is asked before it is made (a message id; ``deckhand play``).
    risks: Mapping[str, str]


def renderer(game: str) -> GameRenderer:
    """The renderer of a game by name."""
    module = importlib.import_module(f"bot.render.{game}")
    r: GameRenderer = module.RENDERER
    return r
