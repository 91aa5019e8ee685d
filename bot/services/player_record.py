"""A player's record per game and per partner, from the matches of one league.

Results follow the league's rule (``bot.services.leagues.team_results``): a win is the
best placement held alone, a draw the best placement shared with another team, anything
else a loss. A partner is another human on the player's team (Back Alley partnerships);
computer partners are not listed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.services.leagues import Scoring, team_results
from storage.leagues import PlayedMatch

_ANY = Scoring("rating")


@dataclass
class Record:
    """Games played, won, drawn and lost under one heading (a game, or a game and partner)."""

    game: str
    partner: str | None = None
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0

    def add(self, result: str) -> None:
        """Count one result: ``W``, ``D`` or ``L``."""
        self.played += 1
        self.won += result == "W"
        self.drawn += result == "D"
        self.lost += result == "L"


def records(
    matches: Iterable[PlayedMatch], user_id: int
) -> tuple[list[Record], list[Record]]:
    """The user's record per game, and per game and human partner (most games first,
    then by name); matches without the user are skipped."""
    games: dict[str, Record] = {}
    partners: dict[tuple[str, int], Record] = {}
    for m in matches:
        mine = next((s for s in m.seats if s.user_id == user_id), None)
        if mine is None:
            continue
        result = team_results(m.seats, _ANY)[mine.team].result
        games.setdefault(m.game, Record(m.game)).add(result)
        for s in m.seats:
            if s.team == mine.team and s.user_id is not None and s.user_id != user_id:
                # the newest match comes first: its name is the partner's latest
                partners.setdefault((m.game, s.user_id), Record(m.game, s.name)).add(result)
    by_count = sorted(games.values(), key=lambda r: (-r.played, r.game))
    by_partner = sorted(partners.values(), key=lambda r: (-r.played, r.game, r.partner or ""))
    return by_count, by_partner
