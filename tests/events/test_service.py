"""EventService on a real database (both backends): Swiss, round robin, duplicate and
Back Alley partnerships played to the end, with a restart in the middle."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

import games
from bot.services.events import duplicate, pairing
from bot.services.events.duplicate import Board, TableResult
from bot.services.events.seeds import of_event
from bot.services.events.service import COMPUTER, EventError, EventService
from storage import tables as table_repo
from storage.connect import open_database
from storage.db import Conn, Database
from storage.events import TableRow
from storage.matches import MatchRecord, SeatResult, insert_match

GUILD, CHANNEL, ADMIN = 1, 10, 99


def service(db: Database) -> EventService:
    seeds = itertools.count(1234)
    return EventService(
        db, clock=lambda: 1_700_000_000.0, new_secret=lambda: next(seeds).to_bytes(16, "big")
    )


def scores_for(table: TableRow) -> list[int]:
    """A result that depends only on who sits where: the lower user id in seat 0 wins big,
    otherwise seat 1 wins small (duplicate results then differ by direction)."""
    if len(table.seats) == 4:
        a = 100 if min(table.seats[0], table.seats[2]) < min(table.seats[1], table.seats[3]) else 40
        return [a, 70, a, 70]
    return [110, 20] if table.seats[0] < table.seats[1] else [30, 60]


async def make(svc: EventService, fmt: str, game: str, rounds: int, players: int,
               boards: int = 2) -> int:
    event = await svc.create(GUILD, CHANNEL, ADMIN, is_admin=True, name=f"{fmt} night",
                             game=game, format=fmt, rounds=rounds, boards=boards)
    for uid in range(1, players + 1):
        await svc.join(GUILD, event.id, uid, f"p{uid}")
    return event.id


async def play_round(svc: EventService, event_id: int) -> None:
    """Record every unplayed table of the current round."""
    event = await svc.event(GUILD, event_id)
    for t in await svc.tables(event_id):
        if t.round == event.round and not t.played:
            await svc.record(event_id, (t.round, t.table_no, t.board), scores_for(t))


async def test_a_swiss_night_of_six_survives_a_restart(where: str) -> None:
    db = await open_database(where)
    svc = service(db)
    event_id = await make(svc, "swiss", "gin_rummy", rounds=3, players=6)
    first = await svc.start(GUILD, event_id, ADMIN, is_admin=False)
    assert [(t.side_a, t.side_b) for t in first] == [(1, 4), (2, 5), (3, 6)]
    await play_round(svc, event_id)
    t2 = [t for t in await svc.tables(event_id) if t.round == 2]
    await svc.record(event_id, (2, t2[0].table_no, 0), scores_for(t2[0]))
    await db.close()

    db = await open_database(where)  # the bot restarts mid-round
    try:
        svc = service(db)
        event = await svc.event(GUILD, event_id)
        assert (event.status, event.round) == ("running", 2)
        await play_round(svc, event_id)
        await play_round(svc, event_id)
        event = await svc.event(GUILD, event_id)
        assert (event.status, event.round) == ("finished", 3)
        tables = await svc.tables(event_id)
        met = Counter(frozenset((t.side_a, t.side_b)) for t in tables)
        assert len(tables) == 9 and set(met.values()) == {1}  # no rematch in 3 rounds
        for r in (1, 2, 3):
            seen = sorted(e for t in tables if t.round == r for e in (t.side_a, t.side_b)
                          if e is not None)
            assert seen == [1, 2, 3, 4, 5, 6]
        st = await svc.standings(GUILD, event_id)
        rebuilt = pairing.standings(
            [1, 2, 3, 4, 5, 6],
            [pairing.Result(t.round, t.side_a, t.side_b, t.points) for t in tables
             if t.points is not None and t.side_b is not None],
        )
        # One row type: pairing's standings, with the entrants' names.
        assert list(st.rows) == [replace(s, names=(f"p{s.entrant}",)) for s in rebuilt]
        assert "Buchholz" in str(st.order) and st.rows[0].names == ("p1",)
        with pytest.raises(EventError, match="not running"):
            await svc.record(event_id, (3, 1, 0), [1, 2])
    finally:
        await db.close()


async def test_an_odd_swiss_field_spreads_the_byes(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "swiss", "spades", rounds=5, players=5)
    await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    for _ in range(5):
        await play_round(svc, event_id)
    tables = await svc.tables(event_id)
    byes = [t.side_a for t in tables if t.side_b is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]  # five rounds, five different byes
    assert all(t.points == pairing.BYE_POINTS for t in tables if t.side_b is None)
    st = await svc.standings(GUILD, event_id)
    assert sum(r.byes for r in st.rows) == 5 and sum(r.played for r in st.rows) == 20


async def test_round_robin_is_cut_to_its_schedule(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "round_robin", "gin_rummy", rounds=9, players=4)
    await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    assert (await svc.event(GUILD, event_id)).rounds == 3
    for _ in range(3):
        await play_round(svc, event_id)
    tables = await svc.tables(event_id)
    pairs = {frozenset((t.side_a, t.side_b)) for t in tables}
    assert pairs == {frozenset(p) for p in itertools.combinations([1, 2, 3, 4], 2)}
    assert (await svc.event(GUILD, event_id)).status == "finished"


async def test_a_duplicate_night(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "duplicate", "gin_rummy", rounds=3, players=4, boards=2)
    first = await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    assert [(t.table_no, t.board) for t in first] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    by_board = {b: {t.seed for t in first if t.board == b} for b in (1, 2)}
    assert all(len(seeds) == 1 for seeds in by_board.values())  # one deal per board
    assert by_board[1] != by_board[2]
    t11, t12 = first[0], first[1]
    assert t11.seats == tuple(reversed(t12.seats))  # the pair sits both ways
    for _ in range(3):
        await play_round(svc, event_id)
    tables = await svc.tables(event_id)
    assert sorted({t.board for t in tables}) == [1, 2, 3, 4, 5, 6]
    assert (await svc.event(GUILD, event_id)).status == "finished"
    st = await svc.standings(GUILD, event_id)
    results = [TableResult(Board(t.board, "gin_rummy", t.seed), t.table_no, t.seats, t.scores)
               for t in tables if t.scores is not None]
    want = duplicate.totals(results)
    assert {r.entrant: r.points for r in st.rows} == {u: float(want[u]) for u in want}
    assert sum(r.points for r in st.rows) == 6 * 2 * 2  # six boards, two tables: top 2 each
    assert str(st.order) == "matchpoints, then seed"


async def test_duplicate_bye_is_half_a_top(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "duplicate", "spades", rounds=1, players=5, boards=2)
    first = await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    bye = [t for t in first if t.side_b is None]
    assert len(bye) == 1 and len([t for t in first if t.side_b is not None]) == 4
    await play_round(svc, event_id)
    st = await svc.standings(GUILD, event_id)
    row = next(r for r in st.rows if r.entrant == bye[0].side_a)
    assert (row.points, row.byes) == (2.0, 1)  # 2 boards × (2 tables − 1)
    assert all(type(r) is pairing.Standing for r in st.rows)


async def test_back_alley_pairs_partnerships(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "swiss", "back_alley", rounds=2, players=8)
    first = await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    players = await svc.entrants(event_id)
    teams = {p.user_id: p.entrant for p in players}
    assert teams == {1: 1, 8: 1, 2: 2, 7: 2, 3: 3, 6: 3, 4: 4, 5: 4}
    for t in first:
        assert teams[t.seats[0]] == teams[t.seats[2]] != teams[t.seats[1]] == teams[t.seats[3]]
    assert {(t.side_a, t.side_b) for t in first} == {(1, 3), (2, 4)}
    await play_round(svc, event_id)
    st = await svc.standings(GUILD, event_id)
    assert {r.names for r in st.rows} == {("p1", "p8"), ("p2", "p7"), ("p3", "p6"),
                                          ("p4", "p5")}
    winners = {t.side_a if t.points == 1.0 else t.side_b
               for t in await svc.tables(event_id) if t.round == 1}
    assert {r.entrant for r in st.rows if r.points == 1.0} == winners


async def test_a_withdrawn_player_is_not_paired_again(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "swiss", "gin_rummy", rounds=3, players=4)
    await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    await svc.leave(GUILD, event_id, 2)
    with pytest.raises(EventError, match="not playing"):
        await svc.leave(GUILD, event_id, 2)
    await play_round(svc, event_id)
    second = [t for t in await svc.tables(event_id) if t.round == 2]
    assert 2 not in {e for t in second for e in (t.side_a, t.side_b)}
    assert len([t for t in second if t.side_b is None]) == 1


async def test_refusals(db: Database) -> None:
    svc = service(db)
    with pytest.raises(EventError, match="Manage Server"):
        await svc.create(GUILD, CHANNEL, 5, is_admin=False, name="x", game="gin_rummy",
                         format="swiss", rounds=3)
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"game": "ono99"}, "Events are for"), ({"format": "knockout"}, "format"),
        ({"rounds": 0}, "rounds"), ({"name": " "}, "name"),
        ({"options": {"target": 5}}, "target"), ({"format": "duplicate", "boards": 9}, "boards"),
    ]
    for kw, msg in refusals:
        args: dict[str, Any] = {
            "name": "x", "game": "gin_rummy", "format": "swiss", "rounds": 3
        } | kw
        with pytest.raises(EventError, match=msg):
            await svc.create(GUILD, CHANNEL, ADMIN, is_admin=True, **args)
    event_id = await make(svc, "swiss", "gin_rummy", rounds=2, players=1)
    with pytest.raises(EventError, match="already signed up"):
        await svc.join(GUILD, event_id, 1, "p1")
    with pytest.raises(EventError, match="no event"):
        await svc.join(GUILD + 1, event_id, 1, "p1")
    with pytest.raises(EventError, match="created the event"):
        await svc.start(GUILD, event_id, 1, is_admin=False)
    with pytest.raises(EventError, match="at least two"):
        await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    await svc.leave(GUILD, event_id, 1)
    with pytest.raises(EventError, match="not signed up"):
        await svc.leave(GUILD, event_id, 1)
    for uid in (1, 2):
        await svc.join(GUILD, event_id, uid, f"p{uid}")
    [table] = await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    with pytest.raises(EventError, match="already started"):
        await svc.join(GUILD, event_id, 3, "p3")
    with pytest.raises(EventError, match="already started"):
        await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    with pytest.raises(EventError, match="2 scores"):
        await svc.record(event_id, (1, 1, 0), [1, 2, 3])
    with pytest.raises(EventError, match="no such table"):
        await svc.record(event_id, (1, 5, 0), [1, 2])
    await svc.record(event_id, (1, 1, 0), scores_for(table))
    with pytest.raises(EventError, match="already in"):
        await svc.record(event_id, (1, 1, 0), scores_for(table))
    ba = await make(svc, "swiss", "back_alley", rounds=1, players=5)
    with pytest.raises(EventError, match="even number"):
        await svc.start(GUILD, ba, ADMIN, is_admin=True)
    assert [e.id for e in await svc.events(GUILD)] == [ba, event_id]


def play_out(game: str, table: TableRow, options: dict[str, object], seed: int) -> list[int]:
    """Play a table's game on the real engine with random legal moves; the final scores."""
    engine = games.get(game)
    rng = random.Random(seed)
    state = engine.new(len(table.seats), table.seed, options)
    while not state.is_over:
        seat = state.to_act[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return list(engine.outcome(state).scores)


@pytest.mark.parametrize("game", ["back_alley", "gin_rummy"])
async def test_a_duplicate_night_on_the_real_engines(db: Database, game: str) -> None:
    """Tables of one board start from the same state; the results are the engines' own;
    every table's sides share one top on every board."""
    svc = service(db)
    short = {"back_alley": {"deals": 1}, "gin_rummy": {"target": 10}}[game]
    event = await svc.create(GUILD, CHANNEL, ADMIN, is_admin=True, name="Dup", game=game,
                             format="duplicate", rounds=2, boards=2, options=short)
    for uid in range(1, 9):
        await svc.join(GUILD, event.id, uid, f"p{uid}")
    await svc.start(GUILD, event.id, ADMIN, is_admin=True)
    engine = games.get(game)
    for r in (1, 2):
        current = [t for t in await svc.tables(event.id) if t.round == r and t.side_b]
        for board in {t.board for t in current}:
            starts = [engine.to_json(engine.new(len(t.seats), t.seed, event.options))
                      for t in current if t.board == board]
            assert len(starts) > 1 and all(s == starts[0] for s in starts)
        for i, t in enumerate(current):
            await svc.record(event.id, (t.round, t.table_no, t.board),
                             play_out(game, t, event.options, 100 * r + i))
    assert (await svc.event(GUILD, event.id)).status == "finished"
    tables = [t for t in await svc.tables(event.id) if t.scores is not None]
    boards = {b.number: b for b in duplicate.make_boards(game, 4, of_event(event), event.options)}
    scored = duplicate.score_boards(
        [TableResult(boards[t.board], t.table_no, t.seats, scores)
         for t in tables if (scores := t.scores) is not None])
    for (board, table), sides in itertools.groupby(
            sorted(scored, key=lambda s: (s.board, s.table)), key=lambda s: (s.board, s.table)):
        group = list(sides)
        assert sum(s.matchpoints for s in group) == group[0].top, (board, table)


async def test_a_computer_evens_out_an_odd_field_only_when_allowed(db: Database) -> None:
    svc = service(db)
    with pytest.raises(EventError, match="Computer players are"):
        await svc.create(GUILD, CHANNEL, ADMIN, is_admin=True, name="x", game="gin_rummy",
                         format="swiss", rounds=1, computer="grandmaster")
    event = await svc.create(GUILD, CHANNEL, ADMIN, is_admin=True, name="odd",
                             game="back_alley", format="swiss", rounds=1, computer="expert")
    for uid in (1, 2, 3):
        await svc.join(GUILD, event.id, uid, f"p{uid}")
    (table,) = await svc.start(GUILD, event.id, ADMIN, is_admin=True)
    assert sorted(table.seats) == [COMPUTER, 1, 2, 3]
    entrants = await svc.entrants(event.id)
    names = {p.user_id: p.name for p in entrants}
    assert str(names[COMPUTER]) == "Computer (expert)"
    # The table opens with the computer entrant's seat as a computer seat (no user).
    seating = dict(zip(table.seats, svc.seating(table, entrants), strict=True))
    assert seating[COMPUTER] == (None, "Computer (expert)")
    assert seating[2] == (2, "p2")
    # Without computers an even field gets none, and an odd Back Alley field is refused.
    even_id = await make(svc, "swiss", "gin_rummy", rounds=1, players=4)
    assert COMPUTER not in {u for t in await svc.start(GUILD, even_id, ADMIN, is_admin=True)
                            for u in t.seats}
    odd_id = await make(svc, "swiss", "back_alley", rounds=1, players=5)
    with pytest.raises(EventError, match="even number"):
        await svc.start(GUILD, odd_id, ADMIN, is_admin=True)


async def test_a_finished_game_records_its_event_table_in_its_transaction(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "swiss", "gin_rummy", rounds=2, players=2)
    (table,) = await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    key = (table.round, table.table_no, table.board)
    now = 1_700_000_000.0

    def open_table(conn: Conn) -> int:
        table_id = table_repo.insert(conn, table_repo.NewTable(
            channel_id=77, guild_id=GUILD, league_id=None, game="gin_rummy", options="{}",
            host_id=0, seed=table.seed, seats="[]", turn_timer=0, now=now))
        svc.linker(event_id, key)(conn, table_id)
        return table_id

    table_id = await db.write(open_table)
    assert await svc.event_of_table(table_id) == event_id
    seats = tuple(
        SeatResult(seat=n, user_id=u, bot_level=None, name=f"p{u}", team=n, score=s, rank=r)
        for n, (u, s, r) in enumerate(zip(table.seats, (40, 10), (1, 2), strict=True))
    )
    match = MatchRecord(table_id=table_id, guild_id=GUILD, channel_id=77, league_id=None,
                        game="gin_rummy", options={}, seed=table.seed, started_at=now,
                        finished_at=now, seats=seats)

    def finish(conn: Conn) -> int:
        match_id = insert_match(conn, match)
        svc.record_match(conn, match_id, match)
        return match_id

    match_id = await db.write(finish)
    (done, *following) = await svc.tables(event_id)
    assert done.scores == (40, 10) and done.match_id == match_id and done.points == 1.0
    assert [t.round for t in following] == [2]  # the next round was paired with it
    await db.write(finish)  # a second match of the same table changes nothing
    assert (await svc.tables(event_id))[0].match_id == match_id


async def test_cancel(db: Database) -> None:
    svc = service(db)
    event_id = await make(svc, "swiss", "gin_rummy", rounds=2, players=4)
    await svc.start(GUILD, event_id, ADMIN, is_admin=True)
    with pytest.raises(EventError, match="created the event"):
        await svc.cancel(GUILD, event_id, 3, is_admin=False)
    unplayed = await svc.cancel(GUILD, event_id, ADMIN, is_admin=False)  # the creator
    assert len(unplayed) == 2 and (await svc.event(GUILD, event_id)).status == "cancelled"
    assert await svc.unsettled() == []
    with pytest.raises(EventError, match="already over"):
        await svc.cancel(GUILD, event_id, ADMIN, is_admin=True)
