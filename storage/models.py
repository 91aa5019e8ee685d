"""pydantic models for what the tables repository writes and reads back — this boundary only.

Everything that crosses into SQLite as JSON is validated on the way in and on the way out:
seat occupants, game options (the shape only; the engine checks their meaning) and the
snapshot envelope ``{"schema": 1, "game": …, "version": …, "state": <engine JSON>}``.
The envelope is built by string concatenation around ``game.dumps(state)`` so a move never
encodes the engine state twice; reading it back goes through pydantic's JSON parser, and
anything unreadable raises ``SnapshotError`` (the service then quarantines that table).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

from i18n import Message, lazy_gettext

SNAPSHOT_SCHEMA = 1
MAX_TURN_TIMER = 7 * 24 * 3600

Name = Annotated[str, Field(min_length=1, max_length=100)]


class Human(BaseModel):
    """A seat taken by a Discord user (or the terminal player)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user_id: StrictInt
    name: Name


def computer_name(
    level: str, number: int | None = None, stands_for: str | None = None
) -> Message:
    """A computer player's name, put into words in the language spoken when it is shown:
    ``Computer (normal) 2``, ``Computer (expert) for Ann`` (a stand-in for a player who left
    or ran out of time), ``Computer (normal)`` (an event's one computer). The level stays as
    it is typed; a person's name is never translated. Every surface names computers here."""
    if stands_for is not None:
        return lazy_gettext("Computer ({level}) for {name}", level=level, name=stands_for)
    if number is not None:
        return lazy_gettext("Computer ({level}) {n}", level=level, n=number)
    return lazy_gettext("Computer ({level})", level=level)


class Computer(BaseModel):
    """A seat taken by a computer player of ``bot`` level: the ``number``-th computer at its
    table, or the stand-in for the player it ``stands_for``, or (neither) an event's one
    computer. Its ``name`` is ``computer_name``'s; a seat stored with a name that migration
    017 could not turn into these (none had one) keeps it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bot: Annotated[str, Field(min_length=1, max_length=40)]
    number: Annotated[int, Field(ge=1, le=99)] | None = None
    stands_for: Name | None = None
    stored: Name | None = Field(default=None, alias="name")

    @property
    def name(self) -> str | Message:
        """What the seat is called, in the language spoken when it is shown."""
        if self.stored is not None:
            return self.stored
        return computer_name(self.bot, self.number, self.stands_for)


Occupant = Human | Computer
_SEATS: TypeAdapter[list[Occupant]] = TypeAdapter(list[Occupant])
OptionValue = StrictBool | StrictInt | str
_OPTIONS: TypeAdapter[dict[str, OptionValue]] = TypeAdapter(dict[str, OptionValue])


class TableSettings(BaseModel):
    """What a table is created with: engine options (shape only) and the turn timer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    options: dict[str, OptionValue] = Field(default_factory=dict)
    turn_timer: Annotated[StrictInt, Field(ge=0, le=MAX_TURN_TIMER)] = 300


class SnapshotError(ValueError):
    """A snapshot that cannot be read: corrupt JSON, wrong shape or an unknown schema."""


class Snapshot(BaseModel):
    """The envelope around an engine state as stored in ``tables.snapshot``."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_version: Literal[1] = Field(alias="schema")
    game: str
    version: Annotated[int, Field(ge=0)]
    state: dict[str, Any]

    @staticmethod
    def dump(game: str, version: int, state_json: str) -> str:
        """The envelope text around ``state_json`` (the output of ``game.dumps``)."""
        head = json.dumps({"schema": SNAPSHOT_SCHEMA, "game": game, "version": version})
        return f'{head[:-1]},"state":{state_json}}}'

    @classmethod
    def parse(cls, text: str | bytes | None) -> Snapshot:
        """The envelope in ``text``; ``SnapshotError`` saying what is wrong otherwise."""
        if text is None:
            raise SnapshotError("the snapshot is missing")
        try:
            return cls.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "snapshot"
            raise SnapshotError(f"{where}: {first['msg']}") from None


def dump_seats(seats: list[Occupant]) -> str:
    """Seat occupants as JSON text (a computer's level and number, no name)."""
    return _SEATS.dump_json(seats, by_alias=True, exclude_none=True).decode()


def load_seats(text: str | bytes) -> list[Occupant]:
    """Seat occupants from JSON text (``ValidationError`` if malformed)."""
    return _SEATS.validate_json(text)


def dump_options(options: dict[str, Any]) -> str:
    """Game options as canonical JSON text (validated shape)."""
    return json.dumps(_OPTIONS.validate_python(options), sort_keys=True)


def load_options(text: str | bytes) -> dict[str, OptionValue]:
    """Game options from JSON text (``ValidationError`` if malformed)."""
    return _OPTIONS.validate_json(text)
