"""Leagues: recording finished matches, standings, seasons, history, head-to-head, stats.

Discord-free; the ``/league`` and ``/stats`` cogs and ``deckhand standings`` call this.

Decisions:
* Every guild has a default league called ``Default`` (created on demand, the name is
  reserved) that every finished game of the guild counts toward; a table may also name a
  league (``matches.league_id``), which counts the game when it fits the league's game
  filter. ``LeagueService.record_match`` is the table service's match recorder: it runs
  inside the transaction that inserts the match, so the match and all league updates
  commit together or not at all.
* What counts: at least one human seat, two or more teams, no user in two seats, no hint
  used at the table (``bot.services.tables.hints``: the game is unrated); a league with
  ``count_bots=False`` ignores games with a computer seat. Computer seats are rated per
  level (so beating a weak level again and again is worth less) but never ranked or
  listed in standings.
* A game of a duplicate event's board counts only once the board is complete: every table
  of the board holds the same cards, and a rating, a streak or a points total that moved
  when one table finished would tell the tables still playing it how it went. When the
  board's last table finishes, the board's games count together, oldest first, in that
  transaction (``storage.events.board_release``); a board never completed (the event
  was cancelled) never counts. ``rebuild`` and the rating history replay the same order
  (``in_count_order``).
* Results, per team (partners share them): a **win** is the best placement held alone, a
  **draw** is the best placement shared with another team, anything else a **loss**.
* Scoring, chosen at creation: ``rating`` (standings by OpenSkill ordinal) or
  ``points:W/D/L`` (``points`` = ``points:3/1/0``). Points count a game of n teams as the
  n−1 pairwise results against each other team: W per team placed below, D per other
  team placed the same, L per team placed above. With two teams that is exactly W/D/L;
  five players ranked 1–5 under 3/1/0 get 12, 9, 6, 3, 0. Ratings are kept either way.
* Standings order (deterministic, ranks never shared): ``rating`` — ordinal, wins, fewer
  games, user id; ``points`` — points, ordinal, wins, fewer games, user id. Ratings and
  totals are kept per league, season and game; a league without a game filter needs the
  ``game`` argument once more than one game has been played in the season.
* Provisional players: until a player has played the league's ``provisional_games``
  counted games (default 5, set by an admin; 0 ranks everyone) in the season and game,
  they are *provisional*: unranked (``rank`` None) and listed after every established
  player, among themselves in the same order (a listing numbers every row by
  ``position`` and sets the provisional players apart under a heading). So a newcomer
  with one lucky win never tops the table (the ordinal ``mu − 3σ`` discounts them too,
  but not surely).
* Seasons: ``new_season`` (admin) closes the current season — its totals stay as they are,
  viewable with ``season=`` — and the next season starts everyone afresh. Matches record
  which season they counted toward; a season is the matches after the id recorded at its
  start, so ``rebuild`` (admin) can recompute everything from ``matches``.
* Totals are updated incrementally when recording; ``rebuild`` replays the same tally in
  one write transaction, so it holds the writer lock while it runs (about 45 s for
  100,000 matches, see ``bench/league_bench.py``): an admin action for a quiet moment.
* **Ratings over time are stored, never replayed for a reader.** Recording a match gives
  it the next number among its season's games of its game and stores every human's rating
  after it, so ``/stats``, standings and the web charts read a few indexed rows. A chart
  draws at most ``CHART_POINTS`` of a player's games (spread evenly, first and last
  included). ``matches`` stay the one source: ``rebuild`` derives everything again from
  them, and ``check`` (``deckhand db check``) says where the stored rows differ from a
  replay of the counted matches in their stored order. Seasons counted before ratings
  over time were stored (migration 013) are filled by ``backfill`` in the background, a
  few hundred matches per transaction, resting as long as it worked; until a season's
  game is filled its charts are left out.
* **One question decides what counts**: ``counts_toward(league, match)``, asked by
  recording, ``rebuild`` and ``check`` alike. A match counts in the order it is
  recorded (``record_match``); ``rebuild`` counts in match order.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import math
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Protocol

import games
from bot.services import ratings
from bot.services.errors import ServiceError
from bot.services.ratings import Rating
from bot.text import clip
from games.wording import plural
from storage import events as event_repo
from storage import leagues as repo
from storage import records
from storage.db import Conn, Database
from storage.leagues import (
    Counted,
    HeadToHead,
    League,
    PartnerTotals,
    PlayedMatch,
    PlayerTotals,
    RatingPoint,
    Season,
)
from storage.matches import MatchRecord, SeatResult, partnered

log = logging.getLogger(__name__)

DEFAULT_LEAGUE = "Default"
MAX_NAME = 50
DEFAULT_PROVISIONAL_GAMES = 5
MAX_PROVISIONAL_GAMES = 1000
MAX_ROWS = 100_000
#: The most games of one player a rating chart draws (see ``chart_games``).
CHART_POINTS = 400
_POINTS = re.compile(r"^points(?::(\d{1,3})/(\d{1,3})/(\d{1,3}))?$")


# -- errors -------------------------------------------------------------------------------
class LeagueError(ServiceError):
    """A request the league service refuses; the message can be shown as it is."""


class DuplicateLeague(LeagueError):
    """A league of that name already exists in the guild."""


class UnknownLeague(LeagueError):
    """No league of that name in the guild."""


class UnknownSeason(LeagueError):
    """The league has no such season."""


class NotAdmin(LeagueError):
    """An admin-only action asked for by someone who is not an admin."""


class GameRequired(LeagueError):
    """The league covers several games; the caller must say which one."""


class InvalidRequest(LeagueError):
    """A malformed name, scoring scheme, game, count or pair of players."""


# -- values -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scoring:
    """A scoring scheme: ``rating`` or ``points`` with win/draw/loss points."""

    kind: str
    win: int = 3
    draw: int = 1
    loss: int = 0

    @classmethod
    def parse(cls, text: str) -> Scoring:
        """``rating``, ``points`` or ``points:W/D/L`` (W ≥ D ≥ L ≥ 0)."""
        t = text.strip().lower().replace(" ", "") if isinstance(text, str) else ""
        if t == "rating":
            return cls("rating")
        m = _POINTS.match(t)
        if not m:
            raise InvalidRequest(
                f"Unknown scoring {text!r}: use `rating`, `points` or e.g. `points:3/1/0`."
            )
        if m.group(1) is None:
            return cls("points")
        w, d, lo = (int(g) for g in m.groups())
        if not w >= d >= lo:
            raise InvalidRequest("Points must not increase from win to draw to loss.")
        return cls("points", w, d, lo)

    def __str__(self) -> str:
        return "rating" if self.kind == "rating" else f"points:{self.win}/{self.draw}/{self.loss}"


@dataclass(frozen=True)
class StandingRow:
    """One line of standings. ``position`` is its place in the listing (established players
    first, 1 = top); ``rank`` the same for an established player and None for a
    provisional one (see the module docstring); ``rating`` is the ordinal,
    ``rating_display`` how it is shown (see ``bot.services.ratings``), ``win_rate`` wins /
    games, ``streak`` e.g. ``W3`` (the current run of equal results; ``—`` before any
    game)."""

    rank: int | None
    user_id: int
    name: str
    rating: float
    rating_display: int
    mu: float
    sigma: float
    points: int
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    average_score: float
    streak: str
    position: int

    @property
    def provisional(self) -> bool:
        """The player has not yet played enough games to be ranked."""
        return self.rank is None


@dataclass(frozen=True)
class Standings:
    """A page of standings of one league, season and game (``game`` None: nothing played):
    ``total`` players, of whom ``established`` are ranked (they come first) and the rest
    provisional (fewer than ``provisional_games`` games)."""

    league: League
    season: int
    current: bool
    game: str | None
    scoring: str
    total: int
    rows: tuple[StandingRow, ...]
    established: int = 0
    provisional_games: int = DEFAULT_PROVISIONAL_GAMES

    @property
    def provisional_heading(self) -> str:
        """The line that sets the provisional players apart in a rendered table."""
        return f"Provisional (fewer than {plural(self.provisional_games, 'game')}), not ranked:"


@dataclass(frozen=True)
class Partner:
    """A human who sat on the same team, and how often."""

    user_id: int
    name: str
    games: int


@dataclass(frozen=True)
class GameStats:
    """A user's record in one game across a guild."""

    game: str
    played: int
    won: int
    drawn: int
    best_score: int
    favourite_partner: Partner | None
    #: The game was played with options where the lowest score wins (ONO 99 points): its
    #: best score is its lowest (such games are listed apart from the others).
    lower_wins: bool = False


