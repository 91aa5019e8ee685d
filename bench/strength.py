"""How strong the computer players are: seeded matches, level against level, per game.

    python -m bench.strength [--games N] [--first G] [--only NAME] [--level LEVEL]
                             [--players P] [--full] [--clairvoyant [all|hands]] [--jobs 2]
    python -m bench.strength --openspiel [--hands H] [--games N] [--first G] [--level LEVEL]

Each row plays ``N`` seeded games of one line-up, duplicate style: every deal is played
once from each rotation of the seats (game ``g`` deals seed ``g // rotations`` and shifts
the seats by ``g % rotations``), so the luck of the cards cancels and two equal players
share the wins evenly; ``N`` should be a multiple of the rotations (2 in Gin, Spades and
Back Alley, the number of players in Craits and ONO 99, which have a row for every player
count: 60 suits them all). The side under test is
``A``: one seat, or a partnership in Back Alley (seats 0 and 2, or 1 and 3). It wins a
game when it places first; a place shared by k sides counts 1/k. The table gives wins,
the win rate with a 95 % Wilson interval, the average score margin (A's final score minus
the others' average), and A's time per decision (p50/p99, ms, one core). Where every other
seat plays ``normal`` the row is also *paired*: each deal is played once more with
``normal`` in A's seats too, and the row gives A's win rate minus what ``normal`` won in the
same seats on the same deals, with its 95 % interval over deals — the cards' luck cancels
deal by deal, so it needs fewer games than the win rate to tell A from ``normal``.
``--jobs 2`` shares the deals between two worker processes (the same numbers as one).

Games are played under shorter settings than the defaults so that a run takes minutes:
``SETTINGS`` names them and the table repeats them; ``--full`` plays the games as users do
(every option at its default), where a longer game leaves less to luck. ``--first G``
starts at game ``G``, so a run can be split across processes (``G`` even, like ``N``).

``--openspiel`` plays Gin Rummy against a player nobody here wrote, OpenSpiel's
``SimpleGinRummyBot`` (``bench.openspiel_gin``; needs the ``bench`` extra): ``H`` single hands
and ``N`` games to 100 per level, on duplicate deals (each deal from both seats), everything
scored by Deckhand's rules. A row gives A's points per hand minus the bot's, the hands each
side won and knocked (each with its 95 % interval over deals), and the games A won (Wilson);
with ``normal`` among the levels (``--level`` unset), each other level's points a hand
minus ``normal``'s on the same hands, paired.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from unittest import mock

import games
from bench import openspiel_gin, workers
from games.rng import rng_for

#: Options per game for the strength matches (shorter games than the defaults).
SETTINGS: dict[str, dict[str, object]] = {
    "spades": {"target": 200},
    "gin_rummy": {"target": 50},
    "back_alley": {"deals": 6},
    "craits": {"short": True},
    "ono99": {},
}
#: Per game, the face-down pile whose order ``--clairvoyant hands`` keeps from A.
PILES = {
    "spades": "stock", "gin_rummy": "stock", "back_alley": "stock", "craits": "draw_pile",
    "ono99": "draw",
}
#: A game still running after this many moves is stopped and scored as it stands.
MOVE_CAP = 20_000


@dataclass(frozen=True)
class Lineup:
    """One row: ``levels`` per seat before rotation; ``side`` the seats of A."""

    game: str
    levels: tuple[str, ...]
    side: tuple[int, ...]

    @property
    def label(self) -> str:
        a = "+".join(self.levels[s] for s in self.side)
        others = [lv for s, lv in enumerate(self.levels) if s not in self.side]
        return f"{a} vs {'+'.join(others)}"


def _lineups() -> list[Lineup]:
    out = []
    for name in ("spades", "gin_rummy"):
        out += [Lineup(name, ("expert", "normal"), (0,)), Lineup(name, ("normal", "random"), (0,))]
    out += [
        Lineup("back_alley", ("expert", "normal", "expert", "normal"), (0, 2)),
        Lineup("back_alley", ("expert", "normal", "normal", "normal"), (0, 2)),
        Lineup("back_alley", ("normal", "random", "normal", "random"), (0, 2)),
    ]
    for name in ("craits", "ono99"):
        game = games.get(name)
        for n in range(game.min_players, game.max_players + 1):
            out += [
                Lineup(name, ("expert", *["normal"] * (n - 1)), (0,)),
                Lineup(name, ("normal", *["random"] * (n - 1)), (0,)),
            ]
    return out


LINEUPS = _lineups()


@dataclass
class Result:
    """Totals of one row, and per deal A's share of wins and what ``normal`` in A's seats
    won on the same deal (the paired baseline; ``None`` unless every other seat plays
    ``normal``)."""

    lineup: Lineup
    games: int = 0
    wins: float = 0.0
    margin: float = 0.0
    times: list[float] = field(default_factory=list)
    deals: dict[int, list[tuple[float, float | None]]] = field(default_factory=dict)

    def add(self, other: Result) -> None:
        """Add ``other``'s games (of the same line-up) to these."""
        self.games += other.games
        self.wins += other.wins
        self.margin += other.margin
        self.times += other.times
        for deal, played in other.deals.items():
            self.deals.setdefault(deal, []).extend(played)

    def paired(self) -> tuple[float, float] | None:
        """A's win rate minus ``normal``'s in the same seats on the same deals, and the
        half-width of its 95 % interval over deals (the seatings of a deal are averaged
        first); None without a baseline."""
        diffs = []
        for played in self.deals.values():
            pairs = [(a, b) for a, b in played if b is not None]
            if len(pairs) == len(played):
                diffs.append(sum(a - b for a, b in pairs) / len(pairs))
        if len(diffs) < 2 or len(diffs) < len(self.deals):
            return None
        return openspiel_gin.mean_interval(diffs)


