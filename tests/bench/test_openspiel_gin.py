"""The bridge to OpenSpiel's SimpleGinRummyBot (``bench.openspiel_gin``): its numbers without
OpenSpiel, and with it (the ``bench`` extra; skipped when pyspiel is not installed) whole
hands and a game played to the end, every bot move legal by Deckhand's rules."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

import games

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import openspiel_gin, strength


def test_summary_averages_each_deal_first() -> None:
    tally = openspiel_gin.Tally()
    tally.deals = {
        0: [(10, True, False, True, False), (-20, False, True, False, True)],
        1: [(30, True, False, True, False), (0, False, False, False, False)],
    }
    s = openspiel_gin.summary(tally)
    assert s.hands == 4
    assert s.points[0] == pytest.approx(5.0)  # deals average -5 and +15
    assert s.points[1] == pytest.approx(1.96 * 10)  # deals' sd 14.1, over sqrt(2)
    assert s.a_won[0] == pytest.approx(0.5) and s.bot_won[0] == pytest.approx(0.25)
    assert openspiel_gin.deal_and_seat(7) == (3, 1)


def test_paired_points_compare_two_levels_deal_by_deal() -> None:
    a, b = openspiel_gin.Tally(), openspiel_gin.Tally()
    row = (0, False, False, False, False)
    a.deals = {0: [(10, *row[1:]), (-20, *row[1:])], 1: [(30, *row[1:]), (0, *row[1:])], 2: [row]}
    b.deals = {0: [(0, *row[1:]), (-20, *row[1:])], 1: [(10, *row[1:]), (10, *row[1:])]}
    diff, half = openspiel_gin.paired(a, b)  # deal 2 was not played by both
    assert diff == pytest.approx((5.0 + 5.0) / 2) and half == pytest.approx(0.0)


def test_openspiel_plays_hands_and_a_game_by_our_rules() -> None:
    pytest.importorskip("pyspiel")
    tally = openspiel_gin.Tally()
    openspiel_gin.hands("normal", 0, 6, tally)
    openspiel_gin.whole_games("normal", 0, 2, 30, tally)
    s = openspiel_gin.summary(tally)
    assert s.hands == 6 and len(tally.deals) == 3 and tally.games == 2
    assert s.a_won[0] + s.bot_won[0] <= 1.0
    assert tally.times


def test_the_bot_only_makes_moves_our_rules_allow() -> None:
    """Every move the bridge returns is in Deckhand's legal list; the mirror follows the
    hand (the bot sees the card it drew) until Deckhand ends it."""
    pytest.importorskip("pyspiel")
    game = games.get("gin_rummy")
    for seed in range(4):
        state = game.new(2, seed=seed)
        bridge = openspiel_gin.Bridge(state, 1, Counter())
        while state.hand_no == 1:
            seat = state.to_act[0]
            legal = game.legal_actions(state, seat)
            move = bridge.choose(state, legal) if seat == 1 else game.choose(state, seat)
            assert move in legal
            after = game.apply(state, seat, move)
            if after.hand_no == 1:
                bridge.played(state, seat, move)
                hand = sorted(bridge.card(c) for c in after.hands[1])
                assert sorted(bridge.os.hands()[bridge.player]) == hand
            state = after


def test_the_bot_never_throws_the_card_it_just_took() -> None:
    pytest.importorskip("pyspiel")
    state = games.get("gin_rummy").new(2, seed=0)
    bridge = openspiel_gin.Bridge(state, 0, Counter())
    hand = ["KS", "KH", "KD", "2C", "9D", "JC", "5H", "7S", "3D", "QH", "QC"]
    # Its highest-ranked unmatched card is QH (OpenSpiel ranks hearts above clubs).
    assert bridge._discard(hand, None, [f"discard {c}" for c in hand]) == "discard QH"
    legal = [f"discard {c}" for c in hand if c != "QH"]
    assert bridge._discard(hand, "QH", legal) == "discard QC"


def test_strength_prints_a_row_against_openspiel(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    strength.main(["--openspiel", "--level", "normal", "--hands", "2", "--games", "0"])
    out = capsys.readouterr().out
    assert "| normal vs SimpleGinRummyBot | 2 |" in out, out
