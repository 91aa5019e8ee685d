"""How much of a game is luck (ONO 99, Craits): the best win rate measured against random
or normal players, and the share of deals no policy wins.

    python -m bench.luck [--game ono99|craits] [--deals 1000] [--expert 100]
                         [--players 2,4,6] [--opponents random|normal]

Seat 0 plays every deal once with each policy — ``random``, ``normal`` and (on the first
``--expert`` deals) ``expert`` — against ``--opponents`` (default ``random``). Each
opponent draws its choices from its own stream seeded by the deal and seat, so on a given
deal the opponents play the same way whenever the game reaches the same position: the deal and the
opponents' dice are "the luck", seat 0's policy is "the skill". Printed per player count:
the fair share (1/n), each policy's win rate with a 95 % Wilson interval, and the share of
deals that none of the policies won (all deals for random and normal; the expert's deals
for all three) — an estimate of the deals no strategy wins (a stronger player might still
win some of them): the part of ONO 99 that skill cannot reach.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import games
from bench.strength import MOVE_CAP, SETTINGS, wilson
from games.rng import rng_for


def wins(name: str, players: int, deal: int, policy: str, opponents: str) -> bool:
    """Whether seat 0, playing ``policy`` against ``opponents``, wins the deal alone (a
    first place shared is not a win here); the strength bench's options."""
    game = games.get(name)
    state = game.new(players, seed=deal, options=SETTINGS[name])
    dice = [rng_for(deal, "luck", seat) for seat in range(players)]
    moves = 0
    while not state.is_over and moves < MOVE_CAP:
        seat = state.to_act[0]
        level = policy if seat == 0 else opponents
        state = game.apply(state, seat, game.choose(state, seat, level, dice[seat]))
        moves += 1
    ranks = game.outcome(state).ranks
    return ranks[0] == min(ranks) and ranks.count(ranks[0]) == 1


def measure(
    name: str, players: int, deals: int, expert: int, opponents: str
) -> dict[str, list[bool]]:
    """Per policy, whether seat 0 won each deal it played."""
    out = {
        p: [wins(name, players, d, p, opponents) for d in range(deals)]
        for p in ("random", "normal")
    }
    out["expert"] = [
        wins(name, players, d, "expert", opponents) for d in range(min(expert, deals))
    ]
    return out


def report(players: int, results: dict[str, list[bool]]) -> str:
    """One table row per policy, then the deals no policy won."""
    lines = []
    for policy, won in results.items():
        if not won:
            continue
        lo, hi = wilson(sum(won), len(won))
        lines.append(
            f"| {players} | {100 / players:.1f}% | {policy} | {len(won)} |"
            f" {100 * sum(won) / len(won):.1f}% ({100 * lo:.1f}%–{100 * hi:.1f}%) |"
        )
    lines.append(_none_won(players, results, ("random", "normal")))
    if results["expert"]:
        lines.append(_none_won(players, results, ("random", "normal", "expert")))
    return "\n".join(lines)


def _none_won(players: int, results: dict[str, list[bool]], policies: Sequence[str]) -> str:
    """The row of deals none of ``policies`` won (over the deals all of them played)."""
    tried = min(len(results[p]) for p in policies)
    lost = sum(not any(results[p][d] for p in policies) for d in range(tried))
    return (f"| {players} | | none of {', '.join(policies)} won | {tried} |"
            f" {100 * lost / tried:.1f}% of deals |")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", default="ono99", choices=("ono99", "craits"))
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--expert", type=int, default=100)
    ap.add_argument("--players", default="2,4,6")
    ap.add_argument("--opponents", default="random", choices=("random", "normal"))
    args = ap.parse_args(argv)
    print(f"{args.game}, opponents: {args.opponents}.", flush=True)
    print("| players | fair share | seat 0 plays | deals | seat 0 wins (95 % CI) |")
    print("|---:|---:|---|---:|---|")
    for n in (int(p) for p in args.players.split(",")):
        results = measure(args.game, n, args.deals, args.expert, args.opponents)
        print(report(n, results), flush=True)


if __name__ == "__main__":
    main()
