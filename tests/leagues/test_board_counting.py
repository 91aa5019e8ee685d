"""A duplicate board's games count toward leagues only once the board is complete, all
together at its last game's place — incrementally and in ``rebuild`` alike — and a board
an event never completed never counts (both backends)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.services.leagues.standings import StandingRow
from storage import league_totals
from storage.db import Database
from storage.leagues import League
from tests.events.harness import GUILD, club_night

ANN, BEN, CY, DEE = 6_000_001, 6_000_002, 6_000_003, 6_000_004


async def count_order(db: Database, club: League) -> list[int]:
    """The league season's Gin Rummy matches in the order they counted (by number)."""
    counted = await db.read(league_totals.counted_matches, club.id, 1, "gin_rummy", 0, 100)
    return [m.match_id for _, m in counted]


def ratings(rows: Iterable[StandingRow]) -> list[tuple[int, float, float, int]]:
    return sorted((r.user_id, round(r.mu, 9), round(r.sigma, 9), r.games) for r in rows)


async def test_a_board_counts_when_complete_and_rebuild_agrees(db: Database) -> None:
    async with club_night(db) as (night, club):
        await night.leagues.set_provisional_games(GUILD, "Club", 0, is_admin=True)
        event = await night.event([ANN, BEN, CY, DEE], league_id=club.id)
        a, b = sorted(await night.open_due(event.id))
        first = await night.finish(a)
        st = await night.leagues.standings(GUILD, "Club")
        assert st.rows == () and await night.leagues.counts_later(first.table_id)

        # A game of the league finishes between the board's two tables.
        await night.tables.create(600, GUILD, ANN, "Ann", "gin_rummy", {"target": 10},
                                  turn_timer=0, league_id=club.id)
        await night.tables.join(600, CY, "Cy")
        await night.tables.start(600, ANN)
        between = await night.finish(600)
        assert [r.games for r in (await night.leagues.standings(GUILD, "Club")).rows] == [1, 1]

        last = await night.finish(b)
        assert not await night.leagues.counts_later(last.table_id)
        counted = await night.leagues.standings(GUILD, "Club")
        assert sorted(r.games for r in counted.rows) == [1, 1, 2, 2]
        ids = await count_order(db, club)
        assert ids[0] == between.match_id and sorted(ids[1:]) == ids[1:]  # the board after
        assert len(ids) == 3
        history = await db.read(league_totals.all_rating_points, club.id)
        assert await night.leagues.check() == []

        assert await night.leagues.rebuild(GUILD, "Club", is_admin=True) == 3
        again = await night.leagues.standings(GUILD, "Club")
        assert ratings(again.rows) == ratings(counted.rows)
        assert await count_order(db, club) == ids
        assert await db.read(league_totals.all_rating_points, club.id) == history


async def test_a_board_a_cancelled_event_left_incomplete_never_counts(db: Database) -> None:
    async with club_night(db) as (night, club):
        event = await night.event([ANN, BEN, CY, DEE], league_id=club.id)
        a, b = sorted(await night.open_due(event.id))
        first = await night.finish(a)
        player = next(u.user_id for u in first.seats if u.user_id is not None)

        async def shown() -> list[int]:
            return [m.match_id for m in await night.leagues.player_history(GUILD, player)]

        assert await shown() == []
        await night.events.cancel(GUILD, event.id, 0, is_admin=True)
        assert await shown() == []  # B still plays the board
        await night.tables.abort(b, 0, is_admin=True)
        # Nothing plays the board any more: it may be shown, but it never counted.
        assert await shown() == [first.match_id]
        assert await night.leagues.league_history(GUILD) == []
        assert (await night.leagues.standings(GUILD, "Club")).rows == ()
        assert await night.leagues.rebuild(GUILD, "Club", is_admin=True) == 0
        assert await night.leagues.rebuild(GUILD, is_admin=True) == 0
