"""Event seeds no one can search (both backends).

The attack: an event's deals all derived from one 31-bit seed, so one exported finished
table let anyone search the 2**31 event seeds and know every later round's cards. Now a
new event is dealt from a 128-bit secret through HMAC: the exported game's seed leads
nowhere, and nothing exported holds the secret. An event made before keeps its seed and
old derivation (its deals are pinned here), so it goes on and replays as it did — and
shows the attack that is now closed.
"""

from __future__ import annotations

import hashlib
import hmac

from bot.services import exports
from bot.services.events.seeds import SEED_BITS, EventSeeds, of_event
from bot.services.events.service import EventService
from storage.db import Conn, Database
from tests.events.harness import club_night

ANN, BEN, CY, DEE = 7_000_001, 7_000_002, 7_000_003, 7_000_004
#: What an event made before secrets, with seed 1234, deals: round 1's two tables, and
#: duplicate boards 1 and 2 (computed with the old code; they must never change).
LEGACY_SEED = 1234
LEGACY_TABLES = [1468589361, 554778416]
LEGACY_BOARDS = [1625718246, 157969953]


def search(seen: int, candidates: range) -> list[int]:
    """The attack on the old derivation: every event seed that deals ``seen`` at round
    1, table 1 (the whole search is 2**31 seeds; a slice of it here)."""
    return [c for c in candidates if EventSeeds(None, c).table(1, 1) == seen]


def made_before(conn: Conn, event_id: int) -> None:
    """Turn a new event into one made before secrets: a 31-bit seed and no secret."""
    conn.execute("UPDATE events SET secret = NULL, seed = ? WHERE id = ?",
                 (LEGACY_SEED, event_id))


async def test_an_exported_game_no_longer_leads_to_the_events_other_deals(
    db: Database,
) -> None:
    real_secrets = EventService(db).new_secret  # 128 bits from ``secrets``
    async with club_night(db, real_secrets) as (night, club):
        event = await night.event([ANN, BEN, CY, DEE], format="swiss", rounds=2,
                                  league_id=club.id)
        other = await night.event([ANN, BEN], format="swiss")
        assert event.secret is not None and len(bytes.fromhex(event.secret)) == 16
        assert other.secret != event.secret and event.secret not in repr(event)
        one, two = sorted(await night.open_due(event.id))
        await night.finish(one)
        assert (await night.tables.status(two)).status == "playing"
        (line,) = [x async for x in exports.export_lines(db, league_id=club.id)]
        seen = exports.read_lines([line])[0].seed
        tables = await night.events.tables(event.id)
        assert seen == next(t.seed for t in tables if (t.round, t.table_no) == (1, 1))

        # The seed is the keyed hash of the secret, and nothing else is exported.
        secret = bytes.fromhex(event.secret)
        mac = hmac.new(secret, b"round:1:table:1", hashlib.sha256).digest()
        assert seen == int.from_bytes(mac[:8], "big") >> (64 - SEED_BITS)
        flipped = bytes([secret[0] ^ 1]) + secret[1:]
        assert EventSeeds(flipped.hex()).table(1, 1) != seen
        later = [of_event(event).table(r, t) for r in (1, 2) for t in (1, 2)]
        for hidden in [event.secret, str(int.from_bytes(secret, "big")),
                       *(str(s) for s in later if s != seen)]:
            assert hidden not in line
        # The old attack finds no event seed: the deal is not the old derivation's.
        assert search(seen, range(2**14)) == []


async def test_an_event_made_before_secrets_deals_and_replays_as_it_did(db: Database) -> None:
    async with club_night(db) as (night, club):
        swiss = await night.event([ANN, BEN, CY, DEE], format="swiss", league_id=club.id,
                                  before_start=made_before)
        dup = await night.event([ANN, BEN, CY, DEE], boards=2, before_start=made_before)
        assert swiss.secret is None and dup.secret is None
        assert [t.seed for t in await night.events.tables(swiss.id)] == LEGACY_TABLES
        boards = {t.board: t.seed for t in await night.events.tables(dup.id)}
        assert [boards[1], boards[2]] == LEGACY_BOARDS

        first = min(await night.open_due(swiss.id))
        await night.finish(first)
        (line,) = [x async for x in exports.export_lines(db, league_id=club.id)]
        (game,) = exports.read_lines([line])
        assert exports.replay(game).verified
        # Why new events have secrets: one exported game of an old event gives its seed
        # away, and with it the deals of every table still to be played.
        assert search(game.seed, range(2**12)) == [LEGACY_SEED]
        assert EventSeeds(None, LEGACY_SEED).table(1, 2) == LEGACY_TABLES[1]
