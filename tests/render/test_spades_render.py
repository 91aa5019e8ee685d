"""The Spades renderer: every view and event of seeded games renders; the table hides hands."""

from __future__ import annotations

import pytest

from bot.render import renderer
from games.cards import pretty
from tests.games.support import RenderedGame
from tests.render.support import said

NAMES = ["Alice", "Bob"]
R = renderer("spades")


@pytest.mark.parametrize(("seed", "levels"), [(4, ["normal", "random"]), (9, ["random", "normal"])])
def test_every_view_and_event_renders_and_the_table_hides_hands(
    seed: int, levels: list[str]
) -> None:
    rendered = RenderedGame("spades", 2, seed, levels, {"target": 150}, names=NAMES)
    for state, table in rendered:
        for s in (0, 1):
            for card in state.hands[s]:
                if card not in state.face_up:
                    assert pretty(card) not in table, (card, table)
    kinds = {"keep", "discard", "bid", "play", "trick", "hand_scored", "game_over"}
    assert kinds <= rendered.kinds
    assert "wins" in rendered.table(rendered.state)


def test_labels_and_lines() -> None:
    assert R.action_label("play TH") == "Play 10♥"
    assert R.action_label("bid 0") == "Bid Nil"
    assert R.action_label("exchange 2S QH") == "Exchange 2♠ Q♥"
    assert said(R, {"type": "discard", "seat": 1, "card": "7H"}, NAMES) == (
        "Bob discarded 7♥ face up."
    )
    assert said(R, {"type": "keep", "seat": 0}, NAMES) == "Alice kept a card."
    trick = {"type": "trick", "seat": 0, "plays": [[1, "QD"], [0, "3S"]]}
    assert said(R, trick, NAMES) == "Alice won the trick: Bob Q♦ · Alice 3♠."
    line = {
        "seat": 0, "bid": 3, "tricks": 5, "result": "made", "contract": 30, "bags": 2,
        "bag_penalty": -100, "bags_total": 1, "points": -68, "score": 200,
    }
    text = R.event({"type": "hand_scored", "hand_no": 2, "lines": [line]}, NAMES)
    assert text == (
        "Hand 2: Alice bid 3, took 5: made +30, 2 bags +2, bag penalty −100 = −68 (total 200)"
    )
