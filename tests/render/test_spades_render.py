"""The Spades renderer: every view and event of seeded games renders; the table hides hands."""

from __future__ import annotations

from typing import Any

import pytest

import games
from bot.render import renderer
from games.cards import pretty
from games.simulate import play_game

G: Any = games.get("spades")
NAMES = ["Alice", "Bob"]
R = renderer("spades")


@pytest.mark.parametrize(("seed", "levels"), [(4, ["normal", "random"]), (9, ["random", "normal"])])
def test_every_view_and_event_renders_and_the_table_hides_hands(
    seed: int, levels: list[str]
) -> None:
    options = {"target": 150}
    played = play_game(G, 2, seed, levels, options)
    state = G.new(2, seed=seed, options=options)
    kinds: set[str] = set()
    for seat, action in played.actions:
        assert R.action_label(action)
        state = G.apply(state, seat, action)
        table = "\n".join(R.table(G.view(state, None), NAMES))
        for s in (0, 1):
            assert R.hand(G.view(state, s))
            for card in state.hands[s]:
                if card not in state.face_up:
                    assert pretty(card) not in table, (card, table)
        for event in state.events:
            kinds.add(event["type"])
            line = R.event(event, NAMES)
            assert line is None or line.strip()
    assert {"keep", "discard", "bid", "play", "trick", "hand_scored", "game_over"} <= kinds
    assert "wins" in "\n".join(R.table(G.view(state, None), NAMES))


def test_labels_and_lines() -> None:
    assert R.action_label("play TH") == "Play 10♥"
    assert R.action_label("bid 0") == "Bid Nil"
    assert R.action_label("exchange 2S QH") == "Exchange 2♠ Q♥"
    assert R.event({"type": "discard", "seat": 1, "card": "7H"}, NAMES) == (
        "Bob discarded 7♥ face up."
    )
    assert R.event({"type": "keep", "seat": 0}, NAMES) == "Alice kept a card."
    trick = {"type": "trick", "seat": 0, "plays": [[1, "QD"], [0, "3S"]]}
    assert R.event(trick, NAMES) == "Alice won the trick: Bob Q♦ · Alice 3♠."
    line = {
        "seat": 0, "bid": 3, "tricks": 5, "result": "made", "contract": 30, "bags": 2,
        "bag_penalty": -100, "bags_total": 1, "points": -68, "score": 200,
    }
    text = R.event({"type": "hand_scored", "hand_no": 2, "lines": [line]}, NAMES)
    assert text == (
        "Hand 2: Alice bid 3, took 5: made +30, 2 bags +2, bag penalty -100 = -68 (total 200)"
    )
