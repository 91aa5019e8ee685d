"""Deckhand installed to a user's account, played where its bot is no member: a group DM of
three friends, a DM between two that lasts days (and one whose bot process is killed), a
server that did not add the bot, one that keeps external apps' answers private, a group
DM's league and its keeper, every table command in a DM — and the same player at a server
table and a DM table at once. The bot's own token is never used for such a table (the
fake refuses it there anyway, 403 50001); every message goes through interaction tokens,
within Discord's 5 follow-ups per user-installed interaction; nothing hidden leaks (the
harness's ``LeakCheck`` reads every message, public or private, of every place).

Discord's rules behind each test are cited in docs/user-install.md.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import games
import storage.places
from bot.render.refresh import STOPS_UPDATING
from bot.services.errors import ServiceError
from bot.ui.publish.hands import PANEL_EXPIRED
from bot.ui.publish.tokens import USABLE
from storage.db import StorageUnavailable
from tests.e2e.driver import Person
from tests.e2e.fake_discord import FakeDiscord, NotOffered
from tests.e2e.fake_state import USE_EXTERNAL_APPS, Channel, Message, RequestRecord
from tests.e2e.play import (  # noqa: F401
    WINDOW_SCALE,
    FakeTime,
    Harness,
    LeakCheck,
    PanelSeat,
    ReturningSeat,
    Seat,
    harness_fixture,
    play_out,
)
from tests.e2e.test_games_e2e import GAMES, open_table, standings_rows
from tests.e2e.test_processes_e2e import BotProcess
from tests.waiting import until

#: What the table message of a game in play offers where only tokens reach it.
PLAYING = ("Your hand", "Refresh")
HOUR = 3600.0


async def start_anywhere(harness: Harness, **overrides: Any) -> Any:
    """The bot with its commands synced globally (where user installs find them: a server's
    own commands exist only in that server, application-commands.mdx)."""
    return await harness.start(dev_guild=None, **overrides)


def group_dm(harness: Harness) -> tuple[list[Person], Channel]:
    """Alice (who installed Deckhand), Bob and Carol in a group DM; no bot there."""
    fake = harness.fake
    friends = [fake.user(n) for n in ("alice", "bob", "carol")]
    fake.install(friends[0])
    return friends, fake.private_channel(*friends, name="card night")


def refused(requests: list[RequestRecord]) -> list[str]:
    """The calls Discord refused (a follow-up past the 5 allowed, a token past its 15
    minutes, the bot's token where it is no member…)."""
    return [f"{r.key} {r.status}" for r in requests if r.status >= 400]


#: What a bot calls with its token to start: who it is, its application, its commands.
START_UP = ("/users/@me", "/oauth2/applications/@me", "/applications/", "/gateway")


def bot_calls(requests: list[RequestRecord]) -> list[str]:
    """The calls made with the bot's own token for playing (start-up's aside)."""
    return [
        r.key for r in requests
        if r.counts_toward_global_limit
        and not (r.route == START_UP[0] or r.route.startswith(START_UP[1:]))
    ]


def seating(game: str, people: int) -> tuple[int, int]:
    """How many of ``people`` friends sit, and how many computers fill the table to the
    size the suite plays ``game`` at."""
    size = 2 + GAMES[game][1]
    humans = min(people, size, games.get(game).max_players)
    return humans, size - humans


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_in_a_group_dm_without_the_bot(harness: Harness, game: str) -> None:
    await start_anywhere(harness)
    fake = harness.fake
    friends, gdm = group_dm(harness)
    humans, computers = seating(game, len(friends))
    players = friends[:humans]
    with fake.count() as counter:
        await open_table(
            harness, game, GAMES[game][0], players, computers, gdm, playing=PLAYING
        )
        final = await play_out([PanelSeat(p, harness, gdm) for p in players], gdm)
        await harness.idle()
    assert final.status == "finished"
    for person in players:
        panel = PanelSeat(person, harness, gdm).panel()
        assert panel is not None

        def ended(panel: Message = panel) -> bool:
            return "The game is over" in panel.content

        await until(ended, f"the end in {person.name}'s panel")
    await until(lambda: "Result" in harness.table_message(gdm).text, "the result")
    await harness.idle()
    assert counter.global_limited == 0, counter.by_route  # never the bot's own token
    assert refused(counter.requests) == [], "every call within Discord's rules (40094…)"
    assert all(p.dm_messages() == [] for p in friends), "no DM: hands are private panels"
    # The group keeps its own league: standings and stats of this group DM — asked by
    # Alice; the others, who did not install Deckhand, have no commands here, only buttons.
    standings = await friends[0].slash("league standings", channel=gdm)
    assert set(standings_rows(standings.text)) == {p.name.title() for p in players}
    stats = await friends[0].slash("stats", channel=gdm, user=players[-1])
    assert "1 game" in stats.text, stats.text
    with pytest.raises(NotOffered):
        await friends[1].slash("stats", channel=gdm)


async def whose_turn(harness: Harness, channel: Channel) -> int:
    """The user whose move it is (a human: no computer sits at these tables)."""
    result = await harness.result(channel)
    return next(p.user_id for p in result.private.values() if p.legal)


async def moved_on(harness: Harness, channel: Channel, version: int) -> None:
    """Wait until the table is past ``version`` (a timer ran out on the fake's clock)."""

    async def past() -> bool:
        return (await harness.result(channel)).version > version

    await until(past, f"the table to move on from version {version}")


async def away(harness: Harness, seconds: float) -> None:
    """Let ``seconds`` pass on the fake's clock as they would: first to just before the
    newest tokens run out (their last edits land), then the rest at once."""
    harness.fake.clock.advance(USABLE + 30)
    await harness.idle()
    harness.fake.clock.advance(seconds - USABLE - 30)


async def test_gin_in_a_dm_over_two_days(harness: Harness) -> None:
    """Alice and Bob play Gin Rummy in their DM over two days of the fake's clock with a
    day per turn. Every token runs out between their moves, so each comes back by pressing
    a button (a fresh interaction): **Refresh** shows the table as it is and, when it is
    their turn, says so with their hand; **Your hand** opens their hand. The bot restarts
    in the middle (nothing acknowledged is lost); a turn left for a whole day is played
    by the computer, unseen until someone comes back. The bot's own token is never used."""
    fake = harness.fake
    clock = FakeTime(fake)
    await start_anywhere(harness, clock=clock)
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.install(alice)
    dm = fake.private_channel(alice, bob)
    seats = {p.id: ReturningSeat(p, harness, dm) for p in (alice, bob)}
    people = {p.id: p for p in (alice, bob)}
    began = clock.now()
    with fake.count() as counter:
        await open_table(
            harness, "gin_rummy", "target=10", [alice, bob], 0, dm, playing=PLAYING,
            timer="1d",
        )
        lobby = harness.table_message(dm).all_text()
        assert "1 day per turn" in lobby, lobby
        await play_out(list(seats.values()), dm, limit=3)

        # An hour later every token has run out: nobody can be told anything until they
        # come back. The last edits their tokens allowed said so, and how to come back;
        # whoever is to move presses Refresh on the table message.
        await away(harness, HOUR)
        await until(lambda: STOPS_UPDATING.split("*")[1] in harness.table_message(dm).text,
                    "the table message's last edit")
        for seat in seats.values():
            panel = seat.panel()
            assert panel is not None

            def expired(panel: Message = panel) -> bool:
                return PANEL_EXPIRED.split("*")[1] in panel.content

            await until(expired, f"{seat.person.name}'s panel's last edit")
        mover = people[await whose_turn(harness, dm)]
        now = await harness.result(dm)
        refreshed = await mover.click(harness.table_message(dm), "Refresh")
        # (the table is posted afresh first, then the hand follows)
        await until(lambda: any("It is your turn." in m.text for m in refreshed.followups),
                    "the hand after Refresh")
        turn = [m for m in refreshed.followups if "It is your turn." in m.text]
        assert turn and all(m.ephemeral for m in turn), refreshed.text
        shown = harness.table_message(dm).text
        assert f"move {now.version} ·" in shown, shown
        await seats[mover.id].move()

        # A restart: the table, its reach and its timer come back from the database.
        kept = await harness.result(dm)
        await harness.stop()
        await start_anywhere(harness, clock=clock)
        assert (await harness.result(dm)).version == kept.version

        # A whole day and more without a move: the computer plays for the late player,
        # unseen (no token is left to show it) until someone comes back and refreshes.
        await away(harness, 25 * HOUR)
        await moved_on(harness, dm, kept.version)
        stale = harness.table_message(dm).text
        assert f"move {kept.version} ·" in stale, stale
        back = await people[await whose_turn(harness, dm)].click(
            harness.table_message(dm), "Refresh"
        )
        await until(lambda: "It is your turn." in back.text, "the hand after Refresh")
        shown = harness.table_message(dm).text
        assert f"move {(await harness.result(dm)).version} ·" in shown, shown

        # Then a move every few hours, each player coming back to it, to the end.
        while (result := await harness.result(dm)).status == "playing":
            await away(harness, 3 * HOUR)
            await seats[next(p.user_id for p in result.private.values() if p.legal)].move()
        await until(lambda: "Result" in harness.table_message(dm).text, "the result")
        await harness.idle()

    assert result.status == "finished" and clock.now() - began >= 2 * 86400
    assert bot_calls(counter.requests) == []
    assert refused(counter.requests) == []
    pings = [m.pinged for m in dm.messages() if "Your turn" in m.content]
    assert pings and all(pings), [m.content[:60] for m in dm.messages(include_ephemeral=True)]


async def test_a_table_in_a_server_without_the_bot(harness: Harness) -> None:
    """A server that never added Deckhand: Alice (who installed it) opens a table, Bob
    joins by button; hands are private panels, the bot's token is never used, and the
    server keeps its league as if Deckhand were in it."""
    await start_anywhere(harness)
    fake = harness.fake
    elsewhere = fake.add_guild("no bot", bot=False)
    alice, bob = (fake.member(n, guild=elsewhere) for n in ("alice", "bob"))
    fake.install(alice)
    lobby = elsewhere.channel("lobby")
    with fake.count() as counter:
        await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, lobby,
                         playing=PLAYING)
        final = await play_out([PanelSeat(p, harness, lobby) for p in (alice, bob)], lobby)
        await harness.idle()
    assert final.status == "finished"
    assert counter.global_limited == 0, counter.by_route
    assert refused(counter.requests) == []
    assert alice.dm_messages() == [] and bob.dm_messages() == []
    standings = await alice.slash("league standings", channel=lobby)
    assert set(standings_rows(standings.text)) == {"Alice", "Bob"}, standings.text


