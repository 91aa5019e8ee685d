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
* ``language`` (``language``, the one function that decides it): the player's own
  choice, else their Discord client's language when Deckhand has it (``locale``: the
  interaction's, or the one last seen, remembered by ``heard``), else the server's
  choice, else English. A value Deckhand no longer has a catalog for is passed over. A
  table's message is in its host's language, or the server's for a table without a host
  (an event's): ``table_language``.
* **Read once per interaction.** ``heard`` reads a player's choices (and the server's, in a
  server) right after their interaction is acknowledged; the value it returns (``Heard``)
  goes down with that interaction, and whatever resolves that player's preferences for
  it (their hand, the hands and pings their move publishes) is given it instead of
  reading them again. It is a value, never a cache: the next interaction reads afresh.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import games
from bot.services.errors import ServiceError
from bot.services.tables.lobby import STAND_IN_LEVEL
from i18n import SOURCE, _, language_name, languages, lazy_gettext, match
from storage import preferences as repo
from storage.db import Conn, Database

CARDS = ("emoji", "text")
DECKS = ("two-colour", "four-colour")
HANDS = ("dm", "channel", "both")
_CHOICES: dict[str, tuple[str, ...]] = {"cards": CARDS, "deck": DECKS, "hand": HANDS}


def language(own: str | None, locale: str | None, server: str | None) -> str:
    """The language a player reads Deckhand in: ``own`` choice, else the Discord client's
    ``locale`` when Deckhand has that language, else the ``server``'s choice, else English."""
    for candidate in (own, match(locale), server):
        if candidate is not None and candidate in languages():
            return candidate
    return SOURCE


class BadPreference(ServiceError):
    """A value that is not one of a preference's choices, or no admin right."""


@dataclass(frozen=True)
class Preferences:
    """One player's resolved choices."""

    cards: str = "emoji"
    deck: str = "two-colour"
    hand: str = "dm"
    #: The language resolved by ``language``.
    language: str = SOURCE

    @property
    def by_dm(self) -> bool:
        """The hand goes by direct message."""
        return self.hand in ("dm", "both")

    @property
    def in_channel(self) -> bool:
        """The hand is kept in a self-updating panel in the channel."""
        return self.hand in ("channel", "both")

    def describe(self) -> str:
        """One line for ``/settings`` (in the language spoken)."""
        where = {
            "dm": _("by direct message"), "channel": _("in the channel"),
            "both": _("by direct message and in the channel"),
        }
        return _("cards **{cards}**, deck **{deck}**, hand **{hand}**, language **{language}**",
                 cards=self.cards, deck=self.deck, hand=where[self.hand],
                 language=language_name(self.language))


DEFAULT = Preferences()

#: A player's stored choices, and a server's, as the repository reads them.
Own = Mapping[str, str | None]
Server = Mapping[str, str | int | None]


@dataclass(frozen=True)
class Heard:
    """A player's stored choices as one interaction read them (``PreferenceService.heard``):
    their own, with the Discord locale that interaction showed, and — when it came from
    a server (``guild_id``) — that server's."""

    user_id: int
    guild_id: int | None
    own: Own = field(default_factory=dict)
    server: Server = field(default_factory=dict)

    @property
    def language(self) -> str:
        """The language to answer the interaction in (``language``)."""
        return _resolve(self.own, self.server).language


@dataclass(frozen=True)
class ServerDefaults:
    """A server's choices: its players' default preferences, whether new tables open in
    threads, and the computer level that stands in for absent players."""

    preferences: Preferences = DEFAULT
    threads: bool = False
    stand_in: str = STAND_IN_LEVEL

    @property
    def language(self) -> str:
        """The server's language (English unless it chose one)."""
        return self.preferences.language

    def describe(self) -> str:
        """One line for ``/settings server:True`` (in the language spoken)."""
        args = {"preferences": self.preferences.describe(), "level": self.stand_in}
        if self.threads:
            return _("{preferences}; new tables open in their own threads; the **{level}**"
                     " computer plays for anyone whose timer runs out or who leaves a game",
                     **args)
        return _("{preferences}; new tables open in the channel; the **{level}** computer"
                 " plays for anyone whose timer runs out or who leaves a game", **args)