@dataclass(frozen=True)
class PlayerStats:
    """A user's record across a guild, per game and overall."""

    user_id: int
    played: int
    won: int
    games: tuple[GameStats, ...]
    favourite_partner: Partner | None


# -- the tally (shared by recording and rebuild) ---------------------------------------------
@dataclass(frozen=True)
class TeamResult:
    """A team's result (``W``, ``D`` or ``L``) and points in one match."""

    result: str
    points: int


def team_results(seats: Sequence[SeatResult], scoring: Scoring) -> dict[int, TeamResult]:
    """Result and points of each team (see the module docstring)."""
    rank: dict[int, int] = {}
    for s in seats:
        rank[s.team] = min(s.rank, rank.get(s.team, s.rank))
    best = min(rank.values())
    sharing_best = sum(1 for r in rank.values() if r == best)
    out = {}
    for team, r in rank.items():
        below = sum(1 for o in rank.values() if o > r)
        above = sum(1 for o in rank.values() if o < r)
        level = sum(1 for o in rank.values() if o == r) - 1
        result = "L" if r != best else ("W" if sharing_best == 1 else "D")
        points = scoring.win * below + scoring.draw * level + scoring.loss * above
        out[team] = TeamResult(result, points)
    return out


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
    table used a hint (``unrated``) counts toward none."""
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


def _tally(
    players: dict[int, PlayerTotals], bots: dict[str, Rating], match_id: int,
    seats: Sequence[SeatResult], scoring: Scoring,
) -> None:
    """Apply one match to the totals (players and bots missing from the dicts start fresh)."""
    for s in seats:
        if s.user_id is not None and s.user_id not in players:
            players[s.user_id] = PlayerTotals(
                s.user_id, s.name, ratings.DEFAULT.mu, ratings.DEFAULT.sigma
            )
    teams = sorted({s.team for s in seats})
    members = [[s for s in seats if s.team == t] for t in teams]

    def current(s: SeatResult) -> Rating:
        if s.user_id is not None:
            p = players[s.user_id]
            return Rating(p.mu, p.sigma)
        return bots.get(s.bot_level or "", ratings.DEFAULT)

    new = ratings.rate(
        [[current(s) for s in team] for team in members],
        [min(s.rank for s in team) for team in members],
    )
    bot_updates: dict[str, list[Rating]] = defaultdict(list)
    results = team_results(seats, scoring)
    for team, team_new in zip(members, new, strict=True):
        for s, r in zip(team, team_new, strict=True):
            if s.user_id is None:
                bot_updates[s.bot_level or ""].append(r)
                continue
            p = players[s.user_id]
            res = results[s.team]
            p.name, p.mu, p.sigma = s.name, r.mu, r.sigma
            p.games += 1
            p.wins += res.result == "W"
            p.draws += res.result == "D"
            p.losses += res.result == "L"
            p.points += res.points
            p.score_sum += s.score
            p.streak_len = p.streak_len + 1 if p.streak_kind == res.result else 1
            p.streak_kind = res.result
            p.last_match = match_id
    for level, rs in bot_updates.items():
        bots[level] = Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs))


def _points(
    players: dict[int, PlayerTotals], seats: Sequence[SeatResult], number: int
) -> list[RatingPoint]:
    """The humans' ratings after the match numbered ``number``, just tallied."""
    return [
        RatingPoint(s.user_id, p.games, number, p.mu, p.sigma)
        for s in seats if s.user_id is not None
        for p in (players[s.user_id],)
    ]


