"""Deckhand's real bot against the fake Discord: open a table, seat a computer, start,
read the hand DM, move by button, and check the REST budget of a move."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from pydantic import SecretStr

import bot
from bot.settings import Settings
from tests.e2e.conftest import BotRunner
from tests.e2e.driver import Person, percentile
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_state import Message
from tests.e2e.play import READY_WAIT, WINDOW_SCALE, quiet
from tests.waiting import until


def settings_for(fake: FakeDiscord, tmp_path: Path) -> Settings:
    return Settings(
        DISCORD_TOKEN=SecretStr(fake.token),
        DECKHAND_DB=tmp_path / "deckhand.db",
        DECKHAND_DEV_GUILD=fake.guild.id,
        DECKHAND_BOT_MOVE_DELAY=0,
        DECKHAND_TURN_TIMER=0,
        DECKHAND_USER_RATE=1000,
    )


async def start_bot(runner: BotRunner, fake: FakeDiscord, tmp_path: Path) -> discord.Client:
    """A bot on ``tmp_path``'s database whose tables are seeded 1000, 1001, … (repeatable),
    with Discord's rate-limit windows shortened as whole-game tests need."""
    seeds = itertools.count(1000)
    fake.limits.window_scale = WINDOW_SCALE
    return await runner.start(
        lambda: bot.create_bot(
            settings_for(fake, tmp_path), table_seeds=lambda: next(seeds),
            guild_ready_timeout=READY_WAIT,
        )
    )


async def changed(message: Message, before: int) -> None:
    """Wait until ``message`` was edited after it had ``before`` versions (a click is
    answered with a deferral first; the hand is edited once the move is done)."""
    await until(lambda: len(message.history) > before, f"an edit of {message.text[:40]!r}")


def hand_dm(messages: list[Message]) -> Message:
    hands = [m for m in messages if "your hand" in m.content]
    assert hands, [m.content for m in messages]
    return hands[-1]


async def dealt(person: Person) -> Message:
    """``person``'s hand DM once the deal is in it (sent after the Start click's answer)."""
    return await until(
        lambda: next((m for m in reversed(person.dm_messages()) if "Your hand:" in m.content),
                     None),
        f"{person.name}'s hand DM",
    )


async def to_move(*people: Person) -> Person:
    """Which of ``people`` has the moves (their hand DM shows buttons) once it does."""
    return await until(
        lambda: next((p for p in people if any("your hand" in m.content and m.buttons()
                                               for m in p.dm_messages())), None),
        "a hand DM with moves",
    )


