"""Computer players that search think in worker processes: the loop stays free."""

from __future__ import annotations

import asyncio
import random

import games
from bot.services.tables.thinking import Thinker


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
