"""Turn rules, pure: checking a move, the turn timer, what is due next, and the match record.

Decisions:

* A move is checked in this order: the game is running, the user has a seat, the version
  the move was offered at is the current one (so an old offer says "earlier turn", not
  "not your turn"), the seat is to act, then the engine's own check.
* The turn timer runs only while a human is to act: at half time the humans to act are
  reminded once (not when the whole time already ran out); at the deadline the stand-in
  computer level moves for one late human (each late human in turn, one move per lock and
  transaction).
* Computer seats are due as soon as they are to act; the scheduler paces them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.services.errors import IllegalMove, NotPlaying, NotSeated, NotYourTurn, StaleVersion
from bot.services.tables.records import Table, TableStatus
from games.base import IllegalAction, State
from i18n import lazy_gettext
from storage.matches import MatchRecord, SeatResult
from storage.models import Computer, Human, Occupant


class DueKind(enum.Enum):
    """What a table needs done without anyone asking."""

    COMPUTER = "computer"
    REMIND = "remind"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Due:
    """Work due on a table at ``when`` (epoch seconds), valid while it is at ``version``."""

    kind: DueKind
    when: float
    version: int
    seat: int


def check_move(table: Table, user_id: int, expected_version: int | None) -> int:
    """The seat that may make a move now, or the ``ServiceError`` saying why not."""
    if table.status is not TableStatus.PLAYING or table.state is None:
        raise NotPlaying(lazy_gettext("The game has not started yet; the host can start it."))
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated(lazy_gettext("You are not playing at this table."))
    if expected_version is not None and expected_version != table.version:
        raise StaleVersion(lazy_gettext(
            "That move was offered on an earlier turn; the game has moved on."
        ))
    if seat not in table.state.to_act:
        raise NotYourTurn(lazy_gettext("It is not your turn."))
    return seat


def apply_move(table: Table, seat: int, action: str) -> tuple[str, State]:
    """The canonical action (as the engine reads it for this seat: a card may be named by
    its place in the hand, ``play #2``) and the state after it (``IllegalMove`` with the
    engine's reason, and the move as read when it was read)."""
    assert table.state is not None
    try:
        canonical = table.game.read_action(table.state, seat, action)
    except IllegalAction as exc:
        raise IllegalMove(exc.args[0]) from None
    try:
        return canonical, table.game.apply(table.state, seat, canonical)
    except IllegalAction as exc:
        raise IllegalMove(exc.args[0], tried=canonical) from None


def deadline(turn_timer: int, seats: list[Occupant], state: State, now: float) -> float | None:
    """When the turn now starting times out: only while a human is to act."""
    if turn_timer <= 0 or not any(isinstance(seats[s], Human) for s in state.to_act):
        return None
    return now + turn_timer


def late_humans(table: Table) -> list[int]:
    """Human seats to act (those the timer is running for)."""
    if table.state is None:
        return []
    return [s for s in table.state.to_act if isinstance(table.seats[s], Human)]


def next_due(table: Table, now: float) -> Due | None:
    """The next thing the table needs done without anyone asking, if any (a turn whose
    whole time ran out while nobody looked, e.g. across a restart, skips the reminder)."""
    if table.status is not TableStatus.PLAYING or table.state is None:
        return None
    seat = table.computer_to_act()
    if seat is not None:
        return Due(DueKind.COMPUTER, 0.0, table.version, seat)
    late = late_humans(table)
    if table.deadline is None or not late:
        return None
    if table.reminded or now >= table.deadline:
        return Due(DueKind.TIMEOUT, table.deadline, table.version, late[0])
    return Due(DueKind.REMIND, table.deadline - table.turn_timer / 2, table.version, late[0])


def match_record(table: Table, state: State, now: float) -> MatchRecord:
    """The finished game as the matches table keeps it."""
    out = table.game.outcome(state)
    teams = table.game.teams(len(table.seats))
    seats = tuple(
        SeatResult(
            seat=i,
            user_id=o.user_id if isinstance(o, Human) else None,
            bot_level=o.bot if isinstance(o, Computer) else None,
            name=o.name,
            team=teams[i],
            score=out.scores[i],
            rank=out.ranks[i],
            number=o.number if isinstance(o, Computer) else None,
            stands_for=o.stands_for if isinstance(o, Computer) else None,
        )
        for i, o in enumerate(table.seats)
    )
    return MatchRecord(
        table_id=table.id, guild_id=table.guild_id, channel_id=table.channel_id,
        league_id=table.league_id, game=table.game.name, options=dict(table.options),
        seed=table.seed, started_at=table.started_at if table.started_at is not None else now,
        finished_at=now, seats=seats, unrated=table.unrated,
    )
