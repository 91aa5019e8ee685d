"""``deckhand simulate``: seeded games between computer players, with results and speed.

Seats get computer levels from the ``--ai`` list in turn (``normal,random`` on four seats is
normal, random, normal, random — partners share a level in Back Alley). Game ``k`` rotates
the seating by ``k`` so no level keeps the first seat. A level *wins* a game when every seat
ranked 1 has that level; rank 1 shared between levels is a draw.

A bar shows the games played on a terminal (``bot.progress``); Ctrl-C stops after the game
under way and the report covers the games played (``stopped``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import games
from bot.progress import progress
from games.simulate import play_game
from games.wording import plural


@dataclass
class SimulationReport:
    """What a batch of simulated games produced."""

    game: str
    players: int
    games: int
    seconds: float
    moves: int
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    seats: Counter[str] = field(default_factory=Counter)
    #: Ctrl-C ended the batch early: ``games`` were played of ``planned``.
    stopped: bool = False
    planned: int = 0

    def lines(self) -> list[str]:
        """The report as text lines."""
        rate = self.games / self.seconds if self.seconds else float("inf")
        played = (
            f"stopped after {self.games} of {plural(self.planned, 'game')}" if self.stopped
            else plural(self.games, "game")
        )
        out = [
            f"{games.get(self.game).title}, {self.players} players: {played} in "
            f"{self.seconds:.2f} s ({rate:,.1f} games/s, {self.moves / max(self.games, 1):.0f}"
            " moves per game)"
        ]
        share = max(self.games, 1)
        for level in sorted(self.seats):
            won = self.wins[level]
            out.append(f"  {level:>8}: won {won} ({100 * won / share:.1f} %)")
        out.append(f"  {'draws':>8}: {self.draws} ({100 * self.draws / share:.1f} %)")
        return out


def seat_levels(levels: Sequence[str], players: int, rotation: int) -> list[str]:
    """The level of each seat for game number ``rotation``."""
    base = [levels[i % len(levels)] for i in range(players)]
    r = rotation % players
    return base[r:] + base[:r]


def simulate(
    game_name: str,
    n: int,
    players: int | None = None,
    levels: Sequence[str] = ("normal", "random"),
    seed: int = 0,
    options: Mapping[str, object] | None = None,
) -> SimulationReport:
    """Play ``n`` games and collect results."""
    game = games.get(game_name)
    count = players if players is not None else game.min_players
    for level in levels:
        if level not in game.levels:
            raise ValueError(f"Unknown level {level!r} (levels: {', '.join(game.levels)}).")
    report = SimulationReport(game.name, count, 0, 0.0, 0, planned=n)
    start = time.perf_counter()
    with progress(n, "games", f"{game.title}, {count} players") as bar:
        try:
            for k in range(n):
                seats = seat_levels(levels, count, k)
                played = play_game(game, count, seed + k, seats, options)
                report.moves += len(played.actions)
                ranks = game.outcome(played.state).ranks
                winners = {seats[s] for s in range(count) if ranks[s] == 1}
                if len(winners) == 1:
                    report.wins[winners.pop()] += 1
                else:
                    report.draws += 1
                report.games += 1
                bar.update(1)
        except KeyboardInterrupt:
            report.stopped = True
    report.seconds = time.perf_counter() - start
    report.seats.update(set(levels))
    return report
