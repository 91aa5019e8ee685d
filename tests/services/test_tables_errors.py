"""Every refused request raises a typed error with a plain message and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.services import errors
from bot.services.tables import TableService
from storage.db import Conn, Database
from tests.conftest import values

CH = 77
ALICE, BOB, CAROL = 1, 2, 3
STARTED = errors.AlreadyStarted


def _everything(c: Conn) -> list[tuple[object, ...]]:
    tables = c.all("SELECT * FROM tables ORDER BY id")
    actions = c.all("SELECT * FROM table_actions ORDER BY table_id, version")
    matches = c.all("SELECT * FROM matches ORDER BY id")
    return [values(r) for r in [*tables, *actions, *matches]]


async def everything(db: Database) -> list[tuple[object, ...]]:
    return await db.read(_everything)


async def refused(
    db: Database,
    service: TableService,
    call: Callable[[], Awaitable[object]],
    kind: type[errors.ServiceError],
    words: str,
) -> str:
    """Run ``call``, expect ``kind`` whose message contains ``words``; nothing changed."""
    before = await everything(db)
    status_before = await service.status(CH) if before else None
    with pytest.raises(kind) as info:
        await call()
    assert words.lower() in str(info.value).lower()
    assert await everything(db) == before
    if status_before is not None:
        after = await service.status(CH)
        assert (after.version, after.seats, after.host_id, after.status) == (
            status_before.version, status_before.seats, status_before.host_id,
            status_before.status,
        )
    return str(info.value)


async def test_no_table(service: TableService, db: Database) -> None:
    await refused(db, service, lambda: service.status(CH), errors.NoTable, "no table")
    await refused(db, service, lambda: service.join(CH, BOB, "Bob"), errors.NoTable, "no table")
    await refused(db, service, lambda: service.act(CH, BOB, "draw"), errors.NoTable, "no table")
    await refused(db, service, lambda: service.abort(CH, BOB), errors.NoTable, "no table")


async def test_create_errors(service: TableService, db: Database) -> None:
    await refused(
        db, service, lambda: service.create(CH, 1, ALICE, "A", "poker"),
        errors.UnknownGameError, "gin_rummy",
    )
    await refused(
        db, service, lambda: service.create(CH, 1, ALICE, "A", "gin_rummy", {"colour": "red"}),
        errors.BadOptions, "colour",
    )
    await refused(
        db, service, lambda: service.create(CH, 1, ALICE, "A", "gin_rummy", {"target": "lots"}),
        errors.BadOptions, "target",
    )
    await refused(
        db, service, lambda: service.create(CH, 1, ALICE, "A", "gin_rummy", turn_timer=-5),
        errors.BadOptions, "turn timer",
    )
    await service.create(CH, 1, ALICE, "A", "gin_rummy")
    await refused(
        db, service, lambda: service.create(CH, 1, BOB, "B", "spades"),
        errors.TableAlreadyOpen, "already a table",
    )


async def test_lobby_errors(service: TableService, db: Database) -> None:
    await service.create(CH, 1, ALICE, "Alice", "gin_rummy")
    await refused(
        db, service, lambda: service.join(CH, ALICE, "Alice"), errors.AlreadySeated, "already"
    )
    await refused(
        db, service, lambda: service.start(CH, ALICE), errors.TooFewPlayers, "at least 2"
    )
    await refused(
        db, service, lambda: service.add_bot(CH, ALICE, "genius"), errors.UnknownLevel, "normal"
    )
    await refused(
        db, service, lambda: service.add_bot(CH, BOB), errors.NotSeated, "join the table"
    )
    await refused(
        db, service, lambda: service.remove_bot(CH, ALICE), errors.NoSuchSeat, "no computer"
    )
    await refused(db, service, lambda: service.kick(CH, ALICE, BOB), errors.NoSuchSeat, "not at")
    await refused(db, service, lambda: service.leave(CH, BOB), errors.NotSeated, "not at")
    await refused(
        db, service, lambda: service.act(CH, ALICE, "draw stock"), errors.NotPlaying, "not started"
    )
    await service.join(CH, BOB, "Bob")
    await refused(db, service, lambda: service.join(CH, CAROL, "Carol"), errors.TableFull, "full")
    await refused(db, service, lambda: service.add_bot(CH, ALICE), errors.TableFull, "full")
    await refused(db, service, lambda: service.kick(CH, BOB, ALICE), errors.NotAllowed, "host")
    await refused(db, service, lambda: service.kick(CH, ALICE, ALICE), errors.NotAllowed, "leave")
    await refused(db, service, lambda: service.start(CH, BOB), errors.NotAllowed, "host")
    await refused(db, service, lambda: service.abort(CH, BOB), errors.NotAllowed, "or an admin")
    await refused(
        db, service, lambda: service.rematch(CH, ALICE), errors.TableAlreadyOpen, "already"
    )


async def test_playing_errors(service: TableService, db: Database) -> None:
    await service.create(CH, 1, ALICE, "Alice", "gin_rummy")
    await service.join(CH, BOB, "Bob")
    r = await service.start(CH, ALICE)
    seat = r.to_act[0]
    mover = r.seats[seat].user_id
    waiter = BOB if mover == ALICE else ALICE
    assert mover is not None
    await refused(db, service, lambda: service.join(CH, CAROL, "C"), STARTED, "started")
    await refused(db, service, lambda: service.add_bot(CH, ALICE), STARTED, "started")
    await refused(db, service, lambda: service.kick(CH, ALICE, BOB), STARTED, "started")
    await refused(db, service, lambda: service.start(CH, ALICE), STARTED, "started")
    await refused(
        db, service, lambda: service.act(CH, CAROL, "draw stock"), errors.NotSeated, "not playing"
    )
    legal = r.private[seat].legal[0]
    await refused(db, service, lambda: service.act(CH, waiter, legal), errors.NotYourTurn, "turn")
    await refused(
        db, service, lambda: service.act(CH, mover, legal, r.version + 1),
        errors.StaleVersion, "earlier turn",
    )
    message = await refused(
        db, service, lambda: service.act(CH, mover, "discard ZZ"), errors.IllegalMove, ""
    )
    assert message
    await refused(db, service, lambda: service.act(CH, mover, "   "), errors.IllegalMove, "")
    await refused(db, service, lambda: service.abort(CH, CAROL), errors.NotAllowed, "host")
    after = await service.act(CH, mover, legal, r.version)
    assert after.version == r.version + 1
    await refused(
        db, service, lambda: service.act(CH, mover, legal, r.version),
        errors.StaleVersion, "earlier turn",
    )
    done = await service.abort(CH, CAROL, is_admin=True)
    assert done.status == "aborted"
    await refused(db, service, lambda: service.act(CH, mover, legal), errors.NoTable, "no table")
    await refused(
        db, service, lambda: service.rematch(CH, ALICE), errors.NothingToRematch, "no finished"
    )



async def test_a_user_hosts_a_few_lobbies_per_guild_at_most(service: TableService) -> None:
    for channel in range(1, 4):
        await service.create(channel, 5, 1, "Ann", "gin_rummy")
    with pytest.raises(errors.TooManyLobbies):
        await service.create(4, 5, 1, "Ann", "gin_rummy")
    await service.create(4, 6, 1, "Ann", "gin_rummy")  # another server
    await service.create(5, 5, 2, "Bob", "gin_rummy")  # another host
    await service.abort(1, 1)
    await service.create(6, 5, 1, "Ann", "gin_rummy")  # a closed lobby frees its place


async def test_a_card_named_by_its_place_in_the_hand(service: TableService) -> None:
    """``play #1`` reaches the engine, which reads it for the seat; the log keeps the
    canonical move."""
    await service.create(CH, 1, 1, "Ann", "ono99", turn_timer=0)
    await service.join(CH, 2, "Bob")
    r = await service.start(CH, 1)
    seat = r.to_act[0]
    mine = r.private[seat]
    first = mine.view["hand"][0]
    done = await service.act(CH, mine.user_id, "play #1", r.version)
    assert done.version == r.version + 1
    assert done.steps[0].events[0] == {
        "type": "play", "seat": seat, "card": first, "total": done.steps[0].events[0]["total"]
    }
