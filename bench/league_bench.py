"""League benchmark (not a test): standings for a league of 100,000 matches and 1,000 players.

    .venv/bin/python bench/league_bench.py [--matches 100000] [--players 1000]

Records the matches through the real recorder (``insert_match`` + ``LeagueService.
record_match`` in one transaction, batched to keep set-up short, plus a sample of one
transaction per match), then times standings, history, head-to-head, stats and rebuild,
and prints ``EXPLAIN QUERY PLAN`` of the standings queries.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.services.leagues import LeagueService
from storage import league_reports
from storage.connect import open_database
from storage.db import Conn
from storage.matches import MatchRecord, SeatResult, insert_match
from storage.models import computer_name

GUILD = 1
GAME = "ono99"


def random_match(rng: random.Random, players: int, league_id: int, t: float) -> MatchRecord:
    """2–5 seats, now and then a computer, random placements with occasional ties."""
    n = rng.randint(2, 5)
    users = rng.sample(range(1, players + 1), n)
    scores = [rng.randint(0, 3) for _ in range(n)]
    seats = []
    for i, uid in enumerate(users):
        rank = 1 + sum(1 for o in scores if o > scores[i])
        if i == n - 1 and n > 2 and rng.random() < 0.2:
            seats.append(SeatResult(i, None, "normal", computer_name("normal", 1), i, scores[i],
                                    rank, number=1))
        else:
            seats.append(SeatResult(i, uid, None, f"player{uid}", i, scores[i], rank))
    return MatchRecord(None, GUILD, 1, league_id, GAME, {}, 1, t - 300, t, tuple(seats))


async def timed(label: str, fn: Callable[[], Awaitable[object]], runs: int = 20) -> None:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - t0)
    print(f"{label:<48} median {statistics.median(times) * 1000:8.2f} ms"
          f"   max {max(times) * 1000:8.2f} ms")


def record_all(conn: Conn, svc: LeagueService, matches: list[MatchRecord]) -> None:
    """Insert and count matches in one transaction."""
    for m in matches:
        svc.record_match(conn, insert_match(conn, m), m)


def query_plan(conn: Conn, sql: str, params: tuple[object, ...]) -> str:
    """SQLite's plan for a query, one line."""
    return "; ".join(str(r["detail"]) for r in conn.all("EXPLAIN QUERY PLAN " + sql, params))


async def main(matches: int, players: int, batch: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(Path(tmp) / "bench.db")
        svc = LeagueService(db)
        cup = await svc.create_league(GUILD, "Cup", is_admin=True, scoring="points:3/1/0")
        rng = random.Random(1)
        t0 = time.perf_counter()
        done = 0
        while done < matches:
            batch_of = [
                random_match(rng, players, cup.id, 1_700_000_000.0 + done + k)
                for k in range(min(batch, matches - done))
            ]
            await db.write(record_all, svc, batch_of)
            done += len(batch_of)
        setup = time.perf_counter() - t0
        print(f"recorded {matches} matches x 2 leagues in {setup:.1f} s"
              f" ({matches / setup:.0f} matches/s, batches of {batch})")
        single = []
        for i in range(200):
            m = random_match(rng, players, cup.id, 1_800_000_000.0 + i)
            t1 = time.perf_counter()
            await db.write(record_all, svc, [m])
            single.append(time.perf_counter() - t1)
        print(f"{'one match per transaction (commit included)':<48} median"
              f" {statistics.median(single) * 1000:8.2f} ms   max {max(single) * 1000:8.2f} ms")
        for name in (None, "Cup"):
            st = await svc.standings(GUILD, name, limit=1)
            print(f"league {st.league.name}: {st.total} players, scoring {st.scoring}")
        await timed("standings top 25 (rating, default league)",
                    lambda: svc.standings(GUILD))
        await timed("standings top 25 (points, Cup)", lambda: svc.standings(GUILD, "Cup"))
        await timed("standings all 1,000 rows (rating)",
                    lambda: svc.standings(GUILD, limit=players))
        await timed("standings last page (offset 975)",
                    lambda: svc.standings(GUILD, offset=players - 25))
        await timed("standings CSV, all rows", lambda: svc.standings_csv(GUILD, "Cup"))
        await timed("league history, last 10", lambda: svc.league_history(GUILD))
        await timed("player history, last 10", lambda: svc.player_history(GUILD, 7))
        await timed("head-to-head", lambda: svc.head_to_head(GUILD, 7, 8))
        await timed("player stats", lambda: svc.player_stats(GUILD, 7))
        t2 = time.perf_counter()
        counted = await svc.rebuild(GUILD, "Cup", is_admin=True)
        print(f"rebuild of Cup from matches: {counted} matches in"
              f" {time.perf_counter() - t2:.1f} s")
        default = await svc.standings(GUILD, limit=1)
        print(f"default league: {default.established} established, "
              f"{default.total - default.established} provisional (under "
              f"{default.provisional_games} games)")
        await timed("standings page across the provisional line",
                    lambda: svc.standings(GUILD, offset=max(default.established - 10, 0)))
        for label, order in (("rating", league_reports.ORDER_BY_RATING),
                             ("points", league_reports.ORDER_BY_POINTS)):
            plan = await db.read(
                query_plan,
                "SELECT * FROM league_players WHERE league_id = ? AND season = ? AND game = ?"
                f" AND games >= ? ORDER BY {order} LIMIT ? OFFSET ?",
                (1, 1, GAME, 5, 25, 0),
            )
            print(f"plan, standings by {label}:", plan)
        plan = await db.read(
            query_plan,
            "SELECT m.* FROM league_matches lm JOIN matches m ON m.id = lm.match_id"
            " WHERE lm.league_id = ? ORDER BY lm.match_id DESC LIMIT ?",
            (1, 10),
        )
        print("plan, league history:", plan)
        size = (Path(tmp) / "bench.db").stat().st_size
        print(f"database file: {size / 1e6:.0f} MB")
        await db.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--batch", type=int, default=1_000)
    a = ap.parse_args()
    asyncio.run(main(a.matches, a.players, a.batch))
