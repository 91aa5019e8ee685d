"""A player's record per game and per partner, from the matches of one league.

Results follow the league's rule (``bot.services.leagues.team_results``): a win is the
best placement held alone, a draw the best placement shared with another team, anything
else a loss. A partner is another human on the player's team (Back Alley partnerships);
computer partners are not listed. The counting is one aggregate query
(``storage.league_reports.league_records``): its cost does not grow with the Python work of
reading every match back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.league_reports import RecordRow


@dataclass(frozen=True)
class Record:
    """Games played, won, drawn and lost under one heading (a game, or a game and partner)."""

    game: str
    partner: str | None = None
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0


def records(rows: Sequence[RecordRow]) -> tuple[list[Record], list[Record]]:
    """The user's record per game, and per game and human partner (most games first,
    then by name)."""

    def record(r: RecordRow) -> Record:
        return Record(r.game, r.partner_name, r.played, r.won, r.drawn,
                      r.played - r.won - r.drawn)

    by_count = sorted(
        (record(r) for r in rows if r.partner_id is None), key=lambda r: (-r.played, r.game)
    )
    by_partner = sorted(
        (record(r) for r in rows if r.partner_id is not None),
        key=lambda r: (-r.played, r.game, r.partner or ""),
    )
    return by_count, by_partner