async def test_a_server_that_keeps_external_apps_private(harness: Harness) -> None:
    """Where the server keeps Use External Apps from its members, Discord would show the
    table to its host alone: no table opens and the host is told why, privately; once a
    moderator allows the permission, the same command opens a table everyone sees."""
    await start_anywhere(harness)
    fake = harness.fake
    strict = fake.add_guild("strict", bot=False)
    strict.everyone.permissions &= ~USE_EXTERNAL_APPS
    alice, bob = (fake.member(n, guild=strict) for n in ("alice", "bob"))
    fake.install(alice)
    lobby = strict.channel("lobby")
    refused_here = await alice.slash("table new", channel=lobby, game="gin_rummy")
    assert refused_here.ephemeral and "Use External Apps" in refused_here.text, refused_here.text
    assert lobby.messages() == [], "no lobby nobody else could see"
    with pytest.raises(ServiceError):
        await harness.result(lobby)
    assert [m.ephemeral for m in alice.ephemerals(lobby)] == [True]

    strict.everyone.permissions |= USE_EXTERNAL_APPS
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, lobby,
                     playing=PLAYING)
    assert (await harness.result(lobby)).status == "playing"


async def test_the_same_player_at_a_server_table_and_a_dm_table_at_once(
    harness: Harness,
) -> None:
    """Alice plays Gin against Bob in a server that added Deckhand (hands in DMs) and
    against Carol in their DM (hands in panels), a move here and a move there. Neither
    table shows the other's cards (the leak check reads every message), the DM table
    never uses the bot's token, and each place keeps its own league."""
    await start_anywhere(harness)
    fake = harness.fake
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    fake.install(alice)
    server, dm = fake.channel("lobby"), fake.private_channel(alice, carol)
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, server)
    await open_table(harness, "gin_rummy", "target=10", [alice, carol], 0, dm,
                     playing=PLAYING)
    tables: dict[int, dict[int, Seat]] = {
        server.id: {p.id: Seat(p, harness, server) for p in (alice, bob)},
        dm.id: {p.id: PanelSeat(p, harness, dm) for p in (alice, carol)},
    }
    places = [server, dm]
    with fake.count() as counter:
        while places:
            for channel in list(places):
                result = await harness.result(channel)
                if result.status != "playing":
                    places.remove(channel)
                    continue
                mover = next(p.user_id for p in result.private.values() if p.legal)
                await tables[channel.id][mover].move()
        await harness.idle()
    assert [(await harness.result(c)).status for c in (server, dm)] == ["finished"] * 2
    dm_calls = [r for r in counter.requests if f"/channels/{dm.id}" in r.path]
    assert dm_calls == [] and refused(counter.requests) == []
    assert all(f"<#{server.id}>" in m.content for m in alice.dm_messages() if "hand" in m.content)
    here = await alice.slash("league standings", channel=server)
    there = await alice.slash("league standings", channel=dm)
    assert set(standings_rows(here.text)) == {"Alice", "Bob"}, here.text
    assert set(standings_rows(there.text)) == {"Alice", "Carol"}, there.text


