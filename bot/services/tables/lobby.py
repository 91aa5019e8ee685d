"""Lobby rules, pure: who may sit, leave, add or remove computer players, kick and start.

Each function checks a request against a ``Table`` and returns the new seating (or raises
a ``ServiceError`` saying why not); nothing here touches the database or the table itself.
Decisions:

* The host is the first seat's human; when the host leaves a lobby the next human becomes
  host, and the table closes when no human is left.
* Anyone seated (or an admin) may add computer players; only the host or an admin may
  remove them, kick someone, or start.
* One user hosts at most ``MAX_LOBBIES_PER_HOST`` open lobbies per guild (a flood of
  lobbies is refused, not stored), lobbies still being written included: the cap holds
  across channels, whose locks are separate (``TableStore.insert_lobby``).
* At the start the seats are shuffled with the table's seed (standing in for cutting for
  deal) and the computer players are numbered 1, 2, … in seat order; a player who leaves a
  running game is replaced by a computer player named for them.
* An event's table (``MANAGED``) has no host: only an admin may abort it, and it plays on
  with computers when every human left (the event needs its result).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.errors import (
    AlreadySeated,
    AlreadyStarted,
    NoSuchSeat,
    NotAllowed,
    NotSeated,
    TableFull,
    TooFewPlayers,
    TooManyLobbies,
    UnknownLevel,
)
from bot.services.tables.records import Table, TableStatus
from games.rng import rng_for
from i18n import Message, lazy_gettext
from storage.models import Computer, Human, Occupant

#: The level that plays for a player whose time ran out or who left a running game,
#: unless the server chose another (``/settings server:True stand_in:``).
STAND_IN_LEVEL = "normal"
NAME_LENGTH = 100
MAX_LOBBIES_PER_HOST = 3
#: The host id of a table nobody hosts: an event's table (``TableService.open_seated``).
MANAGED = 0


@dataclass(frozen=True)
class Seating:
    """A lobby's new seats and host; ``closed`` when the last human left."""

    seats: list[Occupant]
    host_id: int
    closed: bool = False


def human(user_id: int, name: str) -> Human:
    """A seat for a user, with a usable display name."""
    return Human(user_id=user_id, name=(name.strip() or f"Player {user_id}")[:NAME_LENGTH])


def stand_in_level(table: Table) -> str:
    """Deckhand's default computer level for absent players at this table (``normal``:
    quick enough to play on the event loop)."""
    levels = table.game.levels
    return STAND_IN_LEVEL if STAND_IN_LEVEL in levels else levels[-1]


def require_room_for_a_lobby(
    open_tables: list[Table], guild_id: int, host_id: int, opening: int = 0
) -> None:
    """Refuse a new lobby from a user who already hosts ``MAX_LOBBIES_PER_HOST`` in the
    guild, counting the ``opening`` ones being written now."""
    hosted = opening + sum(
        1 for t in open_tables
        if t.status is TableStatus.LOBBY and t.guild_id == guild_id and t.host_id == host_id
    )
    if hosted >= MAX_LOBBIES_PER_HOST:
        raise TooManyLobbies(
            lazy_gettext(
                "You already host {hosted} open tables here; start or close one first.",
                hosted=hosted,
            )
        )


def require_lobby(table: Table) -> None:
    """Lobby changes need a lobby."""
    if table.status is not TableStatus.LOBBY:
        raise AlreadyStarted(lazy_gettext(
            "The game here has already started; wait for the next one."
        ))


def require_host(table: Table, user_id: int, is_admin: bool, what: Message) -> None:
    """Only the host or an admin may ``what`` (a ``lazy_gettext`` verb phrase)."""
    if user_id != table.host_id and not is_admin:
        raise NotAllowed(lazy_gettext("Only the table's host or an admin can {what}.", what=what))


def _check_room(table: Table) -> None:
    if len(table.seats) >= table.game.max_players:
        raise TableFull(lazy_gettext(
            "This {game} table is full ({max_players} seats).",
            game=Message(table.game.title), max_players=table.game.max_players,
        ))


def join(table: Table, user_id: int, name: str) -> Seating:
    """Take the next free seat."""
    require_lobby(table)
    if table.seat_of(user_id) is not None:
        raise AlreadySeated(lazy_gettext("You are already at this table."))
    _check_room(table)
    return Seating([*table.seats, human(user_id, name)], table.host_id)


