"""Counts read as English everywhere: the catalog's plural rule, no "(1 cards)" or "1 hands won"."""

from __future__ import annotations

import games
from bot.render import renderer
from i18n import ngettext


def test_plural() -> None:
    assert [ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == [
        "0 cards", "1 card", "2 cards"]


def test_no_table_says_one_of_a_plural() -> None:
    for name in games.names():
        g = games.get(name)
        state = g.new(g.min_players, seed=3)
        names = [f"P{i}" for i in range(g.min_players)]
        view = g.view(state, None)
        for counts in ("hand_counts", "hands_won", "tricks", "tokens"):
            if isinstance(view.get(counts), list):
                view[counts] = [1] * len(view[counts])
        text = "\n".join(map(str, renderer(name).table(view, names)))
        for word in ("cards", "hands", "tricks", "tokens"):
            assert f" 1 {word}" not in text and f"(1 {word}" not in text, (name, text)