async def test_a_group_dm_league_is_kept_by_its_first_host(harness: Harness) -> None:
    """A group DM has no Manage Server: what needs it in a server needs the group's
    keeper, the user who opened its first table there. Before any table nobody keeps
    it; then only that user may, and anyone else is told who does."""
    await start_anywhere(harness)
    friends, gdm = group_dm(harness)
    alice, bob = friends[0], friends[1]
    harness.fake.install(bob)
    early = await bob.slash("league create", channel=gdm, name="Fridays")
    assert early.ephemeral and "whoever opens its first table" in early.text, early.text
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, gdm,
                     playing=PLAYING)
    others = await bob.slash("league create", channel=gdm, name="Fridays")
    assert others.ephemeral and f"Only <@{alice.id}>" in others.text, others.text
    kept = await alice.slash("league create", channel=gdm, name="Fridays")
    assert "League **Fridays** created" in kept.text, kept.text
    season = await bob.slash("league season new", channel=gdm, league="Fridays")
    assert f"Only <@{alice.id}>" in season.text, season.text
    server = await alice.slash("league standings", channel=harness.fake.channel("lobby"),
                               league="Fridays")
    assert "League **Fridays** created" not in server.text and server.ephemeral, server.text


async def test_a_table_opens_with_its_keeper_and_reach_or_not_at_all(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group DM's keeper and the table's reach are written in the transaction that opens
    the table: when the keeper cannot be written, `/table new` says to try again and
    leaves no table behind; the next try opens one with both."""
    await start_anywhere(harness)
    friends, gdm = group_dm(harness)
    alice = friends[0]

    def full(*args: object) -> None:
        raise StorageUnavailable("the disk is full")

    def stored() -> tuple[int, int, int]:
        with sqlite3.connect(f"file:{harness.db_path}?mode=ro", uri=True) as conn:
            return tuple(conn.execute(
                "SELECT (SELECT count(*) FROM tables WHERE channel_id = ?),"
                " (SELECT count(*) FROM discord_keepers WHERE scope_id = ?),"
                " (SELECT count(*) FROM discord_tokens_only)", (gdm.id, gdm.id),
            ).fetchone())

    with monkeypatch.context() as planted:
        planted.setattr(storage.places, "claim_keeper", full)
        failed = await alice.slash("table new", channel=gdm, game="gin_rummy")
    assert "try again" in failed.text, failed.text
    assert stored() == (0, 0, 0)
    opened = await alice.slash("table new", channel=gdm, game="gin_rummy")
    assert not opened.ephemeral, opened.text
    assert stored() == (1, 1, 1)


async def test_every_table_command_works_at_a_dm_table(harness: Harness) -> None:
    """Alice and Bob, both with Deckhand installed, in their DM: `/rules`, `/hand`, `/play`,
    `/hint`, `/table status`, the game to its end, `/game replay` of it, `/stats` and a
    rematch — as at a server table, with the bot's token never used; `/event` alone is
    not offered there."""
    await start_anywhere(harness)
    fake = harness.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.install(alice, bob)
    dm = fake.private_channel(alice, bob)
    with fake.count() as counter:
        await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, dm,
                         playing=PLAYING)
        rules = await bob.slash("rules", channel=dm, game="gin_rummy")
        assert rules.ephemeral and "Gin Rummy" in rules.text, rules.text
        result = await harness.result(dm)
        mover = next(p for p in result.private.values() if p.legal)
        person = alice if mover.user_id == alice.id else bob
        hand = await person.slash("hand", channel=dm)
        assert hand.ephemeral and "your hand" in hand.text, hand.text
        played = await person.slash("play", channel=dm, move=mover.legal[0])
        assert played.ephemeral and "your hand" in played.text, played.text
        result = await harness.result(dm)
        nxt = next(p for p in result.private.values() if p.legal)
        hinted = await (alice if nxt.user_id == alice.id else bob).slash(
            "hint", channel=dm
        )
        assert hinted.ephemeral and "Hints are off at this table" in hinted.text, hinted.text
        status = await alice.slash("table status", channel=dm)
        assert status.response is not None and not status.ephemeral, status.text
        final = await play_out([PanelSeat(p, harness, dm) for p in (alice, bob)], dm)
        assert final.status == "finished"
        said = await until(
            lambda: re.search(r"Replay: `/game replay id:(\d+)`", harness.table_message(dm).text),
            "the replay's id on the table message",
        )
        await harness.idle()
        replay = await bob.slash("game replay", channel=dm, id=int(said[1]))
        assert replay.ephemeral and "Gin Rummy" in replay.text, replay.text
        stats = await bob.slash("stats", channel=dm)
        assert "**Bob**" in stats.text, stats.text
        table = harness.table_message(dm)
        assert [b["label"] for b in table.buttons()] == ["Rematch"]
        again = await bob.click(table, "Rematch")
        assert not again.ephemeral, again.text
        await harness.idle()
        assert (await harness.result(dm)).table_id != final.table_id
    assert bot_calls(counter.requests) == [] and refused(counter.requests) == []
    with pytest.raises(NotOffered):  # its tables play in threads the bot makes
        await alice.slash("event list", channel=dm)


def mover_name(table: Message) -> str:
    """Whose move the table message shows."""
    found = re.search(r"▶ \*\*(\w+)\*\* to move", table.text)
    assert found is not None, table.text
    return found[1].lower()


async def play_first_choice(person: Person, dm: Channel) -> None:
    """``/play`` the first legal move the autocomplete offers ``person``."""
    choices = await person.autocomplete("play", "move", "", channel=dm)
    played = await person.slash("play", channel=dm, move=choices[0]["value"])
    assert played.ephemeral and "your hand" in played.text, played.text


async def test_a_dm_table_survives_kill_9(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A real ``deckhand run`` process plays a DM table; after a move it is killed with
    SIGKILL and started again: the move was kept, the table is still reached only through
    tokens (the bot's token is never tried), and **Refresh** brings the next player back."""
    fake = fake_discord
    fake.settle_time, fake.limits.window_scale = 0.05, WINDOW_SCALE
    db_path = tmp_path / "deckhand.db"
    process = BotProcess(fake, f"sqlite:///{db_path}", "A", tmp_path, sharded=False)
    process.env["DECKHAND_CARD_EMOJIS"] = "off"  # its start-up uploads are not this test's
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.install(alice, bob)
    dm = fake.private_channel(alice, bob)
    people = {"alice": alice, "bob": bob}
    leaks = LeakCheck(fake, db_path)
    await process.start()
    try:
        with fake.count() as counter:
            opened = await alice.slash("table new", channel=dm, game="gin_rummy",
                                       options="target=10")
            lobby = opened.response
            assert lobby is not None and not opened.ephemeral, opened.text
            await bob.click(lobby, "Join")
            await alice.click(lobby, "Start")
            await play_first_choice(people[mover_name(lobby)], dm)
            # The process edits the table message after answering: wait for it.
            await until(lambda: re.search(r"move [1-9]\d* ·", lobby.text) is not None,
                        "the move on the table message")
            kept = re.search(r"move (\d+) ·", lobby.text)
            assert kept is not None, lobby.text
            leaks.mark()

            await process.kill()
            await process.start()
            mover = people[mover_name(lobby)]
            back = await mover.click(lobby, "Refresh")
            await until(lambda: "It is your turn." in back.text, "the hand after Refresh")
            assert f"move {kept[1]} ·" in lobby.text, lobby.text
            await play_first_choice(mover, dm)
            await until(lambda: f"move {int(kept[1]) + 1} ·" in lobby.text,
                        "the next move on the table message")
            await fake.settle()
            leaks.mark()
        assert bot_calls(counter.requests) == [] and refused(counter.requests) == []
        leaks.check()
    finally:
        await process.stop()
