"""The Craits renderer: every view and event of seeded games renders; the table hides hands."""

from __future__ import annotations

import pytest

import games
from bot.render import renderer
from games.simulate import play_game

GAME = games.get("craits")
RENDERER = renderer("craits")
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


@pytest.mark.parametrize("players", [2, 5])
def test_every_view_and_event_renders(players: int) -> None:
    played = play_game(GAME, players, 9, ["normal"] + ["random"] * (players - 1), {"short": True})
    names = NAMES[:players]
    s = GAME.new(players, seed=9, options={"short": True})
    seen: set[str] = set()
    for seat, action in played.actions:
        assert RENDERER.action_label(action)
        for legal in GAME.legal_actions(s, seat):
            assert RENDERER.action_label(legal)
        s = GAME.apply(s, seat, action)
        table = "\n".join(RENDERER.table(GAME.view(s, None), names))
        held = {c for h in s.hands for c in h}
        for card in held:
            rank = "10" if card[0] == "T" else card[0]
            assert rank + "♠♥♦♣"["SHDC".index(card[1])] not in table, card
        for seat_no in range(players):
            assert RENDERER.hand(GAME.view(s, seat_no))
        for event in s.events:
            line = RENDERER.event(event, names)
            assert line or (event["type"], event.get("reason")) == ("draw", "crank"), event
            seen.add(event["type"])
    assert {"deal", "turn_up", "play", "draw", "round", "game_over", "callout"} <= seen


def test_labels_and_lines() -> None:
    assert RENDERER.action_label("play 8H as S last") == "Play 8♥ as ♠ (last card!)"
    assert RENDERER.action_label("play TD") == "Play 10♦"
    assert RENDERER.action_label("callout 2") == "Call out seat 2"
    assert RENDERER.action_label("draw") == "Draw"
    names = ["Ann", "Bob"]
    play = {"type": "play", "seat": 1, "card": "9H", "suit": "D", "last": False}
    assert RENDERER.event(play, names) == "Bob plays 9♥ and names ♦."
    eight = {"type": "play", "seat": 0, "card": "8S", "suit": "S", "last": True}
    assert RENDERER.event(eight, names) == "Ann plays 8♠ and names ♠ — last card!"
    crank = {"type": "crank_end", "seat": 0, "count": 5, "drew": 4}
    assert RENDERER.event(crank, names) == "The crank ends at 5: Ann draws 4 cards."
    over = {"type": "game_over", "scores": [12, 12], "ranks": [1, 1]}
    assert RENDERER.event(over, names) == "Game over: Ann and Bob share the win with 12."