def _rotate(lineup: Lineup, shift: int) -> tuple[list[str], set[int]]:
    """Seat levels and A's seats after moving everyone ``shift`` seats on."""
    n = len(lineup.levels)
    levels = [lineup.levels[(s - shift) % n] for s in range(n)]
    return levels, {(s + shift) % n for s in lineup.side}


def rotations(lineup: Lineup) -> int:
    """How many seatings a deal is played from: every seat for a lone A, both
    partnerships for a pair."""
    return len(lineup.levels) if len(lineup.side) == 1 else 2


def play(
    lineup: Lineup, seed: int, result: Result, options: dict[str, object] | None = None,
    clairvoyant: str | None = None,
) -> None:
    """Play game number ``seed`` of ``lineup`` (under ``options``, by default the game's
    ``SETTINGS``) and add it to ``result``, with the paired baseline when every other seat
    plays ``normal``. ``clairvoyant``: A's searches are given the
    real state as every world — ``"all"``: every hand and the stock's order; ``"hands"``:
    every hand, the face-down pile reshuffled (``PILES``) — not a fair player, a measure
    of how much better worlds could ever give (none for Gin Rummy's and Craits' experts,
    which deal no worlds: they weigh moves with a learned evaluation)."""
    game = games.get(lineup.game)
    players = len(lineup.levels)
    deal, shift = divmod(seed, rotations(lineup))
    levels, side = _rotate(lineup, shift)
    opts = SETTINGS[lineup.game] if options is None else options
    state = game.new(players, seed=deal, options=opts)
    rng = rng_for(seed, "strength")
    moves = 0
    while not state.is_over and moves < MOVE_CAP:
        seat = state.to_act[0]
        start = time.perf_counter()
        if clairvoyant and seat in side:
            pile = PILES[lineup.game] if clairvoyant == "hands" else None
            with mock.patch.object(type(game), "_world", reveal(state, pile)):
                action = game.choose(state, seat, levels[seat], rng)
        else:
            action = game.choose(state, seat, levels[seat], rng)
        if seat in side:
            result.times.append(time.perf_counter() - start)
        state = game.apply(state, seat, action)
        moves += 1
    won, margin = standing_of(game, state, side)
    others = {lv for s, lv in enumerate(levels) if s not in side}
    base = None
    if others == {"normal"}:
        everyone = _all_normal(lineup.game, players, deal, tuple(sorted(opts.items())))
        base = standing_of(game, everyone, side)[0]
    result.games += 1
    result.wins += won
    result.margin += margin
    result.deals.setdefault(deal, []).append((won, base))


