"""Replay benchmark (not a test): how long one ``/game replay`` step takes for a long game.

    .venv/bin/python bench/replay_bench.py [--repeat 20]

Plays one long game of each kind to its end through the real table service on a fresh
SQLite file (every seat a human playing the ``normal`` computer's move), then times
``guild_replay`` at the last step — a click replays the whole log, so this is the worst
step — and prints the size of that step's embed with every hand shown.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bot.services.replays import guild_replay
from bot.services.tables import TableService
from bot.ui.replays import replay_spec
from storage.connect import open_database

GUILD = 5
#: (game, options, players): the longest games each engine plays.
LONG_GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("spades", {"target": 500}, 2),
    ("back_alley", {"deals": 20}, 4),
    ("gin_rummy", {"target": 100}, 2),
    ("craits", {}, 4),
    ("ono99", {}, 4),
]


async def _measure(name: str, options: dict[str, Any], players: int, repeat: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(str(Path(folder) / "replay.db"))
        seeds = itertools.count(3)
        service = TableService(db, new_seed=lambda: next(seeds))
        rng = random.Random(1)
        normal = games.get(name).bots["normal"]
        try:
            await service.create(1, GUILD, 1, "P1", name, options, turn_timer=0)
            for user in range(2, players + 1):
                await service.join(1, user, f"P{user}")
            await service.start(1, 1)
            last = await service.status(1)
            while last.status == "playing":
                mine = last.private[last.to_act[0]]
                action = normal(mine.view, list(mine.legal), rng)
                last = await service.act(1, mine.user_id, action, last.version)
            assert last.match_id is not None
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                rep = await guild_replay(db, GUILD, last.match_id, 10**6, hands=True)
                times.append(time.perf_counter() - start)
            spec = await replay_spec(db, GUILD, last.match_id, 10**6, True)  # what the bot sends
        finally:
            await service.close()
            await db.close()
    embed = spec.embed
    assert embed is not None
    size = sum(map(len, (embed.title, embed.description, embed.footer)))
    size += sum(len(n) + len(v) for n, v in embed.fields)
    return (
        f"| {games.get(name).title} {options or ''} | {rep.last} | "
        f"{statistics.median(times) * 1000:.1f} ms | {max(times) * 1000:.1f} ms | {size} |"
    )


async def main(repeat: int) -> None:
    print("| Game | Moves | Median step | Slowest step | Embed chars (hands shown) |")
    print("|---|---:|---:|---:|---:|")
    for name, options, players in LONG_GAMES:
        print(await _measure(name, options, players, repeat))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    asyncio.run(main(parser.parse_args().repeat))
