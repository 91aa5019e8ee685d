"""Deckhand's own card faces, sized for Discord application emojis (128×128 PNG).

Faces are drawn for reading at emoji size: the rank fills the top half, the suit shape
the bottom half; no corner indices, no pips. Every card of every game's deck has a face
(the standard 52, the Back Alley jokers, the ONO 99 cards), plus a card back.

Two palettes: ``two`` (♠♣ black, ♥♦ red) and ``four`` (♠ black, ♥ red, ♦ blue,
♣ green). Suits always differ by shape too, so neither palette relies on colour alone.
ONO 99 cards have no suits and look the same in both palettes (each palette still has
its own emoji names, so a player's choice maps every card to one set).

Emoji names are ``dh2_`` or ``dh4_`` (the palette) and the card: ``dh4_AS``, ``dh2_BJ``;
ONO 99 cards take an ``o`` (``dh2_o7``, ``dh2_oM10``, ``dh2_oREV``); the back is
``dh2_back``.
"""

from __future__ import annotations

import math
from typing import Final

from PIL import Image, ImageDraw

import games
from bot.art.draw import INK, PAPER, WHITE, Colour, centred_text, index_font, png, suit
from games.cards import BIG_JOKER, JOKERS
from games.ono99.cards import MINUS, NUMBERS, ONO, ORDER, P2, REV

SIZE: Final = 128
#: The card back's code (not a card of any deck).
BACK: Final = "back"
RED: Final[Colour] = (205, 25, 40)
BLUE: Final[Colour] = (20, 80, 200)
GREEN: Final[Colour] = (10, 130, 50)
PALETTES: Final[dict[str, dict[str, Colour]]] = {
    "two": {"S": INK, "H": RED, "D": RED, "C": INK},
    "four": {"S": INK, "H": RED, "D": BLUE, "C": GREEN},
}
_PREFIX: Final = {"two": "dh2_", "four": "dh4_"}
_ONO_NAMES: Final = {MINUS: "M10"}
_ONO_COLOURS: Final[dict[str, Colour]] = {
    REV: (120, 40, 170), P2: (210, 110, 0), MINUS: (20, 120, 150), ONO: (190, 20, 60),
}
_ONO_NUMBER: Final[Colour] = (40, 60, 150)

#: Every card of every deck Deckhand uses, then the back (each once, deck order).
CARDS: Final[tuple[str, ...]] = (
    *dict.fromkeys(c for name in games.names() for c in games.get(name).full_deck),
    BACK,
)


def _check(palette: str) -> None:
    if palette not in PALETTES:
        raise ValueError(f"Unknown palette {palette!r} (palettes: {', '.join(PALETTES)}).")


def emoji_name(card: str, palette: str) -> str:
    """The application emoji name of ``card`` (a code, or ``"back"``) in ``palette``."""
    _check(palette)
    if card not in CARDS:
        raise ValueError(f"No face for {card!r}.")
    body = f"o{_ONO_NAMES.get(card, card)}" if card in ORDER else card
    return _PREFIX[palette] + body


