"""Computer players that search think in worker processes: the loop stays free."""

from __future__ import annotations

import asyncio
import random

import pytest

import games
from bot.services.errors import NotAllowed, NotSeated
from bot.services.leagues import LeagueService
from bot.services.tables import TableService
from bot.services.tables.thinking import Thinker
from games.rng import rng_for
from games.search import advise
from storage.db import Database


async def test_a_search_runs_off_the_loop_and_picks_the_same_move() -> None:
    game = games.get("gin_rummy")
    state = game.new(2, seed=7)
    seat = next(s for s in range(2) if game.legal_actions(state, s))
    thinker = Thinker(workers=1)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.001)

    ticking = asyncio.create_task(tick())
    try:
        move = await thinker.choose(game, state, seat, "expert", random.Random(3))
        assert thinker.started
    finally:
        ticking.cancel()
        thinker.close()
    # Inline, the search is one synchronous call: the loop could not tick at all.
    assert ticks >= 5
    assert move == game.choose(state, seat, "expert", random.Random(3))


async def test_quick_levels_are_chosen_on_the_spot() -> None:
    game = games.get("spades")
    state = game.new(2, seed=1)
    seat = next(s for s in range(2) if game.legal_actions(state, s))
    thinker = Thinker(workers=1)
    move = await thinker.choose(game, state, seat, "normal", random.Random(2))
    assert move == game.choose(state, seat, "normal", random.Random(2))
    assert not thinker.started


async def test_a_hint_is_the_experts_move_and_is_refused_at_rated_tables(
    service: TableService, db: Database
) -> None:
    await service.create(10, 1, 1, "ann", "gin_rummy", practice=True)
    await service.add_bot(10, 1, "normal")
    await service.start(10, 1)
    await service.settled(10)
    result = await service.status(10)
    assert 0 in result.to_act
    shown, advice = await service.hint(10, 1)
    assert shown.version == result.version and shown.unrated
    game = games.get("gin_rummy")
    table = await service.store.usable(10)
    assert table.state is not None
    assert advice.move in game.legal_actions(table.state, 0)
    again = advise(game, table.state, 0, rng_for(table.seed, "hint", table.version))
    assert again == advice
    with pytest.raises(NotSeated):
        await service.hint(10, 2)

    cup = await LeagueService(db).create_league(1, "Cup", is_admin=True)
    await service.create(11, 1, 1, "ann", "gin_rummy", league_id=cup.id)
    await service.add_bot(11, 1, "normal")
    await service.start(11, 1)
    await service.settled(11)
    with pytest.raises(NotAllowed, match="counts toward ratings"):
        await service.hint(11, 1)
