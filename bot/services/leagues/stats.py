"""A player's record across a guild (``/stats``), read from the stored records
(``storage.records``): per game, played, won, drawn, best score and favourite partner.
Which way a score is best is the engine's, per the options a match was played with."""

from __future__ import annotations

import json
from dataclasses import dataclass

import games
from storage import records
from storage.db import Database


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


async def player_stats(db: Database, guild_id: int, user_id: int) -> PlayerStats:
    """Per game: played, won, drawn, best score and favourite partner (the human most
    often on the same team; ties go to the most recent, then the lower id)."""
    per_game = await db.report(records.game_stats, guild_id, user_id)
    partner_rows = await db.report(records.partners, guild_id, user_id)

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


def _by_direction(
    rows: list[records.GameStatsRow],
) -> dict[tuple[str, bool], list[records.GameStatsRow]]:
    """Per-options stats grouped by game and by which way the options rank scores."""
    out: dict[tuple[str, bool], list[records.GameStatsRow]] = {}
    for r in rows:
        higher = games.get(r.game).higher_scores_win(json.loads(r.options))
        out.setdefault((r.game, higher), []).append(r)
    return out
