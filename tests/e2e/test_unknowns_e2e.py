"""What Discord leaves undocumented, played through against the fake as strict as the
reports (``fake_ratelimit``, ``fake_rest``, ``FakeDiscord.live_owners``), with computers
at the delay users run (0.8 s): a group-DM game over days whose table message is
refreshed at 2 hours and at 2 days old and edited ten times after each, whose installer
removes Deckhand mid-game; a server that installed only Deckhand's commands; an old copy of
a table message; a table opened in a thread.

Each asks the same of the bot: no move lost, no request the fake refuses beyond those by
which the bot learns that an install is gone, no 429 and no edit of an hour-old message
through a token, every interaction token within the 4 requests per 2 s Deckhand allows
itself (one under the 5 reported), and each player told what happens.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from bot.ui.allowance import REQUESTS
from bot.ui.controller import LOST
from bot.ui.events import NEEDS_BOT
from tests.e2e.driver import Person
from tests.e2e.fake_discord import NotOffered
from tests.e2e.fake_ratelimit import TOKEN_LIMIT, busiest
from tests.e2e.fake_state import (
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    Interaction,
    Message,
    RequestRecord,
)
from tests.e2e.play import (  # noqa: F401
    FakeTime,
    Harness,
    ReturningSeat,
    click_move,
    harness_fixture,
)
from tests.e2e.test_anywhere_e2e import (
    HOUR,
    PLAYING,
    away,
    bot_calls,
    moved_on,
    refused,
)
from tests.e2e.test_games_e2e import open_table
from tests.waiting import until

#: Seconds between computer moves: Deckhand's default, as users run it.
DELAY = 0.8
#: The refusal by which the bot learns that the install behind a token is gone.
UNKNOWN_WEBHOOK = "404"


def within_discords_limits(requests: list[RequestRecord], *, lost: int = 0) -> None:
    """No 429, every token within Deckhand's 4 requests per 2 s, no edit of an hour-old message
    through a token, and nothing refused but at most ``lost`` Unknown Webhooks."""
    assert not [r.key for r in requests if r.status == 429]
    peaks = busiest(requests)
    assert max(peaks.values(), default=0) <= REQUESTS < TOKEN_LIMIT[0], sorted(peaks.values())
    no = refused(requests)
    assert all(r.endswith(UNKNOWN_WEBHOOK) for r in no) and len(no) <= lost, no


async def answered(inter: Interaction, what: str) -> Interaction:
    """``inter`` once a follow-up of it says ``what`` (a click's answer may wait for a slot
    of its token, ``bot.ui.allowance``: the fake's quiet moment alone does not show it)."""
    try:
        await until(lambda: any(what in m.text for m in inter.followups), what)
    except AssertionError:
        raise AssertionError(f"no {what!r} among {[m.text for m in inter.messages]}") from None
    return inter


@dataclass
class Returning(ReturningSeat):
    """A player who presses *Your hand* before each move and waits for their panel."""

    async def open(self) -> Message:
        table = self.harness.table_message(self.channel)
        shown = await self.person.click(table, self.your_hand())
        await answered(shown, "your hand")
        self.opened += 1
        panel = next(m for m in shown.followups if "your hand" in m.text)
        assert panel.ephemeral, panel.text
        return panel


async def human_turn(harness: Harness, channel: Channel) -> int:
    """The user whose move it is, once the computers had theirs."""
    while True:
        result = await harness.result(channel)
        movers = [p.user_id for p in result.private.values() if p.legal]
        if movers:
            return movers[0]
        await harness.idle()


async def moves(seats: dict[int, Returning], harness: Harness, channel: Channel,
                count: int) -> None:
    """``count`` human moves (fewer if the game ends), each player coming back to theirs."""
    made = 0
    while made < count:
        result = await harness.result(channel)
        if result.status != "playing":
            return
        movers = [p.user_id for p in result.private.values() if p.legal]
        if not movers:  # the computer's turn: it moves on its own, paced
            await harness.idle()
            continue
        await seats[movers[0]].move()
        made += 1


async def test_a_group_dm_game_through_old_messages_and_a_lost_install(
    harness: Harness,
) -> None:
    fake = harness.fake
    clock = FakeTime(fake)
    await harness.start(dev_guild=None, clock=clock, bot_move_delay=DELAY)
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    fake.install(alice, carol)
    gdm = fake.private_channel(alice, bob, carol, name="card night")
    people = {p.id: p for p in (alice, bob, carol)}
    seats = {p.id: Returning(p, harness, gdm) for p in people.values()}
    with fake.count() as counter:
        await open_table(harness, "ono99", "scoring=points target=50", list(people.values()),
                         1, gdm, playing=PLAYING, timer="1d")
        await moves(seats, harness, gdm, 3)

        # The table message is 2 hours old, then 2 days: Refresh posts it afresh (never an
        # edit of an old message) and the game goes on there, ten edits and more.
        for hours in (2, 48):
            await away(harness, hours * HOUR)
            await asyncio.sleep(0.1)  # turn timers that ran out meanwhile fire at once
            await harness.idle()
            old = harness.table_message(gdm)
            mover = people[await human_turn(harness, gdm)]
            back = await answered(await mover.click(old, "Refresh"), "It is your turn.")
            turn = [m for m in back.followups if "It is your turn." in m.text]
            assert turn and all(m.ephemeral for m in turn), back.text
            fresh = harness.table_message(gdm)
            assert fresh.id != old.id and old.deleted, "posted afresh, the old one retired"
            shown = len(fresh.history)
            while len(fresh.history) - shown < 10:
                assert (await harness.result(gdm)).status == "playing"
                await moves(seats, harness, gdm, 1)
                await harness.idle()
        assert [t for t, _ in fake.rest.old_edit_log if t == "token"] == []

        # Alice, who installed Deckhand, removes it mid-game. The next move is still kept
        # (the bot learns from the refused token that the install is gone); the next click
        # is told what happened in its answer, and Carol brings the table back.
        mover = people[await human_turn(harness, gdm)]
        seat = seats[mover.id]
        panel = await seat.open()
        chosen = await seat.choose()
        before = await harness.result(gdm)
        fake.uninstall(alice)
        await click_move(mover, panel, chosen, answered=False)  # its token is refused now
        await moved_on(harness, gdm, before.version)
        await harness.idle()
        kept = await harness.result(gdm)
        for person in (bob, carol):
            told = await person.click(harness.table_message(gdm), "Your hand")
            assert told.ephemeral and "/table status" in told.text, told.text
        assert (await harness.result(gdm)).version == kept.version, "the clicks changed nothing"
        with pytest.raises(NotOffered):
            await alice.slash("table status", channel=gdm)
        back = await carol.slash("table status", channel=gdm)
        assert back.response is not None and not back.ephemeral, back.text
        assert f"move {kept.version} ·" in harness.table_message(gdm).text

        while (await harness.result(gdm)).status == "playing":
            await moves(seats, harness, gdm, 1)
        await harness.idle()
    final = await harness.result(gdm)
    assert final.status == "finished" and "Result" in harness.table_message(gdm).text
    assert bot_calls(counter.requests) == []
    within_discords_limits(counter.requests, lost=3)
    assert [t for t, _ in fake.rest.old_edit_log if t == "token"] == []


async def test_a_server_that_installed_only_the_commands(harness: Harness) -> None:
    """An admin added Deckhand with ``applications.commands`` alone: the table is reached
    by tokens (no bot member to post), plays to the end with a computer at 0.8 s, and
    ``/event`` says it needs the bot, with the invite."""
    fake = harness.fake
    await harness.start(dev_guild=None, bot_move_delay=DELAY)
    bare = fake.add_guild("commands only", bot=False, commands=True)
    alice, bob = (fake.member(n, guild=bare) for n in ("alice", "bob"))
    lobby = bare.channel("lobby")
    with fake.count() as counter:
        await open_table(harness, "ono99", "", [alice, bob], 1, lobby, playing=PLAYING)
        seats = {p.id: Returning(p, harness, lobby) for p in (alice, bob)}
        while (await harness.result(lobby)).status == "playing":
            await moves(seats, harness, lobby, 1)
        await harness.idle()
    assert (await harness.result(lobby)).status == "finished"
    assert bot_calls(counter.requests) == [], "the bot is no member: its token is never tried"
    within_discords_limits(counter.requests)
    events = await alice.slash("event new", channel=lobby, name="Cup", game="spades",
                               format="swiss", rounds=1)
    assert events.ephemeral and NEEDS_BOT.split(" (")[0] in events.text, events.text


async def test_an_old_copy_says_where_the_table_is(harness: Harness) -> None:
    """At a DM table, Carol brings the table to the bottom (``/table status``) once the
    first message's token is long gone, so the first message stays: its buttons say where
    the table is, and Refresh on it never makes it live again."""
    fake = harness.fake
    clock = FakeTime(fake)
    await harness.start(dev_guild=None, clock=clock)
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.install(alice, bob)
    dm = fake.private_channel(alice, bob)
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, dm, playing=PLAYING)
    first = harness.table_message(dm)
    await away(harness, 20 * 60)
    moved = await bob.slash("table status", channel=dm)
    assert moved.response is not None and not moved.ephemeral
    live = harness.table_message(dm)
    assert live.id != first.id and not first.deleted
    text, versions = live.text, len(first.history)
    for label in ("Refresh", "Your hand"):
        said = await alice.click(first, label)
        assert said.ephemeral and f"/{live.id}" in said.text, said.text
    assert harness.table_message(dm).id == live.id and live.text == text
    assert len(first.history) == versions, "the old copy is never edited"


