"""Card faces: every card of every deck in both palettes, valid unique emoji names,
emoji-sized PNGs, and suits told apart by shape as well as by colour."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

import games
from bot.art.draw import INK
from bot.art.faces import BACK, BLUE, GREEN, PALETTES, RED, SIZE, emoji_name, face, faces

_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
_EMOJI_LIMIT = 256 * 1024


@pytest.fixture(scope="module")
def every_face() -> dict[str, dict[str, bytes]]:
    return {palette: faces(palette) for palette in PALETTES}


@pytest.mark.parametrize("game", games.names())
def test_every_card_of_every_deck_has_a_face_in_both_palettes(
    game: str, every_face: dict[str, dict[str, bytes]]
) -> None:
    for palette in PALETTES:
        names = set(every_face[palette])
        for card in {*games.get(game).full_deck, BACK}:
            assert emoji_name(card, palette) in names, (game, card, palette)


def test_names_are_valid_emoji_names_and_unique_across_palettes(
    every_face: dict[str, dict[str, bytes]]
) -> None:
    every = [name for palette in PALETTES for name in every_face[palette]]
    assert len(every) == len(set(every))
    for name in every:
        assert _NAME.match(name), name
    assert len(every) <= 2000  # Discord's limit of application emojis


def test_names_read_as_the_card() -> None:
    assert emoji_name("AS", "two") == "dh2_AS"
    assert emoji_name("TH", "four") == "dh4_TH"
    assert emoji_name("BJ", "two") == "dh2_BJ"
    assert emoji_name("-10", "four") == "dh4_oM10"
    assert emoji_name("10", "two") == "dh2_o10"
    assert emoji_name(BACK, "two") == "dh2_back"


def test_faces_are_emoji_sized_pngs(every_face: dict[str, dict[str, bytes]]) -> None:
    for name, data in (i for pngs in every_face.values() for i in pngs.items()):
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
        assert len(data) < _EMOJI_LIMIT, name
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and image.size == (SIZE, SIZE), name


def _suit_colour(card: str, palette: str) -> tuple[int, int, int]:
    """The colour at the middle of the suit shape (the lower half of the face)."""
    pixel = face(card, palette).getpixel((64, 92))
    assert isinstance(pixel, tuple), pixel
    r, g, b, _ = pixel
    return (r, g, b)


def test_four_colour_deck_colours_each_suit_its_own_way() -> None:
    assert [_suit_colour("A" + s, "four") for s in "SHDC"] == [INK, RED, BLUE, GREEN]
    assert [_suit_colour("A" + s, "two") for s in "SHDC"] == [INK, RED, RED, INK]


def test_the_palettes_differ_only_for_diamonds_and_clubs(
    every_face: dict[str, dict[str, bytes]]
) -> None:
    two, four = every_face["two"], every_face["four"]
    for card in games.get("back_alley").full_deck:
        differs = two[emoji_name(card, "two")] != four[emoji_name(card, "four")]
        assert differs == (card[1:] in ("D", "C")), card


def _shape(card: str) -> frozenset[tuple[int, int]]:
    """The suit's pixels (whatever their colour) in the lower half of the face."""
    image = face(card, "two").convert("RGB")
    paper = image.getpixel((20, 120))
    return frozenset(
        (x, y) for x in range(20, 108) for y in range(68, 120)
        if image.getpixel((x, y)) != paper
    )


def test_suits_differ_by_shape_not_only_by_colour() -> None:
    shapes = {s: _shape("A" + s) for s in "SHDC"}
    for a in "SHDC":
        for b in "SHDC":
            if a < b:
                overlap = len(shapes[a] & shapes[b]) / len(shapes[a] | shapes[b])
                assert overlap < 0.8, (a, b, overlap)


def test_unknown_cards_and_palettes_are_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        emoji_name("AS", "sepia")
    with pytest.raises(ValueError, match="No face"):
        emoji_name("1S", "two")
    with pytest.raises(ValueError, match="No face"):
        face("ZZ", "four")
