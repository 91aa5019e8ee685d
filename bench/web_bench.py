"""Standings page benchmark (not a test): how long each kind of page takes to make.

    .venv/bin/python bench/web_bench.py [--matches 2000] [--players 50] [--repeat 20]

A published league gets ``--matches`` two-player Gin Rummy results among ``--players``
players (recorded through the real recorder, as ``bench/league_bench.py`` does) and one
full Back Alley game of 25 deals played through the table service. Then the site's pages
are fetched through aiohttp's test client, ``--repeat`` times each: the season page
(standings and the rating chart, which replays the season's ratings), a player's page,
and the Back Alley replay at its first and last step and with every hand shown.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp.test_utils import TestClient, TestServer

from bot.services import publication
from bot.services.leagues import LeagueService
from bot.services.tables import TableService
from bot.web import paths
from bot.web.app import make_app
from storage.connect import open_database
from storage.db import Conn
from storage.matches import MatchRecord, SeatResult, insert_match
from tests.web.world import ANN, BEN, CY, DEE, GUILD, NAMES, open_table, play


async def measure(matches: int, players: int, repeat: int) -> list[tuple[str, float, float]]:
    """``(page, median ms, max ms)`` for each kind of page."""
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        leagues = LeagueService(db)
        service = TableService(db)
        service.add_match_recorder(leagues.record_match)
        league = await leagues.create_league(GUILD, "Bench", is_admin=True)
        rng = random.Random(1)
        for n in range(matches):
            a, b = rng.sample(range(1, players + 1), 2)
            record = MatchRecord(
                None, GUILD, 1, league.id, "gin_rummy", {}, n, n, n + 1.0,
                (SeatResult(0, a, None, f"player{a}", 0, 100, 1),
                 SeatResult(1, b, None, f"player{b}", 1, 40, 2)),
            )

            def insert(conn: Conn, m: MatchRecord = record) -> None:
                leagues.record_match(conn, insert_match(conn, m), m)

            await db.write(insert)
        await open_table(service, 1, "back_alley", {}, [ANN, BEN, CY, DEE], league.id, NAMES)
        await play(service, 1, rng, 100_000)
        await service.close()
        await publication.set_published(db, league, True, is_admin=True)
        slugs = await publication.slugs(db)
        assert slugs is not None
        replay = paths.match(slugs, league.id, matches + 1)
        out = []
        async with TestClient(TestServer(make_app(db), host="127.0.0.1")) as client:
            first = await (await client.get(replay)).text()
            steps = first.split("Step 0 of ")[1].split("<")[0]
            pages = {
                f"season ({matches} games, chart)": paths.season(slugs, league.id, 1),
                "player": paths.player(slugs, league.id, 1),
                f"replay of 25 deals ({steps} steps), step 0": replay,
                "same, last step": paths.match(slugs, league.id, matches + 1, 10**6),
                "same, last step, every hand": paths.match(
                    slugs, league.id, matches + 1, 10**6, hands=True),
            }
            for name, path in pages.items():
                times = []
                for _ in range(repeat):
                    start = time.perf_counter()
                    r = await client.get(path)
                    await r.read()
                    times.append((time.perf_counter() - start) * 1000)
                    assert r.status == 200, (name, r.status)
                out.append((name, statistics.median(times), max(times)))
        await db.close()
        return out


def main() -> None:
    """Print a table of the page times."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=2000)
    p.add_argument("--players", type=int, default=50)
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args()
    rows = asyncio.run(measure(args.matches, args.players, args.repeat))
    print("| page | median ms | max ms |\n| --- | ---: | ---: |")
    for name, median, worst in rows:
        print(f"| {name} | {median:.1f} | {worst:.1f} |")


if __name__ == "__main__":
    main()
