"""The Discord edge as an attacker and a careless admin meet it: buttons crafted in another
server, a page of moves on a public message, a deleted channel, a locked database, string
options without a length limit. Each is answered politely, in time, and changes nothing
it should not."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from typing import Any

import pytest

import storage.sqlite
from bot.ui.publish.table import REPOST_AFTER
from bot.ui.publish.tokens import TOKEN_LIFETIME, USABLE
from games.cards import pretty
from tests.e2e.fake_state import SEND_MESSAGES, VIEW_CHANNEL, Channel, Message
from tests.e2e.play import (  # noqa: F401
    FakeTime,
    Harness,
    Seat,
    harness_fixture,
    play_out,
    private_of,
)
from tests.e2e.test_games_e2e import gin_for_two, open_table
from tests.waiting import until


def crafted(harness: Harness, channel: Channel, custom_id: str) -> Message:
    """A message in ``channel`` carrying a button with any custom id (as a modified client
    or another bot could make)."""
    button = {"type": 2, "style": 1, "label": "Click", "custom_id": custom_id}
    return harness.fake.create_message(
        channel, {"content": "bait", "components": [{"type": 1, "components": [button]}]}
    )


async def test_a_button_crafted_in_another_server_changes_nothing(harness: Harness) -> None:
    other = harness.fake.add_guild("Elsewhere")
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice = fake.user("alice")
    opened = await alice.slash("table new", game="spades")
    assert opened.response is not None
    before = await harness.result(lobby)
    # Eve manages her own server, not Alice's.
    eve = fake.member("eve", guild=other, manage_guild=True)
    for kind in ("join", "bot:normal", "start", "cancel"):
        bait = crafted(harness, other.channel("lobby"), f"dh:{before.table_id}:0:{kind}")
        answer = await eve.click(bait, "Click")
        assert answer.ephemeral and "somewhere else" in answer.text, answer.text
    after = await harness.result(lobby)
    assert (after.version, after.status, after.seats) == (
        before.version, before.status, before.seats
    )


async def test_a_page_of_moves_is_never_shown_on_a_public_message(harness: Harness) -> None:
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    result = await harness.result(lobby)
    bait = crafted(harness, lobby, f"dh:{result.table_id}:{result.version}:page:0")
    answer = await seats[0].person.click(bait, "Click")
    assert answer.ephemeral and "Your hand" in answer.text
    assert len(bait.history) == 1 and "Your hand:" not in bait.text


@pytest.mark.parametrize(
    "custom_id", ["dh:1:0:page:abc", f"dh:{2**63}:0:join", "dh:99999:0:start"]
)
async def test_malformed_or_unknown_buttons_get_a_short_answer(
    harness: Harness, custom_id: str
) -> None:
    await harness.start()
    lobby = harness.fake.channel("lobby")
    alice = harness.fake.user("alice")
    answer = await alice.click(crafted(harness, lobby, custom_id), "Click")
    assert answer.callback_type is not None, "the click was never answered"
    if answer.followups or answer.messages:
        assert answer.ephemeral and len(answer.text) < 200, answer.text


async def test_deleting_the_channel_closes_its_table(harness: Harness) -> None:
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    await play_out(seats, lobby, limit=2)
    await harness.fake.delete_channel(lobby)

    async def aborted() -> bool:  # the CHANNEL_DELETE event arrives on its own time
        return (await harness.result(lobby)).status == "aborted"

    await until(aborted, "the table to be aborted")
    await until(lambda: any("table was closed" in m.content
                            for m in seats[0].person.dm_messages()), "the DM saying so")


async def test_a_locked_database_is_answered_and_the_move_can_be_made_later(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.sqlite, "BUSY_TIMEOUT_MS", 200)
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    result = await harness.result(lobby)
    mover = next(s for s in seats if result.for_user(s.person.id) is not None
                 and private_of(result, s.person).legal)
    mine = result.for_user(mover.person.id)
    assert mine is not None
    other = sqlite3.connect(harness.db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        answer = await mover.person.slash("play", move=mine.legal[0])
        assert answer.ephemeral and "can't reach my saved games" in answer.text, answer.text
        assert (await harness.result(lobby)).version == result.version
    finally:
        other.rollback()
        other.close()
    done = await mover.person.slash("play", move=mine.legal[0])
    assert "Your hand" in done.text, done.text
    assert (await harness.result(lobby)).version == result.version + 1


async def test_string_options_are_limited_and_long_input_is_never_echoed_whole(
    harness: Harness,
) -> None:
    await harness.start()
    fake = harness.fake

    def options(data: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for option in data.get("options", []):
            if option["type"] in (1, 2):
                out += options(option)
            else:
                out.append(option)
        return out

    strings = [
        (c.data["name"], o["name"], o.get("max_length"))
        for c in fake.commands_for(fake.guild.id)
        for o in options(c.data)
        if o["type"] == 3 and not o.get("choices")
    ]
    assert strings and all(limit is not None and limit <= 200 for *_, limit in strings), strings
    alice = fake.user("alice")
    junk = "x" * 190 + "=" + "y" * 9
    answer = await alice.slash("table new", game="gin_rummy", options=junk + " z")
    assert answer.ephemeral and len(answer.text) < 300 and junk not in answer.text, answer.text


async def test_a_game_logged_at_debug_shows_no_card_and_no_token(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    await play_out(seats, lobby, limit=6)
    hands = [(await seat.mine())[1].view["hand"] for seat in seats]
    logged = caplog.text
    assert "INTERACTION_CREATE" not in logged and harness.fake.token not in logged
    for hand in hands:
        for card in hand:
            assert pretty(card) not in logged, f"{pretty(card)} in the log"
    tokens = [i.token for i in harness.fake.interactions.values()]
    assert tokens and not any(token in logged for token in tokens)


async def test_a_503_on_a_hand_dm_is_retried_so_the_player_gets_their_buttons(
    harness: Harness,
) -> None:
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    result = await harness.result(lobby)
    mover = next(s for s in seats if (p := result.for_user(s.person.id)) and p.legal)
    waiter = next(s for s in seats if s is not mover)
    hand = await until(lambda: next((m for m in waiter.person.dm_messages()
                                     if "your hand" in m.content), None), "the waiter's hand")
    assert not hand.buttons()  # not their turn yet
    fault = harness.fake.server_error(
        "PATCH", f"/channels/{hand.channel.id}/messages/{hand.id}", times=1, status=503
    )
    while not (await waiter.mine())[1].legal:  # e.g. take the upcard, then discard
        await mover.move()
    await until(hand.buttons, "the hand's buttons (the retry comes a second later)")
    assert fault.served == 1


async def test_a_flood_of_commands_is_told_to_slow_down_and_costs_nothing(
    harness: Harness,
) -> None:
    await harness.start(user_rate=0.5)  # a burst of 2, then one every 2 s
    fake = harness.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await alice.slash("table new", game="gin_rummy")
    with fake.count() as counter:  # eight at once, as a script sends them
        answers = await asyncio.gather(*(alice.slash("table status") for _ in range(8)))
    slowed = [a for a in answers if "going a little fast" in a.text]
    assert len(slowed) >= 4 and all(a.ephemeral for a in slowed)
    assert counter.global_limited <= 4 * 2, counter.by_route  # a post and a delete each
    shown = await bob.slash("table status")  # another user is not slowed
    assert "going a little fast" not in shown.text


async def test_a_channel_the_bot_cannot_write_to_gets_a_plain_answer(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    muted = fake.add_channel("muted")
    fake.deny(muted, SEND_MESSAGES)
    alice = fake.user("alice")
    answer = await alice.slash("table new", channel=muted, game="gin_rummy")
    assert answer.ephemeral and "I need the Send Messages permission here" in answer.text
    assert not muted.messages()


async def test_losing_access_mid_game_keeps_the_table(harness: Harness) -> None:
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    harness.fake.deny(lobby, VIEW_CHANNEL)  # a moderator hid the channel from the bot
    await play_out(seats, lobby, limit=2)  # hands still come by DM
    assert (await harness.result(lobby)).status == "playing"


async def test_names_that_look_like_mentions_ping_nobody(harness: Harness) -> None:
    """A league named after a user, and a display name that tries to close the standings'
    code block and ping everyone: shown as text, pinging nobody."""
    await harness.start()
    fake = harness.fake
    alice = fake.user("alice")
    mia = fake.member("mia", manage_guild=True)
    name = f"{alice.mention} fans @everyone"
    created = await mia.slash("league create", name=name)
    assert created.response is not None and not created.response.pinged
    standings = await alice.slash("league standings", league=name)
    assert standings.response is not None and not standings.response.pinged
    everything = [m for c in (fake.channel("lobby"),) for m in c.messages(include_ephemeral=True)]
    assert everything and not any(m.pinged for m in everything)


async def test_a_long_game_moves_to_a_fresh_table_message(harness: Harness) -> None:
    """Discord limits edits of messages older than an hour (30046): an hour after the table
    message was posted (on the fake's clock), the next update posts a fresh one, the old one
    points to it, and each hand DM is sent afresh."""
    fake = harness.fake
    fake.clock.offset = -3700.0  # what is posted now is posted an hour and a bit "ago"
    await harness.start()
    harness.client.publisher.delivery.wall = fake.clock.now  # ages as Discord counts them
    seats, lobby = await gin_for_two(harness)
    old = harness.table_message(lobby)
    await harness.idle()
    fake.clock.advance(3700.0)
    await play_out(seats, lobby, limit=1)
    await until(lambda: "goes on in a newer message" in old.text, "the old table's pointer")
    new = harness.table_message(lobby)
    assert new.id != old.id
    assert str(new.id) in old.text and old.buttons() == []
    await play_out(seats, lobby, limit=1)  # and the game goes on there
    assert harness.table_message(lobby).id == new.id
    for seat in seats:  # each hand DM was sent afresh once, the old one deleted

        def sent_afresh(seat: Seat = seat) -> bool:
            hands = [m for m in seat.person.dm_messages() if "your hand" in m.content]
            return len(hands) == 1 and hands[0].id > old.id

        await until(sent_afresh, f"{seat.person.name}'s hand sent afresh")
    old_edits = [r for r in fake.requests if r.method == "PATCH" and r.status == 400]
    assert old_edits == []


async def test_an_edit_refused_for_age_moves_the_table_on(harness: Harness) -> None:
    """Should Discord refuse an edit with 30046 before the bot's own 50-minute mark (a clock
    that runs late), the table is posted afresh rather than frozen."""
    fake = harness.fake
    fake.clock.offset = -3700.0
    await harness.start()
    harness.client.publisher.delivery.wall = fake.clock.now
    seats, lobby = await gin_for_two(harness)
    old = harness.table_message(lobby)
    await harness.idle()
    harness.client.publisher.delivery.replace_after = 10 * 3600.0  # the bot's clock runs late
    fake.clock.advance(3700.0)
    await play_out(seats, lobby, limit=8)
    assert any(r.method == "PATCH" and r.status == 400 for r in fake.requests)
    fresh = await until(lambda: m if (m := harness.table_message(lobby)) is not old else None,
                        "a fresh table message")
    await harness.idle()
    shown = len(fresh.history)
    await play_out(seats, lobby, limit=1)
    await until(lambda: len(fresh.history) > shown, "the fresh table message's next edit")
    assert harness.table_message(lobby) is fresh


async def test_a_table_in_a_thread_survives_the_thread_being_archived(harness: Harness) -> None:
    """A thread archived mid-game (inactivity, or a moderator) refuses edits with 50083:
    the bot posts the table afresh, which unarchives the thread, and the game goes on.
    Locked as well, the thread takes no post either; the table then waits, and no move
    is lost. Deleting the thread closes the table."""
    fake = harness.fake
    await harness.start()
    thread = await fake.add_thread(fake.channel("lobby"), "gin night")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, channel=thread)
    seats = [Seat(alice, harness, thread), Seat(bob, harness, thread)]
    await harness.idle()
    old = harness.table_message(thread)

    await fake.set_archived(thread, True)
    await play_out(seats, thread, limit=2)
    fresh = await until(lambda: (m := harness.table_message(thread)) is not old and m,
                        "the table posted afresh")
    assert any(r.method == "PATCH" and r.status == 400 for r in fake.requests)
    await harness.idle()
    assert not thread.archived

    await fake.set_archived(thread, True, locked=True)
    version = (await harness.result(thread)).version
    await play_out(seats, thread, limit=1)
    await harness.idle()
    assert (await harness.result(thread)).version == version + 1
    assert harness.table_message(thread) is fresh and thread.archived

    await fake.delete_channel(thread)

    async def aborted() -> bool:
        return (await harness.result(thread)).status == "aborted"

    await until(aborted, "the table to be aborted")


async def test_a_table_posted_again_through_a_click_keeps_that_click_s_age(
    harness: Harness,
) -> None:
    """The table message moves to a newer click's token when its own ages; that token's
    age counts from the click's creation, not from the move that posted the table through
    it, so the bot stops using it before Discord does (no edit refused with 401). The
    bot's clock is the fake Discord's, moved on by the test (``FakeTime``)."""
    fake = harness.fake
    await harness.start(clock=FakeTime(fake))
    seats, lobby = await gin_for_two(harness)
    old = harness.table_message(lobby)
    shown = await seats[1].person.click(old, "Your hand")  # its token is the newest click
    clicked, panel = fake.clock.now(), shown.response
    assert panel is not None
    await harness.idle()
    fake.clock.advance(REPOST_AFTER + 30)  # the table's token is old, the click's not yet
    await play_out(seats, lobby, limit=1)
    await until(lambda: harness.table_message(lobby) is not old,
                "the table posted again through the click")
    await harness.idle()
    # Time passes: the click's token is spent (the panel it answered says so in its last
    # edit), then Discord forgets it.
    fake.clock.advance(clicked + USABLE + 1 - fake.clock.now())
    await until(lambda: "stops updating here" in panel.content, "the panel's last edit")
    fake.clock.advance(TOKEN_LIFETIME - USABLE + 30)
    await play_out(seats, lobby, limit=1)
    result = await harness.result(lobby)
    await until(lambda: f"move {result.version} ·" in harness.table_message(lobby).text,
                "the last move on the table message")
    await harness.idle()
    refused = [(r.method, r.route) for r in fake.requests if r.status == 401]
    assert refused == []


@pytest.mark.parametrize(
    "custom_id",
    [
        "foreign:button",  # another app's id, or a hand-made one
        "dh:12345678901234567890:0:act:x",  # a table id longer than any (no pattern fits)
        "dh:9999999999999999999:0:join",  # a table id past what a database keeps
        "dh:event:9223372036854775808:join",  # an event id of 2**63
        "dh:lobby:join",
    ],
)
async def test_a_button_no_item_takes_is_answered_without_a_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture, custom_id: str
) -> None:
    await harness.start()
    fake = harness.fake
    bait = crafted(harness, fake.channel("lobby"), custom_id)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        answer = await fake.user("alice").click(bait, "Click")
    assert answer.ephemeral and "That button doesn't work" in answer.text, answer.text
    assert len(bait.history) == 1
    assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []
