"""A duplicate board still in play shows nothing through any door (both backends).

The attack: two tables play the same board; table A has finished it, table B is still
playing. Someone who got A's seed, options and moves rebuilds B's hands exactly with
``games.get(g).new(n, seed, options)`` — so every path that shows a finished game, its
seed, moves or score (``/league export`` and ``deckhand export``, ``/league history``,
``/stats``, standings and ratings, ``/game replay``, the web season, player, event and
replay pages) must hide A's game until B has finished the board too, and show it after.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import games
from bot.__main__ import main
from bot.cogs.league import history_text
from bot.services import exports, publication
from bot.services.errors import NoReplay
from bot.services.replays import guild_replay, replay_step
from bot.web import paths
from bot.web.site import Site
from storage.db import Conn, Database
from tests.events.harness import GUILD, club_night

ANN, BEN, CY, DEE = 5_000_001, 5_000_002, 5_000_003, 5_000_004


def _match_of(conn: Conn, table_id: int) -> int:
    row = conn.one("SELECT id FROM matches WHERE table_id = ?", (table_id,))
    assert row is not None
    return int(row["id"])


def listed(door: object) -> list[Any]:
    """What a door shows as a list (of lines, ids or rows)."""
    assert isinstance(door, list), door
    return door


def rebuilds(line: str, hands: list[tuple[str, ...]]) -> bool:
    """Whether an exported game deals exactly ``hands`` (the attack)."""
    g = json.loads(line)
    state = games.get(g["game"]).new(len(g["seats"]), g["seed"], g["options"])
    dealt = [tuple(games.get(g["game"]).view(state, s)["hand"]) for s in range(len(hands))]
    return sorted(dealt) == sorted(hands)


async def cli_export(where: str, out: Path) -> list[str]:
    """``deckhand export`` of the guild (it runs its own event loop: in a thread)."""
    code = await asyncio.to_thread(
        main, ["export", "--db", where, "--guild", str(GUILD), "--out", str(out)]
    )
    assert code == 0
    return out.read_text().splitlines()


async def test_a_board_still_in_play_shows_nothing_anywhere(
    db: Database, where: str, tmp_path: Path
) -> None:
    async with club_night(db) as (night, club):
        await publication.set_published(db, club, True, is_admin=True)
        event = await night.event([ANN, BEN, CY, DEE], league_id=club.id)
        opened = await night.open_due(event.id)
        (a, b) = sorted(opened)
        dealt_b = [tuple(p.view["hand"]) for p in opened[b].private.values()]
        done = await night.finish(a)
        assert done.status == "finished"
        a_match = await db.read(_match_of, done.table_id)
        still = await night.tables.status(b)
        assert still.status == "playing"
        slugs = await publication.slugs(db)
        assert slugs is not None
        site = Site(db)
        league_slug = slugs.encode("league", 0, club.id)
        match_slug = slugs.encode("match", club.id, a_match)
        a_players = [s.user_id for s in done.seats if s.user_id is not None]

        async def doors() -> dict[str, object]:
            """What each door shows now."""
            lines = [x async for x in exports.export_lines(db, league_id=club.id)]
            guild_lines = [x async for x in exports.export_lines(db, guild_id=GUILD)]
            default_history = await night.leagues.league_history(GUILD)
            st = await night.leagues.standings(GUILD, "Club")
            event_page = await site.event(league_slug, slugs.encode("event", club.id, event.id))
            assert event_page is not None
            return {
                "export": lines, "guild export": guild_lines,
                "cli export": await cli_export(where, tmp_path / "all.jsonl"),
                "history": [m.match_id for m in await night.leagues.league_history(GUILD, "Club")],
                "default history": [m.match_id for m in default_history],
                "history text": history_text(default_history),
                "player history": [
                    m.match_id for u in a_players
                    for m in await night.leagues.player_history(GUILD, u)
                ],
                "stats": [(await night.leagues.player_stats(GUILD, u)).played for u in a_players],
                "rating lines": [
                    line for u in a_players for line in await night.leagues.rating_lines(GUILD, u)
                ],
                "head to head": (await night.leagues.head_to_head(GUILD, *a_players)).games,
                "standings": [(r.name, r.games) for r in st.rows],
                "event standings": [
                    (r.points, r.played)
                    for r in (await night.events.standings(GUILD, event.id)).rows
                ],
                "season page": str(await site.season(league_slug, 1)),
                "player page": await site.player(
                    league_slug, slugs.encode("player", club.id, a_players[0])
                ),
                "event page": str(event_page),
                "replay page": await site.match(league_slug, match_slug, 0, True),
                "league replay": await replay_step(
                    db, a_match, 0, hands=True, league_id=club.id
                ),
            }

        hidden = await doors()
        for what in ("export", "guild export", "cli export", "history", "default history",
                     "player history", "rating lines", "standings"):
            assert hidden[what] == [], (what, hidden[what])
        assert f"#{a_match}" not in str(hidden["history text"])
        assert hidden["stats"] == [0, 0] and hidden["head to head"] == 0
        assert all(x == (0.0, 0) for x in listed(hidden["event standings"]))
        assert paths.match(slugs, club.id, a_match) not in str(hidden["season page"])
        assert "No games yet." in str(hidden["season page"])
        for what in ("player page", "replay page", "league replay"):
            assert hidden[what] is None, what
        assert "played" in str(hidden["event page"]) and " – " not in str(hidden["event page"])
        with pytest.raises(NoReplay):  # /game replay
            await guild_replay(db, GUILD, a_match, 0, hands=True)

        done_b = await night.finish(b)
        assert done_b.status == "finished"
        shown = await doors()
        assert len(listed(shown["export"])) == len(listed(shown["guild export"])) == 2
        assert shown["export"] == shown["cli export"]
        # Now the board is over, its export deals exactly what B held (the attack works on
        # the finished board only).
        assert any(rebuilds(x, dealt_b) for x in listed(shown["export"]))
        assert a_match in listed(shown["history"])
        assert a_match in listed(shown["player history"])
        assert shown["stats"] == [1, 1] and shown["head to head"] == 1
        assert sorted(g for _, g in listed(shown["standings"])) == [1, 1, 1, 1]
        assert shown["player page"] is not None and shown["replay page"] is not None
        assert paths.match(slugs, club.id, a_match) in str(shown["season page"])
        assert (await guild_replay(db, GUILD, a_match, 0, hands=True)).hands
        assert sum(p for p, _ in listed(shown["event standings"])) == 4
