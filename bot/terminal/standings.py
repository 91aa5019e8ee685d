"""``deckhand standings``: the offline league (guild 0's default league) as a text table."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import games
from bot.invocation import typed
from bot.render.columns import won_drawn_lost
from bot.services.leagues import LeagueService, Standings
from bot.terminal.app import OFFLINE_GUILD
from i18n import _, decimal
from storage.connect import NoDatabase, open_database, shown


def empty(where: str | Path) -> str:
    """What ``standings`` says before any game was played (naming the database)."""
    return _("No games in the local standings ({database}) yet. Play one: {command}",
             database=shown(where), command=typed("play gin_rummy"))


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows aligned under a header: the first column left-aligned, numbers right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: Sequence[str]) -> str:
        cells = [
            c.ljust(w) if i == 1 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    return [fmt(header), "  ".join("─" * w for w in widths), *(fmt(r) for r in rows)]


def standings_lines(s: Standings) -> list[str]:
    """One game's standings: title, then rank, player, rating, games, W/D/L and more
    (provisional players, listed apart, have no rank)."""
    assert s.game is not None
    points = s.scoring.startswith("points")
    header = ["#", _("Player"), _("Rating"), *([_("Points")] if points else []),
              _("Games"), *won_drawn_lost(), _("Win %"), _("Avg score"), _("Streak")]
    rows = [
        ["" if r.provisional else str(r.position), r.name, str(r.rating_display),
         *([str(r.points)] if points else []), str(r.games), str(r.wins), str(r.draws),
         str(r.losses), decimal(100 * r.win_rate, 0), decimal(r.average_score), r.streak]
        for r in s.rows
    ]
    lines = table(header, rows)
    first = next((i for i, r in enumerate(s.rows) if r.provisional), None)
    if first is not None:  # the provisional players apart, after the ranked ones
        lines.insert(2 + first, s.provisional_heading)
    title = _("{game} · {league} league, season {season}", game=_(games.get(s.game).title),
              league=s.league.name, season=s.season)
    more = ([_("({more} more not shown)", more=s.total - len(s.rows))]
            if s.total > len(s.rows) else [])
    return [title, *lines, *more]


async def local_standings(where: str | Path, game: str | None = None) -> list[str]:
    """The lines to print: every game with results (or just ``game``), or a friendly note."""
    try:
        db = await open_database(where, create=False)
    except NoDatabase:
        return [empty(where)]
    try:
        leagues = LeagueService(db)
        out: list[str] = []
        for name in [game] if game is not None else games.names():
            s = await leagues.standings(OFFLINE_GUILD, game=name)
            if s.rows:
                out += [*([""] if out else []), *standings_lines(s)]
        return out or [empty(where)]
    finally:
        await db.close()


def show(where: str | Path, game: str | None = None) -> int:
    """Print the local standings; the exit status."""
    print("\n".join(asyncio.run(local_standings(where, game))))
    return 0
