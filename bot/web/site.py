"""What each page shows, gathered from the database: slugs in, HTML out (None = 404).

Every page starts from a published league (or a guild with one): a slug that does not
name one, or names an unpublished league, finds nothing. Players and matches are then
looked up only inside that league. Reads only; the one write (the slug key) is made by
the publishing command.
"""

from __future__ import annotations

from bot.services import publication, replays
from bot.services.events.service import EventService
from bot.services.leagues import LeagueService, RatingLines, season_ratings
from bot.services.player_record import records
from bot.services.publication import Slugs
from bot.services.ratings import DEFAULT, display
from bot.web import events as event_pages
from bot.web import pages
from bot.web.chart import Series
from bot.web.html import Safe
from storage import events as events_repo
from storage import league_reports
from storage import leagues as repo
from storage.db import Conn, Database
from storage.leagues import League

#: Standings rows shown per game, and players drawn in its chart.
ROWS = 100
CHARTED = 6
RECENT = 20


class Site:
    """The pages of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.leagues = LeagueService(db)
        self.events = EventService(db)
        self._slugs: Slugs | None = None

    async def slugs(self) -> Slugs | None:
        """The site's slugs (None while nothing was ever published); kept once found."""
        if self._slugs is None:
            self._slugs = await publication.slugs(self.db)
        return self._slugs

    async def _league(self, slug: str) -> tuple[Slugs, League] | None:
        s = await self.slugs()
        league_id = s.decode("league", 0, slug) if s else None
        if s is None or league_id is None:
            return None
        league = await self.db.read(repo.league_by_id, league_id)
        return (s, league) if league is not None and league.published else None

    async def guild(self, slug: str) -> Safe | None:
        """A guild's published leagues."""
        s = await self.slugs()
        guild_id = s.decode("guild", 0, slug) if s else None
        if s is None or guild_id is None:
            return None
        leagues = await self.db.read(repo.published_leagues, guild_id)
        return pages.guild_page(s, leagues) if leagues else None

    async def league(self, slug: str) -> Safe | None:
        """A published league's seasons and events."""
        found = await self._league(slug)
        if found is None:
            return None
        s, league = found
        seasons = await self.db.read(repo.seasons, league.id)
        played = {
            n.season: await self.db.read(league_reports.season_games, league.id, n.season)
            for n in seasons
        }
        events = await self.db.read(events_repo.league_events, league.id)
        return pages.league_page(
            s, league, seasons, played, event_pages.listing(s, league, events)
        )

    async def season(self, slug: str, number: int) -> Safe | None:
        """A season's standings per game with rating charts, and its latest games."""
        found = await self._league(slug)
        if found is None:
            return None
        s, league = found
        season = next(
            (x for x in await self.db.read(repo.seasons, league.id) if x.season == number), None
        )
        if season is None:
            return None
        sections = []
        for game in await self.db.read(league_reports.season_games, league.id, number):
            st = await self.leagues.standings(
                league.guild_id, league.name, game=game, season=number, limit=ROWS
            )
            charted = [(r.user_id, r.name) for r in st.rows[:CHARTED]]
            lines = await self.db.report(
                season_ratings, league.id, number, game, [u for u, _ in charted]
            )
            sections.append(pages.GameSection(st, _series(lines, charted), lines.played))
        recent = await self.db.report(league_reports.league_history, league.id, number, RECENT)
        return pages.season_page(s, league, season, sections, recent)

    async def player(self, slug: str, player: str) -> Safe | None:
        """A player's page inside a published league (only players it counted)."""
        found = await self._league(slug)
        if found is None:
            return None
        s, league = found
        user_id = s.decode("player", league.id, player)
        if user_id is None:
            return None
        seasons = await self.db.report(league_reports.player_seasons, league.id, user_id)
        if not seasons:
            return None
        matches = await self.db.report(
            league_reports.player_history, league.guild_id, user_id, league.id, RECENT
        )
        per_game, per_partner = records(
            await self.db.report(league_reports.league_records, league.id, user_id)
        )
        name = next(
            (str(x.name) for m in matches[:1] for x in m.seats if x.user_id == user_id),
            seasons[0].totals.name,
        )
        return pages.player_page(s, league, name, seasons, per_game, per_partner, matches)

    async def event(self, slug: str, event: str) -> Safe | None:
        """An event of a published league: its standings and rounds."""
        found = await self._league(slug)
        if found is None:
            return None
        s, league = found
        event_id = s.decode("event", league.id, event)
        if event_id is None:
            return None
        row = await self.db.read(events_repo.event_by_id, event_id)
        if row is None or row.league_id != league.id:
            return None
        standings = await self.events.standings(row.guild_id, row.id)

        def read(conn: Conn) -> event_pages.EventData:
            tables = events_repo.tables(conn, row.id)
            replayable = frozenset(
                t.match_id for t in tables if t.match_id is not None
                and league_reports.league_match(conn, league.id, t.match_id) is not None
            )
            return event_pages.EventData(
                standings, tuple(events_repo.entrants(conn, row.id)), tuple(tables), replayable,
                frozenset(events_repo.boards_in_play(conn, row.id)),
            )

        return event_pages.event_page(s, league, await self.db.read(read))

    async def match(self, slug: str, match: str, step: int, hands: bool) -> Safe | None:
        """One step of a league's finished game."""
        found = await self._league(slug)
        if found is None:
            return None
        s, league = found
        match_id = s.decode("match", league.id, match)
        if match_id is None:
            return None
        played = await self.db.read(league_reports.league_match, league.id, match_id)
        rep = await replays.replay_step(
            self.db, match_id, step, hands=hands, league_id=league.id
        )
        if played is None or rep is None:
            return None
        return pages.replay_page(s, league, played, rep, hands)


def _series(lines: RatingLines, players: list[tuple[int, str]]) -> tuple[Series, ...]:
    """Each player's line: the newcomer rating just before their first game, then their
    rating after the games they played (the season's games numbered from 1)."""
    out = []
    for user_id, name in players:
        points = [(p.number, display(p.ordinal)) for p in lines.lines.get(user_id, [])]
        if points:
            out.append(Series(name, ((points[0][0] - 1, display(DEFAULT.ordinal)), *points)))
    return tuple(out)
