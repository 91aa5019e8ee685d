"""A player's rating over time as a small picture (``/stats``).

One line per game, x the player's n-th counted game of the season (0: the newcomer rating
before the first), y the displayed rating; each line has its own colour and its last
point its value. The axis spans the ratings shown, with at least 100 points of range.
A line is drawn through the points it is given (``bot.services.leagues.chart_games``
picks at most a few hundred of a long season's games).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.art.draw import PAPER, Colour, png, write
from i18n import _

WIDTH: Final = 640
HEIGHT: Final = 300
LEFT: Final = 56
RIGHT: Final = 150
TOP: Final = 40
BOTTOM: Final = 36
#: Colour-blind-safe line colours (Okabe–Ito).
LINES: Final[tuple[Colour, ...]] = (
    (0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0),
)
GRID: Final[Colour] = (220, 218, 210)
TEXT: Final[Colour] = (40, 40, 48)


def rating_chart(title: str, lines: Sequence[tuple[str, Sequence[tuple[int, int]]]]) -> bytes:
    """The PNG of ``lines``: ``(label, points)``, each point ``(n, rating)`` after the
    player's n-th game (0: before the first), in order."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    write(draw, (LEFT, 10), title, 17, TEXT)
    values = [v for _, series in lines for _, v in series] or [1000]
    low, high = min(values), max(values)
    if high - low < 100:
        middle = (high + low) // 2
        low, high = middle - 50, middle + 50
    longest = max((s[-1][0] for _, s in lines if s), default=0)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(n: int, value: int) -> tuple[float, float]:
        x = LEFT + plot_w * (n / max(longest, 1))
        return x, TOP + plot_h * (1 - (value - low) / (high - low))

    for k in range(5):
        value = round(low + (high - low) * k / 4)
        y = at(0, value)[1]
        draw.line((LEFT, y, LEFT + plot_w, y), fill=GRID, width=1)
        write(draw, (8, y - 8), str(value), 12, TEXT)
    write(draw, (LEFT, HEIGHT - 24), _("games this season (0–{games})", games=longest), 12, TEXT)
    for k, (label, series) in enumerate(lines):
        colour = LINES[k % len(LINES)]
        points = [at(n, v) for n, v in series]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for x, y in points[-1:]:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)
        write(draw, (LEFT + plot_w + 12, TOP + 20 * k), f"{label} {series[-1][1]}", 13, colour)
    return png(image)
