"""The hint rule (``bot.services.tables.hints``) on both backends: whether a table gives
hints is decided when it opens. A practice table gives them and is unrated from its first
move — kept across a restart and a rematch, recorded like any game but counted toward no
league, not even when rebuilt. A rated table never gives one, not even on the last turn
of a game the asker is losing, so its result always counts; nor does an event's table,
and no practice table counts toward a named league."""

from __future__ import annotations

import itertools
import random

import pytest

import games
from bot.services.errors import BadOptions, NotAllowed
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


async def start(
    service: TableService, channel: int, league_id: int | None = None, practice: bool = False
) -> int:
    """A running Gin Rummy game of Ann and Ben; who is to act."""
    lobby = await service.create(channel, GUILD, ANN, "Ann", "gin_rummy", {"target": 10},
                                 turn_timer=0, league_id=league_id, practice=practice)
    assert lobby.unrated is practice  # said from the lobby on
    await service.join(channel, BEN, "Ben")
    result = await service.start(channel, ANN)
    user = result.seats[result.to_act[0]].user_id
    assert user is not None
    return user


async def test_a_practice_table_gives_hints_and_counts_nowhere(db: Database) -> None:
    leagues = LeagueService(db)
    service = tables(db, leagues)
    try:
        user = await start(service, 1, practice=True)
        await service.use_hint(1, user)
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
        rematch = await again.rematch(1, ANN)
        assert rematch.unrated  # a rematch is what the last game was
        await again.use_hint(1, rematch.seats[rematch.to_act[0]].user_id or 0)
    finally:
        await again.close()
    played = await leagues.player_history(GUILD, ANN)
    assert [m.unrated for m in played] == [True]  # recorded and listed
    assert await leagues.league_history(GUILD) == []  # but counted nowhere
    assert (await leagues.standings(GUILD)).rows == ()
    assert await leagues.rebuild(GUILD, is_admin=True) == 0


async def test_no_hint_at_a_rated_table_even_on_the_last_turn(db: Database) -> None:
    """Today's code gave the hint and unrated the game: a loser's last-turn hint erased the
    winner's win, rating change and standings line. Here every turn asks for one first."""
    leagues = LeagueService(db)
    service = tables(db, leagues)
    rng = random.Random(7)
    asked = 0
    try:
        await start(service, 2)
        while (r := await service.status(2)).status == "playing":
            seat = r.to_act[0]
            user = r.seats[seat].user_id
            assert user is not None
            with pytest.raises(NotAllowed, match=r"^Hints are off at this table"):
                await service.use_hint(2, user)
            with pytest.raises(NotAllowed):
                await service.hint(2, user)
            asked += 1
            mine = r.private[seat]
            move = games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)
            await service.act(2, user, move, r.version)
        assert not r.unrated and r.status == "finished"
    finally:
        await service.close()
    assert asked > 10  # the last turn among them
    counted = await leagues.league_history(GUILD)
    assert len(counted) == 1 and not counted[0].unrated
    assert len((await leagues.standings(GUILD)).rows) == 2


async def test_no_hint_at_an_event_or_league_table(db: Database) -> None:
    leagues = LeagueService(db)
    service = tables(db, leagues)
    try:
        cup = await leagues.create_league(GUILD, "Cup", is_admin=True)
        with pytest.raises(BadOptions, match=r"^A practice table counts toward no league"):
            await service.create(3, GUILD, ANN, "Ann", "gin_rummy", league_id=cup.id,
                                 practice=True)
        user = await start(service, 3, league_id=cup.id)
        with pytest.raises(NotAllowed, match=r"^Hints are off at this table"):
            await service.use_hint(3, user)
        event = await service.open_seated(
            4, GUILD, "gin_rummy", {"target": 10}, [(ANN, "Ann"), (BEN, "Ben")], seed=5,
            turn_timer=0,
        )
        seated = event.seats[event.to_act[0]].user_id
        assert seated is not None
        with pytest.raises(NotAllowed, match=r"^Hints are off at event tables"):
            await service.hint(4, seated)
        assert not (await service.status(3)).unrated and not (await service.status(4)).unrated
    finally:
        await service.close()
