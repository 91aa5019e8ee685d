"""Sample pictures for docs/pictures.md: a card sheet per palette and each game's hand end.

Hand ends come from seeded games played by the ``normal`` computer players, drawn from
the public events the games produced (``hand_end.hands``), like the bot draws them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from PIL import Image

import games
from bot.art import hand_end
from bot.art.draw import png
from bot.art.faces import CARDS, PALETTES, face
from games.base import State

NAMES: Final = ("Ada", "Ben", "Cleo", "Dev")
#: Seats and options of each game's sample (ONO 99 with four seats: three go out).
PLAYERS: Final = {"gin_rummy": 2, "spades": 2, "back_alley": 4, "craits": 4, "ono99": 4}
SEED: Final = 18
_DISCORD_DARK: Final = (49, 51, 56, 255)
_TILE: Final = 64
_COLUMNS: Final = 13  # one suit a row


def play(name: str, players: int, seed: int, options: Mapping[str, Any] | None = None,
         level: str = "normal") -> Iterator[State]:
    """Every state of a seeded game between ``level`` computer players, first to last."""
    game = games.get(name)
    rng = random.Random(seed)
    state = game.new(players, seed=seed, options=options)
    yield state
    while not state.is_over:
        seat = state.to_act[0]
        state = game.apply(state, seat, game.choose(state, seat, level, rng))
        yield state


def public_events(states: Iterator[State]) -> list[dict[str, Any]]:
    """The public events of a sequence of states, in order."""
    return [e for s in states for e in s.events]


def _rich(name: str, hand: list[dict[str, Any]]) -> bool:
    """A hand worth showing: Gin Rummy's with lay-offs, Craits' with a hand left."""
    if name == "gin_rummy":
        return any(e["type"] == "lay_down" and e["lay_offs"] for e in hand)
    if name == "craits":
        return sum(1 for h in hand[-1].get("hands", []) if h["cards"]) >= 3
    return True


def sample_hand(name: str) -> bytes:
    """The hand-end picture of the first telling hand of the game's seeded sample."""
    hands = hand_end.hands(name, public_events(play(name, PLAYERS[name], SEED)))
    hand = next((h for h in hands if _rich(name, h)), hands[0])
    return hand_end.picture(name, hand, NAMES[: PLAYERS[name]])


def card_sheet(palette: str) -> bytes:
    """Every face of ``palette`` (and the back) at 64 px on Discord's dark background."""
    rows = -(-len(CARDS) // _COLUMNS)
    sheet = Image.new("RGBA", (_COLUMNS * _TILE + 8, rows * _TILE + 8), _DISCORD_DARK)
    for k, card in enumerate(CARDS):
        tile = face(card, palette).resize((_TILE, _TILE), Image.Resampling.LANCZOS)
        sheet.alpha_composite(tile, (4 + k % _COLUMNS * _TILE, 4 + k // _COLUMNS * _TILE))
    return png(sheet)


def write(out: Path) -> list[Path]:
    """Write the card sheets and the hand-end pictures into the folder ``out`` (which
    must exist); return their paths."""
    pictures = {f"cards-{p}-colour.png": card_sheet(p) for p in PALETTES}
    pictures.update({f"hand-end-{n}.png": sample_hand(n) for n in games.names()})
    paths = []
    for filename, data in pictures.items():
        path = out / filename
        path.write_bytes(data)
        paths.append(path)
    return paths
