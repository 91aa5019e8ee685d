"""Several tables in one channel: ``/table new thread:`` (or the server's default) opens
each table in a public thread of its own, and everything works there as in a channel."""

from __future__ import annotations

import asyncio

from tests.e2e.fake_state import CREATE_PUBLIC_THREADS, MANAGE_THREADS, Channel, Message
from tests.e2e.play import Harness, PanelSeat, harness_fixture, play_out  # noqa: F401
from tests.e2e.test_games_e2e import open_table
from tests.waiting import until


def threads_of(harness: Harness, parent: Channel) -> list[Channel]:
    return [c for c in harness.fake.channels.values() if c.parent is parent and not c.deleted]


async def lobby_in(thread: Channel) -> Message:
    """The table message in ``thread`` (posted there as the command is answered)."""
    return await until(
        lambda: next((m for m in thread.messages() if " — new table" in m.text), None),
        f"the lobby in {thread.name}",
    )


async def test_two_tables_in_one_channel_each_in_its_thread(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    for person in (alice, bob, carol, dave):
        await person.slash("settings", hand="channel")
    opened = await alice.slash("table new", game="gin_rummy", options="target=10", thread=True)
    assert not opened.ephemeral and "join it there" in opened.text, opened.text
    second = await carol.slash("table new", game="gin_rummy", options="target=10", thread=True)
    assert "join it there" in second.text, second.text
    first_thread, second_thread = threads_of(harness, lobby)
    assert [first_thread.name, second_thread.name] == ["Gin Rummy — Alice", "Gin Rummy — Carol"]
    assert f"<#{first_thread.id}>" in opened.text and f"<#{second_thread.id}>" in second.text

    for thread, (host, guest) in ((first_thread, (alice, bob)), (second_thread, (carol, dave))):
        table = await lobby_in(thread)
        await guest.click(table, "Join")
        await host.click(table, "Start")
    seats = {
        thread: [PanelSeat(host, harness, thread), PanelSeat(guest, harness, thread)]
        for thread, (host, guest) in ((first_thread, (alice, bob)), (second_thread, (carol, dave)))
    }
    for thread, pair in seats.items():
        final = await play_out(pair, thread)
        assert final.status == "finished"

        def result_shown(thread: Channel = thread) -> bool:
            return "Result" in harness.table_message(thread).text

        await until(result_shown, "the result")
    assert all(p.dm_messages() == [] for p in (alice, bob, carol, dave))


async def test_a_server_default_and_a_missing_permission(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    admin = fake.member("ada", manage_guild=True)
    alice = fake.user("alice")
    refused = await alice.slash("settings", server=True, threads=True)
    assert "Manage Server" in refused.text
    assert threads_of(harness, lobby) == []
    done = await admin.slash("settings", server=True, threads=True)
    assert "own threads" in done.text, done.text

    opened = await alice.slash("table new", game="spades")
    assert "join it there" in opened.text, opened.text
    assert len(threads_of(harness, lobby)) == 1
    here = await alice.slash("table new", game="spades", thread=False)
    assert not here.ephemeral and "join it there" not in here.text  # the lobby is the answer

    other = fake.add_channel("no-threads")
    fake.deny(other, CREATE_PUBLIC_THREADS)
    refused = await alice.slash("table new", channel=other, game="spades")
    assert refused.ephemeral and "Create Public Threads" in refused.text, refused.text
    assert threads_of(harness, other) == [] and other.messages() == []


async def test_a_server_chooses_the_computer_that_stands_in(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    admin = fake.member("ada", manage_guild=True)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    mine = await alice.slash("settings", stand_in="expert")
    assert mine.ephemeral and "server default" in mine.text, mine.text
    refused = await alice.slash("settings", server=True, stand_in="expert")
    assert "Manage Server" in refused.text
    done = await admin.slash("settings", server=True, stand_in="expert")
    assert "the **expert** computer plays for anyone" in done.text, done.text

    await open_table(harness, "craits", "short=on", [alice, bob, carol], 0, lobby)
    left = await bob.slash("table leave")
    assert "Bob left" in left.text, left.text
    result = await harness.result(lobby)
    assert any(str(s.name) == "Computer (expert) for Bob" for s in result.seats), result.seats


async def test_a_lobby_closed_before_a_deal_takes_its_thread_with_it(harness: Harness) -> None:
    """Open-then-Cancel, however often, leaves no thread; a thread where a game was dealt
    stays when that game is aborted (also before the deal is published); without Manage
    Threads no thread is made at all."""
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    for _ in range(3):
        await alice.slash("table new", game="gin_rummy", thread=True)
        (thread,) = threads_of(harness, lobby)
        cancelled = await alice.click(await lobby_in(thread), "Cancel")
        assert not cancelled.ephemeral, cancelled.text

        def deleted(thread: Channel = thread) -> bool:
            return thread.deleted

        await until(deleted, "the thread to be deleted")
        assert threads_of(harness, lobby) == []
    await alice.slash("table new", game="gin_rummy", thread=True)
    (thread,) = threads_of(harness, lobby)
    await alice.slash("table abort", channel=thread)  # by command this time
    await until(lambda: threads_of(harness, lobby) == [], "the thread to be deleted")

    await alice.slash("table new", game="gin_rummy", options="target=10", thread=True)
    (played,) = threads_of(harness, lobby)
    table = await lobby_in(played)
    await bob.click(table, "Join")
    await alice.click(table, "Start")
    aborted = await alice.slash("table abort", channel=played)
    assert "aborted" in aborted.text, aborted.text
    await until(lambda: "closed" in table.text, "the table message to say it closed")
    await harness.idle()
    assert threads_of(harness, lobby) == [played]

    # Aborted while the Start click's answer is still on its way, so the abort is
    # published before the deal is: the thread stays all the same.
    await alice.slash("table new", game="gin_rummy", options="target=10", thread=True)
    (racing,) = [t for t in threads_of(harness, lobby) if t is not played]
    table = await lobby_in(racing)
    await bob.click(table, "Join")
    fake.delay("PATCH", "/webhooks/*", 2.0, times=1)  # the Start click's answer
    starting = asyncio.create_task(alice.click(table, "Start"))

    async def dealt() -> bool:
        return (await harness.result(racing)).status == "playing"

    await until(dealt, "the deal")
    await alice.slash("table abort", channel=racing)
    await starting
    await harness.idle()
    assert threads_of(harness, lobby) == [played, racing]

    fake.deny(lobby, MANAGE_THREADS)
    refused = await alice.slash("table new", game="spades", thread=True)
    assert refused.ephemeral and "Manage Threads" in refused.text, refused.text
    assert threads_of(harness, lobby) == [played, racing]
