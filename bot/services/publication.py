"""Publishing leagues on the standings web page, and the page's opaque links.

Decisions:
* A league appears on the page only after an admin (Manage Server) published it
  (``/league publish on``); ``off`` takes it off again at once. Nothing else of the guild
  is reachable: pages of players and games exist only inside a published league.
* No Discord id ever appears in a link. Guilds, leagues, players, matches and events are
  named by **slugs**: 16 hex digits from a keyed 64-bit permutation (an 8-round Feistel
  network whose round function is HMAC-SHA256 under the database's own key, tweaked by
  what is named and in which league). A slug is stable (same key, same id, same slug), reveals
  nothing of the id without the key, and turns back into the id without a lookup table;
  a player's slug differs from league to league, so two leagues' pages cannot be joined
  on it. The key is made on the first publication and kept in the database, so the bot
  (which prints links) and the site (which reads them) agree, across restarts and copies.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.services.leagues import NotAdmin
from i18n import lazy_gettext
from storage import leagues as league_repo
from storage import site as site_repo
from storage.db import Conn, Database
from storage.leagues import League

_HALF = 32
_MASK = (1 << _HALF) - 1
_ROUNDS = 8
#: Ids are signed 64-bit integers in both databases (Discord ids included).
_LIMIT = 1 << 63
SLUG_LENGTH = 16


class Slugs:
    """Opaque names of ids (see the module docstring). ``kind`` says what is named
    (``guild``, ``league``, ``player``, ``match``, ``event``) and ``scope`` in which league (0 for
    guilds and leagues), so equal ids of different things get different slugs."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _round(self, tweak: bytes, n: int, half: int) -> int:
        mac = hmac.new(self._key, tweak + bytes([n]) + half.to_bytes(4, "big"), hashlib.sha256)
        return int.from_bytes(mac.digest()[:4], "big")

    def encode(self, kind: str, scope: int, value: int) -> str:
        """The slug of ``value`` (0 ≤ value < 2**63, what the database stores)."""
        if not 0 <= value < _LIMIT:
            raise ValueError("only ids from 0 to 2**63 - 1 have slugs")
        tweak = f"{kind}:{scope}:".encode()
        left, right = value >> _HALF, value & _MASK
        for n in range(_ROUNDS):
            left, right = right, left ^ self._round(tweak, n, right)
        return f"{(left << _HALF) | right:016x}"

    def decode(self, kind: str, scope: int, slug: str) -> int | None:
        """The id a slug names, or None if ``slug`` names no id the database could hold."""
        if len(slug) != SLUG_LENGTH or slug.strip("0123456789abcdef"):
            return None
        tweak = f"{kind}:{scope}:".encode()
        value = int(slug, 16)
        left, right = value >> _HALF, value & _MASK
        for n in reversed(range(_ROUNDS)):
            left, right = right ^ self._round(tweak, n, left), left
        value = (left << _HALF) | right
        return value if value < _LIMIT else None


async def slugs(db: Database) -> Slugs | None:
    """The site's slugs, or None while nothing was ever published."""
    key = await db.read(site_repo.slug_key)
    return Slugs(bytes.fromhex(key)) if key else None


async def set_published(db: Database, league: League, published: bool, *, is_admin: bool) -> None:
    """Publish a league on the web page or take it off (admin only)."""
    if not is_admin:
        raise NotAdmin(lazy_gettext("Only a server admin (Manage Server) can publish a league."))
    fresh = secrets.token_hex(32)

    def write(conn: Conn) -> None:
        site_repo.ensure_slug_key(conn, fresh)
        league_repo.set_published(conn, league.id, published)

    await db.write(write)
