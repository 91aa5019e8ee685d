"""How players want their cards shown, and each server's defaults (``NULL``: not chosen).

A row holds only choices; resolving them (player, then server, then Deckhand's default)
belongs to ``bot.services.preferences``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from storage.db import Conn

#: The columns a player may choose; a server has these, ``threads`` and ``stand_in``.
PLAYER_FIELDS = ("cards", "deck", "hand", "language")
GUILD_FIELDS = (*PLAYER_FIELDS, "threads", "stand_in")
#: What is read of a player: their choices and the Discord client language last seen.
_PLAYER_READ = (*PLAYER_FIELDS, "locale")


def _upsert(conn: Conn, table: str, key: str, key_value: int, values: Mapping[str, object]) -> None:
    """Set the given columns of one row (made if missing); other columns keep their value."""
    names = list(values)
    columns = ", ".join((key, *names))
    marks = ", ".join("?" for _ in range(len(names) + 1))
    update = ", ".join(f"{n} = excluded.{n}" for n in names)
    conn.execute(
        f"INSERT INTO {table} ({columns}) VALUES ({marks})"
        f" ON CONFLICT ({key}) DO UPDATE SET {update}",
        (key_value, *values.values()),
    )


def set_player(conn: Conn, user_id: int, values: Mapping[str, str | None]) -> None:
    """Record a player's choices (``None`` clears one back to the server's default)."""
    unknown = set(values) - set(PLAYER_FIELDS)
    if unknown or not values:
        raise ValueError(f"not player preferences: {sorted(unknown) or 'none given'}")
    _upsert(conn, "player_preferences", "user_id", user_id, values)


def set_guild(conn: Conn, guild_id: int, values: Mapping[str, str | int | None]) -> None:
    """Record a server's defaults (``None`` clears one back to Deckhand's default)."""
    unknown = set(values) - set(GUILD_FIELDS)
    if unknown or not values:
        raise ValueError(f"not server preferences: {sorted(unknown) or 'none given'}")
    _upsert(conn, "guild_preferences", "guild_id", guild_id, values)


def set_locale(conn: Conn, user_id: int, locale: str) -> None:
    """Record the language of a player's Discord client (as an interaction gives it)."""
    _upsert(conn, "player_preferences", "user_id", user_id, {"locale": locale})


def players(conn: Conn, user_ids: Iterable[int]) -> dict[int, dict[str, str | None]]:
    """The stored choices of these players, and the client language last seen (players
    with neither are left out)."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = conn.all(
        f"SELECT user_id, {', '.join(_PLAYER_READ)} FROM player_preferences"
        f" WHERE user_id IN ({marks})",
        ids,
    )
    return {int(r["user_id"]): {f: r[f] for f in _PLAYER_READ} for r in rows}


def guild(conn: Conn, guild_id: int) -> dict[str, str | int | None]:
    """A server's stored defaults (all ``None`` when it chose none)."""
    r = conn.one(
        f"SELECT {', '.join(GUILD_FIELDS)} FROM guild_preferences WHERE guild_id = ?",
        (guild_id,),
    )
    return {f: (r[f] if r is not None else None) for f in GUILD_FIELDS}
