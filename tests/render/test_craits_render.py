"""The Craits renderer: every view and event of seeded games renders; the table hides hands."""

from __future__ import annotations

import pytest

from bot.render import renderer
from games.cards import pretty
from tests.games.support import RenderedGame
from tests.render.support import said

RENDERER = renderer("craits")
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


@pytest.mark.parametrize("players", [2, 5])
def test_every_view_and_event_renders(players: int) -> None:
    rendered = RenderedGame(
        "craits", players, 9, ["normal"] + ["random"] * (players - 1), {"short": True},
        names=NAMES, silent=lambda event: (event["type"], event.get("reason")) == ("draw", "crank"),
    )
    for state, table in rendered:
        for card in {c for h in state.hands for c in h}:
            assert pretty(card) not in table, card
    assert {"deal", "turn_up", "play", "draw", "round", "game_over", "callout"} <= rendered.kinds


def test_labels_and_lines() -> None:
    assert RENDERER.action_label("play 8H as S last") == "Play 8♥ as ♠ (last card!)"
    assert RENDERER.action_label("play TD") == "Play 10♦"
    assert RENDERER.action_label("callout 2") == "Call out seat 2"
    assert RENDERER.action_label("draw") == "Draw"
    names = ["Ann", "Bob"]
    play = {"type": "play", "seat": 1, "card": "9H", "suit": "D", "last": False}
    assert said(RENDERER, play, names) == "Bob plays 9♥ and names ♦."
    eight = {"type": "play", "seat": 0, "card": "8S", "suit": "S", "last": True}
    assert said(RENDERER, eight, names) == "Ann plays 8♠ and names ♠ — last card!"
    crank = {"type": "crank_end", "seat": 0, "count": 5, "drew": 4}
    assert said(RENDERER, crank, names) == "The crank ends at 5: Ann draws 4 cards."
    over = {"type": "game_over", "scores": [12, 12], "ranks": [1, 1]}
    assert said(RENDERER, over, names) == "Game over: Ann and Bob share the win with 12."