async def test_a_table_opened_in_a_thread_needs_send_messages_in_threads(
    harness: Harness,
) -> None:
    """In a thread, posting takes Send Messages in Threads (not Send Messages): without
    Send Messages in the channel the table opens in its thread; without Send Messages in
    Threads it is refused, naming that permission."""
    fake = harness.fake
    await harness.start()
    lobby = fake.channel("lobby")
    thread = await fake.add_thread(lobby, "gin table")
    alice: Person = fake.user("alice")
    fake.deny(lobby, SEND_MESSAGES)
    opened = await alice.slash("table new", channel=thread, game="gin_rummy")
    assert opened.response is not None and not opened.ephemeral, opened.text
    assert (await harness.result(thread)).status == "lobby"
    other = await fake.add_thread(lobby, "spades table")
    fake.deny(lobby, SEND_MESSAGES_IN_THREADS)
    refused_here = await alice.slash("table new", channel=other, game="spades")
    assert refused_here.ephemeral and "Send Messages in Threads" in refused_here.text


def test_the_lost_install_answer_names_the_way_back() -> None:
    """What a clicker is told at a table whose install is gone names the command that
    brings it back (the e2e test above checks it is said)."""
    assert "/table status" in LOST and "{link}" in LOST


async def test_a_group_dms_admin_is_its_keeper_in_every_answer(harness: Harness) -> None:
    """One admin question with the place's words: in a group DM, exporting a league that
    is not published names the keeper (not Manage Server, which a group DM has not)."""
    fake = harness.fake
    await harness.start(dev_guild=None)
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    fake.install(alice, bob)
    gdm = fake.private_channel(alice, bob, carol)
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, gdm, playing=PLAYING)
    refused_here = await bob.slash("league export", channel=gdm)
    assert refused_here.ephemeral and f"Only <@{alice.id}>" in refused_here.text
    assert "Manage Server" not in refused_here.text, refused_here.text
    exported = await alice.slash("league export", channel=gdm)
    assert "deckhand.game/1" in exported.text, exported.text
