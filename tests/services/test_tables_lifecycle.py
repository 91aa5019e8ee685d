"""Table lifecycle on a real SQLite file: lobby → playing → finished, rematch, restart."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import games
from bot.services.tables import TableService
from bot.services.tables.replay import check_table, replay
from storage import tables as repo
from storage.db import Conn, Database
from storage.matches import MatchRecord
from storage.models import Snapshot
from tests.services.conftest import Events, ManualClock, play_out

CH = 555
ALICE, BOB = 1, 2


async def test_lobby_operations_change_seats_and_host(service: TableService, db: Database) -> None:
    r = await service.create(CH, 9, ALICE, "Alice", "craits", {}, turn_timer=60)
    assert (r.status, r.host_id, r.version, r.public) == ("lobby", ALICE, 0, None)
    assert [str(s.name) for s in r.seats] == ["Alice"]
    r = await service.join(CH, BOB, "Bob")
    r = await service.add_bot(CH, BOB, "random")
    r = await service.add_bot(CH, ALICE)
    assert [str(s.name) for s in r.seats] == [
        "Alice", "Bob", "Computer (random) 1", "Computer (normal) 2",
    ]
    assert [s.bot for s in r.seats] == [None, None, "random", "normal"]
    r = await service.remove_bot(CH, ALICE, "computer (random) 1")
    assert [str(s.name) for s in r.seats] == ["Alice", "Bob", "Computer (normal) 2"]
    r = await service.add_bot(CH, ALICE, "normal")
    assert str(r.seats[-1].name) == "Computer (normal) 1"
    r = await service.kick(CH, ALICE, BOB)
    assert [s.user_id for s in r.seats] == [ALICE, None, None]
    r = await service.join(CH, BOB, "Bob")
    r = await service.leave(CH, ALICE)
    assert r.host_id == BOB and str(r.seats[0].name) == "Computer (normal) 2"
    row = await db.read(repo.open_in_channel, CH)
    assert row is not None and row.host_id == BOB and row.turn_timer == 60
    stored = json.loads(row.seats)  # a computer as its level and number, no name
    assert stored == [{"bot": "normal", "number": 2}, {"bot": "normal", "number": 1},
                      {"user_id": BOB, "name": "Bob"}], stored
    r = await service.leave(CH, BOB)
    assert r.status == "aborted" and "closed" in str(r.message)
    assert await db.read(repo.open_in_channel, CH) is None
    assert service.store.lock_count() == 0


async def test_computer_players_are_numbered_in_seat_order(service: TableService) -> None:
    await service.create(CH, 9, ALICE, "Alice", "craits")
    for level in ("normal", "random", "normal", "random"):
        await service.add_bot(CH, ALICE, level)
    r = await service.start(CH, ALICE)
    computers = [str(s.name) for s in r.seats if s.bot is not None]
    assert [int(n.rsplit(" ", 1)[1]) for n in computers] == [1, 2, 3, 4]
    assert all(n.startswith(f"Computer ({s.bot})") for n, s in
               zip(computers, [s for s in r.seats if s.bot], strict=True))


async def test_full_game_records_match_and_replays(service: TableService, db: Database) -> None:
    seen: list[tuple[bool, int, MatchRecord]] = []

    def recorder(conn: Conn, match_id: int, match: MatchRecord) -> None:
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

    row = await db.read(repo.get, r.table_id)
    assert row is not None and row.status == "finished" and row.version == r.version
    log = await db.read(repo.actions, r.table_id)
    assert [a.version for a in log] == list(range(1, r.version + 1))
    assert {a.by_user for a in log} == {ALICE, BOB}

    matches = await db.read(lambda c: c.all("SELECT id, table_id, game, seed FROM matches"))
    assert [(m["id"], m["table_id"], m["game"], m["seed"]) for m in matches] == [
        (seen[0][1], r.table_id, "gin_rummy", row.seed)
    ]
    seats = await db.read(
        lambda c: c.all("SELECT seat, user_id, score, rank FROM match_seats ORDER BY seat")
    )
    assert [s["user_id"] for s in seats] == [s.user_id for s in r.seats]
    assert [s["score"] for s in seats] == list(r.outcome.scores)
    assert [s["rank"] for s in seats] == list(r.outcome.ranks)
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
    events = Events(service)
    await service.create(CH, 9, ALICE, "Alice", "back_alley")
    for _ in range(3):
        await service.add_bot(CH, ALICE, "normal")
    r = await service.start(CH, ALICE)
    me = next(s.seat for s in r.seats if s.user_id == ALICE)
    moves = 0
    while moves < 15:
        await service.settled(CH)
        r = await service.status(CH)
        assert r.status == "playing" and r.to_act == (me,)
        before = len(events.got)
        done = await service.act(CH, ALICE, r.private[me].legal[0], r.version)
        assert [(s.by, s.seat, s.version) for s in done.steps] == [("player", me, r.version + 1)]
        await service.settled(CH)
        after = await service.status(CH)
        steps = [s for e in events.got[before:] if isinstance(e, type(r)) for s in e.steps]
        assert all(s.by == "computer" for s in steps)
        assert [s.version for s in steps] == list(range(r.version + 2, after.version + 1))
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
    old = await db.read(repo.get, r.table_id)
    assert old is not None
    again = await service.rematch(CH, ALICE)
    assert again.status == "playing" and again.table_id != r.table_id
    assert again.seats == r.seats
    new = await db.read(repo.get, again.table_id)
    assert new is not None and new.seed != old.seed and new.options == old.options
    before = await db.read(repo.get, r.table_id)
    assert before is not None and before.status == "finished"


async def test_what_opens_a_table_is_written_in_its_transaction(
    service: TableService, db: Database
) -> None:
    """A ``link`` that fails opens no table, lobby or rematch (the front end writes where it
    reaches the table through it); one that works is written with the table."""

    class Planted(Exception):
        """The failure planted in the link."""

    def fails(conn: Conn, table_id: int) -> None:
        raise Planted

    linked: list[int] = []
    with pytest.raises(Planted):
        await service.create(CH, 9, ALICE, "Alice", "ono99", link=fails)
    assert await db.read(repo.latest_in_channel, CH) is None
    await service.create(CH, 9, ALICE, "Alice", "ono99", link=lambda c, t: linked.append(t))
    await service.add_bot(CH, ALICE)
    r = await play_out(service, CH, await service.start(CH, ALICE))
    with pytest.raises(Planted):
        await service.rematch(CH, ALICE, link=fails)
    latest = await db.read(repo.latest_in_channel, CH)
    assert latest is not None and latest.id == r.table_id
    again = await service.rematch(CH, ALICE, link=lambda c, t: linked.append(t))
    assert linked == [r.table_id, again.table_id]


async def test_leaving_a_running_game_hands_the_seat_to_a_computer(
    service: TableService, db: Database
) -> None:
    await service.create(CH, 9, ALICE, "Alice", "craits")
    await service.join(CH, BOB, "Bob")
    await service.add_bot(CH, ALICE)
    await service.start(CH, ALICE)
    r = await service.leave(CH, BOB)
    assert r.status == "playing" and all(s.user_id != BOB for s in r.seats)
    assert any(str(s.name) == "Computer (normal) for Bob" for s in r.seats)
    await service.settled(CH)
    r = await service.status(CH)
    assert r.to_act and all(r.seats[s].user_id == ALICE for s in r.to_act)
    r = await play_out(service, CH, r)
    assert r.status == "finished"
    assert (await check_table(db, r.table_id)).ok


async def test_a_restarted_service_resumes_tables(db: Database, clock: ManualClock) -> None:
    first = TableService(db, clock=clock)
    await first.create(CH, 9, ALICE, "Alice", "gin_rummy")
    await first.join(CH, BOB, "Bob")
    r = await first.start(CH, ALICE)
    seat = r.to_act[0]
    r = await first.act(CH, r.seats[seat].user_id or 0, r.private[seat].legal[0], r.version)
    await first.create(CH + 1, 9, ALICE, "Alice", "spades")
    await first.close()

    second = TableService(db, clock=clock)
    report = await second.load()
    assert (report.loaded, report.playing, report.quarantined) == (2, 1, ())
    again = await second.status(CH)
    assert (again.version, again.to_act, again.public) == (r.version, r.to_act, r.public)
    seat = again.to_act[0]
    after = await second.act(CH, again.seats[seat].user_id or 0, again.private[seat].legal[0])
    assert after.version == r.version + 1
    assert (await second.status(CH + 1)).status == "lobby"
    await second.close()


async def test_a_failing_match_recorder_undoes_the_final_move(
    service: TableService, db: Database, clock: ManualClock
) -> None:
    def broken(conn: Conn, match_id: int, match: MatchRecord) -> None:
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
    row = await db.read(repo.open_in_channel, CH)
    assert row is not None and row.status == "playing"
    assert await db.read(lambda c: c.all("SELECT id FROM matches")) == []
    fresh = TableService(db, clock=clock)
    r = await fresh.status(CH)
    assert r.version == row.version
    done = await play_out(fresh, CH, r)
    assert done.status == "finished" and done.version == row.version + 1
    await fresh.close()


async def test_a_table_saved_before_views_had_a_history_loads_and_checks(
    db: Database, clock: ManualClock
) -> None:
    """A snapshot written before states kept ``history`` (mid-hand) loads with an empty one,
    plays on, and ``check`` accepts it: its history is a tail of the replayed one. A history
    that is not such a tail is refused."""
    game = games.get("gin_rummy")
    first = TableService(db, clock=clock)
    await first.create(CH, 9, ALICE, "Alice", "gin_rummy")
    await first.join(CH, BOB, "Bob")
    r = await first.start(CH, ALICE)
    for _ in range(3):
        seat = r.to_act[0]
        r = await first.act(CH, r.seats[seat].user_id or 0, r.private[seat].legal[0], r.version)
    await first.close()

    async def rewrite(change: Callable[[dict[str, Any]], None]) -> None:
        row = await db.read(repo.get, r.table_id)
        assert row is not None and row.snapshot is not None
        state = json.loads(row.snapshot)["state"]
        change(state)
        text = Snapshot.dump("gin_rummy", row.version, json.dumps(state))
        await db.write(
            lambda c: c.execute("UPDATE tables SET snapshot = ? WHERE id = ?", (text, r.table_id))
        )

    await rewrite(lambda state: state.pop("history"))
    assert (await check_table(db, r.table_id)).ok
    second = TableService(db, clock=clock)
    assert (await second.load()).quarantined == ()
    again = await second.status(CH)
    seat = again.to_act[0]
    await second.act(CH, again.seats[seat].user_id or 0, again.private[seat].legal[0])
    await second.close()
    row = await db.read(repo.get, r.table_id)
    assert row is not None
    kept = game.from_json(json.loads(row.snapshot or "")["state"]).history
    assert 0 < len(kept) < len((await replay(db, r.table_id)).history)
    assert (await check_table(db, r.table_id)).ok

    await rewrite(lambda state: state["history"][0].update(seat=5))
    assert not (await check_table(db, r.table_id)).ok