async def test_gin_rummy_against_the_computer(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    client: Any = await start_bot(bot_runner, fake_discord, tmp_path)
    # This game runs at Discord's real rate-limit windows (5 edits per 5 s per channel):
    # the bot must answer every click in time while its edits wait for their bucket.
    fake_discord.limits.window_scale = 1.0
    names = sorted(c.data["name"] for c in fake_discord.commands_for(fake_discord.guild.id))
    assert names == [
        "event", "game", "hand", "hint", "league", "play", "rules", "settings", "stats",
        "table",
    ]
    alice = fake_discord.user("alice")
    lobby = fake_discord.channel("lobby")

    opened = await alice.slash("table new", game="gin_rummy", options="target=50")
    table = opened.response
    assert table is not None and not opened.ephemeral
    assert "Gin Rummy — new table" in table.text and "target=50" in table.text
    assert [b["label"] for b in table.buttons()] == [
        "Join",
        "Leave",
        "Add computer",
        "Start",
        "Cancel",
    ]
    await until(lambda: any("Your hand will appear here" in m.content
                            for m in alice.dm_messages()), "the host's welcome DM")

    await alice.click(table, "Add computer")
    assert "Computer (normal) 1" in table.text
    await alice.click(table, "Start")
    hand = await dealt(alice)
    assert "Gin Rummy** in <#" in hand.content
    assert lobby.messages() == [table]
    assert [b["label"] for b in table.buttons()] == ["Your hand"]

    for _ in range(40):
        hand = hand_dm(alice.dm_messages())
        if not hand.buttons() and not hand.selects():
            break
        buttons = acts(hand)
        before, table_before = len(hand.history), len(table.history)
        version = (await client.tables.status(lobby.id)).version
        with fake_discord.count() as counter:
            if buttons:
                answer = await alice.click(hand, buttons[0]["label"])
            else:
                menu = hand.selects()[0]
                answer = await alice.select(hand, [menu["options"][0]["value"]], menu["custom_id"])
            await changed(hand, before)
            await changed(table, table_before)
            await client.tables.idle()
            await client.publisher.edits.flush()
            await fake_discord.settle()
        # One table message edit per move (the player's own hand is updated through the
        # interaction); a computer move edits her hand DM only when it changed her hand or
        # moves (e.g. a new deal).
        computer = (await client.tables.status(lobby.id)).version - version - 1
        assert counter.global_limited <= 1 + 2 * computer, (
            counter.by_route, answer.text
        )
    assert "Last moves" in table.text
    latencies = fake_discord.latencies()
    assert len(latencies) > 10 and percentile(latencies, 99) < 3.0, sorted(latencies)[-3:]
    throttled = sum(r.status == 429 for r in fake_discord.requests)
    print(f"\nAt Discord's windows: {len(latencies)} interactions, callback p50 "
          f"{percentile(latencies, 50) * 1000:.1f} ms, p99 {percentile(latencies, 99) * 1000:.1f}"
          f" ms, max {max(latencies) * 1000:.1f} ms; {throttled} requests got 429")


async def test_stale_button_and_someone_elses_seat(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    await start_bot(bot_runner, fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None
    await bob.click(table, "Join")
    assert bob.mention in table.text
    await alice.click(table, "Start")
    first = await to_move(alice, bob)
    second = bob if first is alice else alice
    await dealt(second)
    await fake_discord.settle()
    hand = hand_dm(first.dm_messages())
    old = hand.snapshot()
    label = "Pass"
    assert label in [b["label"] for b in hand.buttons()]
    with fake_discord.count() as counter:
        await first.click(hand, label)
        # The other player's hand and their "Your turn" ping (the first one, so there is
        # no earlier ping to delete); the table message is edited through the Start
        # click's token, which Discord does not count toward the global limit.
        await until(lambda: any("Your turn" in m.content for m in second.dm_messages())
                    and bool(hand_dm(second.dm_messages()).buttons()), "the other's turn")
        await fake_discord.settle()
    assert counter.global_limited == 2, counter.by_route
    assert counter.by_route["PATCH /channels/{channel_id}/messages/{message_id}"] == 1
    stale = await first.click(old, label)
    assert stale.ephemeral and "earlier turn" in stale.text
    peek = await second.slash("hand")
    assert peek.ephemeral and "Your hand:" in peek.text


async def test_closed_dms_fall_back_to_the_your_hand_button(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    await start_bot(bot_runner, fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    bob.close_dms()
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None
    await bob.click(table, "Join")
    lobby = fake_discord.channel("lobby")
    notices = await until(
        lambda: [m for m in lobby.messages() if "can't send you your hand" in m.content],
        "the notice that Bob's DMs are closed",
    )
    assert len(notices) == 1 and bob.mention in notices[0].content
    await alice.click(table, "Start")
    await dealt(alice)
    await fake_discord.settle()
    assert bob.dm_messages() == []
    view = await bob.click(table, "Your hand")
    assert view.ephemeral and "Your hand:" in view.text
    assert len([m for m in lobby.messages() if "can't send you" in m.content]) == 1


def acts(hand: Message) -> list[dict[str, Any]]:
    """The move buttons of a hand (not its page buttons)."""
    return [b for b in hand.buttons() if b["custom_id"].split(":")[3] == "act"]


async def move_once(fake: FakeDiscord, client: Any, person: Person) -> bool:
    """Make the first move offered in ``person``'s hand DM; False when none is offered
    (once the game is over)."""

    async def offered() -> Message | None:
        await quiet(fake, client)
        hand = hand_dm(person.dm_messages())
        moves = acts(hand) or hand.selects() or "The game is over" in hand.content
        return hand if moves else None

    hand = await until(offered, f"a move or the end in {person.name}'s hand DM")
    buttons = acts(hand)
    before = len(hand.history)
    if buttons:
        await person.click(hand, buttons[0]["label"])
    elif hand.selects():
        menu = hand.selects()[0]
        await person.select(hand, [menu["options"][0]["value"]], menu["custom_id"])
    else:
        return False
    await changed(hand, before)
    return True


async def play_until_over(
    fake: FakeDiscord, client: Any, person: Person, limit: int = 200
) -> int:
    """Make ``person``'s first offered move until they have none; returns the moves."""
    for moves in range(limit):
        if not await move_once(fake, client, person):
            return moves
    raise AssertionError("the game did not end")


async def test_restart_rules_play_finish_league_and_rematch(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    first = await start_bot(bot_runner, fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    lobby = fake_discord.channel("lobby")
    table = (await alice.slash("table new", game="ono99")).response
    assert table is not None
    await alice.slash("table addbot", level="random")  # answered, then the table edited
    await until(lambda: "Computer (random) 1" in table.text, "the computer on the table")
    await alice.click(table, "Start")
    await dealt(alice)
    await quiet(fake_discord, first)
    await bot_runner.stop(first)

    second: Any = await start_bot(bot_runner, fake_discord, tmp_path)
    rules = await alice.slash("rules", game="ono99")
    assert rules.ephemeral and "ONO 99 — the rules" in rules.text
    page = rules.response
    assert page is not None
    await alice.click(page, "Next ▶")
    assert "Page 2 of" in page.text

    bad = await alice.slash("play", move="play 42")
    assert bad.messages[-1].ephemeral and "or the card itself" in bad.text
    choices = await alice.autocomplete("play", "move", "")
    assert choices and all(c["value"].startswith("play") for c in choices)
    played = await alice.slash("play", move=choices[0]["value"])
    assert "your hand" in played.text

    await play_until_over(fake_discord, second, alice)
    await until(lambda: "Ratings:" in table.text, "the result and ratings on the table")
    assert "Result" in table.text
    assert [b["label"] for b in table.buttons()] == ["Rematch"]
    standings = await alice.slash("league standings")
    assert "Default" in standings.text and "Alice" in standings.text
    stats = await alice.slash("stats")
    assert "**Alice**: 1 game, " in stats.text and "ONO 99: 1 played" in stats.text
    shown = stats.response
    assert shown is not None and [a["filename"] for a in shown.attachments] == ["rating.png"]
    assert fake_discord.uploads[shown.attachments[0]["id"]].startswith(b"\x89PNG")

    await alice.click(table, "Rematch")

    def tables() -> list[Message]:
        return [m for m in lobby.messages() if m.rich and "— table" in m.text]

    await until(lambda: len(tables()) == 2, "the rematch's table message")
    assert [b["label"] for b in tables()[-1].buttons()] == ["Your hand"]


async def test_deleted_message_is_reposted_and_deleted_channel_closes_the_table(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    client = await start_bot(bot_runner, fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None
    await alice.click(table, "Add computer")
    await alice.click(table, "Start")
    await dealt(alice)
    await quiet(fake_discord, client)
    await fake_discord.delete_message(table)
    assert await move_once(fake_discord, client, alice)
    lobby = fake_discord.channel("lobby")
    await until(lambda: any("Gin Rummy — table" in m.text for m in lobby.messages()),
                "the table message posted again")
    await quiet(fake_discord, client)
    reposted = [m for m in lobby.messages() if "Gin Rummy — table" in m.text]
    assert len(reposted) == 1 and reposted[0].id != table.id

    await fake_discord.delete_channel(lobby)  # CHANNEL_DELETE closes the table at once
    await until(lambda: any("this table was closed" in m.content for m in alice.dm_messages()),
                "the DM saying the table was closed")
    app = cast(Any, client)
    assert (await app.tables.status(lobby.id)).status == "aborted"


async def test_only_the_host_or_a_manager_aborts_and_kicks(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    await start_bot(bot_runner, fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    mia = fake_discord.member("mia", manage_guild=True)
    table = (await alice.slash("table new", game="craits", options="short=on")).response
    assert table is not None and "short=on" in table.text
    bad = await bob.slash("table new", game="spades", options="target=5")
    assert bad.ephemeral and "already a table here" in bad.text
    await bob.click(table, "Join")
    refused = await bob.slash("table kick", user=alice)
    assert refused.ephemeral and "Only the table's host or an admin" in refused.text
    refused = await bob.click(table, "Cancel")
    assert refused.ephemeral and "Only the table's host or an admin" in refused.text
    kicked = await mia.slash("table kick", user=bob)  # answered, then the table edited
    assert kicked.ephemeral
    await until(lambda: bob.mention not in table.text, "Bob off the table message")
    await mia.slash("table abort")
    await until(lambda: "closed" in table.text, "the table message to say it closed")
    assert table.buttons() == []


async def test_turn_timer_reminds_then_the_computer_plays(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    settings = settings_for(fake_discord, tmp_path).model_copy(update={"turn_timer": 2})
    await bot_runner.start(lambda: bot.create_bot(settings, guild_ready_timeout=READY_WAIT))
    alice = fake_discord.user("alice")
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None and "2 s per turn" in table.text
    await alice.click(table, "Add computer")
    await alice.click(table, "Start")
    await until(lambda: any("Half your time is gone" in m.content for m in alice.dm_messages()),
                "the half-time reminder")
    await until(lambda: "ran out of time" in table.text, "the computer's move for Alice")


@pytest.mark.parametrize("ping_after", [30.0, 0.0])
async def test_only_players_who_were_away_get_a_turn_ping(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, ping_after: float
) -> None:
    settings = settings_for(fake_discord, tmp_path).model_copy(
        update={"turn_ping_after": ping_after}
    )
    client: Any = await bot_runner.start(
        lambda: bot.create_bot(settings, guild_ready_timeout=READY_WAIT)
    )
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None
    await bob.click(table, "Join")
    await alice.click(table, "Start")
    first = await to_move(alice, bob)
    second = bob if first is alice else alice
    await dealt(second)
    await quiet(fake_discord, client)
    await first.click(hand_dm(first.dm_messages()), "Pass")
    await until(lambda: hand_dm(second.dm_messages()).buttons(), "the second player's turn")
    await quiet(fake_discord, client)

    def pings() -> set[int]:
        return {int(m.id) for m in first.dm_messages() if "Your turn" in m.content}

    before = pings()
    with fake_discord.count() as counter:
        await second.click(hand_dm(second.dm_messages()), "Pass")
        await until(lambda: "draw from the stock" in hand_dm(first.dm_messages()).content,
                    "the first player's hand to offer the stock")
        if not ping_after:
            await until(lambda: pings() - before, "a new Your turn DM")
        await quiet(fake_discord, client)
    if ping_after:
        # ``first`` moved a moment ago: their hand DM, no ping (the table message is
        # edited through the Start click's token).
        assert pings() == before and counter.global_limited == 1, counter.by_route
    else:
        assert pings() - before, "a new Your turn DM"
