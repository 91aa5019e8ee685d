"""When Gin Rummy's ``normal`` player should knock: measured by play-outs, fitted, printed.

    python -m bench.gin_knock [--hands N] [--rounds R] [--seed S]

A round plays ``N`` single hands of a learner (``normal``, knocking by the round's rule)
against itself in half of them and against the eager player (``games/gin_rummy/eager.py``,
OpenSpiel's ``SimpleGinRummyBot`` by our rules) in the other half. Wherever the learner may
knock without gin, both choices are played from the real position: knocking (its
outcome is exact, the hands are all there) and waiting (``normal``'s discard, then the hand
played out by the same players); the difference in points, mine minus the opponent's, is
what knocking gained there. Averaged over many positions, the hidden cards average out:
the fitted gain depends only on what the player sees.

The fit: for each deadwood d from 1 to 10 a line in the stock left, ``A_d + B_d (stock -
20) / 10``, and one shift per card the opponent took from the pile and holds (least
squares). The next round's rule knocks with d from the fewest stock cards at which the line
stays above 0 to the end of the stock (never, if it does not get there), the opponent's
held cards moving that by their shift in stock cards. The first round knocks at once with
any legal deadwood (as the eager player does); a few rounds reach a rule that no longer
moves, printed as ``bots.KnockRule`` for ``games/gin_rummy/bots.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import games
from games import melds
from games.gin_rummy import bots, eager
from games.gin_rummy.bots import KnockRule
from games.gin_rummy.state import DISCARD, GinState

#: The first round's rule: knock with any legal deadwood.
AT_ONCE = KnockRule(from_stock={d: 0 for d in range(1, 11)}, per_taken=0)

Policy = Callable[[dict[str, Any], list[str], random.Random], str]


@dataclass(frozen=True)
class Chance:
    """One position where the learner could knock: its deadwood, the stock left, the cards
    the opponent holds from the pile, and the points (mine minus the opponent's) after
    knocking and after waiting."""

    deadwood: int
    stock: int
    theirs: int
    knocked: int
    waited: int


def lean_view(state: GinState, seat: int) -> dict[str, Any]:
    """The fields ``normal`` and the eager player read."""
    return {
        "seat": seat, "hand": state.hands[seat], "known": state.known,
        "stock": len(state.stock), "discard_top": state.discards[-1] if state.discards else None,
    }


def learner(rule: KnockRule) -> Policy:
    """``normal`` knocking by ``rule``."""

    def play(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return bots.decide(view, legal, rule)[0]

    return play


def finish(state: GinState, policies: Sequence[Policy], rng: random.Random) -> list[int]:
    """Both seats' points once ``state``'s hand is played out."""
    game = games.get("gin_rummy")
    hand = state.hand_no
    while state.hand_no == hand:
        seat = state.to_act[0]
        move = policies[seat](lean_view(state, seat), game.legal_actions(state, seat), rng)
        state = game.advance(state, seat, move)
    assert state.last_hand is not None
    return list(state.last_hand["points"])


def chances(seed: int, policies: Sequence[Policy], me: int, rng: random.Random) -> list[Chance]:
    """Play the hand dealt by ``seed`` and measure each of seat ``me``'s knock chances."""
    game = games.get("gin_rummy")
    state = game.new(2, seed=seed, options={"target": 1000})
    out = []
    while state.hand_no == 1:
        seat = state.to_act[0]
        legal = game.legal_actions(state, seat)
        knocks = [a for a in legal if a.startswith("knock ")]
        if seat == me and state.phase == DISCARD and knocks and "biggin" not in legal:
            after = melds.deadwood_by_discard(state.hands[me])
            knock = min(knocks, key=lambda a: (after[a[6:]], -melds.card_value(a[6:])))
            if after[knock[6:]]:
                theirs = state.known[1 - me]
                done = game.advance(state, me, knock).last_hand
                assert done is not None
                options = [a[8:] for a in legal if a.startswith("discard ")]
                card = bots.discard_order(state.hands[me], options, theirs)[0]
                wait = finish(game.advance(state, me, "discard " + card), policies, rng)
                out.append(Chance(
                    after[knock[6:]], len(state.stock), len(theirs),
                    done["points"][me] - done["points"][1 - me], wait[me] - wait[1 - me]))
        move = policies[seat](lean_view(state, seat), legal, rng)
        state = game.advance(state, seat, move)
    return out


def measure(hands: int, seed: int, rule: KnockRule) -> list[Chance]:
    """A round's knock chances (see the module docstring)."""
    rng = random.Random(seed)
    mine = learner(rule)
    out: list[Chance] = []
    for k in range(hands):
        other = mine if k % 2 == 0 else eager.eager_bot
        me = k // 2 % 2
        policies = [mine, other] if me == 0 else [other, mine]
        out += chances(seed * 1_000_003 + k, policies, me, rng)
    return out


def fit(data: Sequence[Chance]) -> tuple[np.ndarray, float, KnockRule]:
    """Each deadwood's line (A, B) and the per-held-card shift, and the rule they give."""
    x = np.zeros((len(data), 21))
    for i, c in enumerate(data):
        x[i, c.deadwood - 1] = 1.0
        x[i, 10 + c.deadwood - 1] = (c.stock - 20) / 10
        x[i, 20] = c.theirs
    y = np.array([c.knocked - c.waited for c in data], dtype=float)
    beta = np.linalg.lstsq(x, y, rcond=None)[0]
    lines = beta[:20].reshape(2, 10).T
    shift = float(beta[20])
    start: dict[int, int] = {}
    for d in range(1, 11):
        a, b = lines[d - 1]
        gains = [a + b * (s - 20) / 10 for s in range(3, 32)]
        first = next((s for s, _ in zip(range(3, 32), gains, strict=True)
                      if all(g > 0 for g in gains[s - 3:])), None)
        if first is not None:
            start[d] = first
    slopes = [lines[d - 1][1] for d in start] or [1.0]
    per_card = max(0, round(-shift * 10 / float(np.mean(slopes))))
    return lines, shift, KnockRule(from_stock=start, per_taken=per_card)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40_000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rule = AT_ONCE
    for r in range(args.rounds):
        start = time.perf_counter()
        data = measure(args.hands, args.seed * 100 + r, rule)
        lines, shift, rule = fit(data)
        print(f"round {r + 1}: {len(data)} knock chances in {args.hands} hands"
              f" ({time.perf_counter() - start:.0f} s)")
        for d in range(1, 11):
            a, b = lines[d - 1]
            print(f"  deadwood {d:2d}: knocking gains {a:+.2f} {b:+.2f} per 10 stock cards"
                  f" above 20")
        print(f"  per card the opponent holds from the pile: {shift:+.2f}")
        print(f"  rule: {rule}", flush=True)


if __name__ == "__main__":
    main()
