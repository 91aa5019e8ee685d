"""Players' choices of how their cards are shown, with each server's defaults.

Decisions:

* A choice resolves player → server → Deckhand's default: cards ``emoji``, deck
  ``two-colour``, hand ``dm``. A player's choice follows them to every server; a server's
  default (set with Manage Server) applies to players who chose nothing.
* ``hand``: ``dm`` sends the hand by direct message (and falls back to the channel panel
  when DMs are closed), ``channel`` keeps it only in a private panel in the channel, which
  updates itself while it is open, ``both`` does both.
* ``threads`` (server only): ``/table new`` opens each table in its own thread unless the
  command says otherwise.
* ``stand_in`` (server only): the computer level that plays a turn whose timer ran out and
  takes over the seat of a player who leaves a running game; ``normal`` unless chosen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import games
from bot.services.errors import ServiceError
from bot.services.tables.lobby import STAND_IN_LEVEL
from i18n import lazy_gettext
from storage import preferences as repo
from storage.db import Conn, Database

CARDS = ("emoji", "text")
DECKS = ("two-colour", "four-colour")
HANDS = ("dm", "channel", "both")
_CHOICES = {"cards": CARDS, "deck": DECKS, "hand": HANDS}


class BadPreference(ServiceError):
    """A value that is not one of a preference's choices, or no admin right."""


@dataclass(frozen=True)
class Preferences:
    """One player's resolved choices."""

    cards: str = "emoji"
    deck: str = "two-colour"
    hand: str = "dm"

    @property
    def by_dm(self) -> bool:
        """The hand goes by direct message."""
        return self.hand in ("dm", "both")

    @property
    def in_channel(self) -> bool:
        """The hand is kept in a self-updating panel in the channel."""
        return self.hand in ("channel", "both")

    def describe(self) -> str:
        """One line for ``/settings``."""
        where = {
            "dm": "by direct message", "channel": "in the channel",
            "both": "by direct message and in the channel",
        }
        return f"cards **{self.cards}**, deck **{self.deck}**, hand **{where[self.hand]}**"


DEFAULT = Preferences()


@dataclass(frozen=True)
class ServerDefaults:
    """A server's choices: its players' default preferences, whether new tables open in
    threads, and the computer level that stands in for absent players."""

    preferences: Preferences = DEFAULT
    threads: bool = False
    stand_in: str = STAND_IN_LEVEL

    def describe(self) -> str:
        """One line for ``/settings server:True``."""
        where = "in their own threads" if self.threads else "in the channel"
        return (
            f"{self.preferences.describe()}; new tables open {where}; the **{self.stand_in}**"
            " computer plays for anyone whose timer runs out or who leaves a game"
        )


def _checked(values: dict[str, str | None]) -> dict[str, str | None]:
    """The given choices, each checked against its allowed values."""
    for name, value in values.items():
        allowed = _CHOICES[name]
        if value is not None and value not in allowed:
            raise BadPreference(lazy_gettext(
                "`{name}` is one of {allowed}.",
                name=name, allowed=', '.join(allowed),
            ))
    return values


def _resolve(
    mine: dict[str, str | None], server: dict[str, str | int | None]
) -> Preferences:
    picked = {}
    for name in _CHOICES:
        value = mine.get(name) or server.get(name)
        if isinstance(value, str):
            picked[name] = value
    return Preferences(**picked)


class PreferenceService:
    """Reads and records preferences."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def for_players(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, Preferences]:
        """Every given player's resolved preferences in this server (one read)."""
        ids = list(user_ids)

        def read(conn: Conn) -> dict[int, Preferences]:
            server = repo.guild(conn, guild_id)
            mine = repo.players(conn, ids)
            return {uid: _resolve(mine.get(uid, {}), server) for uid in ids}

        return await self.db.read(read)

    async def of(self, guild_id: int, user_id: int) -> Preferences:
        """One player's resolved preferences in this server."""
        return (await self.for_players(guild_id, [user_id]))[user_id]

    async def choose(self, guild_id: int, user_id: int, **values: str | None) -> Preferences:
        """Record a player's choices (those given); their resolved preferences after."""
        given = _checked({k: v for k, v in values.items() if v is not None})
        if given:
            await self.db.write(repo.set_player, user_id, given)
        return await self.of(guild_id, user_id)

    async def server(self, guild_id: int) -> ServerDefaults:
        """A server's choices, Deckhand's defaults where it made none."""
        stored = await self.db.read(repo.guild, guild_id)
        stand_in = stored["stand_in"]
        return ServerDefaults(
            _resolve({}, stored), bool(stored["threads"]),
            stand_in if isinstance(stand_in, str) else STAND_IN_LEVEL,
        )

    async def stand_in(self, guild_id: int) -> str:
        """The computer level that plays for this server's absent players."""
        return (await self.server(guild_id)).stand_in

    async def choose_for_server(
        self,
        guild_id: int,
        *,
        is_admin: bool,
        threads: bool | None = None,
        stand_in: str | None = None,
        **values: str | None,
    ) -> ServerDefaults:
        """Record a server's defaults (Manage Server only); the defaults after."""
        if not is_admin:
            raise BadPreference(lazy_gettext(
                "Only someone with Manage Server can set the server's defaults."
            ))
        given: dict[str, str | int | None] = dict(
            _checked({k: v for k, v in values.items() if v is not None})
        )
        if threads is not None:
            given["threads"] = int(threads)
        if stand_in is not None:
            if stand_in not in games.levels():
                raise BadPreference(lazy_gettext(
                    "`stand_in` is one of {levels}.",
                    levels=', '.join(games.levels()),
                ))
            given["stand_in"] = stand_in
        if given:
            await self.db.write(repo.set_guild, guild_id, given)
        return await self.server(guild_id)