def leave(table: Table, user_id: int) -> Seating:
    """Leave the lobby; the host passes to the next human, or the table closes."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated(lazy_gettext("You are not at this table."))
    rest = [h for h in table.humans() if h.user_id != user_id]
    if not rest:
        return Seating(table.seats, table.host_id, closed=True)
    host = table.host_id if table.host_id != user_id else rest[0].user_id
    return Seating([o for i, o in enumerate(table.seats) if i != seat], host)


def _free_number(seats: list[Occupant]) -> int:
    """The lowest number no computer at the table has."""
    used = {o.number for o in seats if isinstance(o, Computer)}
    return next(i for i in range(1, len(seats) + 2) if i not in used)


def add_computer(table: Table, user_id: int, level: str, is_admin: bool) -> Seating:
    """Seat a computer player of ``level``."""
    require_lobby(table)
    if table.seat_of(user_id) is None and not is_admin:
        raise NotSeated(lazy_gettext("Join the table first, then add computer players."))
    level = level.strip().lower()
    if level not in table.game.levels:
        shown = level[:20]
        raise UnknownLevel(
            lazy_gettext(
                "There is no {shown!r} computer player; levels: {levels}.",
                shown=shown, levels=', '.join(table.game.levels),
            )
        )
    _check_room(table)
    bot = Computer(bot=level, number=_free_number(table.seats))
    return Seating([*table.seats, bot], table.host_id)


def remove_computer(
    table: Table, user_id: int, name: str | None, is_admin: bool
) -> tuple[Seating, Occupant]:
    """Remove the computer player called ``name`` (default: the last one seated)."""
    require_lobby(table)
    require_host(table, user_id, is_admin, lazy_gettext("remove computer players"))
    bots = [i for i, o in enumerate(table.seats) if isinstance(o, Computer)]
    if name is not None:
        bots = [i for i in bots if str(table.seats[i].name).lower() == name.strip().lower()]
    if not bots:
        raise NoSuchSeat(
            lazy_gettext("There is no computer player called {name!r} at this table.",
                         name=name[:40]) if name
            else lazy_gettext("There is no computer player at this table.")
        )
    gone = table.seats[bots[-1]]
    return Seating([o for o in table.seats if o is not gone], table.host_id), gone


def kick(table: Table, user_id: int, target_id: int, is_admin: bool) -> tuple[Seating, Occupant]:
    """Remove another player from the lobby."""
    require_lobby(table)
    require_host(table, user_id, is_admin, lazy_gettext("remove players"))
    seat = table.seat_of(target_id)
    if seat is None:
        raise NoSuchSeat(lazy_gettext("That player is not at this table."))
    if target_id == table.host_id:
        raise NotAllowed(lazy_gettext("The host cannot be removed; the host can leave instead."))
    gone = table.seats[seat]
    return Seating([o for o in table.seats if o is not gone], table.host_id), gone


def seating_for_start(table: Table, user_id: int, is_admin: bool) -> list[Occupant]:
    """The seats of the game about to start: shuffled with the table's seed, computer
    players numbered in seat order."""
    require_lobby(table)
    require_host(table, user_id, is_admin, lazy_gettext("start the game"))
    g = table.game
    if len(table.seats) < g.min_players:
        raise TooFewPlayers(
            lazy_gettext(
                "{game} needs at least {min_players} players; {seats} seated. Invite someone or "
                "add a computer player.",
                game=Message(g.title), min_players=g.min_players, seats=len(table.seats),
            )
        )
    seats = list(table.seats)
    rng_for(table.seed, "seating").shuffle(seats)
    numbered: list[Occupant] = []
    for o in seats:
        if isinstance(o, Computer):
            count = sum(isinstance(x, Computer) for x in numbered) + 1
            numbered.append(Computer(bot=o.bot, number=count))
        else:
            numbered.append(o)
    return numbered


def take_over(table: Table, user_id: int, level: str) -> tuple[int, Seating]:
    """A player leaves a running game: a computer player of ``level`` named for them takes
    the seat."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated(lazy_gettext("You are not at this table."))
    gone = table.seats[seat]
    rest = [h for h in table.humans() if h.user_id != user_id]
    if not rest and table.host_id != MANAGED:
        return seat, Seating(table.seats, table.host_id, closed=True)
    seats = list(table.seats)
    seats[seat] = Computer(bot=level, stands_for=str(gone.name))
    host = table.host_id if table.host_id != user_id or not rest else rest[0].user_id
    return seat, Seating(seats, host)
