"""Replaying a table's log from its seed and options, and checking it against the snapshot."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import games
from bot.services.errors import NoTable
from bot.services.tables.records import LOAD_ERRORS, reason
from games.base import IllegalAction, State
from i18n import _, lazy_gettext
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
            raise ValueError(_(
                "the log skips from version {n} to {version}",
                n=n - 1, version=a.version,
            ))
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
        raise NoTable(lazy_gettext("There is no game at table {table_id}.", table_id=table_id))
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
        return CheckResult(table_id, False, _("no such table"))
    row, replayed = found
    if row.snapshot is None or replayed is None:
        return CheckResult(table_id, True, _("no game yet"))
    try:
        game = games.get(row.game)
        env = Snapshot.parse(row.snapshot)
        stored = game.from_json(env.state)
    except LOAD_ERRORS as exc:
        return CheckResult(table_id, False, reason(exc))
    if env.version != row.version:
        return CheckResult(table_id, False, _(
            "snapshot version {snapshot} ≠ {table}",
            snapshot=env.version, table=row.version,
        ))
    if game.dumps(stored) != game.dumps(_upgraded(replayed, stored.history)):
        return CheckResult(table_id, False, _("replaying the log gives a different state"))
    return CheckResult(table_id, True)


def _upgraded(replayed: State, stored: tuple[dict[str, Any], ...]) -> State:
    """``replayed`` as a table saved before states kept a ``history`` holds it: a game
    saved mid-hand then loaded with none and kept only the hand's events since, a tail of
    the replayed history. Any other history is left to the comparison to refuse."""
    full = replayed.history
    if len(stored) < len(full) and full[len(full) - len(stored):] == stored:
        replayed = replayed.clone()
        replayed.history = stored
    return replayed


def _log(conn: Conn, table_id: int) -> tuple[repo.TableRow, list[repo.ActionRow]] | None:
    row = repo.get(conn, table_id)
    return None if row is None or row.snapshot is None else (row, repo.actions(conn, table_id))


async def public_events(db: Database, table_id: int) -> list[dict[str, Any]]:
    """Every public event of the table's game so far, in order, from its log (the replay
    runs in a worker thread: a long game takes tens of milliseconds)."""
    found = await db.read(_log, table_id)
    if found is None:
        return []
    row, log = found

    def replay_events() -> list[dict[str, Any]]:
        return [e for state in states(row, log) for e in state.events]

    return await asyncio.to_thread(replay_events)
