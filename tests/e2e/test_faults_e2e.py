"""Discord misbehaving mid-game: the gateway drops, an edit is rate limited, an edit
fails with a 5xx. The game goes on and no move is lost."""

from __future__ import annotations

import sqlite3

from tests.e2e.fake_state import Channel
from tests.e2e.play import Harness, Seat, harness_fixture, play_out  # noqa: F401
from tests.e2e.test_games_e2e import open_table
from tests.waiting import until


async def gin(harness: Harness) -> tuple[list[Seat], Channel]:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    # Fifteen minutes on: the Start click's token has run out, so the table message is
    # edited with the bot's own token (the calls these faults are about).
    fake.clock.advance(15 * 60 + 1)
    return [Seat(alice, harness, lobby), Seat(bob, harness, lobby)], lobby


def stored_version(harness: Harness, table_id: int) -> int:
    with sqlite3.connect(f"file:{harness.db_path}?mode=ro", uri=True) as conn:
        (version,) = conn.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    return int(version)


async def test_the_gateway_drops_and_the_game_goes_on(harness: Harness) -> None:
    seats, lobby = await gin(harness)
    gateway = harness.fake.gateway
    await play_out(seats, lobby, limit=2)
    await harness.fake.drop_gateway()
    await gateway.wait_for(resumes=1)
    await play_out(seats, lobby, limit=2)
    identifies = gateway.identifies
    await harness.fake.drop_gateway(code=4009, resumable=False)
    await gateway.wait_for(identifies=identifies + 1)
    final = await play_out(seats, lobby)
    assert final.status == "finished"


async def test_a_429_on_the_table_edit_is_waited_out(harness: Harness) -> None:
    seats, lobby = await gin(harness)
    table = harness.table_message(lobby)
    fault = harness.fake.rate_limit(
        "PATCH", f"/channels/{lobby.id}/messages/{table.id}", retry_after=0.5
    )
    await play_out(seats, lobby, limit=1)
    result = await harness.result(lobby)
    await until(lambda: f"move {result.version} ·" in table.text, "the edit, once waited out")
    assert fault.served == 1


async def test_a_5xx_on_the_table_edit_loses_no_move(harness: Harness) -> None:
    seats, lobby = await gin(harness)
    table = harness.table_message(lobby)
    shown = len(table.history)
    fault = harness.fake.server_error(
        "PATCH", f"/channels/{lobby.id}/messages/{table.id}", times=1, status=502
    )
    result = await play_out(seats, lobby, limit=1)
    assert fault.served == 1
    assert stored_version(harness, result.table_id) == result.version
    await play_out(seats, lobby, limit=1)
    result = await harness.result(lobby)
    await until(lambda: f"move {result.version} ·" in table.text, "the next edit")
    assert len(table.history) > shown
    final = await play_out(seats, lobby)
    assert final.status == "finished"
    await until(lambda: "Result" in table.text, "the result on the table message")
