"""The ratings line of a finished table message: each human's rating in the server's
Default league, with the change since the game started when this process saw the start;
nothing for an unrated game (the table message says so itself), and at a duplicate board
still played elsewhere, when it will count."""

from __future__ import annotations

from bot.services import ratings
from bot.services.leagues import LeagueService
from bot.services.tables import TableResult, TableStatus
from bot.wording import signed
from i18n import _
from storage import league_totals
from storage.db import Database


class LeagueLine:
    """Remembers each playing table's ratings before the game, to show the change after."""

    def __init__(self, db: Database, leagues: LeagueService) -> None:
        self.db, self.leagues = db, leagues
        self._before: dict[int, dict[int, float]] = {}

    def forget(self, table_id: int) -> None:
        """The table closed."""
        self._before.pop(table_id, None)

    async def of(self, result: TableResult) -> str:
        """The line for a finished game ("" while it is played, or for no humans)."""
        users = [s.user_id for s in result.seats if s.user_id is not None]
        counted = (TableStatus.PLAYING, TableStatus.FINISHED)
        if not users or result.guild_id == 0 or result.status not in counted or result.unrated:
            return ""
        if result.status is TableStatus.PLAYING:
            if result.table_id not in self._before:
                self._before[result.table_id] = await self._ratings(result, users)
            return ""
        if await self.leagues.counts_later(result.table_id):
            return _("This board counts toward the league once every table has played it.")
        after = await self._ratings(result, users)
        before = self._before.get(result.table_id, {})
        parts = []
        for s in result.seats:
            if s.user_id is None or s.user_id not in after:
                continue
            shown = ratings.display(after[s.user_id])
            if s.user_id in before:
                delta = shown - ratings.display(before[s.user_id])
                parts.append(f"{s.name} {shown} ({signed(delta)})")
            else:
                parts.append(f"{s.name} {shown}")
        if not parts:
            return _("This game did not count toward the league.")
        return _("Ratings: {ratings} — see /league standings", ratings=" · ".join(parts))

    async def _ratings(self, result: TableResult, users: list[int]) -> dict[int, float]:
        league = await self.leagues.league(result.guild_id)
        totals = await self.db.read(
            league_totals.load_players, league.id, league.season, result.game, users
        )
        return {u: p.ordinal for u, p in totals.items()}
