"""Step-through replays of a league's finished games, for the standings web page.

Decisions:
* A replay is rebuilt from what the table service stored: the table's seed, options and
  seat count, then its action log applied move by move (``tables.replay.states``). Step 0
  is the deal; step n is the state after the n-th logged move.
* Only a match that counted toward the league is replayed, and only when its table row is
  ``finished``, has the match's seed, and its log replays to a finished game; anything
  else has no replay (None), so a game still running can never be shown; nor has a log
  that no longer replays (logged as a warning; ``deckhand db check`` says more).
* Each step shows the spectator view (``game.view(state, None)``), which holds no hidden
  card by the engine contract. The hands of every seat are revealed only on request and
  only because the game is over (checked on the replayed final state, not trusted from
  the row); the stock and other never-seen cards are not shown even then.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import games
from bot.services.tables.records import LOAD_ERRORS, reason
from bot.services.tables.replay import states
from games.base import IllegalAction
from storage import site as site_repo
from storage import tables as table_repo
from storage.db import Conn, Database
from storage.tables import ActionRow, TableRow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the move that led to it (None at the deal), the spectator
    view, and each seat's hand when revealed (else None)."""

    game: str
    step: int
    last: int
    move: ActionRow | None
    public: dict[str, Any]
    hands: tuple[tuple[str, ...], ...] | None


def _source(conn: Conn, league_id: int, match_id: int) -> tuple[TableRow, list[ActionRow]] | None:
    src = site_repo.match_source(conn, league_id, match_id)
    if src is None or src.table_id is None or src.table_status != "finished":
        return None
    row = table_repo.get(conn, src.table_id)
    if row is None or row.seed != src.seed or row.game != src.game:
        return None
    return row, table_repo.actions(conn, src.table_id)


async def replay_step(
    db: Database, league_id: int, match_id: int, step: int, *, hands: bool
) -> ReplayStep | None:
    """The replay of a league's match at ``step`` (clamped to the game's steps), or None
    when the match has no replay (see the module docstring)."""
    found = await db.read(_source, league_id, match_id)
    if found is None:
        return None
    row, moves = found
    game = games.get(row.game)
    wanted = max(0, min(step, len(moves)))
    shown = final = None
    try:
        for n, state in enumerate(states(row, moves)):
            if n == wanted:
                shown = state
            final = state
    except (*LOAD_ERRORS, IllegalAction) as exc:
        log.warning("match %s: its table's log does not replay: %s", match_id, reason(exc))
        return None
    if shown is None or final is None or not final.is_over:
        return None
    revealed = (
        tuple(tuple(game.view(shown, seat).get("hand", ())) for seat in range(shown.players))
        if hands else None
    )
    return ReplayStep(
        row.game, wanted, len(moves), moves[wanted - 1] if wanted else None,
        game.view(shown, None), revealed,
    )
