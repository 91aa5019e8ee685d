"""Stale, foreign and forged buttons, moves out of turn, a non-host abort, garbage moves,
and two clicks at the same instant: a polite ephemeral answer, and nothing changes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import pytest

from bot.custom_ids import CustomId, parse
from tests.e2e.driver import Person
from tests.e2e.fake_state import Channel, Interaction, Message
from tests.e2e.play import (  # noqa: F401
    Harness,
    Seat,
    harness_fixture,
    play_out,
    private_of,
)
from tests.e2e.test_games_e2e import gin_for_two


async def two_player_gin(harness: Harness) -> tuple[Seat, Seat, Channel]:
    """Alice and Bob at a started Gin Rummy table; returns (to move, waiting, channel)."""
    await harness.start()
    seats, lobby = await gin_for_two(harness)
    result = await harness.shown(lobby, seats)
    first = next(s for s in seats if private_of(result, s.person).legal)
    return first, next(s for s in seats if s is not first), lobby


def fingerprint(harness: Harness, channel: Channel, people: list[Person]) -> list[int]:
    """How many versions the table message and every hand DM have had."""
    messages = [harness.table_message(channel)]
    messages += [m for p in people for m in p.dm_messages()]
    return [len(m.history) for m in messages]


async def unchanged(
    harness: Harness, channel: Channel, seats: list[Seat], attempt: Awaitable[Interaction]
) -> Interaction:
    """Run ``attempt`` (an awaitable interaction) and check it changed nothing."""
    people = [s.person for s in seats]
    before = await harness.shown(channel, seats)
    prints = fingerprint(harness, channel, people)
    answered = await attempt
    await harness.idle()
    after = await harness.result(channel)
    assert after.version == before.version and after.status == before.status
    assert fingerprint(harness, channel, people) == prints
    # A click is acknowledged by "deferring" its message (which stays as it was, as the
    # fingerprint shows); the refusal itself is a private follow-up.
    said = answered.followups if answered.callback_type == 6 else answered.messages
    assert said and all(m.ephemeral for m in said), answered.text
    return answered


async def test_stale_foreign_out_of_turn_abort_and_garbage(harness: Harness) -> None:
    mover, waiter, lobby = await two_player_gin(harness)
    seats = [mover, waiter]
    carol = harness.fake.user("carol")
    old_hand = mover.hand_dm().snapshot()
    old_table = harness.table_message(lobby).snapshot()
    await play_out([mover, waiter], lobby, limit=3)

    # A button of an earlier turn (the screen had not refreshed).
    label = old_hand.buttons()[0]["label"]
    stale = await unchanged(harness, lobby, seats, mover.person.click(old_hand, label))
    assert "earlier turn" in stale.text

    # Someone else's button: Carol's client sends a click on Alice's hand message.
    hand = mover.hand_dm() if (await mover.mine())[1].legal else waiter.hand_dm()
    button = (hand.buttons() or hand.selects())[0]
    data = {"custom_id": button["custom_id"], "component_type": button["type"]}
    if button["type"] == 3:
        data["values"] = [button["options"][0]["value"]]

    foreign = await unchanged(harness, lobby, seats, carol.send(hand, data))
    assert "not your seat" in foreign.text
    peek = await unchanged(harness, lobby, seats, carol.click(old_table, "Your hand"))
    assert "not playing at this table" in peek.text

    # A move out of turn, typed, by the seat that is waiting.
    result = await harness.result(lobby)
    idle = next(s for s in (mover, waiter) if not private_of(result, s.person).legal)
    busy = mover if idle is waiter else waiter
    legal = (await busy.mine())[1].legal[0]
    turn = await unchanged(harness, lobby, seats, idle.person.slash("play", move=legal))
    assert "not your turn" in turn.text, turn.text
    assert await idle.person.autocomplete("play", "move", "") == []

    # Garbage, and a non-host abort.
    garbage = {
        "": "Say what to do",
        "discard ZZ": "'ZZ' is not a card",
        "fly me to the moon": "Unknown move 'fly'",
        "x" * 100: "Unknown move",
    }
    for junk, reason in garbage.items():
        bad = await unchanged(harness, lobby, seats, busy.person.slash("play", move=junk))
        assert reason in bad.text, bad.text
    host, guest = (mover, waiter) if mover.person.name == "alice" else (waiter, mover)
    refused = await unchanged(harness, lobby, seats, guest.person.slash("table abort"))
    assert "Only the table's host" in refused.text
    refused = await unchanged(harness, lobby, seats, carol.slash("table abort"))
    assert "Only the table's host" in refused.text
    assert host.person.name == "alice"


async def test_two_clicks_at_the_same_instant(harness: Harness) -> None:
    mover, _, lobby = await two_player_gin(harness)
    before = await harness.result(lobby)
    hand = mover.hand_dm()
    first, second = hand.buttons()[:2]
    answers = await asyncio.gather(
        mover.person.click(hand, first["custom_id"]),
        mover.person.click(hand.snapshot(), second["custom_id"]),
    )
    after = await harness.outcome(lobby, before)
    assert after.version == before.version + 1
    refused = [a for a in answers if a.messages and a.messages[-1].ephemeral]
    assert len(refused) == 1 and "earlier turn" in refused[0].text, [a.text for a in answers]


async def test_two_people_take_the_last_seat_at_once(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    opened = await alice.slash("table new", game="spades")
    lobby: Message | None = opened.response
    assert lobby is not None
    answers = await asyncio.gather(bob.click(lobby, "Join"), carol.click(lobby.snapshot(), "Join"))
    result = await harness.result(fake.channel("lobby"))
    assert len(result.seats) == 2
    joined = [p for p in (bob, carol) if p.mention in lobby.text]
    assert len(joined) == 1
    refused = [a for a in answers if a.followups and all(m.ephemeral for m in a.followups)]
    assert len(refused) == 1 and refused[0].user is not joined[0].user
    assert refused[0].text, refused[0]


async def test_a_forged_component_is_answered_once(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A click discord.py would hand to no item, or that our fallback would answer as well
    as an item, is answered exactly once: both take the click by the same rule
    (``bot.ui.items.taken``)."""
    mover, waiter, lobby = await two_player_gin(harness)
    hand = mover.hand_dm()
    take = hand.buttons()[0]["custom_id"]

    def select_carrying(custom_id: str) -> Message:
        """The hand as a forging client shows it: its buttons one select with ``custom_id``."""
        screen = hand.snapshot()
        screen.components = [{"type": 1, "components": [{
            "type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "x"}],
        }]}]
        return screen

    with caplog.at_level(logging.WARNING):
        # A select carrying a button's id, on a message that holds such a select: the
        # button's item takes it (and the service checks the move), the fallback does not.
        once = await mover.person.send(
            select_carrying(take), {"custom_id": take, "component_type": 3, "values": ["x"]})
        await harness.idle()
        assert len(once.messages) == 1, [m.content for m in once.messages]
        # The same on the hand as it is (it holds a button with that id, no select), and a
        # button of an earlier turn that is no longer on its message: no item takes them,
        # the fallback says the button is broken, and nothing changes.
        for data in ({"custom_id": take, "component_type": 3, "values": ["x"]},
                     {"custom_id": CustomId(parse(take).table_id, 0, "act", "knock").text,
                      "component_type": 2}):
            broken = await unchanged(harness, lobby, [mover, waiter], mover.person.send(hand, data))
            assert "doesn't work" in broken.text, broken.text
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
