"""The tally: a match's results per team, points, and ratings; shared by recording and by
everything that derives the stored rows again (``upkeep``).

Decisions:
* Results, per team (partners share them): a **win** is the best placement held alone, a
  **draw** is the best placement shared with another team, anything else a **loss**.
* Scoring, chosen at creation: ``rating`` (standings by OpenSkill ordinal) or
  ``points:W/D/L`` (``points`` = ``points:3/1/0``). Points count a game of n teams as the
  n−1 pairwise results against each other team: W per team placed below, D per other
  team placed the same, L per team placed above. With two teams that is exactly W/D/L;
  five players ranked 1–5 under 3/1/0 get 12, 9, 6, 3, 0. Ratings are kept either way.
* Computer seats are rated per level (so beating a weak level again and again is worth
  less) but never ranked or listed in standings.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.services import ratings
from bot.services.leagues.errors import InvalidRequest
from bot.services.ratings import Rating
from i18n import lazy_gettext
from storage.league_totals import PartnerTotals, PlayerTotals, RatingPoint
from storage.matches import SeatResult, partnered

_POINTS = re.compile(r"^points(?::(\d{1,3})/(\d{1,3})/(\d{1,3}))?$")


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
                lazy_gettext(
                    "Unknown scoring {text!r}: use `rating`, `points` or e.g. `points:3/1/0`.",
                    text=text,
                )
            )
        if m.group(1) is None:
            return cls("points")
        w, d, lo = (int(g) for g in m.groups())
        if not w >= d >= lo:
            raise InvalidRequest(lazy_gettext("Points must not increase from win to draw to loss."))
        return cls("points", w, d, lo)

    def __str__(self) -> str:
        return "rating" if self.kind == "rating" else f"points:{self.win}/{self.draw}/{self.loss}"


#: Any scheme, where only the results (not the points) are asked for.
ANY = Scoring("rating")


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


def tally(
    players: dict[int, PlayerTotals], bots: dict[str, Rating], match_id: int,
    seats: Sequence[SeatResult], scoring: Scoring,
) -> None:
    """Apply one match to the totals (players and bots missing from the dicts start fresh)."""
    for s in seats:
        if s.user_id is not None and s.user_id not in players:
            players[s.user_id] = PlayerTotals(
                s.user_id, str(s.name), ratings.DEFAULT.mu, ratings.DEFAULT.sigma
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
            p.name, p.mu, p.sigma = str(s.name), r.mu, r.sigma
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


def tally_partners(
    partners: dict[tuple[int, int], PartnerTotals], match_id: int, seats: Sequence[SeatResult]
) -> None:
    """Apply one match to the players' results with their human partners (missing pairs
    start fresh)."""
    results = team_results(seats, ANY)
    for s, p in partnered(seats):
        assert s.user_id is not None and p.user_id is not None
        t = partners.setdefault((s.user_id, p.user_id), PartnerTotals(s.user_id, p.user_id, ""))
        result = results[s.team].result
        t.name, t.last_match = str(p.name), match_id
        t.games += 1
        t.wins += result == "W"
        t.draws += result == "D"


def rating_points(
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
        tally(self.players, self.bots, match_id, seats, self.scoring)
        tally_partners(self.partners, match_id, seats)
        new = rating_points(self.players, seats, self.counted)
        self.points += new
        return new
