"""Deriving the stored league rows again from ``matches``: ``rebuild`` (store them afresh),
``check`` (say where they differ) and ``backfill`` (fill in the ratings over time of seasons
counted before they were stored).

Decisions:
* ``matches`` stay the one source. Totals are updated incrementally when recording;
  ``rebuild`` replays the same tally in one write transaction, so it holds the writer lock
  while it runs (about 45 s for 100,000 matches, see ``bench/league_bench.py``): an admin
  action for a quiet moment. It counts in match order, a duplicate board's games at the
  board's last game (``in_count_order``), each match in the season whose start it follows.
* ``check`` (``deckhand db check``) says where the stored rows differ from a replay of the
  counted matches in their stored order, and where the counted matches are not the ones
  that count.
* Seasons counted before ratings over time were stored (migration 013) are filled by
  ``backfill`` in the background, a few hundred matches per transaction, resting as long
  as it worked.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import replace

from bot.services.leagues.recording import counts_toward, in_count_order
from bot.services.leagues.scoring import Scoring, SeasonGame
from i18n import _
from storage import events as event_repo
from storage import league_totals, records
from storage import leagues as repo
from storage.db import Conn, Database
from storage.league_totals import Counted, RatingPoint
from storage.leagues import League


def _derive(
    conn: Conn, league: League
) -> tuple[list[Counted], dict[tuple[int, str], SeasonGame]]:
    """What a league derives from ``matches``: the matches that count (in match order)
    and each season's game tallied."""
    scoring = Scoring.parse(league.scoring)
    bounds = [(s.after_match, s.season) for s in repo.seasons(conn, league.id)]
    groups: dict[tuple[int, str], SeasonGame] = {}
    counted: list[Counted] = []
    releases = event_repo.board_releases(conn, league.guild_id)
    for at, m in in_count_order(league_totals.matches_for_league(conn, league), releases):
        if not counts_toward(league, m):
            continue
        season = max(s for after, s in bounds if after < at)
        group = groups.setdefault((season, m.game), SeasonGame(scoring))
        group.add(m.match_id, m.seats)
        counted.append(Counted(m.match_id, season, m.game, group.counted))
    return counted, groups


def rebuild(conn: Conn, league: League) -> int:
    """Recompute a league's derived rows from ``matches``; how many matches counted."""
    counted, groups = _derive(conn, league)
    league_totals.clear_league(conn, league.id)
    for (season, game), group in groups.items():
        league_totals.save_players(conn, league.id, season, game, group.players.values())
        league_totals.save_bots(
            conn, league.id, season, game,
            {k: (r.mu, r.sigma) for k, r in group.bots.items()},
        )
        league_totals.save_ratings(conn, league.id, season, game, group.points)
        league_totals.save_partners(conn, league.id, season, game, group.partners.values())
    league_totals.add_league_matches(conn, league.id, counted)
    records.recount(conn, league.guild_id)
    return len(counted)


