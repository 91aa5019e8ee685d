"""``deckhand standings``: the offline league (guild 0's default league) as a text table.

The database is opened read-only: a missing one is refused (a mistyped ``--db`` is not an
empty league), and so is one whose schema is older than this Deckhand's (it asks for
``db migrate``). An existing database with no local game says so, and how to play one.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import games
from bot.invocation import typed
from bot.render.columns import grid, won_drawn_lost
from bot.services.errors import ServiceError
from bot.services.leagues import LeagueService, Standings
from bot.terminal.app import OFFLINE_GUILD
from bot.terminal.lines import say
from i18n import _, decimal
from storage import leagues as league_repo
from storage.connect import NoDatabase, open_database, shown


def empty(where: str | Path) -> str:
    """What ``standings`` says before any game was played (naming the database)."""
    return _("No games in the local standings ({database}) yet. Play one: {command}",
             database=shown(where), command=typed("play gin_rummy"))


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
    lines = grid(header, rows, gap="  ", rule="─")
    first = next((i for i, r in enumerate(s.rows) if r.provisional), None)
    if first is not None:  # the provisional players apart, after the ranked ones
        lines.insert(2 + first, s.provisional_heading)
    title = _("{game} · {league} league, season {season}", game=_(games.get(s.game).title),
              league=s.league.name, season=s.season)
    more = ([_("({more} more not shown)", more=s.total - len(s.rows))]
            if s.total > len(s.rows) else [])
    return [title, *lines, *more]


async def local_standings(where: str | Path, game: str | None = None) -> list[str]:
    """The lines to print: every game with results (or just ``game``), or a friendly note
    (``ServiceError`` when there is no database at ``where``)."""
    try:
        db = await open_database(where, read_only=True)
    except NoDatabase:
        raise ServiceError(_(
            "There is no database at {database}: check --db (or DECKHAND_DB), or play a game"
            " first ({command}).", database=shown(where), command=typed("play gin_rummy"),
        )) from None
    try:
        if await db.read(league_repo.default_league, OFFLINE_GUILD) is None:
            return [empty(where)]  # no local game was ever recorded (nothing to create)
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
    say("\n".join(asyncio.run(local_standings(where, game))))
    return 0
