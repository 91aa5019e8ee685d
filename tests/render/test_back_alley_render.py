"""The Back Alley renderer: every view and event of seeded games renders, hiding hands."""

from __future__ import annotations

import pytest

from bot.render import renderer
from games.cards import pretty
from tests.games.support import RenderedGame
from tests.render.support import said

NAMES = ["Alice", "Bob", "Carol", "Dave"]


@pytest.mark.parametrize(("seed", "level"), [(4, "normal"), (8, "random")])
def test_renders_every_view_and_event(seed: int, level: str) -> None:
    rendered = RenderedGame("back_alley", 4, seed, [level] * 4, {"deals": 4}, names=NAMES)
    r, game = rendered.renderer, rendered.game
    for state, public in rendered:
        assert "Back Alley" in public
        for hand in state.hands:
            for card in hand:
                assert pretty(card) not in public.replace(
                    f"turned {pretty(state.turned)}", ""
                ), card
        for seat in range(4):
            assert str(r.hand(game.view(state, seat))[0]).startswith("Your hand: ")
    kinds = {"deal", "bid", "contracts", "play", "trick", "deal_scored", "game_over"}
    assert kinds <= rendered.kinds
    final = r.table(game.view(rendered.state, None), NAMES)
    assert "wins" in str(final[-1]) or "Draw" in str(final[-1])


def test_labels_and_lines() -> None:
    r = renderer("back_alley")
    assert r.action_label("play TH") == "Play 10♥"
    assert r.action_label("bid 3") == "Bid 3"
    assert r.action_label("board") == "Claim board"
    board = {"type": "bid", "seat": 1, "bid": "board", "multiplier": 2}
    assert said(r, board, NAMES) == (
        "Bob claims double board!"
    )
    assert said(r, {"type": "joker_swap", "seat": 2, "card": "LJ"}, NAMES) == (
        "Carol discards the Little🃏 and takes the next card."
    )
