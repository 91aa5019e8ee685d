"""Table lifecycle on a real SQLite file: lobby → playing → finished, rematch, restart."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

import aiosqlite

import games
from bot.services.tables import TableResult, TableService, check_table, replay
from storage import tables as repo
from storage.db import Database
from storage.matches import MatchRecord

if TYPE_CHECKING:
    from tests.services.conftest import FakeClock

CH = 555
ALICE, BOB = 1, 2


async def play_out(service: TableService, channel: int, result: TableResult) -> TableResult:
    """Play to the end: whoever is to act plays what the ``normal`` computer would, from
    the private view the result gave them."""
    r = result
    rng = random.Random(7)
    while r.status == "playing":
        seat = r.to_act[0]
        user = r.seats[seat].user_id
        assert user is not None, "a computer seat was left to act"
        mine = r.private[seat]
        action = games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)
        r = await service.act(channel, user, action, r.version)
    return r


async def test_lobby_operations_change_seats_and_host(service: TableService, db: Database) -> None:
    r = await service.create(CH, 9, ALICE, "Alice", "craits", {}, turn_timer=60)
    assert (r.status, r.host_id, r.version, r.public) == ("lobby", ALICE, 0, None)
    assert [s.name for s in r.seats] == ["Alice"]
    r = await service.join(CH, BOB, "Bob")
    r = await service.add_bot(CH, BOB, "random")
    r = await service.add_bot(CH, ALICE)
    assert [s.name for s in r.seats] == [
        "Alice", "Bob", "Computer (random) 1", "Computer (normal) 2",
    ]
    assert [s.bot for s in r.seats] == [None, None, "random", "normal"]
    r = await service.remove_bot(CH, ALICE, "computer (random) 1")
    assert [s.name for s in r.seats] == ["Alice", "Bob", "Computer (normal) 2"]
    r = await service.add_bot(CH, ALICE, "normal")
    assert r.seats[-1].name == "Computer (normal) 1"
    r = await service.kick(CH, ALICE, BOB)
    assert [s.user_id for s in r.seats] == [ALICE, None, None]
    r = await service.join(CH, BOB, "Bob")
    r = await service.leave(CH, ALICE)
    assert r.host_id == BOB and r.seats[0].name == "Computer (normal) 2"
    row = await repo.open_in_channel(db, CH)
    assert row is not None and row.host_id == BOB and row.turn_timer == 60
    assert [s["name"] for s in json.loads(row.seats)] == [s.name for s in r.seats]
    r = await service.leave(CH, BOB)
    assert r.status == "aborted" and "closed" in r.message
    assert await repo.open_in_channel(db, CH) is None


async def test_full_game_records_match_and_replays(service: TableService, db: Database) -> None:
    seen: list[tuple[bool, int, MatchRecord]] = []

    async def recorder(conn: aiosqlite.Connection, match_id: int, match: MatchRecord) -> None:
        seen.append((conn.in_transaction, match_id, match))

    service.add_match_recorder(recorder)
    await service.create(CH, 9, ALICE, "Alice", "gin_rummy", {"target": 50})
    await service.join(CH, BOB, "Bob")
    r = await service.start(CH, ALICE)
    assert r.status == "playing" and r.version == 0 and r.public is not None
    assert sorted(s.user_id or 0 for s in r.seats) == [ALICE, BOB]
    r = await play_out(service, CH, r)
    assert r.status == "finished" and r.outcome is not None
    assert r.outcome.ranks.count(1) >= 1

    row = await repo.get(db, r.table_id)
    assert row is not None and row.status == "finished" and row.version == r.version
    log = await repo.actions(db, r.table_id)
    assert [a.version for a in log] == list(range(1, r.version + 1))
    assert {a.by_user for a in log} == {ALICE, BOB}

    matches = await db.fetchall("SELECT id, table_id, game, seed FROM matches")
    assert [tuple(m) for m in matches] == [(seen[0][1], r.table_id, "gin_rummy", row.seed)]
    seats = await db.fetchall(
        "SELECT seat, user_id, score, rank FROM match_seats ORDER BY seat"
    )
    assert [s[1] for s in seats] == [s.user_id for s in r.seats]
    assert [s[2] for s in seats] == list(r.outcome.scores)
    assert [s[3] for s in seats] == list(r.outcome.ranks)
    assert len(seen) == 1 and seen[0][0] is True
    assert seen[0][2].options["target"] == 50

    game = games.get("gin_rummy")
    assert game.dumps(await replay(db, r.table_id)) == game.dumps(
        game.from_json(json.loads(row.snapshot or "")["state"])
    )
    assert (await check_table(db, r.table_id)).ok

    status = await service.status(CH)
    assert status.status == "finished" and status.table_id == r.table_id


async def test_computer_players_move_until_a_human_must(service: TableService) -> None:
    await service.create(CH, 9, ALICE, "Alice", "back_alley")
    for _ in range(3):
        await service.add_bot(CH, ALICE, "normal")
    r = await service.start(CH, ALICE)
    me = next(s.seat for s in r.seats if s.user_id == ALICE)
    moves = 0
    while r.status == "playing" and moves < 15:
        assert r.to_act == (me,)
        before = r.version
        r = await service.act(CH, ALICE, r.private[me].legal[0], r.version)
        assert r.steps[0].by == "player" and r.steps[0].seat == me
        assert all(s.by == "computer" for s in r.steps[1:])
        assert [s.version for s in r.steps] == list(range(before + 1, r.version + 1))
        moves += 1
    assert moves == 15


async def test_results_keep_hands_private(service: TableService) -> None:
    await service.create(CH, 9, ALICE, "Alice", "gin_rummy")
    await service.join(CH, BOB, "Bob")
    r = await service.start(CH, ALICE)
    assert r.public is not None and "hand" not in r.public
    assert set(r.private) == {0, 1}
    mine = r.for_user(ALICE)
    theirs = r.for_user(BOB)
    assert mine is not None and theirs is not None and mine.seat != theirs.seat
    hand = set(mine.view["hand"])
    public_text = json.dumps([r.public, [s.events for s in r.steps]])
    assert not any(f'"{c}"' in public_text for c in hand - {r.public.get("discard_top")})
    assert r.for_user(999) is None


async def test_bot_only_table_gets_private_views_for_humans_only(service: TableService) -> None:
    await service.create(CH, 9, ALICE, "Alice", "ono99")
    await service.add_bot(CH, ALICE)
    await service.add_bot(CH, ALICE)
    r = await service.start(CH, ALICE)
    assert list(r.private) == [next(s.seat for s in r.seats if s.user_id == ALICE)]


async def test_rematch_keeps_seats_with_a_new_seed(service: TableService, db: Database) -> None:
    await service.create(CH, 9, ALICE, "Alice", "ono99")
    await service.add_bot(CH, ALICE)
    r = await play_out(service, CH, await service.start(CH, ALICE))
    old = await repo.get(db, r.table_id)
    assert old is not None
    again = await service.rematch(CH, ALICE)
    assert again.status == "playing" and again.table_id != r.table_id
    assert again.seats == r.seats
    new = await repo.get(db, again.table_id)
    assert new is not None and new.seed != old.seed and new.options == old.options
    assert (await repo.get(db, r.table_id)).status == "finished"  # type: ignore[union-attr]


async def test_leaving_a_running_game_hands_the_seat_to_a_computer(
    service: TableService, db: Database
) -> None:
    await service.create(CH, 9, ALICE, "Alice", "craits")
    await service.join(CH, BOB, "Bob")
    await service.add_bot(CH, ALICE)
    r = await service.start(CH, ALICE)
    r = await service.leave(CH, BOB)
    bob_seat = next(s for s in r.seats if s.name.startswith("Computer") and s.bot == "normal"
                    and s.seat not in [x.seat for x in r.seats if x.user_id == ALICE])
    assert r.status == "playing" and all(s.user_id != BOB for s in r.seats)
    assert bob_seat.name.startswith("Computer (normal)")
    assert r.to_act and all(r.seats[s].user_id == ALICE for s in r.to_act)
    r = await play_out(service, CH, r)
    assert r.status == "finished"
    assert (await check_table(db, r.table_id)).ok


async def test_a_restarted_service_resumes_tables(db: Database, clock: FakeClock) -> None:
    first = TableService(db, now=clock.now)
    await first.create(CH, 9, ALICE, "Alice", "gin_rummy")
    await first.join(CH, BOB, "Bob")
    r = await first.start(CH, ALICE)
    seat = r.to_act[0]
    r = await first.act(CH, r.seats[seat].user_id or 0, r.private[seat].legal[0], r.version)
    await first.create(CH + 1, 9, ALICE, "Alice", "spades")

    second = TableService(db, now=clock.now)
    report = await second.load()
    assert (report.loaded, report.playing, report.quarantined) == (2, 1, ())
    again = await second.status(CH)
    assert (again.version, again.to_act, again.public) == (r.version, r.to_act, r.public)
    seat = again.to_act[0]
    after = await second.act(CH, again.seats[seat].user_id or 0, again.private[seat].legal[0])
    assert after.version == r.version + 1
    assert (await second.status(CH + 1)).status == "lobby"


async def test_a_failing_match_recorder_undoes_the_final_move(
    service: TableService, db: Database, clock: FakeClock
) -> None:
    async def broken(conn: aiosqlite.Connection, match_id: int, match: MatchRecord) -> None:
        raise RuntimeError("league store is down")

    service.add_match_recorder(broken)
    await service.create(CH, 9, ALICE, "Alice", "ono99")
    await service.join(CH, BOB, "Bob")
    r = await service.start(CH, ALICE)
    try:
        r = await play_out(service, CH, r)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the recorder was not called")
    row = await repo.open_in_channel(db, CH)
    assert row is not None and row.status == "playing"
    assert (await db.fetchone("SELECT count(*) FROM matches"))[0] == 0  # type: ignore[index]
    fresh = TableService(db, now=clock.now)
    r = await fresh.status(CH)
    assert r.version == row.version
    done = await play_out(fresh, CH, r)
    assert done.status == "finished" and done.version == row.version + 1


async def test_computer_moves_can_be_shown_one_by_one(db: Database, clock: FakeClock) -> None:
    service = TableService(db, now=clock.now, bot_delay=0.75, sleep=clock.sleep)
    shown: list[TableResult] = []

    async def on_step(result: TableResult) -> None:
        shown.append(result)

    await service.create(CH, 9, ALICE, "Alice", "back_alley")
    for _ in range(3):
        await service.add_bot(CH, ALICE, "normal")
    r = await service.start(CH, ALICE, on_step=on_step)
    mine = r.for_user(ALICE)
    assert mine is not None
    shown.clear()
    clock.slept.clear()
    r = await service.act(CH, ALICE, mine.legal[0], r.version, on_step=on_step)
    computer_steps = [s for s in r.steps if s.by == "computer"]
    assert len(computer_steps) >= 1 and r.steps[0].by == "player"
    assert [x.steps for x in shown] == [(s,) for s in computer_steps]
    assert [x.version for x in shown] == [s.version for s in computer_steps]
    assert clock.slept == [0.75] * len(computer_steps)
