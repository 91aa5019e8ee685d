"""Replays of a guild's finished games (``/game replay``), on both backends: a game of
this guild steps from the deal to its end with the spectator view, a game of another
guild or an unknown id is refused, and a game still running is never replayed — not even
when a match row points at its table — so none of its cards can be shown this way."""

from __future__ import annotations

import itertools
import random
from collections import deque
from dataclasses import dataclass, replace

import pytest

import games
from bot.services.errors import NoReplay
from bot.services.replays import guild_replay, replay_step
from bot.services.tables import TableService
from bot.services.tables.replay import states
from bot.ui.replays import replay_spec
from storage import tables as table_repo
from storage.db import Conn, Database
from storage.matches import MatchRecord, SeatResult, insert_match
from tests.web.world import play

GUILD, OTHER = 7_100_001, 7_100_002
ANN, BEN = 11, 12
#: A name with markdown and a mention in it.
ANN_NAME = "**Ann** <@398475029384756102>"


@dataclass(frozen=True)
class Played:
    """A finished game (its match, as the finishing move's result says, and its table)
    and a running game's table."""

    match_id: int
    table_id: int
    running_table: int


async def _games(db: Database) -> Played:
    seeds = itertools.count(21)
    service = TableService(db, new_seed=lambda: next(seeds))
    rng = random.Random(5)
    normal = games.get("gin_rummy").bots["normal"]
    try:
        await service.create(100, GUILD, ANN, ANN_NAME, "gin_rummy", {"target": 10},
                             turn_timer=0)
        await service.join(100, BEN, "Ben")
        await service.start(100, ANN)
        last = await service.status(100)
        while last.status == "playing":
            mine = last.private[last.to_act[0]]
            action = normal(mine.view, list(mine.legal), rng)
            last = await service.act(100, mine.user_id, action, last.version)
        recorded = await db.read(_match_of, last.table_id)
        assert last.status == "finished" and last.match_id == recorded
        await service.create(101, GUILD, ANN, "Ann", "gin_rummy", turn_timer=0)
        await service.join(101, BEN, "Ben")
        await service.start(101, ANN)
        await play(service, 101, rng, 4)
        running = await service.status(101)
        assert running.status == "playing"
        return Played(recorded, last.table_id, running.table_id)
    finally:
        await service.close()


def _match_of(conn: Conn, table_id: int) -> int:
    row = conn.one("SELECT id FROM matches WHERE table_id = ?", (table_id,))
    assert row is not None
    return int(row["id"])


async def test_a_finished_game_of_the_guild_steps_from_the_deal_to_the_end(
    db: Database,
) -> None:
    played = await _games(db)
    row = await db.read(table_repo.get, played.table_id)
    moves = await db.read(table_repo.actions, played.table_id)
    assert row is not None and len(moves) > 2
    game = games.get("gin_rummy")
    every = list(states(row, moves))

    deal = await guild_replay(db, GUILD, played.match_id, 0, hands=False)
    assert (deal.step, deal.last, deal.move, deal.hands) == (0, len(moves), None, None)
    assert deal.public == game.view(every[0], None) and "hand" not in deal.public
    assert sorted(str(n) for n in deal.names) == [ANN_NAME, "Ben"]  # (seats are drawn at the start)

    middle = await guild_replay(db, GUILD, played.match_id, 2, hands=True)
    assert middle.move == moves[1] and middle.public == game.view(every[2], None)
    assert middle.hands == tuple(
        tuple(game.view(every[2], seat)["hand"]) for seat in range(2)
    )
    beyond = await guild_replay(db, GUILD, played.match_id, 10**6, hands=False)
    assert beyond.step == len(moves) and beyond.public == game.view(every[-1], None)

    # Both scopes share one path: the same step through the league's door is the same.
    assert await replay_step(db, played.match_id, 2, hands=True, guild_id=GUILD) == middle


async def test_another_guilds_game_and_an_unknown_id_are_refused(db: Database) -> None:
    played = await _games(db)
    for guild, match_id in ((OTHER, played.match_id), (GUILD, played.match_id + 1000)):
        with pytest.raises(NoReplay, match=rf"^There is no finished game #{match_id} here\.$"):
            await guild_replay(db, guild, match_id, 0, hands=True)
    with pytest.raises(NoReplay):
        await replay_spec(db, None, played.match_id, 0, False)  # outside any server
    with pytest.raises(ValueError, match="league or in a guild"):
        await replay_step(db, played.match_id, 0, hands=False)


async def test_a_running_game_is_never_replayed(db: Database) -> None:
    """A match row that points at a running table (a forged or broken record) shows
    nothing: the table is not finished; marked finished, its log does not reach an end."""
    played = await _games(db)
    row = await db.read(table_repo.get, played.running_table)
    assert row is not None and row.status == "playing"
    forged = MatchRecord(
        table_id=row.id, guild_id=GUILD, channel_id=row.channel_id, league_id=None,
        game=row.game, options={}, seed=row.seed, started_at=0.0, finished_at=0.0,
        seats=(SeatResult(0, ANN, None, "Ann", 0, 0, 1), SeatResult(1, BEN, None, "Ben", 1, 0, 2)),
    )
    match_id = await db.write(insert_match, forged)
    for step in (0, 2, 10**6):
        for hands in (True, False):
            with pytest.raises(NoReplay):
                await guild_replay(db, GUILD, match_id, step, hands=hands)

    def mark_finished(conn: Conn) -> None:
        conn.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (row.id,))

    await db.write(mark_finished)
    moves = await db.read(table_repo.actions, row.id)
    assert not deque(states(row, moves), maxlen=1)[0].is_over
    with pytest.raises(NoReplay):
        await guild_replay(db, GUILD, match_id, 0, hands=True)


async def test_a_replay_message_escapes_names_and_shows_hands_only_when_asked(
    db: Database,
) -> None:
    played = await _games(db)
    public = await replay_spec(db, GUILD, played.match_id, 1, False)
    text = public.text()
    assert "\\*\\*Ann\\*\\* \\<@\u200b398475029384756102\\>" in text
    assert "**Ann**" not in text and "<@398475029384756102>" not in text
    assert public.embed is not None and public.embed.fields == ()
    shown = await replay_spec(db, GUILD, played.match_id, 1, True)
    assert shown.embed is not None and [n for n, _ in shown.embed.fields] == ["Hands"]
    rep = await guild_replay(db, GUILD, played.match_id, 1, hands=True)
    assert rep.hands is not None
    assert replace(rep, hands=None).public == rep.public