def standing_of(game: games.Game[games.State], state: games.State, side: set[int]) -> tuple[
    float, float
]:
    """The share of the win that went to the seats ``side`` (1, or 1/k of a place shared by
    k sides, or 0) and their score margin over the other seats' average."""
    players = state.players
    outcome = game.outcome(state)
    teams = game.teams(players)
    best = min(outcome.ranks)
    firsts = {teams[s] for s in range(players) if outcome.ranks[s] == best}
    mine = {teams[s] for s in side}
    scores = outcome.scores
    sign = 1 if game.higher_scores_win(state.options) else -1
    ours = sum(scores[s] for s in side) / len(side)
    theirs = [scores[s] for s in range(players) if s not in side]
    return len(firsts & mine) / len(firsts), sign * (ours - sum(theirs) / len(theirs))


@functools.lru_cache(maxsize=64)
def _all_normal(
    name: str, players: int, deal: int, options: tuple[tuple[str, object], ...]
) -> games.State:
    """Deal ``deal`` played to the end by ``normal`` in every seat (it draws nothing from
    its generator, so one game serves every seating)."""
    game = games.get(name)
    state: games.State = game.new(players, seed=deal, options=dict(options))
    rng = rng_for(deal, "strength", "normal")
    moves = 0
    while not state.is_over and moves < MOVE_CAP:
        seat = state.to_act[0]
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
        moves += 1
    return state


