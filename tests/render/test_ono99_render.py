"""ONO 99 renderer: every view and event of seeded games renders; the table hides hands."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render import renderer
from bot.render.ono99 import RENDERER, pretty
from tests.games.support import RenderedGame
from tests.render.support import said

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def test_cards_and_actions_are_pretty() -> None:
    assert renderer("ono99") is RENDERER
    assert [pretty(c) for c in ("7", "-10", "REV", "P2", "ONO")] == [
        "7", "−10", "⟲ Reverse", "⏩ Play 2", "ONO 99"]
    assert RENDERER.action_label("play -10") == "Play −10"
    assert RENDERER.action_label("play P2") == "Play ⏩ Play 2"
    assert RENDERER.action_label("swap") == "Swap four ONO 99"


@pytest.mark.parametrize(
    "options", [{}, {"scoring": "tokens"}, {"scoring": "points", "target": 50}]
)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seeded_game_renders_and_the_table_never_shows_a_hand(
    players: int, options: dict[str, Any]
) -> None:
    rendered = RenderedGame("ono99", players, 11, ["normal"] * players, options, names=NAMES)
    names = NAMES[:players]
    for step, (state, table) in enumerate(rendered):
        if step == 0:
            dealt = said(RENDERER, state.events[0], names)
            assert dealt == "Round 1: Ann deals four cards each."
        if not state.is_over:
            # Rotate the hands still in the round: the public table must not change.
            other = state.clone()
            live = [s for s in range(players) if state.in_round[s]]
            for a, b in zip(live, live[1:] + live[:1], strict=True):
                other.hands[b] = state.hands[a]
            assert rendered.table(other) == table
    assert {"deal", "play", "draw", "game_over"} <= rendered.kinds
    assert "wins!" in rendered.table(rendered.state)
