"""Crash-test child: plays many tables at full speed until killed.

``python -m tests.services.crash_child DB SEED TABLES`` prints ``ack <table_id> <version>``
(flushed) after every acknowledged move — when ``TableService.act`` returned, and when the
runtime reported a computer move — once every table has been started (``ready``).
"""

from __future__ import annotations

import asyncio
import random
import sys

import games
from bot.services.tables import Reminder, TableResult, TableService
from storage.connect import open_database

GAMES = ("gin_rummy", "ono99", "craits", "spades", "back_alley")


async def open_table(service: TableService, channel: int, rng: random.Random) -> TableResult:
    user = channel * 10
    game = GAMES[channel % len(GAMES)]
    r = await service.create(channel, 1, user, f"P{channel}", game)
    while len(r.seats) < games.get(game).min_players:
        r = await service.add_bot(channel, user, rng.choice(("random", "normal")))
    await service.start(channel, user)
    await service.settled(channel)
    return await service.status(channel)


async def play_table(
    service: TableService, channel: int, r: TableResult, rng: random.Random
) -> None:
    user = channel * 10
    while True:
        if r.status == "finished":
            await service.rematch(channel, user)
        else:
            mine = r.for_user(user)
            assert mine is not None
            action = games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)
            done = await service.act(channel, user, action, r.version)
            acknowledge(done)
        await service.settled(channel)
        r = await service.status(channel)


def acknowledge(event: TableResult | Reminder) -> None:
    """Print what is now durable."""
    if isinstance(event, TableResult):
        for step in event.steps:
            # One write per line (print writes the text and the newline apart).
            sys.stdout.write(f"ack {event.table_id} {step.version}\n")
            sys.stdout.flush()


async def on_event(event: TableResult | Reminder) -> None:
    acknowledge(event)


async def main(path: str, seed: int, tables: int) -> None:
    db = await open_database(path)
    seeds = random.Random(seed)
    service = TableService(db, new_seed=lambda: seeds.getrandbits(40))
    service.subscribe(on_event)
    rngs = {c: random.Random(seed * 1000 + c) for c in range(1, tables + 1)}
    started = {c: await open_table(service, c, rng) for c, rng in rngs.items()}
    print("ready", flush=True)
    await asyncio.gather(*[play_table(service, c, started[c], rngs[c]) for c in rngs])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
