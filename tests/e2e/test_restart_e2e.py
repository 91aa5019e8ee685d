"""Restart mid-game: a new bot process on the same database, and the messages the old
process posted keep working until the game is over."""

from __future__ import annotations

from tests.e2e.play import Harness, Seat, harness_fixture, play_out  # noqa: F401
from tests.e2e.test_games_e2e import open_table
from tests.waiting import until


async def test_old_buttons_work_after_a_restart_and_the_game_finishes(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "spades", "target=50", [alice, bob], 0)
    seats = [Seat(alice, harness, lobby), Seat(bob, harness, lobby)]
    await play_out(seats, lobby, limit=5)
    before = await harness.shown(lobby, seats)  # (the stop is not a crash mid-update)
    table = harness.table_message(lobby)
    hands = {s.person.name: s.hand_dm().id for s in seats}

    await harness.stop()
    await harness.start()

    after = await harness.result(lobby)
    assert after.version == before.version and after.status == "playing"
    moves_before = [s.moves for s in seats]
    final = await play_out(seats, lobby)
    assert final.status == "finished"
    # Every move after the restart was a click on a message the first process posted.
    assert {s.person.name: s.hand_dm().id for s in seats} == hands
    assert all(s.moves > m for s, m in zip(seats, moves_before, strict=True))
    await until(lambda: "Result" in table.text, "the result on the first table message")
    assert harness.table_message(lobby) is table