def run(
    lineup: Lineup, first: int, count: int, options: dict[str, object] | None = None,
    clairvoyant: str | None = None, jobs: int = 1,
) -> Result:
    """Games ``first`` … ``first + count - 1`` of ``lineup`` (see ``play``), split among
    ``jobs`` worker processes by whole deals; the same result whatever ``jobs``."""
    per = rotations(lineup)
    numbers = list(range(first, first + count))
    parts = [numbers]
    if jobs > 1:
        deals = sorted({n // per for n in numbers})
        parts = [[n for n in numbers if n // per in deals[k::jobs * 4]] for k in range(jobs * 4)]
    result = Result(lineup)
    for part in workers.in_order(_run_part, [(lineup, p, options, clairvoyant) for p in parts if p],
                                 jobs):
        result.add(part)
    return result


def _run_part(
    args: tuple[Lineup, list[int], dict[str, object] | None, str | None],
) -> Result:
    lineup, numbers, options, clairvoyant = args
    result = Result(lineup)
    for seed in numbers:
        play(lineup, seed, result, options, clairvoyant)
    return result


def reveal(state: games.State, pile: str | None = None) -> Callable[..., games.State]:
    """A ``Game._world`` that returns ``state`` itself (a copy) whatever the view, with the
    field ``pile`` (if given) shuffled by the search's generator."""

    def world(game: games.Game[games.State], view: object, rng: random.Random) -> games.State:
        copy = state.clone()
        if pile is not None:
            rng.shuffle(getattr(copy, pile))
        return copy

    return world


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def _rate_and_times(wins: float, games_: int, times: Sequence[float]) -> tuple[str, str]:
    """The win rate with its Wilson interval, and the decision times' p50 / p99."""
    low, high = wilson(wins, games_)
    rate = wins / games_ if games_ else 0.0
    return (f"{rate:.1%} ({low:.1%}–{high:.1%})",
            f"{_pct(times, 0.5):.1f} / {_pct(times, 0.99):.1f}")


def row(r: Result) -> str:
    """One markdown table row."""
    rate, times = _rate_and_times(r.wins, r.games, r.times)
    paired = r.paired()
    versus = "—" if paired is None else f"{paired[0]:+.1%} ± {paired[1]:.1%}"
    return (
        f"| {r.lineup.game} | {len(r.lineup.levels)} | {r.lineup.label} | {r.games} |"
        f" {r.wins:g} | {rate} | {versus} | {r.margin / max(1, r.games):+.1f} | {times} |"
    )


HEADER = (
    "| game | players | A vs B | games | A wins | A win rate (95 % CI) |"
    " A − normal in A's seats, same deals (95 % CI) | avg margin | A decision p50 / p99 ms |"
    "\n|---|---|---|---|---|---|---|---|---|"
)


OPENSPIEL_HEADER = (
    "| A vs B | hands | A's points per hand − B's (95 % CI) | hands won by A / B |"
    " knocks by A / B | games to 100 | A win rate (95 % CI) | A decision p50 / p99 ms |\n"
    "|---|---|---|---|---|---|---|---|"
)


def openspiel_row(level: str, tally: openspiel_gin.Tally) -> str:
    """One markdown row of a level against ``SimpleGinRummyBot``."""
    s = openspiel_gin.summary(tally)

    def pct(m: tuple[float, float]) -> str:
        return f"{m[0]:.1%} ± {m[1]:.1%}"

    rate, times = _rate_and_times(tally.game_wins, tally.games, tally.times)
    return (
        f"| {level} vs SimpleGinRummyBot | {s.hands} | {s.points[0]:+.2f} ± {s.points[1]:.2f} |"
        f" {pct(s.a_won)} / {pct(s.bot_won)} | {s.a_knocked[0]:.1%} / {s.bot_knocked[0]:.1%} |"
        f" {tally.games} | {rate} | {times} |"
    )


def against_openspiel(levels: Sequence[str], hands: int, games_: int, first: int) -> None:
    """Print a row per level against ``SimpleGinRummyBot`` (see the module docstring), and
    how often the bot's move had to be translated into our rules."""
    missing = openspiel_gin.available()
    if missing:
        raise SystemExit(f"OpenSpiel is not installed ({missing}): pip install -e '.[bench]'")
    print(OPENSPIEL_HEADER, flush=True)
    tallies = {}
    for level in levels:
        tally = tallies[level] = openspiel_gin.Tally()
        openspiel_gin.hands(level, first, hands, tally)
        openspiel_gin.whole_games(level, first, games_, openspiel_gin.TARGET, tally)
        print(openspiel_row(level, tally), flush=True)
        done = ", ".join(f"{k} {v}" for k, v in sorted(tally.translations.items()))
        print(f"<!-- {level}: bot moves translated into our rules: {done or 'none'} -->")
    for level, tally in tallies.items():
        if level != "normal" and "normal" in tallies:
            diff, half = openspiel_gin.paired(tally, tallies["normal"])
            print(f"\n{level} − normal against the bot on the same hands (paired):"
                  f" {diff:+.2f} ± {half:.2f} points a hand", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per line-up")
    parser.add_argument("--only", help="one game's rows (e.g. spades)")
    parser.add_argument("--level", help="only rows whose A side plays this level")
    parser.add_argument("--players", type=int, help="only rows with this many players")
    parser.add_argument(
        "--full", action="store_true", help="play the games as users do (default options)"
    )
    parser.add_argument(
        "--clairvoyant", nargs="?", const="all", choices=("all", "hands"),
        help="A's searches see every card, or ('hands') every hand but not the order of the"
        " face-down pile (a bound on what better worlds could give)",
    )
    parser.add_argument("--first", type=int, default=0, help="first game number (to split a run)")
    parser.add_argument(
        "--jobs", type=int, default=1, choices=(1, 2),
        help="worker processes (at most 2: the machine's cores are shared)",
    )
    parser.add_argument(
        "--openspiel", action="store_true",
        help="Gin Rummy against OpenSpiel's SimpleGinRummyBot (single hands and games to 100)",
    )
    parser.add_argument("--hands", type=int, default=200, help="single hands per level")
    args = parser.parse_args(argv)
    if args.openspiel:
        levels = [args.level] if args.level else ["normal", "expert"]
        against_openspiel(levels, args.hands, args.games, args.first)
        return
    settings: dict[str, dict[str, object]] = {g: {} for g in SETTINGS} if args.full else SETTINGS
    print("Settings:", ", ".join(f"{g} {o or 'defaults'}" for g, o in settings.items()))
    print(HEADER, flush=True)
    for lineup in LINEUPS:
        if args.only and lineup.game != args.only:
            continue
        if args.level and lineup.levels[lineup.side[0]] != args.level:
            continue
        if args.players and len(lineup.levels) != args.players:
            continue
        result = run(lineup, args.first, args.games, settings[lineup.game], args.clairvoyant,
                     args.jobs)
        print(row(result), flush=True)


if __name__ == "__main__":
    main()
