"""Step-through replays of finished games: a league's for the standings web page, a
guild's for ``/game replay`` in Discord — one path for both.

Decisions:
* A replay is rebuilt from what the table service stored: the table's seed, options and
  seat count, then its action log applied move by move (``tables.replay.states``). Step 0
  is the deal; step n is the state after the n-th logged move.
* Only a match of the scope is replayed — one that counted toward the league (the web
  page), or one played in the guild (Discord: never another server's) — and only when its
  table row is ``finished``, has the match's seed, game and guild, and its log replays to
  a finished game; anything else has no replay (None, or ``NoReplay`` from
  ``guild_replay``), so a game still running can never be shown; nor has a log that no
  longer replays (logged as a warning; ``deckhand db check`` says more). Nor has a
  game that may not be shown yet (``storage.events.shown``, the one answer every path
  asks): a duplicate event's board while another table of its round still plays it (the
  same cards are in play there).
* Each step shows the spectator view (``game.view(state, None)``), which holds no hidden
  card by the engine contract. The hands of every seat are revealed only on request and
  only because the game is over (checked on the replayed final state, not trusted from
  the row); the stock and other never-seen cards are not shown even then.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import games
from bot.services.errors import NoReplay
from bot.services.tables.records import LOAD_ERRORS, reason
from bot.services.tables.replay import states
from games.base import IllegalAction
from i18n import Message, lazy_gettext
from storage import tables as table_repo
from storage.db import Conn, Database
from storage.matches import match_source
from storage.models import load_seats
from storage.tables import ActionRow, TableRow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the seats' names, the move that led to it (None at the deal),
    the spectator view, each seat's hand when revealed (else None), and the public events
    the move made (at the deal, the deal's)."""

    match_id: int
    game: str
    #: A person's name, or a computer's put into words when shown.
    names: tuple[str | Message, ...]
    step: int
    last: int
    move: ActionRow | None
    public: dict[str, Any]
    hands: tuple[tuple[str, ...], ...] | None
    events: tuple[dict[str, Any], ...]


def _source(
    conn: Conn, match_id: int, league_id: int | None, guild_id: int | None
) -> tuple[TableRow, list[ActionRow]] | None:
    src = match_source(conn, match_id, league_id=league_id, guild_id=guild_id)
    if src is None or src.table_id is None or src.table_status != "finished":
        return None
    row = table_repo.get(conn, src.table_id)
    if row is None or (row.seed, row.game, row.guild_id) != (src.seed, src.game, src.guild_id):
        return None
    return row, table_repo.actions(conn, src.table_id)


async def replay_step(
    db: Database,
    match_id: int,
    step: int,
    *,
    hands: bool,
    league_id: int | None = None,
    guild_id: int | None = None,
) -> ReplayStep | None:
    """The replay of a match of the league or of the guild (give exactly one) at ``step``
    (clamped to the game's steps), or None when it has no replay (see the module
    docstring)."""
    found = await db.read(_source, match_id, league_id, guild_id)
    if found is None:
        return None
    row, moves = found
    return await asyncio.to_thread(_replayed, match_id, row, moves, step, hands)


def _replayed(
    match_id: int, row: TableRow, moves: list[ActionRow], step: int, hands: bool
) -> ReplayStep | None:
    """The replay at ``step`` of a finished table's log (a 1,000-move game takes ~20 ms:
    run in a worker thread, off the event loop)."""
    game = games.get(row.game)
    wanted = max(0, min(step, len(moves)))
    shown = final = None
    try:
        names = tuple(o.name for o in load_seats(row.seats))
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
        match_id, row.game, names, wanted, len(moves), moves[wanted - 1] if wanted else None,
        game.view(shown, None), revealed, tuple(shown.events),
    )


async def guild_replay(
    db: Database, guild_id: int, match_id: int, step: int, *, hands: bool
) -> ReplayStep:
    """A finished game of the guild at ``step``; ``NoReplay`` when there is none to show."""
    rep = await replay_step(db, match_id, step, hands=hands, guild_id=guild_id)
    if rep is None:
        raise NoReplay(lazy_gettext(
            "There is no finished game #{match_id} here.",
            match_id=match_id,
        ))
    return rep
