"""The Back Alley renderer: every view and event of seeded games renders, hiding hands."""

from __future__ import annotations

import pytest

import games
from bot.render import renderer
from games.cards import pretty
from games.simulate import play_game

NAMES = ["Alice", "Bob", "Carol", "Dave"]


@pytest.mark.parametrize(("seed", "level"), [(4, "normal"), (8, "random")])
def test_renders_every_view_and_event(seed: int, level: str) -> None:
    game = games.get("back_alley")
    r = renderer("back_alley")
    played = play_game(game, 4, seed, [level] * 4, {"deals": 4})
    state = game.new(4, seed=seed, options={"deals": 4})
    kinds = set()
    for seat, action in played.actions:
        public = "\n".join(r.table(game.view(state, None), NAMES))
        assert "Back Alley" in public
        for hand in state.hands:
            for card in hand:
                assert pretty(card) not in public.replace(
                    f"turned {pretty(state.turned)}", ""
                ), card
        lines = r.hand(game.view(state, seat))
        assert lines[0].startswith("Your hand: ")
        for legal in game.legal_actions(state, seat):
            assert r.action_label(legal)
        state = game.apply(state, seat, action)
        for event in state.events:
            kinds.add(event["type"])
            line = r.event(event, NAMES)
            assert line and "None" not in line
    assert {"deal", "bid", "contracts", "play", "trick", "deal_scored", "game_over"} <= kinds
    final = r.table(game.view(state, None), NAMES)
    assert "wins" in final[-1] or "Draw" in final[-1]


def test_labels_and_lines() -> None:
    r = renderer("back_alley")
    assert r.action_label("play TH") == "Play 10♥"
    assert r.action_label("bid 3") == "Bid 3"
    assert r.action_label("board") == "Claim board"
    assert r.event({"type": "bid", "seat": 1, "bid": "board", "multiplier": 2}, NAMES) == (
        "Bob claims double board!"
    )
    assert r.event({"type": "joker_swap", "seat": 2, "card": "LJ"}, NAMES) == (
        "Carol discards the Little🃏 and takes the next card."
    )
