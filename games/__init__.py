"""Deckhand's card-game engines: pure rules, no I/O, deterministic from their inputs.

``games.names()`` lists the games, ``games.get(name)`` returns one (``UnknownGame`` if
there is no such game). The contract every game keeps is in ``games.base``.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.base import Game, IllegalAction, Option, Outcome, State, UnknownGame
from i18n import lazy_gettext

__all__ = [
    "Game", "IllegalAction", "Option", "Outcome", "State", "UnknownGame", "get", "levels", "names",
]

_MODULES = {
    "back_alley": "games.back_alley",
    "craits": "games.craits",
    "gin_rummy": "games.gin_rummy",
    "ono99": "games.ono99",
    "spades": "games.spades",
}
_loaded: dict[str, Game[Any]] = {}


def names() -> list[str]:
    """The names of all games, sorted."""
    return sorted(_MODULES)


def get(name: str) -> Game[Any]:
    """The game called ``name`` (case-insensitive); ``UnknownGame`` if there is none."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_") if isinstance(name, str) else ""
    if key not in _MODULES:
        raise UnknownGame(lazy_gettext(
            "Unknown game {name!r}; games: {games}.",
            name=name, games=', '.join(names()),
        ))
    if key not in _loaded:
        _loaded[key] = importlib.import_module(_MODULES[key]).GAME
    return _loaded[key]


def levels() -> list[str]:
    """Every computer level any game has, weakest first."""
    return list(dict.fromkeys(level for n in names() for level in get(n).levels))
