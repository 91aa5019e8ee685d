"""Standings: a league season's game, its players in order, a page at a time.

Decisions:
* Standings order (deterministic, ranks never shared): ``rating`` — ordinal, wins, fewer
  games, user id; ``points`` — points, ordinal, wins, fewer games, user id. Ratings and
  totals are kept per league, season and game; a league without a game filter needs the
  ``game`` argument once more than one game has been played in the season.
* Provisional players: until a player has played the league's ``provisional_games``
  counted games (default 5, set by an admin; 0 ranks everyone) in the season and game,
  they are *provisional*: unranked (``rank`` None) and listed after every established
  player, among themselves in the same order (a listing numbers every row by
  ``position`` and sets the provisional players apart under a heading). So a newcomer
  with one lucky win never tops the table (the ordinal ``mu − 3σ`` discounts them too,
  but not surely).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services import ratings
from bot.services.leagues.errors import (
    GameRequired,
    InvalidRequest,
    game_name,
    row_limit,
    season_number,
)
from bot.services.leagues.scoring import Scoring
from i18n import lazy_gettext, ngettext
from storage import league_reports
from storage.db import Conn, Database
from storage.league_totals import PlayerTotals
from storage.leagues import League

DEFAULT_PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class StandingRow:
    """One line of standings. ``position`` is its place in the listing (established players
    first, 1 = top); ``rank`` the same for an established player and None for a
    provisional one (see the module docstring); ``rating`` is the ordinal,
    ``rating_display`` how it is shown (see ``bot.services.ratings``), ``win_rate`` wins /
    games, ``streak`` e.g. ``W3`` (the current run of equal results; ``—`` before any
    game)."""

    rank: int | None
    user_id: int
    name: str
    rating: float
    rating_display: int
    mu: float
    sigma: float
    points: int
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    average_score: float
    streak: str
    position: int

    @property
    def provisional(self) -> bool:
        """The player has not yet played enough games to be ranked."""
        return self.rank is None


@dataclass(frozen=True)
class Standings:
    """A page of standings of one league, season and game (``game`` None: nothing played):
    ``total`` players, of whom ``established`` are ranked (they come first) and the rest
    provisional (fewer than ``provisional_games`` games)."""

    league: League
    season: int
    current: bool
    game: str | None
    scoring: str
    total: int
    rows: tuple[StandingRow, ...]
    established: int = 0
    provisional_games: int = DEFAULT_PROVISIONAL_GAMES

    @property
    def provisional_heading(self) -> str:
        """The line that sets the provisional players apart in a rendered table (in the
        language spoken)."""
        return ngettext("Provisional (fewer than {n} game), not ranked:",
                        "Provisional (fewer than {n} games), not ranked:", self.provisional_games)


async def standings_page(
    db: Database, league: League, season: int | None, game: str | None, limit: int,
    offset: int,
) -> Standings:
    """A page of a league's standings (rank 1 first). Empty when nothing has been played."""
    number = season_number(league, season)
    row_limit(limit)
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InvalidRequest(lazy_gettext("The offset must be a whole number, 0 or more."))
    chosen = await _standings_game(db, league, number, game)
    scoring = Scoring.parse(league.scoring)
    if chosen is None:
        return Standings(
            league, number, number == league.season, None, str(scoring), 0, (), 0,
            league.provisional_games,
        )
    order = (
        league_reports.ORDER_BY_RATING if scoring.kind == "rating"
        else league_reports.ORDER_BY_POINTS
    )
    rows, established, provisional = await db.report(
        _page_rows, league, number, chosen, order, limit, offset
    )
    return Standings(
        league, number, number == league.season, chosen, str(scoring),
        established + provisional, tuple(rows), established, league.provisional_games,
    )


async def _standings_game(
    db: Database, league: League, season: int, game: str | None
) -> str | None:
    if game is not None:
        chosen = game_name(game)
        if league.game is not None and chosen != league.game:
            raise InvalidRequest(lazy_gettext(
                "{name} is a league for {game} only.",
                name=league.name, game=league.game,
            ))
        return chosen
    if league.game is not None:
        return league.game
    played = await db.report(league_reports.season_games, league.id, season)
    if len(played) > 1:
        raise GameRequired(
            lazy_gettext(
                "{name} has standings for several games; pick one: {played}.",
                name=league.name, played=', '.join(played),
            )
        )
    return played[0] if played else None


def _row(position: int, p: PlayerTotals, *, ranked: bool) -> StandingRow:
    return StandingRow(
        position=position, rank=position if ranked else None, user_id=p.user_id,
        name=p.name, rating=p.ordinal,
        rating_display=ratings.display(p.ordinal), mu=p.mu, sigma=p.sigma, points=p.points,
        games=p.games, wins=p.wins, draws=p.draws, losses=p.losses,
        win_rate=p.wins / p.games if p.games else 0.0,
        average_score=p.score_sum / p.games if p.games else 0.0,
        streak=f"{p.streak_kind}{p.streak_len}" if p.streak_len else "—",
    )


def _page_rows(
    conn: Conn, league: League, season: int, game: str, order: str, limit: int, offset: int
) -> tuple[list[StandingRow], int, int]:
    """Rows ``offset`` to ``offset + limit`` of the established players followed by the
    provisional ones; and how many players there are of each."""
    least = league.provisional_games
    established, provisional = league_reports.count_players(conn, league.id, season, game, least)
    ranked = (
        league_reports.standings(conn, league.id, season, game, order, limit, offset,
                       min_games=least, established=True)
        if offset < established else []
    )
    rows = [_row(offset + i + 1, p, ranked=True) for i, p in enumerate(ranked)]
    if len(rows) < limit:
        rest = league_reports.standings(conn, league.id, season, game, order, limit - len(rows),
                              max(0, offset - established), min_games=least, established=False)
        rows += [_row(offset + len(rows) + i + 1, p, ranked=False) for i, p in enumerate(rest)]
    return rows, established, provisional
