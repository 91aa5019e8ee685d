"""Events benchmark (not a test): how long Swiss pairing and standings take for big fields.

    .venv/bin/python bench/events_bench.py [--rounds 9] [--sizes 16,64,256,1024]

Plays each field size through ``rounds`` Swiss rounds with random results (a third of the
games drawn), timing every ``swiss_round`` and the final ``standings``; odd sizes get byes.
Pure CPU: no database.

``--record`` also runs events through ``EventService`` on a real SQLite file and times
``record`` — what a finishing game adds to its transaction at an event table (the last
table of a round also pairs and stores the next round).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.services.events.pairing import DRAW, LOSS, WIN, Result, standings, swiss_round
from bot.services.events.seeds import SECRET_BYTES
from bot.services.events.service import EventService
from storage.connect import open_database
from storage.events import TableRow


def run(size: int, rounds: int, seed: int) -> tuple[float, float, float, int]:
    """Slowest and total pairing time, standings time (s) and rematches for one field."""
    rng = random.Random(seed)
    seeds = list(range(1, size + 1))
    results: list[Result] = []
    times = []
    met: set[frozenset[int]] = set()
    rematches = 0
    for r in range(1, rounds + 1):
        t0 = time.perf_counter()
        pairs = swiss_round(seeds, results)
        times.append(time.perf_counter() - t0)
        for p in pairs:
            if p.b is None:
                results.append(Result.bye(r, p.a))
                continue
            key = frozenset((p.a, p.b))
            rematches += key in met
            met.add(key)
            results.append(Result(r, p.a, p.b, rng.choice([WIN, WIN, DRAW, LOSS, LOSS])))
    t0 = time.perf_counter()
    standings(seeds, results)
    return max(times), sum(times), time.perf_counter() - t0, rematches


async def record(size: int, rounds: int) -> tuple[list[float], list[float]]:
    """Times (s) of recording each table of a Swiss event of ``size`` players on SQLite:
    tables that left the round open, and the last tables of rounds (which pair the next)."""
    rng = random.Random(size)
    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(Path(tmp) / "bench.db")
        try:
            service = EventService(db, new_secret=lambda: size.to_bytes(SECRET_BYTES))
            event = await service.create(1, 1, 1, is_admin=True, name="bench", game="gin_rummy",
                                         format="swiss", rounds=rounds)
            for user in range(1, size + 1):
                await service.join(1, event.id, 1000 + user, f"p{user}")
            tables = await service.start(1, event.id, 1, is_admin=True)
            plain: list[float] = []
            closing: list[float] = []
            while tables:
                following: list[TableRow] = []
                for t in (t for t in tables if t.side_b is not None):
                    scores = rng.choice([(10, 0), (0, 10), (5, 5)])
                    t0 = time.perf_counter()
                    done = await service.record(event.id, (t.round, t.table_no, t.board), scores)
                    took = time.perf_counter() - t0
                    (closing if done.next_round or done.finished else plain).append(took)
                    following = list(done.next_round) or following
                tables = following
            return plain, closing
        finally:
            await db.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--sizes", default="16,63,64,256,1024")
    ap.add_argument("--record", action="store_true", help="also time EventService.record")
    args = ap.parse_args()
    print(f"{'entrants':>8} {'rounds':>6} {'slowest round':>14} {'all rounds':>11}"
          f" {'standings':>10} {'rematches':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        slow, total, table, again = run(size, args.rounds, size)
        print(f"{size:>8} {args.rounds:>6} {slow * 1000:>11.1f} ms {total * 1000:>8.1f} ms"
              f" {table * 1000:>7.1f} ms {again:>9}")
    if args.record:
        print(f"\n{'players':>8} {'tables':>6} {'record p50':>11} {'record max':>11}"
              f" {'round-closing p50':>18} {'max':>8}")
        for size in (int(s) for s in args.sizes.split(",") if int(s) <= 256):
            plain, closing = asyncio.run(record(size, args.rounds))
            print(f"{size:>8} {len(plain) + len(closing):>6}"
                  f" {statistics.median(plain) * 1000:>8.2f} ms {max(plain) * 1000:>8.2f} ms"
                  f" {statistics.median(closing) * 1000:>15.2f} ms"
                  f" {max(closing) * 1000:>5.1f} ms")


if __name__ == "__main__":
    main()