@dataclass
class SeasonGame:
    """A league season's game tallied match after match: what recording stored, derived
    again (``rebuild``, ``check``, ``backfill``)."""

    scoring: Scoring
    players: dict[int, PlayerTotals] = field(default_factory=dict)
    bots: dict[str, Rating] = field(default_factory=dict)
    partners: dict[tuple[int, int], PartnerTotals] = field(default_factory=dict)
    points: list[RatingPoint] = field(default_factory=list)
    counted: int = 0

    def add(
        self, match_id: int, seats: Sequence[SeatResult], number: int | None = None
    ) -> list[RatingPoint]:
        """Tally the next match (numbered ``number``, by default the one after the last);
        the ratings it gave."""
        self.counted = self.counted + 1 if number is None else number
        _tally(self.players, self.bots, match_id, seats, self.scoring)
        _tally_partners(self.partners, match_id, seats)
        new = _points(self.players, seats, self.counted)
        self.points += new
        return new


_ANY = Scoring("rating")


def _tally_partners(
    partners: dict[tuple[int, int], PartnerTotals], match_id: int, seats: Sequence[SeatResult]
) -> None:
    """Apply one match to the players' results with their human partners (missing pairs
    start fresh)."""
    results = team_results(seats, _ANY)
    for s, p in partnered(seats):
        assert s.user_id is not None and p.user_id is not None
        t = partners.setdefault((s.user_id, p.user_id), PartnerTotals(s.user_id, p.user_id, ""))
        result = results[s.team].result
        t.name, t.last_match = p.name, match_id
        t.games += 1
        t.wins += result == "W"
        t.draws += result == "D"


def _row(position: int, p: PlayerTotals, *, ranked: bool) -> StandingRow:
    return StandingRow(
        position=position, rank=position if ranked else None, user_id=p.user_id,
        name=p.name, rating=p.ordinal,
        rating_display=ratings.display(p.ordinal), mu=p.mu, sigma=p.sigma, points=p.points,
        games=p.games, wins=p.wins, draws=p.draws, losses=p.losses,
        win_rate=p.wins / p.games if p.games else 0.0,
        average_score=p.score_sum / p.games if p.games else 0.0,
        streak=f"{p.streak_kind}{p.streak_len}" if p.streak_len else "—",
    )


def _game_name(text: str) -> str:
    key = text.strip().lower().replace("-", "_").replace(" ", "_") if isinstance(text, str) else ""
    if key not in games.names():
        raise InvalidRequest(f"Unknown game {text!r}; games: {', '.join(games.names())}.")
    return key


