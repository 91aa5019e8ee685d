"""Copying every Deckhand row out of a SQLite file into another database (``deckhand db
copy``): tables and their logs, matches, leagues and ratings, Discord message ids.

The source is a SQLite snapshot file (the CLI makes one with SQLite's online backup, so a
live database can be copied); ``fill`` runs as one write transaction of the target, so a
failed copy leaves nothing behind. Ids are kept: logs, matches and leagues still point at
their rows, and PostgreSQL's id sequences are moved past them afterwards.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from graphlib import TopologicalSorter
from itertools import islice

from storage.db import Conn, Row
from storage.postgres import restart_ids
from storage.sqlite import SqliteConn

BATCH = 1000


class CopyStopped(Exception):
    """The copy was asked to stop; its transaction is rolled back."""


def tables_in_order(src: Conn) -> list[str]:
    """A SQLite database's tables, every table after those its foreign keys point at."""
    names = [
        str(r["name"])
        for r in src.all(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    parents = {
        name: {str(f["table"]) for f in src.all(f'PRAGMA foreign_key_list("{name}")')} - {name}
        for name in names
    }
    return list(TopologicalSorter(parents).static_order())


def count_rows(conn: Conn, tables: Sequence[str]) -> dict[str, int]:
    """How many rows each table has."""
    counts = {}
    for table in tables:
        row = conn.one(f'SELECT COUNT(*) AS n FROM "{table}"')
        counts[table] = int(row["n"]) if row is not None else 0
    return counts


def _batches(rows: Iterator[Row], columns: Sequence[str]) -> Iterator[list[tuple[object, ...]]]:
    while chunk := [tuple(r[c] for c in columns) for r in islice(rows, BATCH)]:
        yield chunk


def fill(
    dst: Conn,
    snapshot: str,
    copied: Callable[[int], object] | None = None,
    stop: threading.Event | None = None,
) -> dict[str, int]:
    """Insert every row of the SQLite file ``snapshot`` into ``dst`` (same schema
    version, no Deckhand rows yet); the rows copied per table. ``copied(n)`` is told of
    each batch of ``n`` rows; once ``stop`` is set, the next batch raises ``CopyStopped``."""
    raw = sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)
    raw.row_factory = sqlite3.Row
    src = SqliteConn(raw)
    try:
        tables = tables_in_order(src)
        held = [t for t, n in count_rows(dst, tables).items() if n]
        if held:
            raise ValueError(
                f"The target already holds Deckhand rows (in {', '.join(held)}): copy into"
                " an empty database."
            )
        for table in tables:
            columns = [str(c["name"]) for c in src.all(f'PRAGMA table_info("{table}")')]
            names = ", ".join(columns)
            insert = (
                f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(columns))})'
            )
            for chunk in _batches(src.iterate(f'SELECT {names} FROM "{table}"'), columns):
                if stop is not None and stop.is_set():
                    raise CopyStopped("the copy was stopped")
                dst.executemany(insert, chunk)
                if copied is not None:
                    copied(len(chunk))
        if dst.dialect == "postgresql":
            restart_ids(dst)
        return count_rows(dst, tables)
    finally:
        raw.close()