def _checked(values: dict[str, str | None]) -> dict[str, str | None]:
    """The given choices, each checked against its allowed values."""
    for name, value in values.items():
        allowed = languages() if name == "language" else _CHOICES[name]
        if value is not None and value not in allowed:
            raise BadPreference(lazy_gettext(
                "`{name}` is one of {allowed}.",
                name=name, allowed=', '.join(allowed),
            ))
    return values


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _resolve(mine: Own, server: Server) -> Preferences:
    picked = {}
    for name in _CHOICES:
        value = mine.get(name) or server.get(name)
        if isinstance(value, str):
            picked[name] = value
    lang = language(mine.get("language"), mine.get("locale"), _text(server.get("language")))
    return Preferences(**picked, language=lang)


class PreferenceService:
    """Reads and records preferences."""

    def __init__(self, db: Database) -> None:
        #: How many choices were recorded in this process: a table message rereads its
        #: language after one (``TableMessages.language``).
        self.changes = 0
        self.db = db

    async def for_players(
        self, guild_id: int, user_ids: Iterable[int], heard: Heard | None = None
    ) -> dict[int, Preferences]:
        """Every given player's resolved preferences in this server, in at most one read
        (the client language last heard stands for each player's Discord language). What
        an interaction ``heard`` is not read again: that player's choices, and the
        server's when it came from this server."""
        ids = list(user_ids)
        own: dict[int, Own] = {}
        if heard is not None and heard.user_id in ids:
            own[heard.user_id] = heard.own
        others = [uid for uid in ids if uid not in own]
        fresh = heard is None or heard.guild_id != guild_id
        server: Server = {} if heard is None else heard.server
        if others or fresh:

            def read(conn: Conn) -> tuple[Server, dict[int, Own]]:
                found: dict[int, Own] = dict(repo.players(conn, others)) if others else {}
                return (repo.guild(conn, guild_id) if fresh else server), found

            server, found = await self.db.read(read)
            own.update(found)
        return {uid: _resolve(own.get(uid, {}), server) for uid in ids}

    async def of(self, guild_id: int, user_id: int, heard: Heard | None = None) -> Preferences:
        """One player's resolved preferences in this server (not read again when ``heard``
        by their interaction)."""
        return (await self.for_players(guild_id, [user_id], heard))[user_id]

    async def heard(self, guild_id: int | None, user_id: int, locale: str | None) -> Heard:
        """A player's choices as their interaction finds them, read once (``guild_id`` None
        in a DM, where no server chose; ``Heard.language`` is the language to answer in).
        The interaction's ``locale`` (their Discord client's language) is remembered for
        what is sent to them outside an interaction, written only when it changed."""

        def read(conn: Conn) -> tuple[Own, Server]:
            server = repo.guild(conn, guild_id) if guild_id is not None else {}
            return repo.players(conn, [user_id]).get(user_id, {}), server

        mine, server = await self.db.read(read)
        if locale and mine.get("locale") != locale:
            await self.db.write(repo.set_locale, user_id, locale)
        own = {**mine, "locale": locale} if locale else mine
        return Heard(user_id, guild_id, own, server)

    async def table_language(self, guild_id: int, host_id: int | None) -> str:
        """The language of a table's message: its host's, or the server's for a table
        without a host (an event's)."""
        if host_id is None:
            return (await self.server(guild_id)).language
        return (await self.of(guild_id, host_id)).language

    async def choose(self, guild_id: int, user_id: int, **values: str | None) -> Preferences:
        """Record a player's choices (those given); their resolved preferences after."""
        given = _checked({k: v for k, v in values.items() if v is not None})
        if given:
            await self.db.write(repo.set_player, user_id, given)
            self.changes += 1
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
            self.changes += 1
        return await self.server(guild_id)
