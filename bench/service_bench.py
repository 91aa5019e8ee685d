"""Measure the table service on a real SQLite file (not a test; prints numbers).

    .venv/bin/python -m bench.service_bench [--tables 1000] [--stored 10000] [--games 40]

1. Moves: ``--tables`` two-player tables, two humans each, so one ``act`` is exactly one
   move (lock + checks + apply + commit + result). All tables play concurrently, first
   flat out (throughput; latency is then mostly queueing behind the one writer), then
   paced with ``--think`` seconds mean between a table's moves (latency at a realistic
   load); finally one table alone (the cost of one move without contention).
2. Start-up: ``--stored`` playing tables stored (written in bulk, mid-game snapshots of
   every game), then a fresh ``TableService.load()`` from a freshly opened database.
3. Size: ``--games`` finished games per game (one human against computers), database bytes
   per finished game (tables row + action log + match rows), after a checkpoint.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import games
from bot.services.tables import TableResult, TableService
from storage import tables as repo
from storage.db import Database
from storage.models import Computer, Human, Occupant, Snapshot, dump_options, dump_seats


def pick(r: TableResult, seat: int, rng: random.Random) -> str:
    mine = r.private[seat]
    return games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)


async def bench_moves(path: Path, tables: int, moves: int, think: float) -> None:
    db = await Database.open(path)
    service = TableService(db)
    results: dict[int, TableResult] = {}
    for ch in range(1, tables + 1):
        game = ("gin_rummy", "spades")[ch % 2]
        await service.create(ch, 1, ch * 10, "A", game)
        await service.join(ch, ch * 10 + 1, "B")
        results[ch] = await service.start(ch, ch * 10)

    async def player(ch: int, pause: float, latencies: list[float]) -> None:
        rng = random.Random(ch)
        r = results[ch]
        for _ in range(moves):
            if pause:
                await asyncio.sleep(rng.uniform(0, 2 * pause))
            if r.status != "playing":
                r = await service.rematch(ch, ch * 10)
            seat = r.to_act[0]
            action = pick(r, seat, rng)
            t0 = time.perf_counter()
            r = await service.act(ch, r.seats[seat].user_id or 0, action, r.version)
            latencies.append(time.perf_counter() - t0)
        results[ch] = r

    for label, pause in (("flat out", 0.0), (f"paced, {think:g} s mean think time", think)):
        latencies: list[float] = []
        start = time.perf_counter()
        await asyncio.gather(*[player(ch, pause, latencies) for ch in results])
        wall = time.perf_counter() - start
        q = statistics.quantiles(latencies, n=100)
        print(f"moves ({label}): {len(latencies)} moves on {tables} active tables in"
              f" {wall:.1f} s = {len(latencies) / wall:,.0f} moves/s;"
              f" act latency p50 {q[49] * 1000:.2f} ms, p99 {q[98] * 1000:.2f} ms")
    await db.close()

    db = await Database.open(path.with_name("seq.db"))
    service = TableService(db)
    await service.create(1, 1, 10, "A", "gin_rummy")
    await service.join(1, 11, "B")
    r = await service.start(1, 10)
    rng = random.Random(1)
    seq: list[float] = []
    while len(seq) < 2000:
        if r.status != "playing":
            r = await service.rematch(1, 10)
        seat = r.to_act[0]
        action = pick(r, seat, rng)
        t0 = time.perf_counter()
        r = await service.act(1, r.seats[seat].user_id or 0, action, r.version)
        seq.append(time.perf_counter() - t0)
    await db.close()
    q = statistics.quantiles(seq, n=100)
    print(f"moves (one table, one at a time): p50 {q[49] * 1000:.2f} ms,"
          f" p99 {q[98] * 1000:.2f} ms, {len(seq) / sum(seq):,.0f} moves/s")


async def bench_startup(path: Path, stored: int) -> None:
    db = await Database.open(path)
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
            Computer(bot="normal", name=f"Computer (normal) {k}") for k in range(1, g.min_players)
        ]
        samples.append((name, dump_options(g.check_options({})), dump_seats(occupants),
                        Snapshot.dump(name, 20, g.dumps(state))))
    now = time.time()
    async with db.transaction() as conn:
        for ch in range(1, stored + 1):
            name, options, seats, snap = samples[ch % len(samples)]
            tid = await repo.insert(conn, repo.NewTable(ch, 1, None, name, options, 1, ch, seats,
                                                        300, now))
            await conn.execute(
                "UPDATE tables SET status='playing', snapshot=?, version=20, deadline=?"
                " WHERE id=?", (snap, now + 300, tid))
    await db.close()
    t0 = time.perf_counter()
    db = await Database.open(path)
    service = TableService(db)
    report = await service.load()
    total = time.perf_counter() - t0
    await db.close()
    print(f"start-up: {report.loaded} stored tables ({report.playing} playing,"
          f" {len(report.quarantined)} quarantined) loaded in {total:.2f} s"
          f" (open + migrate check + load; load itself {report.seconds:.2f} s)")


async def bench_size(path: Path, per_game: int) -> None:
    for name in games.names():
        p = path.with_name(f"size-{name}.db")
        db = await Database.open(p)
        await db.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        await db.fetchall("VACUUM")
        empty = p.stat().st_size
        service = TableService(db)
        g = games.get(name)
        moves = 0
        for ch in range(1, per_game + 1):
            await service.create(ch, 1, 7, "A", name)
            for _ in range(g.min_players - 1):
                await service.add_bot(ch, 7, "normal")
            r = await service.start(ch, 7)
            rng = random.Random(ch)
            while r.status == "playing":
                mine = r.for_user(7)
                assert mine is not None
                r = await service.act(ch, 7, pick(r, mine.seat, rng), r.version)
            moves += r.version
        await db.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        await db.fetchall("VACUUM")
        await db.close()
        size = p.stat().st_size - empty
        print(f"size: {name:<10} {size / per_game / 1024:6.1f} KiB per finished game"
              f" ({moves / per_game:.0f} moves/game, {size / moves:.0f} B/move)")


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=10, help="moves per table per phase")
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds between moves")
    ap.add_argument("--stored", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=20, help="finished games per game")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        await bench_moves(Path(tmp) / "moves.db", args.tables, args.moves, args.think)
        await bench_startup(Path(tmp) / "startup.db", args.stored)
        await bench_size(Path(tmp) / "size.db", args.games)


if __name__ == "__main__":
    asyncio.run(main())
