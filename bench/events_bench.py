"""Events benchmark (not a test): how long Swiss pairing and standings take for big fields.

    .venv/bin/python bench/events_bench.py [--rounds 9] [--sizes 16,64,256,1024]

Plays each field size through ``rounds`` Swiss rounds with random results (a third of the
games drawn), timing every ``swiss_round`` and the final ``standings``; odd sizes get byes.
Pure CPU: no database.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.services.events.pairing import DRAW, LOSS, WIN, Result, standings, swiss_round


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--sizes", default="16,63,64,256,1024")
    args = ap.parse_args()
    print(f"{'entrants':>8} {'rounds':>6} {'slowest round':>14} {'all rounds':>11}"
          f" {'standings':>10} {'rematches':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        slow, total, table, again = run(size, args.rounds, size)
        print(f"{size:>8} {args.rounds:>6} {slow * 1000:>11.1f} ms {total * 1000:>8.1f} ms"
              f" {table * 1000:>7.1f} ms {again:>9}")


if __name__ == "__main__":
    main()