def _replayed(conn: Conn, league: League, season: int, game: str) -> SeasonGame:
    """A season's game tallied again from its counted matches, in their stored order."""
    group = SeasonGame(Scoring.parse(league.scoring))
    after = 0
    while chunk := league_totals.counted_matches(conn, league.id, season, game, after, 2000):
        for number, m in chunk:
            group.add(m.match_id, m.seats, number)
        after = chunk[-1][0]
    return group


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def _check(conn: Conn, league: League) -> list[str]:
    """Where the league's stored rows differ from what its matches give (see the
    module docstring); empty when they agree."""
    where = _("League {name!r} (id {id})", name=league.name, id=league.id)
    counted, _totals = _derive(conn, league)
    stored = league_totals.all_counted(conn, league.id)
    problems = []
    if {(c.match_id, c.season, c.game) for c in counted} != {
        (c.match_id, c.season, c.game) for c in stored
    }:
        problems.append(_(
            "{where}: the matches it counts are not the ones that count.",
            where=where,
        ))
    players = league_totals.all_players(conn, league.id)
    bots = league_totals.all_bots(conn, league.id)
    partners = league_totals.all_partners(conn, league.id)
    points = league_totals.all_rating_points(conn, league.id)
    pending = {(p.season, p.game) for p in league_totals.pending_ratings(conn, league.id)}
    groups = sorted(
        {(c.season, c.game) for c in stored} | set(players) | set(points) | set(partners)
    )
    for season, game in groups:
        group = _replayed(conn, league, season, game)
        here = _("{where}, season {season}, {game}", where=where, season=season, game=game)
        numbers = [c.number for c in stored if (c.season, c.game) == (season, game)]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(_(
                "{here}: its matches are not numbered 1 to {numbers}.",
                here=here, numbers=len(numbers),
            ))
        mine = players.get((season, game), {})
        if mine.keys() != group.players.keys() or any(
            replace(p, mu=0.0, sigma=0.0) != replace(q, mu=0.0, sigma=0.0)
            or not (_same(p.mu, q.mu) and _same(p.sigma, q.sigma))
            for u, p in mine.items() for q in (group.players[u],)
        ):
            problems.append(
                _("{here}: the players' totals differ from a recomputation.", here=here)
            )
        if partners.get((season, game), {}) != group.partners:
            problems.append(_(
                "{here}: the results with partners differ from a recomputation.",
                here=here,
            ))
        theirs = bots.get((season, game), {})
        if theirs.keys() != group.bots.keys() or any(
            not (_same(mu, group.bots[k].mu) and _same(sg, group.bots[k].sigma))
            for k, (mu, sg) in theirs.items()
        ):
            problems.append(_(
                "{here}: the computer levels' ratings differ from a recomputation.",
                here=here,
            ))
        if (season, game) in pending:
            continue
        have = sorted(points.get((season, game), []), key=lambda p: (p.user_id, p.games))
        want = sorted(group.points, key=lambda p: (p.user_id, p.games))
        if len(have) != len(want) or any(
            (a.user_id, a.games, a.number) != (b.user_id, b.games, b.number)
            or not (_same(a.mu, b.mu) and _same(a.sigma, b.sigma))
            for a, b in zip(have, want, strict=False)
        ):
            problems.append(_(
                "{here}: the ratings over time differ from a recomputation.",
                here=here,
            ))
    return problems


async def check(db: Database) -> list[str]:
    """Every league's stored rows against a recomputation from ``matches`` (see the
    module docstring): one line per difference, empty when all agree."""
    problems = []
    for league in await db.report(repo.all_leagues):
        problems += await db.report(_check, league)
    for guild_id in await db.report(records.guilds):
        if await db.report(records.stored, guild_id) != await db.report(
            records.recounted, guild_id
        ):
            problems.append(
                _(
                    "Guild {guild_id}: the players' records (/stats) differ from a recount.",
                    guild_id=guild_id,
                )
            )
    return problems


def _backfill_chunk(
    conn: Conn, group: SeasonGame, pending: league_totals.Pending, after: int, most: int
) -> tuple[int, list[RatingPoint]]:
    """Tally the next ``most`` matches of a pending season's game into ``group``; the
    last number tallied and the ratings they gave."""
    chunk = league_totals.counted_matches(
        conn, pending.league_id, pending.season, pending.game, after,
        min(most, pending.through - after),
    )
    points: list[RatingPoint] = []
    for number, m in chunk:
        points += group.add(m.match_id, m.seats, number)
    return (chunk[-1][0] if chunk else pending.through), points


def _save_backfill(
    conn: Conn, pending: league_totals.Pending, points: list[RatingPoint], finished: bool
) -> bool:
    """Store filled ratings unless the league was rebuilt meanwhile; whether they were."""
    if not league_totals.is_pending(conn, pending.league_id, pending.season, pending.game):
        return False
    league_totals.save_ratings(conn, pending.league_id, pending.season, pending.game, points)
    if finished:
        league_totals.done_pending(conn, pending)
    return True


async def backfill(db: Database, most: int, rest: float) -> int:
    """Compute the ratings over time of seasons counted before they were stored, ``most``
    matches per transaction; how many matches were filled. The tally runs on the report
    reader, and after each chunk the backfill rests ``rest`` times as long as the chunk
    took, so the moves going on meanwhile keep most of the processor (and of the
    interpreter's lock)."""
    filled = 0
    for pending in await db.report(league_totals.pending_ratings):
        league = await db.read(repo.league_by_id, pending.league_id)
        assert league is not None  # a pending row goes with its league
        group, after = SeasonGame(Scoring.parse(league.scoring)), 0
        while after < pending.through:
            before, t0 = after, time.perf_counter()
            after, points = await db.report(_backfill_chunk, group, pending, after, most)
            if not await db.write(_save_backfill, pending, points, after >= pending.through):
                break  # rebuilt meanwhile: stored in full already
            filled += after - before
            await asyncio.sleep(rest * (time.perf_counter() - t0))
    return filled
