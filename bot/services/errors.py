"""Typed errors of the services, each with a plain message that can be shown to a player.

Every error is raised before anything changes, so an adapter can answer with
``str(error)`` (ephemerally) and move on. Adapters catch ``ServiceError``; a subclass says
what went wrong for code that wants to react differently.

The message is a ``Message`` (``i18n.lazy_gettext``): a message id and its parameters, so
``str(error)`` says it in the language the adapter speaks when it answers — English
unless it speaks another (``i18n.speaking``).
"""

from __future__ import annotations

from i18n import Message


class ServiceError(Exception):
    """A request that was refused; ``str(error)`` is a polite message naming what to do."""

    def __init__(self, message: str | Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


class NoTable(ServiceError):
    """No open table in the channel (or no table at all)."""


class NoReplay(ServiceError):
    """No finished game by that id to replay here."""


class TableAlreadyOpen(ServiceError):
    """The channel already has an open table."""


class UnknownGameError(ServiceError):
    """No game by that name."""


class BadOptions(ServiceError):
    """Table options the game (or the service) does not accept."""


class AlreadySeated(ServiceError):
    """Joining a table one is already at."""


class TableFull(ServiceError):
    """Every seat is taken."""


class AlreadyStarted(ServiceError):
    """A lobby operation on a table whose game is running."""


class NotPlaying(ServiceError):
    """A game operation on a table that is not playing (still a lobby, or over)."""


class NotSeated(ServiceError):
    """The user has no seat at this table."""


class NotYourTurn(ServiceError):
    """The user's seat is not one of those to act."""


class StaleVersion(ServiceError):
    """The move was made against an earlier version of the table (an old button)."""


class IllegalMove(ServiceError):
    """The engine refused the move; the message is the engine's. ``tried`` is the move as
    the engine read it (a card named by its place in the hand, ``play 2``, is the card
    itself there), when it could read one."""

    def __init__(self, message: str | Message, tried: str | None = None) -> None:
        super().__init__(message)
        self.tried = tried


class NotAllowed(ServiceError):
    """Only the host or an admin may do this."""


class TooFewPlayers(ServiceError):
    """Starting with fewer players than the game needs."""


class UnknownLevel(ServiceError):
    """A computer-player level the game does not have."""


class NoSuchSeat(ServiceError):
    """Kicking or removing someone (or a computer player) who is not at the table."""


class TableQuarantined(ServiceError):
    """The table's saved state could not be read; only aborting it is possible."""


class NothingToRematch(ServiceError):
    """A rematch without a finished table in the channel."""


class TableBusy(ServiceError):
    """The table changed underneath the move (another process); nothing was applied."""


class TooManyLobbies(ServiceError):
    """The user already hosts as many open lobbies in the guild as one may."""
