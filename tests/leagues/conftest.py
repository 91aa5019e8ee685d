"""Fixtures for the league tests: the service and a match kit (on ``tests/conftest.py``'s
``db``, a real SQLite file)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import pytest

from bot.services.leagues import LeagueService
from storage.db import Conn, Database
from storage.matches import MatchRecord, SeatResult, insert_match


class Kit:
    """Builds seats and matches and records them as the table service does."""

    guild = 1

    def __init__(self, db: Database, svc: LeagueService) -> None:
        self.db = db
        self.svc = svc
        self._clock = itertools.count(1_700_000_000, 60)

    @staticmethod
    def human(seat: int, uid: int, score: int, rank: int, team: int | None = None) -> SeatResult:
        return SeatResult(seat, uid, None, f"user{uid}", seat if team is None else team,
                          score, rank)

    @staticmethod
    def computer(
        seat: int, level: str, score: int, rank: int, team: int | None = None
    ) -> SeatResult:
        return SeatResult(seat, None, level, f"Computer ({level})",
                          seat if team is None else team, score, rank)

    def match(
        self, game: str, seats: Sequence[SeatResult], *, guild: int | None = None,
        league_id: int | None = None, options: Mapping[str, object] | None = None,
    ) -> MatchRecord:
        t = float(next(self._clock))
        return MatchRecord(
            table_id=None, guild_id=self.guild if guild is None else guild, channel_id=10,
            league_id=league_id, game=game, options=dict(options or {}), seed=1, started_at=t - 30,
            finished_at=t, seats=tuple(seats),
        )

    async def record(self, match: MatchRecord) -> int:
        """Insert and record in one write transaction, exactly as the table service does."""

        def insert_and_record(conn: Conn) -> int:
            match_id = insert_match(conn, match)
            self.svc.record_match(conn, match_id, match)
            return match_id

        return await self.db.write(insert_and_record)

    async def rank_everyone(self, league: str | None = None) -> None:
        """No provisional players in that league (default: the guild's own): for tests of
        the order itself."""
        await self.svc.set_provisional_games(self.guild, league, 0, is_admin=True)

    async def duel(
        self, game: str, winner: int, loser: int, *, guild: int | None = None,
        league_id: int | None = None,
    ) -> int:
        """A two-player game ``winner`` won 100 to 50."""
        return await self.record(self.match(
            game, [self.human(0, winner, 100, 1), self.human(1, loser, 50, 2)], guild=guild,
            league_id=league_id,
        ))


@pytest.fixture
def svc(db: Database) -> LeagueService:
    return LeagueService(db, clock=lambda: 1_700_000_000.0)


@pytest.fixture
def kit(db: Database, svc: LeagueService) -> Kit:
    return Kit(db, svc)
