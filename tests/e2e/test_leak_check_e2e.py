"""The hidden-card check used by every scenario can fail: planted leaks are caught, a
player's own cards in their own DM are not."""

from __future__ import annotations

from bot.render.ono99 import pretty_cards
from games.cards import pretty
from tests.e2e.fake_state import Channel
from tests.e2e.play import Harness, LeakCheck, Seat, harness_fixture  # noqa: F401
from tests.e2e.test_games_e2e import open_table


def caught(harness: Harness, table: Channel, channel: Channel, text: str) -> str:
    """What a fresh check says of a message about ``table`` planted in ``channel``."""
    fake = harness.fake
    check = LeakCheck(fake, harness.db_path)
    check.mark()
    check.noted.clear()  # only the planted message is checked
    planted = fake.create_message(channel, {"content": f"<#{table.id}> {text}"})
    check.mark()
    planted.deleted = True
    harness.leaks.seen[planted.id] = len(planted.history)  # the fixture skips it
    try:
        check.check()
    except AssertionError as exc:
        return str(exc)
    return ""


async def test_planted_card_leaks_are_caught(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    bob_card = pretty((await Seat(bob, harness, lobby).mine())[1].view["hand"][0])
    alice_card = pretty((await Seat(alice, harness, lobby).mine())[1].view["hand"][0])
    alice_dm, bob_dm = fake.dm_channel(alice.user), fake.dm_channel(bob.user)

    assert bob_card in caught(harness, lobby, lobby, f"Bob holds {bob_card}")
    assert bob_card in caught(harness, lobby, alice_dm, f"psst, Bob holds {bob_card}")
    assert caught(harness, lobby, alice_dm, f"Your hand: {alice_card}") == ""
    assert caught(harness, lobby, bob_dm, f"Your hand: {bob_card}") == ""
    assert caught(harness, lobby, lobby, "nothing to see here") == ""


async def test_a_planted_ono99_hand_is_caught(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "ono99", "", [alice, bob], 0)
    bob_hand = pretty_cards((await Seat(bob, harness, lobby).mine())[1].view["hand"])

    assert bob_hand in caught(harness, lobby, lobby, f"Bob has {bob_hand}")
    assert caught(harness, lobby, fake.dm_channel(bob.user), f"Your hand: {bob_hand}") == ""
