"""Memory per active table in the table service (what ``bench/service_bench.py`` lacks).

For each game: open a real SQLite file, create ``tables`` tables of human players (the
game's fewest seats), start them and play ``moves`` moves on each (normal-bot choices,
made through ``TableService.act``). The bytes are the growth of Python's traced heap
(``tracemalloc``, after a full collection) from before the first table to after the last
move, divided by the number of tables: the service's in-memory table (state, seats,
lock) plus anything the engines cache on its behalf. The ``TableResult`` replies are
dropped as soon as the next move is chosen, as an adapter would.

    .venv/bin/python -m bench.service_memory [--tables 1000] [--moves 10]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import tracemalloc
from pathlib import Path

import games
from bench.service_bench import pick
from bot.services.tables import TableService
from storage.connect import open_database


async def memory_per_table(path: Path, game: str, tables: int, moves: int) -> float:
    """Bytes of Python heap per active ``game`` table (see the module docstring)."""
    db = await open_database(path)
    service = TableService(db)
    players = games.get(game).min_players
    rng = random.Random(0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for ch in range(1, tables + 1):
        users = [ch * 10 + k for k in range(players)]
        await service.create(ch, 1, users[0], "P0", game)
        for k, uid in enumerate(users[1:], start=1):
            await service.join(ch, uid, f"P{k}")
        r = await service.start(ch, users[0])
        for _ in range(moves):
            if r.status != "playing":
                break
            seat = r.to_act[0]
            r = await service.act(ch, r.seats[seat].user_id or 0, pick(r, seat, rng), r.version)
    del r
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    await db.close()
    return (after - before) / tables


async def measure(tables: int, moves: int) -> dict[str, float]:
    """Bytes per active table for every game."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in games.names():
            out[name] = await memory_per_table(Path(tmp) / f"{name}.db", name, tables, moves)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=10)
    args = ap.parse_args()
    for name, size in asyncio.run(measure(args.tables, args.moves)).items():
        print(f"{name:<10} {size / 1024:7.1f} KiB per active table")


if __name__ == "__main__":
    main()
