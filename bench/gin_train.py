"""Train Gin Rummy's learned evaluation (``games/gin_rummy/learned.py``) and write its weights.

    python -m bench.gin_train [--hands N] [--seed S] [--opponents LIST] [--jobs 2]
                              [--out PATH] [--samples PATH]

It plays ``N`` single hands (of a game to 1,000) of ``normal`` in one seat against, hand by
hand in turn, the ``--opponents`` (by default ``OPPONENTS``: ``normal`` and the eager player,
``games/gin_rummy/eager.py``; ``self`` is self-play, both seats learning), the learner's seat
changing after each turn of the list, so each learner seat meets every opponent model. The
defaults (``HANDS``, ``SEED``, ``OPPONENTS``) write the shipped ``evaluation.json``, which
records its command; BENCHMARKS.md gives the time it takes.
At a share (``SAMPLED``) of a learner's decisions, each option worth weighing is played out
to the end of the hand from the real position, ``SHUFFLES`` times with the stock reshuffled
(the same shuffles for every option, the opponent's real hand kept), by ``normal`` for the
learner and the opponent's own player for it; the mean points of the hand (the learner's
minus the opponent's) are the option's target:

* a discard (``normal``'s three cheapest and one other at random): the hand after it, the
  thrown card on top (``discard`` net); taking the discard pile's top card, with the card
  ``normal`` then throws, counts as a discard too;
* drawing from the stock, or passing the upcard: the hand before it (``draw`` net);
* every knock open to it, gin included, at every decision: the hand laid down (``knock``
  net), and what that knock scores — exact, as the real hands are there to lay down.

Averaged over many positions the opponent's hidden hand averages out, so each net learns
what an option is worth given what the seat sees: ``normal``'s values, one step of policy
improvement over ``normal`` (a player who picks the best-valued option and then plays on
as ``normal``). Each net is fitted by least squares (one hidden layer of ``HIDDEN``
rectified units, Adam, ``EPOCHS`` passes); the last tenth of the hands is held out to report
the fit (squared error against the targets' variance) and not trained on. ``--samples``
keeps the played samples in a file (and reads them from it when it exists), to fit again
without playing. Everything is seeded: the same command writes the same file, whatever
``--jobs`` (worker processes for the play, at most 2).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the same sums, so the same weights

import argparse
import json
import math
import pickle
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import games
from bench import workers
from games import melds
from games.base import Bot
from games.cards import INDEX
from games.gin_rummy import bots, eager, expert, features, learned, scoring
from games.gin_rummy.state import DISCARD, GinState

#: The shipped weights' hands and seed (the defaults: ``python -m bench.gin_train`` writes them).
HANDS = 24_000
SEED = 701
#: Hidden units of each net.
HIDDEN = 32
#: Passes over the samples.
EPOCHS = 12
#: Samples per gradient step.
BATCH = 512
#: Adam's step size.
RATE = 2e-3
#: The share of a learner's draws and discards whose options are played out.
SAMPLED = 0.4
#: Play-outs per option (each with the stock reshuffled).
SHUFFLES = 4
#: The learner's opponent, hand by hand in turn (its seat alternating after each turn of
#: the list): ``normal`` and the eager player, one hand each. (The first shipped weights met
#: ``self``, ``normal`` and ``eager`` in turn: the eager player in one sample of four, and
#: they gained nothing over ``normal`` against ``SimpleGinRummyBot``; BENCHMARKS.md.)
OPPONENTS = ("normal", "eager")
#: Hands a worker plays at a time.
CHUNK = 100
SHIPPED = Path(learned.__file__).with_name(learned.WEIGHTS)
PLAYERS: dict[str, Bot] = {
    "self": bots.normal_bot, "normal": bots.normal_bot, "eager": eager.eager_bot,
}


def lean_view(state: GinState, seat: int) -> dict[str, Any]:
    """The fields ``normal``, the eager player and the learned player read."""
    return {
        "seat": seat, "hand": state.hands[seat], "known": state.known,
        "stock": len(state.stock), "discards": state.discards,
        "discard_top": state.discards[-1] if state.discards else None,
        "history": state.history, "phase": state.phase, "knocks": state.knocks,
    }


@dataclass
class Samples:
    """Per net, the feature rows and targets, and the hand each came from."""

    rows: dict[str, list[list[float]]] = field(
        default_factory=lambda: {k: [] for k in learned.KINDS})
    targets: dict[str, list[float]] = field(
        default_factory=lambda: {k: [] for k in learned.KINDS})
    hands: dict[str, list[int]] = field(default_factory=lambda: {k: [] for k in learned.KINDS})

    def add(self, other: Samples) -> None:
        for k in learned.KINDS:
            self.rows[k] += other.rows[k]
            self.targets[k] += other.targets[k]
            self.hands[k] += other.hands[k]

    def put(self, kind: str, row: list[float], target: float, hand: int) -> None:
        self.rows[kind].append(row)
        self.targets[kind].append(target)
        self.hands[kind].append(hand)


def knock_points(state: GinState, seat: int, card: str) -> int:
    """What knocking with ``card`` would score for ``seat`` (its points minus the other's)."""
    hands = [list(h) for h in state.hands]
    hands[seat] = [c for c in hands[seat] if c != card]
    kind = "gin" if melds.min_deadwood(hands[seat]) == 0 else "knock"
    points = scoring.lay_down(state.hand_no, seat, kind, hands)["points"]
    return int(points[seat] - points[1 - seat])


def finish(state: GinState, seat: int, players: Sequence[Bot], rng: random.Random) -> int:
    """``seat``'s points minus the other's once ``state``'s hand is played out."""
    game = games.get("gin_rummy")
    hand = state.hand_no
    while state.hand_no == hand:
        who = state.to_act[0]
        move = players[who](lean_view(state, who), game.legal_actions(state, who), rng)
        state = game.advance(state, who, move)
    assert state.last_hand is not None
    points = state.last_hand["points"]
    return int(points[seat] - points[1 - seat])


def worth(
    starts: Sequence[GinState], moves: Sequence[str], seat: int, players: Sequence[Bot],
    seeds: Sequence[int],
) -> float:
    """The mean points of ``moves`` made by ``seat`` from each of ``starts`` and played out."""
    game = games.get("gin_rummy")
    total = 0
    for start, play_seed in zip(starts, seeds, strict=True):
        state = start
        for move in moves:
            state = game.advance(state, seat, move)
        total += finish(state, seat, players, random.Random(play_seed))
    return total / len(starts)


def weigh(state: GinState, seat: int, t: features.Table, players: Sequence[Bot],
          rng: random.Random, number: int, out: Samples) -> None:
    """Play out the options of ``seat``'s decision in ``state``, where it sees ``t`` (see
    the module docstring), and add them to ``out``."""
    game = games.get("gin_rummy")
    view = lean_view(state, seat)
    legal = game.legal_actions(state, seat)
    starts = []
    for _ in range(SHUFFLES):
        start = state.clone()
        rng.shuffle(start.stock)
        starts.append(start)
    seeds = [rng.getrandbits(32) for _ in starts]
    if state.phase == DISCARD:
        options = [a[8:] for a in legal if a.startswith("discard ")]
        order = bots.discard_order(state.hands[seat], options, state.known[1 - seat])
        picked = order[:3] + ([rng.choice(order[3:])] if len(order) > 3 else [])
        for card in picked:
            bit = INDEX[card]
            row = features.vector(t, t.hand & ~(1 << bit), bit)
            out.put("discard", row, worth(starts, [f"discard {card}"], seat, players, seeds),
                    number)
        return
    for move in legal:
        if move != "take":
            row = features.vector(t, t.hand, INDEX[view["discard_top"]])
            out.put("draw", row, worth(starts, [move], seat, players, seeds), number)
            continue
        took = game.advance(state, seat, "take")
        then = bots.normal_bot(lean_view(took, seat), game.legal_actions(took, seat), rng)
        if then.startswith("discard "):
            after = features.table(lean_view(took, seat), t.eager)
            bit = INDEX[then[8:]]
            row = features.vector(after, after.hand & ~(1 << bit), bit)
            out.put("discard", row, worth(starts, ["take", then], seat, players, seeds), number)


def play_hand(number: int, seed: int, opponents: Sequence[str] = OPPONENTS) -> Samples:
    """Hand ``number`` (see the module docstring) and its samples."""
    game = games.get("gin_rummy")
    opponent = opponents[number % len(opponents)]
    seat = number // len(opponents) % 2
    learners = {0, 1} if opponent == "self" else {seat}
    players = [bots.normal_bot, PLAYERS[opponent]]
    if seat == 1:
        players.reverse()
    rng = random.Random(f"gin_train:{seed}:{number}")
    state = game.new(2, seed=seed * 1_000_003 + number, options={"target": 1000})
    out = Samples()
    while state.hand_no == 1:
        who = state.to_act[0]
        view = lean_view(state, who)
        legal = game.legal_actions(state, who)
        move = players[who](view, legal, rng)
        if who in learners and len(legal) > 1 and "biggin" not in legal:
            t = features.table(view, expert.eager_chance(view))
            if state.phase == DISCARD:
                for a in legal:
                    if a.startswith("knock "):
                        bit = INDEX[a[6:]]
                        out.put("knock", features.vector(t, t.hand & ~(1 << bit), None),
                                knock_points(state, who, a[6:]), number)
            if rng.random() < SAMPLED:
                weigh(state, who, t, players, rng, number, out)
        state = game.advance(state, who, move)
    return out


def _chunk(args: tuple[int, int, int, tuple[str, ...]]) -> Samples:
    first, count, seed, opponents = args
    out = Samples()
    for number in range(first, first + count):
        out.add(play_hand(number, seed, opponents))
    return out


def generate(hands: int, seed: int, jobs: int,
             opponents: Sequence[str] = OPPONENTS) -> Samples:
    """The samples of ``hands`` hands, in order whatever the number of ``jobs``."""
    work = [(f, min(CHUNK, hands - f), seed, tuple(opponents)) for f in range(0, hands, CHUNK)]
    out = Samples()
    for part in workers.in_order(_chunk, work, jobs):
        out.add(part)
    return out


@dataclass(frozen=True)
class Fit:
    """A trained net and how well it predicts the held-out hands: its mean squared error,
    and the targets' variance there (the error of predicting their mean)."""

    net: learned.Net
    samples: int
    held_out_error: float
    held_out_variance: float


def fit(rows: list[list[float]], targets: list[float], hands: list[int], seed: int,
        cut: int) -> Fit:
    """One net fitted to ``rows`` → ``targets`` from hands before ``cut`` (see the module
    docstring)."""
    x = np.asarray(rows, dtype=float)
    y = np.asarray(targets, dtype=float)
    train = np.asarray(hands) < cut
    rng = np.random.default_rng(seed)
    mean = x[train].mean(axis=0)
    scale = x[train].std(axis=0)
    scale[scale < 1e-9] = 1.0
    xt, yt = (x[train] - mean) / scale, y[train]
    d = x.shape[1]
    params = [
        rng.normal(0.0, math.sqrt(2.0 / d), (d, HIDDEN)), np.zeros(HIDDEN),
        rng.normal(0.0, math.sqrt(1.0 / HIDDEN), HIDDEN), np.array(yt.mean()),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(EPOCHS):
        order = rng.permutation(len(yt))
        for start in range(0, len(order), BATCH):
            idx = order[start:start + BATCH]
            xb, yb = xt[idx], yt[idx]
            w1, b1, w2, b2 = params
            pre = xb @ w1 + b1
            hidden = np.maximum(pre, 0.0)
            g_out = 2.0 * (hidden @ w2 + b2 - yb) / len(idx)
            g_hidden = np.outer(g_out, w2) * (pre > 0)
            grads = [xb.T @ g_hidden, g_hidden.sum(axis=0), hidden.T @ g_out, g_out.sum()]
            step += 1
            for k, g in enumerate(grads):
                moments[k] = 0.9 * moments[k] + 0.1 * g
                squares[k] = 0.999 * squares[k] + 0.001 * g * g
                m_hat = moments[k] / (1 - 0.9**step)
                v_hat = squares[k] / (1 - 0.999**step)
                params[k] = params[k] - RATE * m_hat / (np.sqrt(v_hat) + 1e-8)
    w1, b1, w2, b2 = params
    net = learned.Net(mean, scale, w1, b1, w2, float(b2))
    test = ~train
    guess = net(x[test].tolist())
    return Fit(net, int(train.sum()), float(np.mean((guess - y[test]) ** 2)),
               float(np.var(y[test])))


def train(
    hands: int, seed: int, jobs: int, samples: Path | None = None,
    report: Callable[[str], None] = print, opponents: Sequence[str] = OPPONENTS,
) -> learned.Evaluation:
    """Play (or read ``samples``), fit the three nets, and say how it went."""
    start = time.perf_counter()
    if samples is not None and samples.exists():
        with samples.open("rb") as stored:
            try:
                played = Samples(**pickle.load(stored))
            except (pickle.UnpicklingError, EOFError, TypeError, ValueError) as e:
                raise SystemExit(f"{samples} does not hold bench.gin_train's samples ({e})") from e
        report(f"read the samples of {samples}")
        if max(max(n, default=0) for n in played.hands.values()) >= hands:
            raise SystemExit(f"{samples} holds samples of more than {hands} hands")
    else:
        played = generate(hands, seed, jobs, opponents)
        report(f"played {hands} hands in {time.perf_counter() - start:.0f} s")
        if samples is not None:
            with samples.open("wb") as stored:
                pickle.dump(vars(played), stored)  # plain dicts: readable from any entry point
    nets = {}
    fits = {}
    cut = hands * 9 // 10
    for k in learned.KINDS:
        if not (any(h < cut for h in played.hands[k]) and any(h >= cut for h in played.hands[k])):
            raise SystemExit(f"too few hands ({hands}): no {k} samples to fit, or none in the"
                             " last tenth to hold out; play more hands")
        f = fit(played.rows[k], played.targets[k], played.hands[k], seed, cut)
        nets[k] = f.net
        fits[k] = {"samples": f.samples, "held_out_error": round(f.held_out_error, 1),
                   "held_out_variance": round(f.held_out_variance, 1)}
        report(f"{k}: {f.samples} samples; held-out squared error {f.held_out_error:.1f}"
               f" against a variance of {f.held_out_variance:.1f}")
    report(f"{time.perf_counter() - start:.0f} s in all")
    command = (f"python -m bench.gin_train --hands {hands} --seed {seed}"
               f" --opponents {','.join(opponents)}")
    about = {
        "command": command, "hands": hands, "seed": seed, "opponents": list(opponents),
        "sampled": SAMPLED, "shuffles": SHUFFLES, "hidden": HIDDEN, "epochs": EPOCHS, "fits": fits,
        "cost": "BENCHMARKS.md, \"Gin Rummy's learned evaluation\"",
    }
    return learned.Evaluation(nets, about)


def _positive(text: str) -> int:
    """``--hands``: a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("a whole number of hands, at least 1")
    return int(text)


def _opponents(text: str) -> tuple[str, ...]:
    """``--opponents``: names from ``PLAYERS``, comma-separated."""
    names = tuple(text.split(","))
    if any(n not in PLAYERS for n in names):
        raise argparse.ArgumentTypeError(f"each opponent is one of {', '.join(PLAYERS)}")
    return names


def _unwritable(path: Path) -> str | None:
    """Why a file cannot be written at ``path``, or None."""
    if path.is_dir():
        return f"{path} is a folder, not a file"
    if not path.parent.is_dir():
        return f"{path.parent} is not a folder"
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        return f"{path} cannot be written"
    return None


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=_positive, default=HANDS, help="hands to play")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--opponents", type=_opponents, default=OPPONENTS,
                        help="the learner's opponents in turn, from "
                             f"{', '.join(PLAYERS)} (default {','.join(OPPONENTS)})")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2),
                        help="worker processes for the play")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--samples", type=Path, help="keep (or reuse) the played samples here")
    args = parser.parse_args(argv)
    for name, path in (("--out", args.out), ("--samples", args.samples)):
        why = None if path is None else _unwritable(path)
        if why is not None and not (name == "--samples" and path.is_file()):  # kept: read
            parser.error(f"{name}: {why}")
    ev = train(args.hands, args.seed, args.jobs, args.samples,
               lambda line: print(line, flush=True), args.opponents)
    args.out.write_text(json.dumps(ev.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
