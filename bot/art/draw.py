"""Drawing primitives shared by the card faces and the hand-end pictures.

Suit symbols are drawn as shapes (ellipses and polygons), never as font glyphs, so they
look the same everywhere. Card indices (ASCII only) use Pillow's bundled font
(``ImageFont.load_default``: Aileron, public domain, in every Pillow with FreeType); the
text of pictures, which holds players' names, is drawn by ``write`` with a chain of fonts,
character by character: DejaVu Sans shipped in ``fonts/`` (Bitstream Vera licence,
``fonts/LICENSE-DejaVu.txt``: accented Latin, Greek, Cyrillic, Hebrew, Arabic), then for
what it lacks the fonts of ``FALLBACK_FONTS`` that are installed — Debian's
``fonts-wqy-microhei`` (WenQuanYi Micro Hei, Apache 2.0 or GPLv3 with the font
exception: Chinese, Japanese kana, Korean hangul), which the Dockerfile and CI install.
Which font has a character is read from each font's character map (fontTools), so a name
never shows the "missing glyph" box while a font of the chain has the character.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
INK: Colour = (30, 30, 36)
FELT: Colour = (23, 94, 63)
PAPER: Colour = (250, 248, 240)


TEXT_FONT = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"
#: Fonts for the characters DejaVu Sans lacks, tried in order where installed.
FALLBACK_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
)


@cache
def index_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels, for card indices and words on cards."""
    return ImageFont.load_default(size=size)


@cache
def font(size: int, path: Path = TEXT_FONT) -> ImageFont.FreeTypeFont:
    """A text font (DejaVu Sans unless ``path`` names another) at ``size`` pixels."""
    return ImageFont.truetype(path, size)


@cache
def text_fonts() -> tuple[Path, ...]:
    """The chain of text fonts: DejaVu Sans, then each installed fallback."""
    return (TEXT_FONT, *(p for p in FALLBACK_FONTS if p.is_file()))


@cache
def _characters(path: Path) -> frozenset[int]:
    """The characters a font has a glyph for (its best character map)."""
    with TTFont(path, fontNumber=0, lazy=True) as face:
        return frozenset(face.getBestCmap() or {})


def runs(text: str) -> list[tuple[str, Path]]:
    """``text`` cut into runs, each with the first font of the chain that has its
    characters (DejaVu Sans where none has one: its box is honest)."""
    out: list[tuple[str, Path]] = []
    for char in text:
        path = next((p for p in text_fonts() if ord(char) in _characters(p)), TEXT_FONT)
        if out and out[-1][1] == path:
            out[-1] = (out[-1][0] + char, path)
        else:
            out.append((char, path))
    return out


def text_length(text: str, size: int) -> float:
    """How wide ``write`` draws ``text`` at ``size`` pixels."""
    return sum(font(size, path).getlength(run) for run, path in runs(text))


def write(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
          fill: Colour) -> None:
    """Draw ``text`` with its top left at ``xy``, each run in the font of the chain that
    has it, all on DejaVu Sans's baseline."""
    x, y = xy
    baseline = y + font(size).getmetrics()[0]
    for run, path in runs(text):
        draw.text((x, baseline), run, font=font(size, path), fill=fill, anchor="ls")
        x += font(size, path).getlength(run)


def centred_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour,
    stroke: int = 0,
) -> None:
    """Draw ``text`` centred on ``xy`` (middle of the ink, both ways)."""
    draw.text(xy, text, font=index_font(size), fill=fill, anchor="mm", stroke_width=stroke,
              stroke_fill=fill)


def suit(draw: ImageDraw.ImageDraw, letter: str, cx: float, cy: float, size: float,
         fill: Colour) -> None:
    """Draw suit ``letter`` (S H D C) as shapes, centred on (cx, cy), ``size`` pixels tall."""
    r = size / 2
    if letter == "D":
        draw.polygon([(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r), (cx - r * 0.72, cy)],
                     fill=fill)
    elif letter == "H":
        lobe = r * 0.52
        for dx in (-lobe, lobe):
            draw.ellipse([cx + dx - lobe, cy - r * 0.78 - 0.0, cx + dx + lobe,
                          cy - r * 0.78 + 2 * lobe], fill=fill)
        draw.polygon([(cx - 2 * lobe + 0.5, cy - r * 0.78 + lobe * 1.05),
                      (cx + 2 * lobe - 0.5, cy - r * 0.78 + lobe * 1.05), (cx, cy + r)],
                     fill=fill)
    elif letter == "S":
        lobe = r * 0.5
        for dx in (-lobe, lobe):
            draw.ellipse([cx + dx - lobe, cy + r * 0.42 - 2 * lobe, cx + dx + lobe,
                          cy + r * 0.42], fill=fill)
        draw.polygon([(cx - 2 * lobe + 0.5, cy + r * 0.42 - lobe * 1.05),
                      (cx + 2 * lobe - 0.5, cy + r * 0.42 - lobe * 1.05), (cx, cy - r)],
                     fill=fill)
        _stem(draw, cx, cy, r, fill)
    elif letter == "C":
        lobe = r * 0.36
        centres = [(cx, cy - r + lobe), (cx - lobe * 1.15, cy + r * 0.08),
                   (cx + lobe * 1.15, cy + r * 0.08)]
        for x, y in centres:
            draw.ellipse([x - lobe, y - lobe, x + lobe, y + lobe], fill=fill)
        draw.ellipse([cx - lobe * 0.6, cy - lobe * 0.7, cx + lobe * 0.6, cy + lobe * 0.7],
                     fill=fill)
        _stem(draw, cx, cy, r, fill)
    else:
        raise ValueError(f"not a suit: {letter!r}")


def _stem(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    draw.polygon([(cx - r * 0.1, cy), (cx + r * 0.1, cy), (cx + r * 0.42, cy + r),
                  (cx - r * 0.42, cy + r)], fill=fill)


def png(image: Image.Image) -> bytes:
    """The image as PNG bytes (deterministic: no timestamps in the file). Pillow's
    default compression: ``optimize`` would save under 5% for seven times the time."""
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
