"""Train Craits' learned value of a play (``games/craits/learned.py``) and write its weights.

    python -m bench.craits_train [--games N] [--seed S] [--jobs 2] [--out PATH] [--samples PATH]

It plays ``N`` four-player games (the ``short`` option: rounds of 8 cards down to 1) of
``normal`` in every seat, deals ``S`` to ``S + N - 1`` (far from the deals
``bench.strength`` measures on). At a share (``SAMPLED``) of the turns with more than one
candidate play (``learned.candidates``; not during the crank, nor when someone may
announce or call out), up to ``CANDIDATES`` of them (at random) are each played on to the
end of the round from the real position, ``SHUFFLES`` times with the draw pile reshuffled
(the same shuffles for every candidate), by ``normal`` for every seat
(``expert.playout``), and scored as the game scores it (``search.standing``: the round
points the others took on average minus mine). A candidate's target is its mean.

The fit is ridge regression (``RIDGE``, on standardized columns) of each decision's
targets less their mean on its candidates' expanded features less theirs
(``learned.expand``), so only the differences between one seat's plays are learned; the
last tenth of the games is held out and reports how much the learned choice gains there
over ``normal``'s, in round points, against the best of the candidates (the last is an
upper bound inflated by the play-outs' noise). ``--samples`` keeps the played samples in a
file (and reads them from it when it exists), to fit again without playing. Everything is
seeded: the same command writes the same file, whatever ``--jobs`` (worker processes for
the play, at most 2). The defaults write the shipped ``weights.json``; BENCHMARKS.md gives
the time it takes and what it measured.

``--measure D`` then plays the written value alone (``learned.choose``) in one seat against
three ``normal`` players on ``D`` deals from ``--measure-first`` (``bench.paired``: each deal
from every seat, its wins minus ``normal``'s in the same seats) and prints the gain with its
95 % interval, in points of win rate.
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
from functools import partial
from pathlib import Path

import numpy as np

import games
from bench import paired
from bench.openspiel_gin import mean_interval
from games.craits import expert, learned
from games.search import Meter, standing

#: The shipped weights' games and first deal (``python -m bench.craits_train`` writes them).
GAMES = 1_600
SEED = 2_000_000
PLAYERS = 4
#: The share of turns with a choice whose candidates are played out.
SAMPLED = 0.3
#: The most candidates played out at one turn.
CANDIDATES = 4
#: Play-outs per candidate (each with the draw pile reshuffled).
SHUFFLES = 4
#: Ridge penalty on the standardized columns.
RIDGE = 1000.0
#: Games a worker plays at a time.
CHUNK = 10
SHIPPED = Path(learned.__file__).with_name(learned.WEIGHTS)
#: How ``--measure`` plays (``bench.strength``'s settings for Craits).
TABLE = paired.Table("craits", PLAYERS, "craits_train", {"short": True})


@dataclass
class Samples:
    """Per decision: the game it came from, its candidates' features and their targets."""

    games: list[int] = field(default_factory=list)
    rows: list[list[list[float]]] = field(default_factory=list)
    targets: list[list[float]] = field(default_factory=list)

    def add(self, other: Samples) -> None:
        self.games += other.games
        self.rows += other.rows
        self.targets += other.targets


def play_game(deal: int) -> Samples:
    """The samples of one game of ``normal`` (see the module docstring)."""
    game = games.get("craits")
    value = standing(game)
    state = game.new(PLAYERS, seed=deal, options={"short": True})
    rng = random.Random(f"craits_train:{deal}")
    out = Samples()
    while not state.is_over:
        seat = state.to_act[0]
        legal = game.legal_actions(state, seat)
        if (state.current == seat and not state.crank and rng.random() < SAMPLED
                and not any(a.split()[0] in ("announce", "callout") for a in legal)):
            view = game.view(state, seat)
            plays = learned.candidates(view, legal)
            if len(plays) > CANDIDATES:
                plays = rng.sample(plays, CANDIDATES)
            if len(plays) > 1:
                shuffles = [rng.getrandbits(32) for _ in range(SHUFFLES)]
                targets = []
                for action in plays:
                    after = game.advance(state, seat, action)
                    total = 0.0
                    for s in shuffles:
                        world = after.clone()
                        random.Random(s).shuffle(world.draw_pile)
                        end = expert.playout(world, state, random.Random(s), Meter())
                        total += value(state, end, seat)
                    targets.append(total / SHUFFLES)
                out.games.append(deal)
                out.rows.append(learned.rows(view, plays).tolist())
                out.targets.append(targets)
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
    return out


def _chunk(args: tuple[int, int]) -> Samples:
    first, count = args
    out = Samples()
    for deal in range(first, first + count):
        out.add(play_game(deal))
    return out


def generate(count: int, seed: int, jobs: int) -> Samples:
    """The samples of ``count`` games from deal ``seed``, in order whatever ``jobs``."""
    work = [(f, min(CHUNK, seed + count - f)) for f in range(seed, seed + count, CHUNK)]
    out = Samples()
    if jobs <= 1:
        for w in work:
            out.add(_chunk(w))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_chunk, work):
            out.add(part)
    return out


