"""How long a table keeps anyone waiting while its computers move (issue: "no interaction
ever waits behind a computer").

A table of ONO 99 with one human and five computers (and one of Craits with four) plays
with the computer delay users run (0.8 s per computer move). Meanwhile a second task asks
for the table's status every 20 ms, as autocomplete, "Your hand" and ``/table status`` do,
and the human moves as soon as it is their turn. Printed: the status latencies (p50, p99,
max) and the human's move latencies — each must stay far below Discord's 3 s.

Run: ``.venv/bin/python -m bench.responsiveness [--moves N] [--pace S]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service_bench import pick
from bot.services.tables import TableService
from storage.connect import open_database

HUMAN = 7


def summary(name: str, samples: list[float]) -> str:
    """p50 / p99 / max in milliseconds."""
    q = statistics.quantiles(samples, n=100) if len(samples) > 1 else samples * 99
    return (
        f"{name:<28} n={len(samples):>5}  p50 {q[49] * 1000:7.2f} ms  p99 {q[98] * 1000:7.2f} ms"
        f"  max {max(samples) * 1000:7.2f} ms"
    )


async def run(game: str, computers: int, moves: int, pace: float, path: Path) -> None:
    db = await open_database(path)
    service = TableService(db, pace=pace)
    await service.create(1, 1, HUMAN, "Human", game)
    for _ in range(computers):
        await service.add_bot(1, HUMAN, "normal")
    await service.start(1, HUMAN)
    status: list[float] = []
    mine: list[float] = []
    done = asyncio.Event()

    async def ask() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            await service.status(1)
            status.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)

    async def play() -> None:
        rng = random.Random(1)
        made = 0
        while made < moves:
            r = await service.status(1)
            if r.status != "playing":
                r = await service.rematch(1, HUMAN)
            seat = r.seats.index(next(s for s in r.seats if s.user_id == HUMAN))
            if seat not in r.to_act:
                await asyncio.sleep(0.01)
                continue
            t0 = time.perf_counter()
            await service.act(1, HUMAN, pick(r, seat, rng), r.version)
            mine.append(time.perf_counter() - t0)
            made += 1
        done.set()

    await asyncio.gather(ask(), play())
    await service.close()
    await db.close()
    print(f"{game}, 1 human + {computers} computers, computer delay {pace:g} s:")
    print("  " + summary("status while computers move", status))
    print("  " + summary("the human's own move", mine))


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=8, help="human moves per table")
    ap.add_argument("--pace", type=float, default=0.8, help="seconds before each computer move")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        await run("ono99", 5, args.moves, args.pace, Path(tmp) / "ono.db")
        await run("craits", 4, args.moves, args.pace, Path(tmp) / "craits.db")


if __name__ == "__main__":
    asyncio.run(main())
