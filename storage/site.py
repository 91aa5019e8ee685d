"""What the standings web page (``deckhand web``) needs beyond leagues: the key of its
opaque links (a replay's source is ``storage.matches.match_source``).

Plain functions of a ``Conn`` (see ``storage.db``). Readers take a league id and answer
only about that league, so the site cannot reach a match an unpublished league holds; the
publication check itself lives in ``bot.services.publication``. Which leagues are
published is a flag of ``leagues`` (``storage.leagues.set_published``).
"""

from __future__ import annotations

from storage.db import Conn

SLUG_KEY = "slugs"


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
