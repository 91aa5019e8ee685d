"""A click reads its player's preferences once: right after it is acknowledged, for its
language (``bot.ui.language.listen``); the hand it answers with and the hands and pings it
publishes use that value (``Token.heard``), read again by nothing."""

from __future__ import annotations

from typing import Any

import pytest

import storage.preferences
from storage.db import Conn
from tests.e2e.play import Harness, harness_fixture  # noqa: F401
from tests.e2e.test_bad_input_e2e import two_player_gin


async def test_a_move_click_reads_its_players_preferences_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover, _, _ = await two_player_gin(harness)
    await harness.idle()
    clicker = mover.person.id
    reads: list[list[int]] = []
    real = storage.preferences.players

    def counted(conn: Conn, user_ids: Any) -> Any:
        reads.append(list(user_ids))
        return real(conn, user_ids)

    monkeypatch.setattr(storage.preferences, "players", counted)
    hand = mover.hand_dm()
    clicked = await mover.person.click(hand, hand.buttons()[0]["label"])
    await harness.idle()
    assert clicked.callback_type == 6, clicked.text  # the move, answered on the hand
    assert [ids for ids in reads if clicker in ids] == [[clicker]], reads
    assert len(reads) <= 2, reads  # the clicker's, then the other player's for their hand