def _blank(border: Colour = (200, 200, 205)) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent square with an upright card (rounded, bordered) on it."""
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([14, 1, 113, 126], radius=12, fill=PAPER, outline=border, width=3)
    return image, draw


def _standard(card: str, colours: dict[str, Colour]) -> Image.Image:
    colour = colours[card[1]]
    image, draw = _blank(colour)
    rank = "10" if card[0] == "T" else card[0]
    centred_text(draw, (64, 36), rank, 60 if rank != "10" else 54, colour, stroke=1)
    suit(draw, card[1], 64, 92, 52, colour)
    return image


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    points = [
        (cx + (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5),
         cy - (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5))
        for k in range(10)
    ]
    draw.polygon(points, fill=fill)


def _joker(card: str) -> Image.Image:
    """Big Blooper: a big red star under BIG; Little Blooper: a small black star under
    LITTLE (they differ in word, size and colour)."""
    big = card == BIG_JOKER
    colour = RED if big else INK
    image, draw = _blank(colour)
    centred_text(draw, (64, 26), "BIG" if big else "LITTLE", 34 if big else 26, colour,
                 stroke=1)
    _star(draw, 64, 82, 38 if big else 26, colour)
    return image


def _ono_colour(card: str) -> Colour:
    return _ONO_COLOURS.get(card, _ONO_NUMBER)


def _arrow_arc(draw: ImageDraw.ImageDraw, start: int, colour: Colour) -> None:
    """Half a circle of the reverse symbol with its arrow head."""
    cx, cy, r = 64, 80, 28
    draw.arc([cx - r, cy - r, cx + r, cy + r], start, start + 150, fill=colour, width=11)
    end = math.radians(start + 150)
    x, y = cx + r * math.cos(end), cy + r * math.sin(end)
    tx, ty = -math.sin(end), math.cos(end)  # tangent, direction of travel
    nx, ny = math.cos(end), math.sin(end)
    draw.polygon([(x + 15 * tx, y + 15 * ty), (x + 13 * nx, y + 13 * ny),
                  (x - 13 * nx, y - 13 * ny)], fill=colour)


def _ono(card: str) -> Image.Image:
    """Numbers big in blue; -10, Reverse (two arrows round a circle), Play 2 (two
    chevrons and a 2) and ONO 99 each in their own colour with a word on top."""
    colour = _ono_colour(card)
    image, draw = _blank(colour)
    if card in NUMBERS:
        centred_text(draw, (64, 64), card, 74 if len(card) == 1 else 64, colour, stroke=2)
        return image
    if card == MINUS:
        centred_text(draw, (64, 64), "-10", 56, colour, stroke=2)
        return image
    word = {REV: "REV", P2: "PLAY", ONO: "ONO"}[card]
    centred_text(draw, (64, 22), word, 28, colour, stroke=1)
    if card == REV:
        _arrow_arc(draw, 200, colour)
        _arrow_arc(draw, 20, colour)
    elif card == P2:
        for x in (26, 46):
            draw.polygon([(x, 52), (x + 20, 80), (x, 108)], fill=colour)
        centred_text(draw, (90, 80), "2", 56, colour, stroke=2)
    else:
        centred_text(draw, (64, 80), "99", 60, colour, stroke=2)
    return image


def _back() -> Image.Image:
    """A deep blue back with a white lattice and a D in the middle."""
    navy: Colour = (25, 45, 120)
    image, draw = _blank(navy)
    draw.rounded_rectangle([22, 9, 105, 118], radius=8, fill=navy)
    for k in range(-6, 8):
        x = 22 + k * 16
        draw.line([(x, 9), (x + 110, 119)], fill=(70, 95, 180), width=3)
        draw.line([(x + 110, 9), (x, 119)], fill=(70, 95, 180), width=3)
    image.paste((0, 0, 0, 0), (0, 0, 14, SIZE))
    image.paste((0, 0, 0, 0), (114, 0, SIZE, SIZE))
    draw.rounded_rectangle([14, 1, 113, 126], radius=12, outline=navy, width=8)
    draw.ellipse([40, 40, 88, 88], fill=WHITE)
    draw.text((64, 64), "D", font=index_font(36), fill=navy, anchor="mm")
    return image


def face(card: str, palette: str) -> Image.Image:
    """The face of ``card`` (or the back) in ``palette``, 128×128 RGBA."""
    _check(palette)
    if card == BACK:
        return _back()
    if card in JOKERS:
        return _joker(card)
    if card in ORDER:
        return _ono(card)
    if card in CARDS:
        return _standard(card, PALETTES[palette])
    raise ValueError(f"No face for {card!r}.")


def faces(palette: str) -> dict[str, bytes]:
    """Every face of ``palette`` as emoji name → PNG bytes."""
    return {emoji_name(c, palette): png(face(c, palette)) for c in CARDS}

