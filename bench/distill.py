"""Distilling play-outs into a learned value (``games/learned_value.py``): what the trainers
``bench.craits_train`` and ``bench.ono_train`` share.

A trainer plays seeded games and, at some decisions, plays each candidate option on from
the real position (the hidden cards as they are, the face-down pile reshuffled) and
records the candidates' features and their mean play-out values (``Samples``, the game's
own ``play_game``). ``fit`` is ridge regression (on standardized columns) of each
decision's values less their mean on its candidates' expanded features less theirs, so
only the differences between one seat's options are learned; the games from ``cut`` on are
held out and report how much the learned choice gains there over ``normal``'s (the
feature named ``normal``) and the best candidate's (an upper bound inflated by the
play-outs' noise). ``main`` is the trainers' command line: ``--samples`` keeps the played
samples (plain lists) in a file and reads them from it when it exists, to fit again
without playing; ``--measure D`` then plays the written value alone in one seat against
``normal`` on ``D`` fresh deals (``bench.paired``). Everything is seeded: the same command
writes the same file, whatever ``--jobs`` (worker processes for the play, at most 2).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the same sums, so the same weights

import argparse
import json
import pickle
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench import paired, workers
from bench.openspiel_gin import mean_interval
from games.base import Game, State
from games.learned_value import Value, expand, width
from games.search import standing


@dataclass
class Samples:
    """Per decision: the game (deal) it came from, its candidates' features and their
    mean play-out values."""

    games: list[int] = field(default_factory=list)
    rows: list[list[list[float]]] = field(default_factory=list)
    targets: list[list[float]] = field(default_factory=list)

    def add(self, other: Samples) -> None:
        self.games += other.games
        self.rows += other.rows
        self.targets += other.targets

    def put(self, game: int, rows: list[list[float]], targets: list[float]) -> None:
        self.games.append(game)
        self.rows.append(rows)
        self.targets.append(targets)


@dataclass(frozen=True)
class Trainer:
    """One game's trainer: its command, how it plays a game's samples, its defaults, the
    settings it records, where the shipped weights go, and how ``--measure`` plays the
    value (``player`` makes a picklable policy of it)."""

    command: str
    names: tuple[str, ...]
    play_game: Callable[[int], Samples]
    games: int
    seed: int
    ridge: float
    settings: dict[str, Any]
    shipped: Path
    table: paired.Table
    player: Callable[[Value], paired.Policy]
    #: Where BENCHMARKS.md gives the training's cost and what it measured.
    cost: str
    chunk: int = 10


def targets(game: Game[Any], state: State, seat: int, plays: Sequence[str], shuffles: Sequence[int],
            pile: str, play_on: Callable[[State, State, random.Random], State]) -> list[float]:
    """Each of ``plays``' mean value (``search.standing``) over its play-outs: the play made,
    the face-down ``pile`` reshuffled by each of ``shuffles`` (the same for every play),
    then ``play_on(world, state, rng)`` to where the play-out stops."""
    value = standing(game)
    out = []
    for action in plays:
        after = game.advance(state, seat, action)
        total = 0.0
        for s in shuffles:
            world = after.clone()
            rng = random.Random(s)
            rng.shuffle(getattr(world, pile))
            total += value(state, play_on(world, state, rng), seat)
        out.append(total / len(shuffles))
    return out


def _chunk(args: tuple[Callable[[int], Samples], int, int]) -> Samples:
    play_game, first, count = args
    out = Samples()
    for deal in range(first, first + count):
        out.add(play_game(deal))
    return out


def generate(trainer: Trainer, count: int, seed: int, jobs: int) -> Samples:
    """The samples of ``count`` games from deal ``seed``, in order whatever ``jobs``."""
    work = [(trainer.play_game, f, min(trainer.chunk, seed + count - f))
            for f in range(seed, seed + count, trainer.chunk)]
    out = Samples()
    for part in workers.in_order(_chunk, work, jobs):
        out.add(part)
    return out


@dataclass(frozen=True)
class Fit:
    """The fitted weights, and the held-out decisions' mean gain over the candidates'
    mean of the learned choice, ``normal``'s and the best candidate."""

    weights: np.ndarray
    decisions: int
    held_out: int
    learned_gain: float
    normal_gain: float
    best_gain: float


