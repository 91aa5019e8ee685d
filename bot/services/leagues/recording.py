"""Recording a finished match: which leagues it counts toward, and counting it there and in
its players' records, inside the transaction that inserts it.

Decisions:
* Every guild has a default league called ``Default`` (created on demand, the name is
  reserved) that every finished game of the guild counts toward; a table may also name a
  league (``matches.league_id``), which counts the game when it fits the league's game
  filter. ``record_match`` is the table service's match recorder: it runs inside the
  transaction that inserts the match, so the match and all league updates commit together
  or not at all.
* What counts: at least one human seat, two or more teams, no user in two seats, not a
  practice table (``bot.services.tables.hints``: the game is unrated); a league with
  ``count_bots=False`` ignores games with a computer seat.
* **One question decides what counts**: ``counts_toward(league, match)``, asked by
  recording, ``rebuild`` and ``check`` alike. A match counts in the order it is
  recorded (``record_match``); ``rebuild`` counts in match order.
* A game of a duplicate event's board counts only once the board is complete: every table
  of the board holds the same cards, and a rating, a streak or a points total that moved
  when one table finished would tell the tables still playing it how it went. When the
  board's last table finishes, the board's games count together, oldest first, in that
  transaction (``storage.events.board_release``); a board never completed (the event
  was cancelled) never counts. ``rebuild`` and the rating history replay the same order
  (``in_count_order``).
* Totals are updated incrementally when recording, and each human's rating after the match
  is stored with the match's number among its season's games of its game (``charts``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Protocol

from bot.services.leagues.scoring import (
    ANY,
    Scoring,
    rating_points,
    tally,
    tally_partners,
    team_results,
)
from bot.services.ratings import Rating
from storage import events as event_repo
from storage import league_totals, records
from storage import leagues as repo
from storage.db import Conn
from storage.league_totals import Counted
from storage.leagues import League
from storage.matches import MatchRecord, PlayedMatch, SeatResult, partnered

log = logging.getLogger(__name__)

DEFAULT_LEAGUE = "Default"


def default_league(conn: Conn, guild_id: int, clock: Callable[[], float]) -> League:
    """The guild's default league, created (at ``clock()``) when it has none yet."""
    found = repo.default_league(conn, guild_id)
    if found is not None:
        return found
    return repo.insert_league(
        conn, guild_id=guild_id, name=DEFAULT_LEAGUE, game=None, scoring="rating",
        count_bots=True, is_default=True, now=clock(),
    )


class MatchFacts(Protocol):
    """What decides whether a match counts: a ``MatchRecord`` being recorded and a
    ``PlayedMatch`` read back from ``matches`` both are."""

    @property
    def game(self) -> str: ...

    @property
    def seats(self) -> tuple[SeatResult, ...]: ...

    @property
    def unrated(self) -> bool: ...


def counts_toward(league: League, match: MatchFacts) -> bool:
    """Whether a match counts toward a league's standings and ratings (see the module
    docstring): the one question recording, ``rebuild`` and ``check`` ask. A match whose
    practice table (``unrated``) counts toward none."""
    seats = match.seats
    users = [s.user_id for s in seats if s.user_id is not None]
    return (
        not match.unrated
        and (league.game is None or league.game == match.game)
        and bool(users)
        and len(set(users)) == len(users)
        and len({s.team for s in seats}) >= 2
        and (league.count_bots or len(users) == len(seats))
    )


def in_count_order(
    matches: Iterable[PlayedMatch], releases: Mapping[int, int | None]
) -> Iterator[tuple[int, PlayedMatch]]:
    """Matches given by id, in the order they counted, each with the match id where it
    took its place: a duplicate board's games (``releases``: their board's last game, or
    None while the board is incomplete) together at their board's last game, a board not
    complete not at all; any other match at its own id."""
    held: dict[int, list[PlayedMatch]] = defaultdict(list)
    for m in matches:
        if m.match_id not in releases:
            yield m.match_id, m
            continue
        last = releases[m.match_id]
        if last is None:
            continue
        held[last].append(m)
        if m.match_id == last:
            yield from ((last, x) for x in held.pop(last))


def record_match(
    conn: Conn, match_id: int, match: MatchRecord, clock: Callable[[], float]
) -> None:
    """Count a just-inserted match in its players' records (``storage.records``) and
    toward its leagues (the guild's default and the table's named league), inside the
    caller's transaction; a game of a duplicate board only once the board is complete,
    then with the board's other games (see the module docstring)."""
    board = (
        event_repo.board_release(conn, match.table_id) if match.table_id is not None
        else None
    )
    if board is not None and not board.complete:
        return
    for earlier in league_totals.uncounted_matches(conn, board.earlier if board else ()):
        _count(conn, earlier.match_id, earlier, clock)
    _count(conn, match_id, match, clock)


def _count(
    conn: Conn, match_id: int, match: MatchRecord | PlayedMatch, clock: Callable[[], float]
) -> None:
    """Count one match in its players' records and toward the leagues it belongs to."""
    results = team_results(match.seats, ANY)
    records.add_match(conn, match_id, match, {t: r.result for t, r in results.items()})
    targets = [default_league(conn, match.guild_id, clock)]
    if match.league_id is not None and match.league_id != targets[0].id:
        named = repo.league_by_id(conn, match.league_id)
        if named is None or named.guild_id != match.guild_id:
            log.warning("match %s names league %s, not one of its guild", match_id,
                        match.league_id)
        else:
            targets.append(named)
    for league in targets:
        if counts_toward(league, match):
            _record_in(conn, league, match_id, match)


def _record_in(
    conn: Conn, league: League, match_id: int, match: MatchRecord | PlayedMatch
) -> None:
    season, game = league.season, match.game
    number = league_totals.next_number(conn, league.id, season, game)
    players = league_totals.load_players(
        conn, league.id, season, game, [s.user_id for s in match.seats if s.user_id is not None]
    )
    stored = league_totals.load_bots(
        conn, league.id, season, game, [s.bot_level for s in match.seats if s.bot_level]
    )
    bots = {k: Rating(mu, sg) for k, (mu, sg) in stored.items()}
    partners = league_totals.load_partners(
        conn, league.id, season, game,
        {s.user_id for s, _ in partnered(match.seats) if s.user_id is not None},
    )
    tally(players, bots, match_id, match.seats, Scoring.parse(league.scoring))
    tally_partners(partners, match_id, match.seats)
    league_totals.save_players(conn, league.id, season, game, players.values())
    league_totals.save_partners(conn, league.id, season, game, partners.values())
    league_totals.save_bots(
        conn, league.id, season, game, {k: (r.mu, r.sigma) for k, r in bots.items()}
    )
    league_totals.add_league_matches(conn, league.id, [Counted(match_id, season, game, number)])
    league_totals.save_ratings(
        conn, league.id, season, game, rating_points(players, match.seats, number)
    )
