"""The /stats rating picture."""

from __future__ import annotations

import io

from PIL import Image

from bot.art.chart import HEIGHT, WIDTH, rating_chart


def test_a_chart_of_several_games_and_of_one_point() -> None:
    lines = [("Gin Rummy", [(0, 1000), (1, 1040), (2, 1075), (3, 1060)]),
             ("ONO 99", [(0, 1000), (1, 968)])]
    image = Image.open(io.BytesIO(rating_chart("Zoë: rating this season", lines)))
    assert image.size == (WIDTH, HEIGHT) and image.format == "PNG"
    # each line has its own colour somewhere in the plot
    colours = {image.getpixel((x, y)) for x in range(0, WIDTH, 2) for y in range(0, HEIGHT, 2)}
    assert (0, 114, 178) in colours and (213, 94, 0) in colours
    flat = Image.open(io.BytesIO(rating_chart("flat", [("Spades", [(0, 1000)])])))
    assert flat.size == (WIDTH, HEIGHT)
