"""A click reads its player's preferences once: right after it is acknowledged, for its
language (``bot.ui.language.listen``); the hand it answers with and the hands and pings it
publishes use that value (``Token.heard``), read again by nothing."""

from __future__ import annotations

from typing import Any

import pytest

import storage.preferences
from storage.db import Conn
from tests.e2e.play import Harness, harness_fixture  # noqa: F401
from tests.e2e.test_anywhere_e2e import PLAYING, group_dm, start_anywhere, whose_turn
from tests.e2e.test_bad_input_e2e import two_player_gin
from tests.e2e.test_games_e2e import open_table
from tests.waiting import until


def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """From now on, the user ids of each read of players' preferences, in order."""
    reads: list[list[int]] = []
    real = storage.preferences.players

    def counted(conn: Conn, user_ids: Any) -> Any:
        reads.append(list(user_ids))
        return real(conn, user_ids)

    monkeypatch.setattr(storage.preferences, "players", counted)
    return reads


async def test_a_move_click_reads_its_players_preferences_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover, waiter, lobby = await two_player_gin(harness)
    await harness.idle()
    clicker = mover.person.id
    reads = counted_reads(monkeypatch)
    hand = mover.hand_dm()
    clicked = await mover.person.click(hand, hand.buttons()[0]["label"])
    assert clicked.callback_type == 6, clicked.text  # the move, answered on the hand
    # Everything the click publishes: the table message and both hands at the new move.
    await harness.shown(lobby, [mover, waiter])
    assert [ids for ids in reads if clicker in ids] == [[clicker]], reads
    assert len(reads) <= 2, reads  # the clicker's, then the other player's for their hand


async def test_a_refresh_reads_its_players_preferences_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refresh at a group-DM table answers with the table and, to the player whose turn it
    is, their hand: both in the language the click's one read found."""
    await start_anywhere(harness)
    friends, gdm = group_dm(harness)
    await open_table(harness, "gin_rummy", "target=10", friends[:2], 0, gdm, playing=PLAYING)
    await harness.idle()
    turn = await whose_turn(harness, gdm)
    mover = next(p for p in friends if p.id == turn)
    reads = counted_reads(monkeypatch)
    refreshed = await mover.click(harness.table_message(gdm), "Refresh")
    await until(lambda: any("It is your turn." in m.text for m in refreshed.followups),
                "the hand after Refresh")
    await harness.idle()
    assert [ids for ids in reads if mover.id in ids] == [[mover.id]], reads
