"""``LeagueService``: the facade the ``/league`` and ``/stats`` cogs, the web page and
``deckhand standings`` call, with ids and strings. It finds the league asked for, checks
admin rights, and hands the rest to the modules beside it.

Decisions:
* Leagues: every guild has its ``Default`` league (``recording``); an admin creates named
  ones, unique per guild in any case, each with its scoring (``scoring``), game filter,
  whether computer seats count, and provisional games (``standings``).
* Seasons: ``new_season`` (admin) closes the current season — its totals stay as they are,
  viewable with ``season=`` — and the next season starts everyone afresh. Matches record
  which season they counted toward; a season is the matches after the id recorded at its
  start, so ``rebuild`` (admin) can recompute everything from ``matches`` (``upkeep``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from bot.services.leagues import charts, errors, recording, spreadsheets, stats, upkeep
from bot.services.leagues.errors import (
    MAX_ROWS,
    DuplicateLeague,
    InvalidRequest,
    NotAdmin,
    UnknownLeague,
    game_name,
    row_limit,
    season_number,
)
from bot.services.leagues.recording import DEFAULT_LEAGUE, default_league
from bot.services.leagues.scoring import Scoring
from bot.services.leagues.standings import DEFAULT_PROVISIONAL_GAMES, Standings, standings_page
from bot.services.leagues.stats import PlayerStats
from bot.text import clip
from i18n import lazy_gettext
from storage import events as event_repo
from storage import league_reports
from storage import leagues as repo
from storage.db import Conn, Database
from storage.league_reports import HeadToHead
from storage.leagues import League, Season
from storage.matches import MatchRecord, PlayedMatch

log = logging.getLogger(__name__)

MAX_NAME = 50


class LeagueService:
    """League use cases over a ``Database``; ``clock`` gives the time for new rows."""

    def __init__(
        self, db: Database, *, clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.clock = clock
        self._backfilling: asyncio.Task[None] | None = None

    # -- leagues ------------------------------------------------------------------------
    async def create_league(
        self, guild_id: int, name: str, *, is_admin: bool, game: str | None = None,
        scoring: str = "rating", count_bots: bool = True,
        provisional_games: int = DEFAULT_PROVISIONAL_GAMES,
    ) -> League:
        """Create a named league (admin only); names are unique per guild, any case."""
        if not is_admin:
            raise NotAdmin(lazy_gettext("Only a server admin (Manage Server) can create leagues."))
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not 1 <= len(clean) <= MAX_NAME:
            raise InvalidRequest(lazy_gettext(
                "A league name needs 1 to {most} characters.",
                most=MAX_NAME,
            ))
        if clean.casefold() == DEFAULT_LEAGUE.casefold():
            raise DuplicateLeague(
                lazy_gettext(
                    "{league} is the server's own league; pick another name.",
                    league=DEFAULT_LEAGUE,
                )
            )
        filt = game_name(game) if game is not None else None
        scheme = str(Scoring.parse(scoring))
        least = errors.provisional_games(provisional_games)
        now = self.clock()

        def create(conn: Conn) -> League:
            existing = repo.league_by_name(conn, guild_id, clean)
            if existing:
                raise DuplicateLeague(lazy_gettext(
                    "There is already a league called {name}.",
                    name=existing.name,
                ))
            return repo.insert_league(
                conn, guild_id=guild_id, name=clean, game=filt, scoring=scheme,
                count_bots=count_bots, is_default=False, now=now, provisional_games=least,
            )

        return await self.db.write(create)

    async def set_provisional_games(
        self, guild_id: int, name: str | None, games: int, *, is_admin: bool
    ) -> League:
        """Set how many counted games make a player established (admin only; 0 ranks
        everyone). It applies to every season's standings from now on."""
        if not is_admin:
            raise NotAdmin(lazy_gettext(
                "Only a server admin (Manage Server) can change league settings."
            ))
        least = errors.provisional_games(games)
        league = await self.league(guild_id, name)
        await self.db.write(repo.set_provisional_games, league.id, least)
        return replace(league, provisional_games=least)

    async def leagues(self, guild_id: int) -> list[League]:
        """The guild's leagues, the default first (created if needed)."""
        await self.league(guild_id)
        return await self.db.read(repo.guild_leagues, guild_id)

    async def league(self, guild_id: int, name: str | None = None) -> League:
        """A league by name (any case); None means the guild's default league."""
        if name is not None and name.strip().casefold() != DEFAULT_LEAGUE.casefold():
            found = await self.db.read(repo.league_by_name, guild_id, " ".join(name.split()))
            if found is None:
                raise UnknownLeague(lazy_gettext(
                    "There is no league called {name!r} here.",
                    name=clip(name.strip()),
                ))
            return found
        found = await self.db.read(repo.default_league, guild_id)
        if found is not None:
            return found
        return await self.db.write(default_league, guild_id, self.clock)

    async def league_for_table(self, guild_id: int, name: str, game: str) -> League:
        """The named league a new table of ``game`` may be tied to."""
        league = await self.league(guild_id, name)
        if league.game is not None and league.game != game_name(game):
            raise InvalidRequest(lazy_gettext(
                "{name} is a league for {game} only.",
                name=league.name, game=league.game,
            ))
        return league

    # -- seasons ------------------------------------------------------------------------
    async def new_season(self, guild_id: int, name: str | None, *, is_admin: bool) -> Season:
        """Archive the current season and start the next (admin only)."""
        if not is_admin:
            raise NotAdmin(lazy_gettext(
                "Only a server admin (Manage Server) can start a new season."
            ))
        league = await self.league(guild_id, name)
        now = self.clock()

        def start(conn: Conn) -> Season:
            fresh = repo.league_by_id(conn, league.id)
            assert fresh is not None
            return repo.start_season(conn, fresh, now)

        return await self.db.write(start)

    async def seasons(self, guild_id: int, name: str | None = None) -> list[Season]:
        """A league's seasons, oldest first."""
        league = await self.league(guild_id, name)
        return await self.db.read(repo.seasons, league.id)

    # -- recording ----------------------------------------------------------------------
    def record_match(self, conn: Conn, match_id: int, match: MatchRecord) -> None:
        """The match recorder: count a just-inserted match in its players' records and
        toward its leagues, inside the caller's transaction (``recording.record_match``)."""
        recording.record_match(conn, match_id, match, self.clock)

    async def counts_later(self, table_id: int) -> bool:
        """Whether the game finished at ``table_id`` waits to count until its duplicate
        board is complete (another table of the board has no result yet)."""
        board = await self.db.read(event_repo.board_release, table_id)
        return board is not None and not board.complete

    # -- upkeep -------------------------------------------------------------------------
    async def rebuild(self, guild_id: int, name: str | None = None, *, is_admin: bool) -> int:
        """Recompute a league's totals and ratings from ``matches`` (admin only); returns
        how many matches counted."""
        if not is_admin:
            raise NotAdmin(
                lazy_gettext("Only a server admin (Manage Server) can rebuild a league.")
            )
        league = await self.league(guild_id, name)
        return await self.db.write(upkeep.rebuild, league)

    async def check(self) -> list[str]:
        """Every league's stored rows against a recomputation from ``matches``: one line
        per difference, empty when all agree (``upkeep.check``)."""
        return await upkeep.check(self.db)

    async def backfill(self, most: int = 200, rest: float = 1.0) -> int:
        """Fill in the ratings over time of seasons counted before they were stored,
        ``most`` matches per transaction, resting ``rest`` times as long as each took
        (``upkeep.backfill``); how many matches were filled."""
        return await upkeep.backfill(self.db, most, rest)

    def start_backfill(self) -> None:
        """Run ``backfill`` in the background (``close`` stops it), logging what it did."""

        async def run() -> None:
            t0 = time.perf_counter()
            try:
                filled = await self.backfill()
            except Exception:
                log.exception("filling the ratings over time failed (retried at the next start)")
                return
            if filled:
                log.info("ratings over time: filled %d matches in %.1f s", filled,
                         time.perf_counter() - t0)

        self._backfilling = asyncio.create_task(run(), name="deckhand-ratings-backfill")

    async def close(self) -> None:
        """Stop the background backfill, if it runs (it resumes at the next start)."""
        if self._backfilling is not None:
            self._backfilling.cancel()
            await asyncio.gather(self._backfilling, return_exceptions=True)
            self._backfilling = None

    # -- standings ----------------------------------------------------------------------
    async def standings(
        self, guild_id: int, name: str | None = None, *, game: str | None = None,
        season: int | None = None, limit: int = 25, offset: int = 0,
    ) -> Standings:
        """A page of standings (rank 1 first). Empty when nothing has been played."""
        league = await self.league(guild_id, name)
        return await standings_page(self.db, league, season, game, limit, offset)

    # -- history ------------------------------------------------------------------------
    async def league_history(
        self, guild_id: int, name: str | None = None, *, season: int | None = None,
        limit: int = 10,
    ) -> list[PlayedMatch]:
        """The league's last ``limit`` matches, newest first (all seasons unless one is
        given); an empty list when none."""
        league = await self.league(guild_id, name)
        number = None if season is None else season_number(league, season)
        return await self.db.report(
            league_reports.league_history, league.id, number, row_limit(limit)
        )

    async def player_history(
        self, guild_id: int, user_id: int, *, league: str | None = None, limit: int = 10
    ) -> list[PlayedMatch]:
        """A user's last ``limit`` matches in the guild (or one league), newest first."""
        league_id = (await self.league(guild_id, league)).id if league is not None else None
        return await self.db.report(
            league_reports.player_history, guild_id, user_id, league_id, row_limit(limit)
        )

    async def head_to_head(
        self, guild_id: int, user_a: int, user_b: int, *, game: str | None = None
    ) -> HeadToHead:
        """How two users fared against each other in the guild (zeros when never)."""
        if user_a == user_b:
            raise InvalidRequest(lazy_gettext("Pick two different players."))
        g = game_name(game) if game is not None else None
        return await self.db.report(league_reports.head_to_head, guild_id, user_a, user_b, g)

    async def rating_lines(
        self, guild_id: int, user_id: int
    ) -> list[tuple[str, list[tuple[int, int]]]]:
        """The player's ratings over time in each game of the server league's current
        season (``charts.rating_lines``)."""
        league = await self.league(guild_id)
        return await self.db.report(charts.rating_lines, league, user_id)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A user's record across the guild (``stats.player_stats``)."""
        return await stats.player_stats(self.db, guild_id, user_id)

    # -- CSV ----------------------------------------------------------------------------
    async def standings_csv(
        self, guild_id: int, name: str | None = None, *, game: str | None = None,
        season: int | None = None,
    ) -> str:
        """The whole standings as CSV (header row first; a provisional player's rank is
        empty)."""
        st = await self.standings(guild_id, name, game=game, season=season, limit=MAX_ROWS)
        return spreadsheets.standings_csv(st)

    async def history_csv(
        self, guild_id: int, name: str | None = None, *, season: int | None = None,
        limit: int = MAX_ROWS,
    ) -> str:
        """A league's matches as CSV, one row per seat, newest match first."""
        matches = await self.league_history(guild_id, name, season=season, limit=limit)
        return spreadsheets.history_csv(matches)