def _centred(rows: list[list[float]], targets: list[float]) -> tuple[np.ndarray, np.ndarray]:
    x = learned.expand(np.array(rows))
    y = np.array(targets)
    return x - x.mean(axis=0), y - y.mean()


@dataclass(frozen=True)
class Fit:
    """The fitted weights, and the held-out decisions' mean gain over the candidates'
    mean (round points) of the learned choice, ``normal``'s and the best candidate."""

    weights: np.ndarray
    decisions: int
    held_out: int
    learned_gain: float
    normal_gain: float
    best_gain: float


def fit(played: Samples, cut: int) -> Fit:
    """Ridge regression on the decisions of games before deal ``cut``; the rest held out."""
    width = len(learned.expand(np.zeros((1, len(learned.NAMES))))[0])
    gram = np.zeros((width, width))
    moment = np.zeros(width)
    train = [i for i, g in enumerate(played.games) if g < cut]
    for i in train:
        x, y = _centred(played.rows[i], played.targets[i])
        gram += x.T @ x
        moment += x.T @ y
    scale = np.sqrt(np.diag(gram) / max(1, len(train))) + 1e-9
    scaled = gram / np.outer(scale, scale) + RIDGE * np.eye(width)
    weights = np.linalg.solve(scaled, moment / scale) / scale
    gains: list[tuple[float, float, float]] = []
    for i, g in enumerate(played.games):
        if g >= cut:
            y = np.array(played.targets[i])
            x = np.array(played.rows[i])
            pick = int(np.argmax(learned.expand(x) @ weights))
            usual = int(np.argmax(x[:, 0]))  # normal's own value, its first feature
            gains.append((y[pick] - y.mean(), y[usual] - y.mean(), y.max() - y.mean()))
    mean = np.mean(gains, axis=0) if gains else np.zeros(3)
    return Fit(weights, len(train), len(gains), *map(float, mean))


def train(
    count: int, seed: int, jobs: int, samples: Path | None = None,
    report: Callable[[str], None] = print,
) -> learned.Value:
    """Play (or read ``samples``), fit, and say how it went."""
    start = time.perf_counter()
    if samples is not None and samples.exists():
        with samples.open("rb") as f:
            played = Samples(**pickle.load(f))
        report(f"read the samples of {samples}")
        if played.games and not seed <= min(played.games) <= max(played.games) < seed + count:
            raise SystemExit(f"{samples} holds samples of deals outside {seed}–{seed + count - 1}")
    else:
        played = generate(count, seed, jobs)
        report(f"played {count} games in {time.perf_counter() - start:.0f} s")
        if samples is not None:
            with samples.open("wb") as f:  # plain lists: readable by whichever module runs
                pickle.dump(asdict(played), f)
    f = fit(played, seed + count * 9 // 10)
    report(f"{f.decisions} decisions fitted; on {f.held_out} held out the learned choice gains "
           f"{f.learned_gain:+.2f} round points, normal's {f.normal_gain:+.2f}, "
           f"the best candidate {f.best_gain:+.2f}")
    report(f"{time.perf_counter() - start:.0f} s in all")
    about = {
        "command": f"python -m bench.craits_train --games {count} --seed {seed}",
        "games": count, "seed": seed, "sampled": SAMPLED, "candidates": CANDIDATES,
        "shuffles": SHUFFLES, "ridge": RIDGE, "decisions": f.decisions,
        "held_out": {"decisions": f.held_out, "learned": round(f.learned_gain, 2),
                     "normal": round(f.normal_gain, 2), "best": round(f.best_gain, 2)},
        "cost": "BENCHMARKS.md, \"Craits' learned value\"",
    }
    return learned.Value(f.weights, about)


def measure(value: learned.Value, first: int, deals: int, jobs: int) -> tuple[float, float]:
    """``value``'s mean gain over ``normal`` in the same seats on ``deals`` deals from
    ``first``, and its 95 % half-interval (points of win rate)."""
    policy = partial(learned.choose, value=value)
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        mean, half = mean_interval(paired.gain(TABLE, policy, first, deals, pool, CHUNK))
    finally:
        if pool is not None:
            pool.shutdown()
    return 100 * mean, 100 * half


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games to play")
    parser.add_argument("--seed", type=int, default=SEED, help="the first deal")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2),
                        help="worker processes for the play")
    parser.add_argument("--out", type=Path, default=SHIPPED)
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
    value = train(args.games, args.seed, args.jobs, args.samples,
                  lambda line: print(line, flush=True))
    args.out.write_text(json.dumps(value.to_json(), separators=(",", ":")) + "\n",
                        encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    if args.measure:
        start = time.perf_counter()
        mean, half = measure(value, args.measure_first, args.measure, args.jobs)
        print(f"deals {args.measure_first}–{args.measure_first + args.measure - 1}, each from "
              f"every seat: {mean:+.2f} ± {half:.2f} points over normal in the same seats "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