def _limit(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ROWS:
        raise InvalidRequest(f"Ask for between 1 and {MAX_ROWS} rows.")
    return n


def _provisional_games(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_PROVISIONAL_GAMES:
        raise InvalidRequest(
            f"Provisional games must be a whole number from 0 to {MAX_PROVISIONAL_GAMES}."
        )
    return n


def _cell(text: str) -> str:
    """A text cell that spreadsheets will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def _by_direction(
    rows: list[records.GameStatsRow],
) -> dict[tuple[str, bool], list[records.GameStatsRow]]:
    """Per-options stats grouped by game and by which way the options rank scores."""
    out: dict[tuple[str, bool], list[records.GameStatsRow]] = {}
    for r in rows:
        higher = games.get(r.game).higher_scores_win(json.loads(r.options))
        out.setdefault((r.game, higher), []).append(r)
    return out


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
    for at, m in in_count_order(repo.matches_for_league(conn, league), releases):
        if not counts_toward(league, m):
            continue
        season = max(s for after, s in bounds if after < at)
        group = groups.setdefault((season, m.game), SeasonGame(scoring))
        group.add(m.match_id, m.seats)
        counted.append(Counted(m.match_id, season, m.game, group.counted))
    return counted, groups


def _rebuild(conn: Conn, league: League) -> int:
    """Recompute a league's derived rows from ``matches``; how many matches counted."""
    counted, groups = _derive(conn, league)
    repo.clear_league(conn, league.id)
    for (season, game), group in groups.items():
        repo.save_players(conn, league.id, season, game, group.players.values())
        repo.save_bots(
            conn, league.id, season, game,
            {k: (r.mu, r.sigma) for k, r in group.bots.items()},
        )
        repo.save_ratings(conn, league.id, season, game, group.points)
        repo.save_partners(conn, league.id, season, game, group.partners.values())
    repo.add_league_matches(conn, league.id, counted)
    records.recount(conn, league.guild_id)
    return len(counted)


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



def _replayed(conn: Conn, league: League, season: int, game: str) -> SeasonGame:
    """A season's game tallied again from its counted matches, in their stored order."""
    group = SeasonGame(Scoring.parse(league.scoring))
    after = 0
    while chunk := repo.counted_matches(conn, league.id, season, game, after, 2000):
        for number, m in chunk:
            group.add(m.match_id, m.seats, number)
        after = chunk[-1][0]
    return group


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def _check(conn: Conn, league: League) -> list[str]:
    """Where the league's stored rows differ from what its matches give (see the
    module docstring); empty when they agree."""
    where = f"League {league.name!r} (id {league.id})"
    counted, _ = _derive(conn, league)
    stored = repo.all_counted(conn, league.id)
    problems = []
    if {(c.match_id, c.season, c.game) for c in counted} != {
        (c.match_id, c.season, c.game) for c in stored
    }:
        problems.append(f"{where}: the matches it counts are not the ones that count.")
    players, bots = repo.all_players(conn, league.id), repo.all_bots(conn, league.id)
    partners = repo.all_partners(conn, league.id)
    points = repo.all_rating_points(conn, league.id)
    pending = {(p.season, p.game) for p in repo.pending_ratings(conn, league.id)}
    groups = sorted(
        {(c.season, c.game) for c in stored} | set(players) | set(points) | set(partners)
    )
    for season, game in groups:
        group = _replayed(conn, league, season, game)
        here = f"{where}, season {season}, {game}"
        numbers = [c.number for c in stored if (c.season, c.game) == (season, game)]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{here}: its matches are not numbered 1 to {len(numbers)}.")
        mine = players.get((season, game), {})
        if mine.keys() != group.players.keys() or any(
            replace(p, mu=0.0, sigma=0.0) != replace(q, mu=0.0, sigma=0.0)
            or not (_same(p.mu, q.mu) and _same(p.sigma, q.sigma))
            for u, p in mine.items() for q in (group.players[u],)
        ):
            problems.append(f"{here}: the players' totals differ from a recomputation.")
        if partners.get((season, game), {}) != group.partners:
            problems.append(f"{here}: the results with partners differ from a recomputation.")
        theirs = bots.get((season, game), {})
        if theirs.keys() != group.bots.keys() or any(
            not (_same(mu, group.bots[k].mu) and _same(sg, group.bots[k].sigma))
            for k, (mu, sg) in theirs.items()
        ):
            problems.append(f"{here}: the computer levels' ratings differ from a recomputation.")
        if (season, game) in pending:
            continue
        have = sorted(points.get((season, game), []), key=lambda p: (p.user_id, p.games))
        want = sorted(group.points, key=lambda p: (p.user_id, p.games))
        if len(have) != len(want) or any(
            (a.user_id, a.games, a.number) != (b.user_id, b.games, b.number)
            or not (_same(a.mu, b.mu) and _same(a.sigma, b.sigma))
            for a, b in zip(have, want, strict=False)
        ):
            problems.append(f"{here}: the ratings over time differ from a recomputation.")
    return problems


def chart_games(total: int, most: int | None = None) -> list[int]:
    """Which of a player's ``total`` games a chart draws: every one up to ``most``
    (``CHART_POINTS``), else ``most`` spread evenly, the first and the last included."""
    most = CHART_POINTS if most is None else most
    if total <= most:
        return list(range(1, total + 1))
    return sorted({1 + round(i * (total - 1) / (most - 1)) for i in range(most)})


@dataclass(frozen=True)
class RatingLines:
    """Players' ratings over a league season's game as charts draw them: ``played``
    matches in all, and each player's points (``chart_games`` of theirs), by user;
    ``pending`` while they are not computed yet (then no points)."""

    played: int
    lines: dict[int, list[RatingPoint]]
    pending: bool = False


def season_ratings(
    conn: Conn, league_id: int, season: int, game: str, user_ids: Sequence[int]
) -> RatingLines:
    """Those users' ``RatingLines`` in a league season's game (stored rows only)."""
    played = repo.season_game_count(conn, league_id, season, game)
    if repo.is_pending(conn, league_id, season, game):
        return RatingLines(played, {}, pending=True)
    totals = repo.load_players(conn, league_id, season, game, user_ids)
    return RatingLines(played, {
        u: repo.rating_points(conn, league_id, season, game, u, chart_games(p.games))
        for u, p in totals.items()
    })


def _backfill_chunk(
    conn: Conn, group: SeasonGame, pending: repo.Pending, after: int, most: int
) -> tuple[int, list[RatingPoint]]:
    """Tally the next ``most`` matches of a pending season's game into ``group``; the
    last number tallied and the ratings they gave."""
    chunk = repo.counted_matches(
        conn, pending.league_id, pending.season, pending.game, after,
        min(most, pending.through - after),
    )
    points: list[RatingPoint] = []
    for number, m in chunk:
        points += group.add(m.match_id, m.seats, number)
    return (chunk[-1][0] if chunk else pending.through), points


def _save_backfill(
    conn: Conn, pending: repo.Pending, points: list[RatingPoint], finished: bool
) -> bool:
    """Store filled ratings unless the league was rebuilt meanwhile; whether they were."""
    if not repo.is_pending(conn, pending.league_id, pending.season, pending.game):
        return False
    repo.save_ratings(conn, pending.league_id, pending.season, pending.game, points)
    if finished:
        repo.done_pending(conn, pending)
    return True


def _standings_page(
    conn: Conn, league: League, season: int, game: str, order: str, limit: int, offset: int
) -> tuple[list[StandingRow], int, int]:
    """Rows ``offset`` to ``offset + limit`` of the established players followed by the
    provisional ones; and how many players there are of each."""
    least = league.provisional_games
    established, provisional = repo.count_players(conn, league.id, season, game, least)
    ranked = (
        repo.standings(conn, league.id, season, game, order, limit, offset,
                       min_games=least, established=True)
        if offset < established else []
    )
    rows = [_row(offset + i + 1, p, ranked=True) for i, p in enumerate(ranked)]
    if len(rows) < limit:
        rest = repo.standings(conn, league.id, season, game, order, limit - len(rows),
                              max(0, offset - established), min_games=least, established=False)
        rows += [_row(offset + len(rows) + i + 1, p, ranked=False) for i, p in enumerate(rest)]
    return rows, established, provisional


# -- the service ----------------------------------------------------------------------------
class LeagueService:
    """League use cases over a ``Database``; ``clock`` gives the time for new rows. Which
    way a score is best is the engine's, per the options a match was played with."""

    def __init__(
        self, db: Database, *, clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.clock = clock
        self._backfilling: asyncio.Task[None] | None = None

    # -- leagues ------------------------------------------------------------------------
    async def create_league(
        self, guild_id: int, name: str, *, is_admin: bool, game: str | None = None,
        scoring: str = "rating", count_bots: bool = True,
        provisional_games: int = DEFAULT_PROVISIONAL_GAMES,
    ) -> League:
        """Create a named league (admin only); names are unique per guild, any case."""
        if not is_admin:
            raise NotAdmin("Only a server admin (Manage Server) can create leagues.")
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not 1 <= len(clean) <= MAX_NAME:
            raise InvalidRequest(f"A league name needs 1 to {MAX_NAME} characters.")
        if clean.casefold() == DEFAULT_LEAGUE.casefold():
            raise DuplicateLeague(
                f"{DEFAULT_LEAGUE} is the server's own league; pick another name."
            )
        filt = _game_name(game) if game is not None else None
        scheme = str(Scoring.parse(scoring))
        least = _provisional_games(provisional_games)
        now = self.clock()

        def create(conn: Conn) -> League:
            existing = repo.league_by_name(conn, guild_id, clean)
            if existing:
                raise DuplicateLeague(f"There is already a league called {existing.name}.")
            return repo.insert_league(
                conn, guild_id=guild_id, name=clean, game=filt, scoring=scheme,
                count_bots=count_bots, is_default=False, now=now, provisional_games=least,
            )

        return await self.db.write(create)

    async def set_provisional_games(
        self, guild_id: int, name: str | None, games: int, *, is_admin: bool
    ) -> League:
        """Set how many counted games make a player established (admin only; 0 ranks
        everyone). It applies to every season's standings from now on."""
        if not is_admin:
            raise NotAdmin("Only a server admin (Manage Server) can change league settings.")
        least = _provisional_games(games)
        league = await self.league(guild_id, name)
        await self.db.write(repo.set_provisional_games, league.id, least)
        return replace(league, provisional_games=least)

    async def leagues(self, guild_id: int) -> list[League]:
        """The guild's leagues, the default first (created if needed)."""
        await self.league(guild_id)
        return await self.db.read(repo.guild_leagues, guild_id)

    async def league(self, guild_id: int, name: str | None = None) -> League:
        """A league by name (any case); None means the guild's default league."""
        if name is not None and name.strip().casefold() != DEFAULT_LEAGUE.casefold():
            found = await self.db.read(repo.league_by_name, guild_id, " ".join(name.split()))
            if found is None:
                raise UnknownLeague(f"There is no league called {clip(name.strip())!r} here.")
            return found
        found = await self.db.read(repo.default_league, guild_id)
        if found is not None:
            return found
        return await self.db.write(self._default, guild_id)

    async def league_for_table(self, guild_id: int, name: str, game: str) -> League:
        """The named league a new table of ``game`` may be tied to."""
        league = await self.league(guild_id, name)
        if league.game is not None and league.game != _game_name(game):
            raise InvalidRequest(f"{league.name} is a league for {league.game} only.")
        return league

    def _default(self, conn: Conn, guild_id: int) -> League:
        found = repo.default_league(conn, guild_id)
        if found is not None:
            return found
        return repo.insert_league(
            conn, guild_id=guild_id, name=DEFAULT_LEAGUE, game=None, scoring="rating",
            count_bots=True, is_default=True, now=self.clock(),
        )

    # -- seasons ------------------------------------------------------------------------
    async def new_season(self, guild_id: int, name: str | None, *, is_admin: bool) -> Season:
        """Archive the current season and start the next (admin only)."""
        if not is_admin:
            raise NotAdmin("Only a server admin (Manage Server) can start a new season.")
        league = await self.league(guild_id, name)
        now = self.clock()

        def start(conn: Conn) -> Season:
            fresh = repo.league_by_id(conn, league.id)
            assert fresh is not None
            return repo.start_season(conn, fresh, now)

        return await self.db.write(start)

    async def seasons(self, guild_id: int, name: str | None = None) -> list[Season]:
        """A league's seasons, oldest first."""
        league = await self.league(guild_id, name)
        return await self.db.read(repo.seasons, league.id)

    def _season(self, league: League, season: int | None) -> int:
        if season is None:
            return league.season
        valid = isinstance(season, int) and not isinstance(season, bool)
        if not valid or not 1 <= season <= league.season:
            raise UnknownSeason(
                f"{league.name} has seasons 1 to {league.season}; there is no season {season}."
            )
        return season

    # -- recording ----------------------------------------------------------------------
    def record_match(self, conn: Conn, match_id: int, match: MatchRecord) -> None:
        """The match recorder: count a just-inserted match in its players' records
        (``storage.records``) and toward its leagues (the guild's default and the table's
        named league), inside the caller's transaction; a game of a duplicate board only
        once the board is complete, then with the board's other games (see the module
        docstring)."""
        board = (
            event_repo.board_release(conn, match.table_id) if match.table_id is not None
            else None
        )
        if board is not None and not board.complete:
            return
        for earlier in repo.uncounted_matches(conn, board.earlier if board else ()):
            self._count(conn, earlier.match_id, earlier)
        self._count(conn, match_id, match)

    def _count(self, conn: Conn, match_id: int, match: MatchRecord | PlayedMatch) -> None:
        """Count one match in its players' records and toward the leagues it belongs to."""
        results = team_results(match.seats, _ANY)
        records.add_match(conn, match_id, match, {t: r.result for t, r in results.items()})
        targets = [self._default(conn, match.guild_id)]
        if match.league_id is not None and match.league_id != targets[0].id:
            named = repo.league_by_id(conn, match.league_id)
            if named is None or named.guild_id != match.guild_id:
                log.warning("match %s names league %s, not one of its guild", match_id,
                            match.league_id)
            else:
                targets.append(named)
        for league in targets:
            if counts_toward(league, match):
                self._record_in(conn, league, match_id, match)

    def _record_in(
        self, conn: Conn, league: League, match_id: int, match: MatchRecord | PlayedMatch
    ) -> None:
        season, game = league.season, match.game
        number = repo.next_number(conn, league.id, season, game)
        players = repo.load_players(
            conn, league.id, season, game, [s.user_id for s in match.seats if s.user_id is not None]
        )
        stored = repo.load_bots(
            conn, league.id, season, game, [s.bot_level for s in match.seats if s.bot_level]
        )
        bots = {k: Rating(mu, sg) for k, (mu, sg) in stored.items()}
        partners = repo.load_partners(
            conn, league.id, season, game,
            {s.user_id for s, _ in partnered(match.seats) if s.user_id is not None},
        )
        _tally(players, bots, match_id, match.seats, Scoring.parse(league.scoring))
        _tally_partners(partners, match_id, match.seats)
        repo.save_players(conn, league.id, season, game, players.values())
        repo.save_partners(conn, league.id, season, game, partners.values())
        repo.save_bots(conn, league.id, season, game, {k: (r.mu, r.sigma) for k, r in bots.items()})
        repo.add_league_matches(conn, league.id, [Counted(match_id, season, game, number)])
        repo.save_ratings(conn, league.id, season, game, _points(players, match.seats, number))

    async def check(self) -> list[str]:
        """Every league's stored rows against a recomputation from ``matches`` (see the
        module docstring): one line per difference, empty when all agree."""
        problems = []
        for league in await self.db.report(repo.all_leagues):
            problems += await self.db.report(_check, league)
        for guild_id in await self.db.report(records.guilds):
            if await self.db.report(records.stored, guild_id) != await self.db.report(
                records.recounted, guild_id
            ):
                problems.append(
                    f"Guild {guild_id}: the players' records (/stats) differ from a recount."
                )
        return problems

    async def backfill(self, most: int = 200, rest: float = 1.0) -> int:
        """Compute the ratings over time of seasons counted before they were stored,
        ``most`` matches per transaction; how many matches were filled. The tally runs on
        the report reader, and after each chunk the backfill rests ``rest`` times as long
        as the chunk took, so the moves going on meanwhile keep most of the processor
        (and of the interpreter's lock)."""
        filled = 0
        for pending in await self.db.report(repo.pending_ratings):
            league = await self.db.read(repo.league_by_id, pending.league_id)
            assert league is not None  # a pending row goes with its league
            group, after = SeasonGame(Scoring.parse(league.scoring)), 0
            while after < pending.through:
                before, t0 = after, time.perf_counter()
                after, points = await self.db.report(
                    _backfill_chunk, group, pending, after, most
                )
                if not await self.db.write(
                    _save_backfill, pending, points, after >= pending.through
                ):
                    break  # rebuilt meanwhile: stored in full already
                filled += after - before
                await asyncio.sleep(rest * (time.perf_counter() - t0))
        return filled

    def start_backfill(self) -> None:
        """Run ``backfill`` in the background (``close`` stops it), logging what it did."""

        async def run() -> None:
            t0 = time.perf_counter()
            try:
                filled = await self.backfill()
            except Exception:
                log.exception("filling the ratings over time failed (retried at the next start)")
                return
            if filled:
                log.info("ratings over time: filled %d matches in %.1f s", filled,
                         time.perf_counter() - t0)

        self._backfilling = asyncio.create_task(run(), name="deckhand-ratings-backfill")

    async def close(self) -> None:
        """Stop the background backfill, if it runs (it resumes at the next start)."""
        if self._backfilling is not None:
            self._backfilling.cancel()
            await asyncio.gather(self._backfilling, return_exceptions=True)
            self._backfilling = None

    async def counts_later(self, table_id: int) -> bool:
        """Whether the game finished at ``table_id`` waits to count until its duplicate
        board is complete (another table of the board has no result yet)."""
        board = await self.db.read(event_repo.board_release, table_id)
        return board is not None and not board.complete

    async def rebuild(self, guild_id: int, name: str | None = None, *, is_admin: bool) -> int:
        """Recompute a league's totals and ratings from ``matches`` (admin only); returns
        how many matches counted."""
        if not is_admin:
            raise NotAdmin("Only a server admin (Manage Server) can rebuild a league.")
        league = await self.league(guild_id, name)
        return await self.db.write(_rebuild, league)

    # -- standings ----------------------------------------------------------------------
    async def standings(
        self, guild_id: int, name: str | None = None, *, game: str | None = None,
        season: int | None = None, limit: int = 25, offset: int = 0,
    ) -> Standings:
        """A page of standings (rank 1 first). Empty when nothing has been played."""
        league = await self.league(guild_id, name)
        number = self._season(league, season)
        _limit(limit)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidRequest("The offset must be a whole number, 0 or more.")
        chosen = await self._standings_game(league, number, game)
        scoring = Scoring.parse(league.scoring)
        if chosen is None:
            return Standings(
                league, number, number == league.season, None, str(scoring), 0, (), 0,
                league.provisional_games,
            )
        order = repo.ORDER_BY_RATING if scoring.kind == "rating" else repo.ORDER_BY_POINTS
        rows, established, provisional = await self.db.report(
            _standings_page, league, number, chosen, order, limit, offset
        )
        return Standings(
            league, number, number == league.season, chosen, str(scoring),
            established + provisional, tuple(rows), established, league.provisional_games,
        )

    async def _standings_game(self, league: League, season: int, game: str | None) -> str | None:
        if game is not None:
            chosen = _game_name(game)
            if league.game is not None and chosen != league.game:
                raise InvalidRequest(f"{league.name} is a league for {league.game} only.")
            return chosen
        if league.game is not None:
            return league.game
        played = await self.db.report(repo.season_games, league.id, season)
        if len(played) > 1:
            raise GameRequired(
                f"{league.name} has standings for several games; pick one: {', '.join(played)}."
            )
        return played[0] if played else None

    # -- history ------------------------------------------------------------------------
    async def league_history(
        self, guild_id: int, name: str | None = None, *, season: int | None = None,
        limit: int = 10,
    ) -> list[PlayedMatch]:
        """The league's last ``limit`` matches, newest first (all seasons unless one is
        given); an empty list when none."""
        league = await self.league(guild_id, name)
        number = None if season is None else self._season(league, season)
        return await self.db.report(repo.league_history, league.id, number, _limit(limit))

    async def player_history(
        self, guild_id: int, user_id: int, *, league: str | None = None, limit: int = 10
    ) -> list[PlayedMatch]:
        """A user's last ``limit`` matches in the guild (or one league), newest first."""
        league_id = (await self.league(guild_id, league)).id if league is not None else None
        return await self.db.report(
            repo.player_history, guild_id, user_id, league_id, _limit(limit)
        )

    async def head_to_head(
        self, guild_id: int, user_a: int, user_b: int, *, game: str | None = None
    ) -> HeadToHead:
        """How two users fared against each other in the guild (zeros when never)."""
        if user_a == user_b:
            raise InvalidRequest("Pick two different players.")
        g = _game_name(game) if game is not None else None
        return await self.db.report(repo.head_to_head, guild_id, user_a, user_b, g)

    async def rating_lines(
        self, guild_id: int, user_id: int
    ) -> list[tuple[str, list[tuple[int, int]]]]:
        """Per game of the server league's current season that the player played (and
        whose ratings over time are stored): ``(n, displayed rating)`` as a newcomer (n 0)
        and after their n-th counted game (``chart_games`` of them)."""
        league = await self.league(guild_id)
        newcomer = ratings.display(ratings.DEFAULT.ordinal)

        def read(conn: Conn) -> list[tuple[str, list[tuple[int, int]]]]:
            out = []
            for game in repo.season_games(conn, league.id, league.season):
                lines = season_ratings(conn, league.id, league.season, game, [user_id])
                mine = lines.lines.get(user_id)
                if mine:
                    out.append((game, [
                        (0, newcomer), *((p.games, ratings.display(p.ordinal)) for p in mine)
                    ]))
            return out

        return await self.db.report(read)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """Per game: played, won, drawn, best score and favourite partner (the human most
        often on the same team; ties go to the most recent, then the lower id)."""
        per_game = await self.db.report(records.game_stats, guild_id, user_id)
        partner_rows = await self.db.report(records.partners, guild_id, user_id)

        def favourite(rows: list[records.PartnerRow]) -> Partner | None:
            if not rows:
                return None
            best = min(rows, key=lambda r: (-r.games, -r.last_match, r.partner_id))
            return Partner(best.partner_id, best.partner_name, best.games)

        overall: dict[int, records.PartnerRow] = {}
        for r in partner_rows:
            o = overall.get(r.partner_id)
            if o is None:
                overall[r.partner_id] = r
            else:
                newer = r if r.last_match > o.last_match else o
                overall[r.partner_id] = records.PartnerRow(
                    "", r.partner_id, newer.partner_name, o.games + r.games, newer.last_match
                )
        stats = tuple(
            GameStats(
                game, sum(r.played for r in rows), sum(r.won for r in rows),
                sum(r.drawn for r in rows),
                max(r.max_score for r in rows) if higher else min(r.min_score for r in rows),
                favourite([r for r in partner_rows if r.game == game]),
                lower_wins=not higher,
            )
            for (game, higher), rows in _by_direction(per_game).items()
        )
        return PlayerStats(
            user_id, sum(g.played for g in stats), sum(g.won for g in stats), stats,
            favourite(list(overall.values())),
        )

    # -- CSV ----------------------------------------------------------------------------
    async def standings_csv(
        self, guild_id: int, name: str | None = None, *, game: str | None = None,
        season: int | None = None,
    ) -> str:
        """The whole standings as CSV (header row first; a provisional player's rank is
        empty)."""
        st = await self.standings(guild_id, name, game=game, season=season, limit=MAX_ROWS)
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["rank", "user_id", "name", "rating", "ordinal", "mu", "sigma", "points",
                    "games", "wins", "draws", "losses", "win_rate", "average_score", "streak"])
        for r in st.rows:
            w.writerow([r.rank, r.user_id, _cell(r.name), r.rating_display, f"{r.rating:.4f}",
                        f"{r.mu:.4f}", f"{r.sigma:.4f}", r.points, r.games, r.wins, r.draws,
                        r.losses, f"{r.win_rate:.4f}", f"{r.average_score:.2f}", r.streak])
        return out.getvalue()

    async def history_csv(
        self, guild_id: int, name: str | None = None, *, season: int | None = None,
        limit: int = MAX_ROWS,
    ) -> str:
        """A league's matches as CSV, one row per seat, newest match first."""
        matches = await self.league_history(guild_id, name, season=season, limit=limit)
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["match_id", "finished_at", "game", "seat", "user_id", "computer", "name",
                    "team", "score", "rank"])
        for m in matches:
            for s in m.seats:
                w.writerow([m.match_id, _when(m.finished_at), m.game, s.seat,
                            "" if s.user_id is None else s.user_id, s.bot_level or "",
                            _cell(s.name), s.team, s.score, s.rank])
        return out.getvalue()