def fit(played: Samples, cut: int, ridge: float, names: Sequence[str]) -> Fit:
    """Ridge regression on the decisions of games before deal ``cut``; the rest held out
    (``normal``'s choice is the candidate with the highest feature ``normal``)."""
    columns = width(names)
    gram = np.zeros((columns, columns))
    moment = np.zeros(columns)
    train = [i for i, g in enumerate(played.games) if g < cut]
    for i in train:
        x = expand(np.array(played.rows[i]))
        y = np.array(played.targets[i])
        x, y = x - x.mean(axis=0), y - y.mean()
        gram += x.T @ x
        moment += x.T @ y
    scale = np.sqrt(np.diag(gram) / max(1, len(train))) + 1e-9
    scaled = gram / np.outer(scale, scale) + ridge * np.eye(columns)
    weights = np.linalg.solve(scaled, moment / scale) / scale
    usual = list(names).index("normal")
    gains: list[tuple[float, float, float]] = []
    for i, g in enumerate(played.games):
        if g >= cut:
            y = np.array(played.targets[i])
            x = np.array(played.rows[i])
            pick = int(np.argmax(expand(x) @ weights))
            theirs = int(np.argmax(x[:, usual]))
            gains.append((y[pick] - y.mean(), y[theirs] - y.mean(), y.max() - y.mean()))
    mean = np.mean(gains, axis=0) if gains else np.zeros(3)
    return Fit(weights, len(train), len(gains), *map(float, mean))


def train(
    trainer: Trainer, count: int, seed: int, jobs: int, samples: Path | None = None,
    report: Callable[[str], None] = print,
) -> Value:
    """Play (or read ``samples``), fit, and say how it went."""
    start = time.perf_counter()
    if samples is not None and samples.exists():
        with samples.open("rb") as stored:
            played = Samples(**pickle.load(stored))
        report(f"read the samples of {samples}")
        if played.games and not seed <= min(played.games) <= max(played.games) < seed + count:
            raise SystemExit(f"{samples} holds samples of deals outside {seed}–{seed + count - 1}")
    else:
        played = generate(trainer, count, seed, jobs)
        report(f"played {count} games in {time.perf_counter() - start:.0f} s")
        if samples is not None:
            with samples.open("wb") as stored:  # plain lists: readable by whichever module runs
                pickle.dump(asdict(played), stored)
    f = fit(played, seed + count * 9 // 10, trainer.ridge, trainer.names)
    report(f"{f.decisions} decisions fitted; on {f.held_out} held out the learned choice gains "
           f"{f.learned_gain:+.3f}, normal's {f.normal_gain:+.3f}, the best candidate "
           f"{f.best_gain:+.3f}")
    report(f"{time.perf_counter() - start:.0f} s in all")
    about = {
        "command": f"python -m {trainer.command} --games {count} --seed {seed}",
        "games": count, "seed": seed, **trainer.settings, "ridge": trainer.ridge,
        "decisions": f.decisions,
        "held_out": {"decisions": f.held_out, "learned": round(f.learned_gain, 3),
                     "normal": round(f.normal_gain, 3), "best": round(f.best_gain, 3)},
        "cost": trainer.cost,
    }
    return Value(trainer.names, f.weights, about)


def measure(trainer: Trainer, value: Value, first: int, deals: int, jobs: int) -> tuple[
    float, float
]:
    """``value``'s mean gain over ``normal`` in the same seats on ``deals`` deals from
    ``first``, and its 95 % half-interval (points of win rate)."""
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        gains = paired.gain(trainer.table, trainer.player(value), first, deals, pool,
                            trainer.chunk)
    finally:
        if pool is not None:
            pool.shutdown()
    mean, half = mean_interval(gains)
    return 100 * mean, 100 * half


def main(trainer: Trainer, description: str, argv: Sequence[str] | None = None) -> None:
    """A trainer's command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog=f"python -m {trainer.command}",
                                     description=description.splitlines()[0])
    parser.add_argument("--games", type=int, default=trainer.games, help="games to play")
    parser.add_argument("--seed", type=int, default=trainer.seed, help="the first deal")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2),
                        help="worker processes for the play")
    parser.add_argument("--out", type=Path, default=trainer.shipped)
    parser.add_argument("--samples", type=Path, help="keep (or reuse) the played samples here")
    parser.add_argument("--measure", type=int, default=0, metavar="D",
                        help="then measure the value against normal on D deals")
    parser.add_argument("--measure-first", type=int, default=0, metavar="F",
                        help="the first deal --measure plays")
    args = parser.parse_args(argv)
    if args.games < 10:
        parser.error("--games must be at least 10 (a tenth is held out)")
    if args.measure < 0:
        parser.error("--measure must be 0 (none) or more deals")
    if args.out.is_dir() or not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: not a file in an existing folder")
    if args.samples is not None and (args.samples.is_dir() or not args.samples.parent.is_dir()):
        parser.error(f"--samples {args.samples}: not a file in an existing folder")
    value = train(trainer, args.games, args.seed, args.jobs, args.samples,
                  lambda line: print(line, flush=True))
    args.out.write_text(json.dumps(value.to_json(), separators=(",", ":")) + "\n",
                        encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    if args.measure:
        start = time.perf_counter()
        mean, half = measure(trainer, value, args.measure_first, args.measure, args.jobs)
        print(f"deals {args.measure_first}–{args.measure_first + args.measure - 1}, each from "
              f"every seat: {mean:+.2f} ± {half:.2f} points over normal in the same seats "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
