"""The Gin Rummy renderer: every view and event of seeded games renders; the table hides hands."""

from __future__ import annotations

import pytest

from bot.render import renderer
from games.cards import pretty
from tests.games.support import RenderedGame
from tests.render.support import said

NAMES = ["Alice", "Bob"]
R = renderer("gin_rummy")


@pytest.mark.parametrize(("seed", "levels"), [(6, ["normal", "random"]), (9, ["normal", "normal"])])
def test_every_view_and_event_renders_and_the_table_hides_hands(
    seed: int, levels: list[str]
) -> None:
    rendered = RenderedGame("gin_rummy", 2, seed, levels, names=NAMES)
    for state, table in rendered:
        public = set(state.discards) | {c for k in state.known for c in k}
        for s in (0, 1):
            for card in state.hands[s]:
                if card not in public:
                    assert pretty(card) not in table, (card, table)
    kinds = {"draw", "discard", "knock", "lay_down", "hand_result", "new_hand", "game_over"}
    assert kinds <= rendered.kinds
    final = rendered.table(rendered.state)
    winner = NAMES[rendered.game.outcome(rendered.state).ranks.index(1)]
    assert "Final:" in final and f"**{winner} wins!**" in final


def test_labels_and_lines() -> None:
    assert R.action_label("discard TH") == "Discard 10♥"
    assert R.action_label("knock 3C") == "Knock 3♣"
    assert R.action_label("take") == "Take the discard"
    assert said(R, {"type": "draw", "seat": 1, "source": "stock"}, NAMES) == (
        "Bob drew from the stock."
    )
    took = {"type": "draw", "seat": 0, "source": "discard", "card": "QS"}
    assert said(R, took, NAMES) == (
        "Alice took Q♠ from the discard pile."
    )
    knock = {"type": "knock", "seat": 0, "melds": [["4H", "5H", "6H"]], "deadwood": ["2S"],
             "points": 2}
    assert said(R, knock, NAMES) == "Alice knocked: 4♥ 5♥ 6♥ · deadwood 2♠ (2)"
    lay = {"type": "lay_down", "seat": 1, "melds": [], "deadwood": ["KS"], "points": 10,
           "lay_offs": [{"cards": ["7H"], "onto": ["4H", "5H", "6H"]}]}
    assert said(R, lay, NAMES) == (
        "Bob shows no melds, lays off 7♥ on 4♥ 5♥ 6♥ · deadwood K♠ (10)"
    )
    result = {"type": "hand_result", "hand_no": 3, "result": "undercut", "knocker": 0,
              "winner": 1, "points": [0, 33], "scores": [40, 50]}
    assert said(R, result, NAMES) == (
        "Hand 3: Bob **undercut** Alice: +33. Scores: Alice 40 · Bob 50"
    )
    wall = {"type": "hand_result", "hand_no": 2, "result": "wall", "knocker": None,
            "winner": None, "points": [0, 0], "scores": [0, 0]}
    assert said(R, wall, NAMES) == (
        "Hand 2 hit the wall: a draw, nobody scores. Scores: Alice 0 · Bob 0"
    )
