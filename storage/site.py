"""What the standings web page (``deckhand web``) needs beyond leagues: the key of its
opaque links, and where a replay of a league's match comes from.

Plain functions of a ``Conn`` (see ``storage.db``). Readers take a league id and answer
only about that league, so the site cannot reach a match an unpublished league holds; the
publication check itself lives in ``bot.services.publication``. Which leagues are
published is a flag of ``leagues`` (``storage.leagues.set_published``).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Conn

SLUG_KEY = "slugs"


@dataclass(frozen=True)
class MatchSource:
    """What a replay is made from: the match (game, options, seed) and its table's id,
    status and seed (all None when the table row is gone)."""

    match_id: int
    game: str
    options: str
    seed: int
    table_id: int | None
    table_status: str | None
    table_seed: int | None


def slug_key(conn: Conn) -> str | None:
    """The hex key of the site's links, or None before the first publication."""
    row = conn.one("SELECT secret FROM site_keys WHERE name = ?", (SLUG_KEY,))
    return str(row["secret"]) if row else None


def ensure_slug_key(conn: Conn, fresh: str) -> str:
    """The key of the site's links, storing ``fresh`` if there is none yet (in a write)."""
    conn.execute(
        "INSERT INTO site_keys (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        (SLUG_KEY, fresh),
    )
    key = slug_key(conn)
    assert key is not None
    return key


def match_source(conn: Conn, league_id: int, match_id: int) -> MatchSource | None:
    """The match if it counted toward the league (else None), with its table's row."""
    row = conn.one(
        "SELECT m.id, m.game, m.options, m.seed, m.table_id, t.status, t.seed AS table_seed"
        " FROM league_matches lm JOIN matches m ON m.id = lm.match_id"
        " LEFT JOIN tables t ON t.id = m.table_id"
        " WHERE lm.league_id = ? AND lm.match_id = ?",
        (league_id, match_id),
    )
    if row is None:
        return None
    return MatchSource(
        row["id"], row["game"], row["options"], row["seed"], row["table_id"], row["status"],
        row["table_seed"],
    )
