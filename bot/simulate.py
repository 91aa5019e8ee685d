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
from i18n import _, decimal, ngettext, pgettext


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
            ngettext("stopped after {games} of {n} game", "stopped after {games} of {n} games",
                     self.planned, games=self.games) if self.stopped
            else ngettext("{n} game", "{n} games", self.games)
        )
        out = [_(
            "{game}, {players} players: {played} in {seconds} s ({rate} games/s, {moves} moves"
            " per game)", game=_(games.get(self.game).title), players=self.players,
            played=played, seconds=decimal(self.seconds, 2), rate=decimal(rate),
            moves=decimal(self.moves / max(self.games, 1), 0),
        )]
        share = max(self.games, 1)
        for level in sorted(self.seats):
            won = self.wins[level]
            out.append(f"  {level:>8}: " + _("won {won} ({share} %)", won=won,
                                                 share=decimal(100 * won / share)))
        draws = pgettext("games drawn, beside each level's games won", "draws")
        out.append(f"  {draws:>8}: {self.draws} ({decimal(100 * self.draws / share)} %)")
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
    if not levels:
        raise ValueError(_("Give at least one computer level (levels: {levels}).",
                           levels=", ".join(game.levels)))
    for level in levels:
        if level not in game.levels:
            raise ValueError(_("{title} has no level {level!r} (levels: {levels}).",
                               title=_(game.title), level=level,
                               levels=", ".join(game.levels)))
    report = SimulationReport(game.name, count, 0, 0.0, 0, planned=n)
    start = time.perf_counter()
    label = ngettext("{game}, {n} player", "{game}, {n} players", count, game=_(game.title))
    with progress(n, _("games"), label) as bar:
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
