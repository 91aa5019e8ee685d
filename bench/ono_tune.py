"""Learn the ONO 99 expert's weights (``games/ono99/bots.py`` ``Weights``) and write them.

    python -m bench.ono_tune [--steps N] [--deals D] [--seed S] [--jobs 2] [--out PATH]

A (1+1) evolution strategy over the score ``normal`` plays by: starting from ``normal``'s
weights, each step changes one or two of them at random (a normal step of the size in
``STEPS``; ``counting`` is flipped) and keeps the change when the changed player wins more
than the kept one against three ``normal`` players on the same ``D`` four-player deals
0 … D − 1 (elimination, the defaults), each dealt four times so that it sits in every seat,
measured as its wins minus ``normal``'s in the same seats on the same deals (``normal``
draws nothing from a generator, so one all-``normal`` game per deal is the baseline).
Everything is seeded and every game is replayed the same way, so the same command writes
the same file, whatever ``--jobs``. The defaults (``STEPS_RUN``, ``DEALS``, ``SEED``) write
the shipped ``games/ono99/weights.json``; BENCHMARKS.md gives the time it takes and how the
weights measured on deals they were not chosen on.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, fields, replace
from functools import partial
from pathlib import Path

from bench import paired
from bench.openspiel_gin import mean_interval
from games.base import View
from games.ono99 import bots
from games.ono99.bots import NORMAL, Weights

#: The shipped weights' run (the defaults: ``python -m bench.ono_tune`` writes them).
STEPS_RUN = 48
DEALS = 2_000
SEED = 1
PLAYERS = 4
#: The size of a step per weight (``counting`` is flipped instead).
STEPS = {
    "minus": 0.4, "play2": 0.4, "reverse": 0.4, "ono": 0.3, "numbers": 0.4, "risk": 1.0,
    "pressure": 1.0, "climb": 1.5, "sharpness": 1.0, "play2_now": 0.4, "minus_now": 0.4,
}
#: Deals a worker plays at a time.
CHUNK = 250


TABLE = paired.Table("ono99", PLAYERS, "ono_tune")


def gain(weights: Weights, first: int, deals: int, pool: ProcessPoolExecutor | None) -> list[
    float
]:
    """Per deal, ``weights``' wins minus ``normal``'s in the same seats (deals ``first`` …)."""
    return paired.gain(TABLE, partial(_decide, weights), first, deals, pool, CHUNK)


def _decide(weights: Weights, view: View, legal: list[str]) -> str:
    return bots.decide(view, legal, weights)[0]


def step(weights: Weights, rng: random.Random) -> Weights:
    """``weights`` with one or two of them changed at random."""
    names = sorted([*STEPS, "counting"])
    changes: dict[str, float | bool] = {}
    for name in rng.sample(names, rng.choice((1, 2))):
        value = getattr(weights, name)
        changes[name] = not value if name == "counting" else round(
            value + rng.gauss(0.0, STEPS[name]), 3)
    return replace(weights, **changes)  # type: ignore[arg-type]


def tune(steps: int, deals: int, seed: int, jobs: int) -> tuple[Weights, float]:
    """The weights the strategy keeps after ``steps`` steps, and their mean gain."""
    rng = random.Random(f"ono_tune:{seed}")
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        best, best_gain = NORMAL, 0.0
        for n in range(steps):
            tried = step(best, rng)
            mean, half = mean_interval(gain(tried, 0, deals, pool))
            kept = mean > best_gain
            print(f"step {n}: {_changed(best, tried)} {100 * mean:+.2f} ± {100 * half:.2f} "
                  f"points{' kept' if kept else ''}", file=sys.stderr, flush=True)
            if kept:
                best, best_gain = tried, mean
        return best, best_gain
    finally:
        if pool is not None:
            pool.shutdown()


def _changed(old: Weights, new: Weights) -> str:
    return ", ".join(f"{f.name} {getattr(new, f.name)}" for f in fields(Weights)
                     if getattr(old, f.name) != getattr(new, f.name))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ono_tune", description=__doc__)
    parser.add_argument("--steps", type=int, default=STEPS_RUN)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2),
                        help="worker processes (the same weights either way)")
    parser.add_argument("--out", type=Path, default=bots.TUNED_PATH)
    args = parser.parse_args(argv)
    if args.steps < 1 or args.deals < 1:
        parser.error("--steps and --deals must be at least 1")
    if args.out.is_dir() or not args.out.parent.is_dir():
        parser.error(f"cannot write {args.out}: give a file in a folder that exists")
    start = time.perf_counter()
    weights, mean = tune(args.steps, args.deals, args.seed, args.jobs)
    about = {
        "command": f"python -m bench.ono_tune --steps {args.steps} --deals {args.deals} "
                   f"--seed {args.seed}",
        "gain_on_its_deals": round(100 * mean, 2),
        "cost": "BENCHMARKS.md, \"ONO 99's learned weights\"",
    }
    args.out.write_text(json.dumps({"weights": asdict(weights), "about": about}, indent=1)
                        + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s: "
          f"{100 * mean:+.2f} points over normal on its deals", file=sys.stderr)


if __name__ == "__main__":
    main()
