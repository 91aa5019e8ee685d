"""The hint rule (``bot.services.tables.hints``) on both backends: no hint at an event's
or a named league's table; anywhere else a hint is given and the game becomes unrated for
everybody at the table — kept across a restart and seen by another process — recorded
like any game, but counted toward no league, not even when rebuilt."""

from __future__ import annotations

import itertools

import pytest

from bot.services.errors import NotAllowed
from bot.services.leagues import LeagueService
from bot.services.tables import TableService
from storage.db import Database
from tests.services.conftest import play_out

GUILD, ANN, BEN = 8_100_001, 8_100_011, 8_100_012


def tables(db: Database, leagues: LeagueService) -> TableService:
    seeds = itertools.count(31)
    service = TableService(db, new_seed=lambda: next(seeds))
    service.add_match_recorder(leagues.record_match)
    return service


async def start(service: TableService, channel: int, league_id: int | None = None) -> int:
    """A running Gin Rummy game of Ann and Ben; who is to act."""
    await service.create(channel, GUILD, ANN, "Ann", "gin_rummy", {"target": 10},
                         turn_timer=0, league_id=league_id)
    await service.join(channel, BEN, "Ben")
    result = await service.start(channel, ANN)
    user = result.seats[result.to_act[0]].user_id
    assert user is not None
    return user


async def test_a_hint_makes_the_game_unrated_for_good(db: Database) -> None:
    leagues = LeagueService(db)
    service = tables(db, leagues)
    try:
        user = await start(service, 1)
        assert not (await service.status(1)).unrated
        assert await service.use_hint(1, user) is True  # this one made it unrated
        assert await service.use_hint(1, user) is False
        assert (await service.status(1)).unrated
    finally:
        await service.close()
    again = tables(db, leagues)  # a restart
    try:
        await again.load()
        now = await again.status(1)
        assert now.unrated
        done = await play_out(again, 1, now)
        assert done.status == "finished" and done.unrated
    finally:
        await again.close()
    played = await leagues.player_history(GUILD, ANN)
    assert [m.unrated for m in played] == [True]  # recorded and listed
    assert await leagues.league_history(GUILD) == []  # but counted nowhere
    assert (await leagues.standings(GUILD)).rows == ()
    assert await leagues.rebuild(GUILD, is_admin=True) == 0


async def test_a_hint_given_by_another_process_still_unrates_the_game(db: Database) -> None:
    """The owner cached the table before the hint; its finishing move reads the mark from
    the table's row, so the game is not counted."""
    leagues = LeagueService(db)
    owner, other = tables(db, leagues), tables(db, leagues)
    try:
        user = await start(owner, 2)
        assert await other.use_hint(2, user)
        cached = owner.store.cached(2)
        assert cached is not None and not cached.unrated
        await play_out(owner, 2, await owner.status(2))
    finally:
        await owner.close()
        await other.close()
    assert [m.unrated for m in await leagues.player_history(GUILD, BEN)] == [True]
    assert await leagues.league_history(GUILD) == []


async def test_no_hint_at_an_event_or_league_table(db: Database) -> None:
    leagues = LeagueService(db)
    service = tables(db, leagues)
    try:
        cup = await leagues.create_league(GUILD, "Cup", is_admin=True)
        user = await start(service, 3, league_id=cup.id)
        with pytest.raises(NotAllowed, match=r"^Hints are off at league tables"):
            await service.use_hint(3, user)
        event = await service.open_seated(
            4, GUILD, "gin_rummy", {"target": 10}, [(ANN, "Ann"), (BEN, "Ben")], seed=5,
            turn_timer=0,
        )
        user = event.seats[event.to_act[0]].user_id
        assert user is not None
        with pytest.raises(NotAllowed, match=r"^Hints are off at event tables"):
            await service.hint(4, user)
        assert not (await service.status(3)).unrated and not (await service.status(4)).unrated
    finally:
        await service.close()
