"""Replaying a table's log from its seed and options, and checking it against the snapshot."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import games
from bot.services.errors import NoTable
from bot.services.tables.records import LOAD_ERRORS, reason
from games.base import IllegalAction, State
from storage import tables as repo
from storage.db import Conn, Database
from storage.models import Snapshot, load_options, load_seats


def states(row: repo.TableRow, log: Sequence[repo.ActionRow]) -> Iterator[State]:
    """The table's state at the deal, then after each logged action, in order (the log
    must number its actions 1, 2, …; ``IllegalAction`` if one does not apply)."""
    game = games.get(row.game)
    state: State = game.new(
        len(load_seats(row.seats)), seed=row.seed, options=load_options(row.options)
    )
    yield state
    for n, a in enumerate(log, start=1):
        if a.version != n:
            raise ValueError(f"the log skips from version {n - 1} to {a.version}")
        state = game.apply(state, a.seat, a.action)
        yield state


def _replay(conn: Conn, table_id: int) -> tuple[repo.TableRow, State | None] | None:
    """The table's row and the state its log replays to (None before the deal)."""
    row = repo.get(conn, table_id)
    if row is None:
        return None
    if row.snapshot is None:
        return row, None
    return row, deque(states(row, repo.actions(conn, table_id)), maxlen=1)[0]


async def replay(db: Database, table_id: int) -> State:
    """The state reached by re-applying the table's log from its seed and options."""
    found = await db.read(_replay, table_id)
    if found is None or found[1] is None:
        raise NoTable(f"There is no game at table {table_id}.")
    return found[1]


@dataclass(frozen=True)
class CheckResult:
    """Whether a table's log replays to its snapshot."""

    table_id: int
    ok: bool
    problem: str = ""


async def check_table(db: Database, table_id: int) -> CheckResult:
    """Replay the table's log and compare it with the stored snapshot."""
    try:
        found = await db.read(_replay, table_id)
    except (*LOAD_ERRORS, IllegalAction) as exc:
        return CheckResult(table_id, False, reason(exc))
    if found is None:
        return CheckResult(table_id, False, "no such table")
    row, replayed = found
    if row.snapshot is None or replayed is None:
        return CheckResult(table_id, True, "no game yet")
    try:
        game = games.get(row.game)
        env = Snapshot.parse(row.snapshot)
        stored = game.dumps(game.from_json(env.state))
    except LOAD_ERRORS as exc:
        return CheckResult(table_id, False, reason(exc))
    if env.version != row.version:
        return CheckResult(table_id, False, f"snapshot version {env.version} ≠ {row.version}")
    if stored != game.dumps(replayed):
        return CheckResult(table_id, False, "replaying the log gives a different state")
    return CheckResult(table_id, True)
