"""A small rating chart as inline SVG (no script, no library): one line per player.

The x axis counts the season's games of one game in the order they finished (0 = before
the first); the y axis is the rating as players see it (``bot.services.ratings.display``).
A player's line starts where they came in (a newcomer's rating, just before their first
game) and has a point at each game they played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.web.html import Safe, h
from i18n import _

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 150, 14, 30
#: Line colours that stay apart for common colour blindness (Okabe–Ito).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")


@dataclass(frozen=True)
class Series:
    """One player's line: ``(game number, rating)`` points, in order (at least one)."""

    name: str
    points: tuple[tuple[int, int], ...]


def _ticks(low: int, high: int, count: int = 4) -> list[int]:
    step = max(1, (high - low) // count)
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if nice >= step:
            step = nice
            break
    first = (low + step - 1) // step * step
    return list(range(first, high + 1, step))


def rating_chart(series: Sequence[Series], games: int, title: str) -> Safe:
    """The chart of ``series`` over ``games`` games, with ``title`` for screen readers."""
    values = [y for s in series for _, y in s.points]
    if not values or games < 1:
        return Safe("")
    low, high = min(values) - 10, max(values) + 10
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: int) -> float:
        return LEFT + plot_w * (n / games)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / (high - low))

    grid = [
        [h("line", x1=LEFT, x2=LEFT + plot_w, y1=f"{y(t):.1f}", y2=f"{y(t):.1f}",
           class_="grid"),
         h("text", t, x=LEFT - 6, y=f"{y(t) + 4:.1f}", text_anchor="end", class_="tick")]
        for t in _ticks(low, high)
    ]
    lines = []
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        coords = [(x(n), y(v)) for n, v in s.points]
        last_x, last_y = coords[-1]
        lines.append([
            h("polyline", points=" ".join(f"{a:.1f},{b:.1f}" for a, b in coords),
              fill="none", stroke=colour, stroke_width=2.5, stroke_linejoin="round"),
            h("circle", cx=f"{last_x:.1f}", cy=f"{last_y:.1f}", r=3.5, fill=colour),
            h("text", s.name[:18], x=WIDTH - RIGHT + 10, y=TOP + 16 + 18 * i, fill=colour,
              class_="legend"),
        ])
    return h(
        "svg",
        h("title", title),
        grid,
        h("line", x1=LEFT, x2=LEFT + plot_w, y1=TOP + plot_h, y2=TOP + plot_h, class_="axis"),
        h("text", _("games of the season (0–{games})", games=games), x=LEFT + plot_w / 2,
          y=HEIGHT - 6,
          text_anchor="middle", class_="tick"),
        lines,
        viewBox=f"0 0 {WIDTH} {HEIGHT}", role="img", class_="chart",
        xmlns="http://www.w3.org/2000/svg",
    )
