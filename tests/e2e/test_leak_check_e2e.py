"""The hidden-card check used by every scenario can fail: planted leaks are caught, a
player's own cards in their own DM are not."""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.ono99 import pretty_cards
from bot.render.table import LAST_MOVES
from games.cards import pretty
from tests.e2e.fake_state import Channel, User
from tests.e2e.play import Harness, LeakCheck, PanelSeat, Seat, harness_fixture  # noqa: F401
from tests.e2e.test_anywhere_e2e import PLAYING, group_dm, start_anywhere
from tests.e2e.test_games_e2e import gin_for_two, open_table


def caught(
    harness: Harness, table: Channel, channel: Channel, text: str,
    more: Mapping[str, object] | None = None, ephemeral_for: User | None = None,
) -> str:
    """What a fresh check says of a message about ``table`` planted in ``channel`` (with
    ``more`` of a message's fields: embeds, components; only for ``ephemeral_for``)."""
    fake = harness.fake
    check = LeakCheck(fake, harness.db_path)
    check.mark()
    check.noted.clear()  # only the planted message is checked
    planted = fake.create_message(
        channel, {"content": f"<#{table.id}> {text}", **(more or {})},
        ephemeral_for=ephemeral_for,
    )
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
    (alice_seat, bob_seat), lobby = await gin_for_two(harness)
    alice, bob = alice_seat.person, bob_seat.person
    bob_card = pretty((await bob_seat.mine())[1].view["hand"][0])
    alice_card = pretty((await alice_seat.mine())[1].view["hand"][0])
    alice_dm, bob_dm = fake.dm_channel(alice.user), fake.dm_channel(bob.user)

    assert bob_card in caught(harness, lobby, lobby, f"Bob holds {bob_card}")
    assert bob_card in caught(harness, lobby, alice_dm, f"psst, Bob holds {bob_card}")
    assert caught(harness, lobby, alice_dm, f"Your hand: {alice_card}") == ""
    assert caught(harness, lobby, bob_dm, f"Your hand: {bob_card}") == ""
    assert caught(harness, lobby, lobby, "nothing to see here") == ""


async def test_planted_leaks_in_a_group_dm_without_the_bot_are_caught(
    harness: Harness,
) -> None:
    """Where the bot is no member, a message everyone in the group DM sees, and a private
    panel of another seat, may not show a card; a seat's own panel may."""
    await start_anywhere(harness)
    (alice, bob, _), gdm = group_dm(harness)
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0, gdm, playing=PLAYING)
    bob_card = pretty((await PanelSeat(bob, harness, gdm).mine())[1].view["hand"][0])

    assert bob_card in caught(harness, gdm, gdm, f"Bob holds {bob_card}")
    assert bob_card in caught(harness, gdm, gdm, f"Bob holds {bob_card}",
                              ephemeral_for=alice.user)
    assert caught(harness, gdm, gdm, f"Your hand: {bob_card}", ephemeral_for=bob.user) == ""


async def test_a_planted_ono99_hand_is_caught(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "ono99", "", [alice, bob], 0)
    bob_hand = pretty_cards((await Seat(bob, harness, lobby).mine())[1].view["hand"])

    assert bob_hand in caught(harness, lobby, lobby, f"Bob has {bob_hand}")
    assert caught(harness, lobby, fake.dm_channel(bob.user), f"Your hand: {bob_hand}") == ""


async def test_a_previous_deals_cards_are_public_only_where_they_were_shown(
    harness: Harness,
) -> None:
    """After a new deal, a card thrown in the last one may still be listed under *Last
    moves* (and in a late edit drawn before the deal), but nowhere else."""
    await harness.start()
    fake = harness.fake
    both, lobby = await gin_for_two(harness, "")
    seats = {s.person.id: s for s in both}
    bob = both[1].person
    result = await harness.result(lobby)
    thrown: list[str] = []
    while not thrown:  # play to a new deal that gives Bob a card thrown in the last one
        assert result.public is not None and result.public["hand_no"] < 10, "no such deal"
        hand_no = result.public["hand_no"]
        while result.public is not None and result.public["hand_no"] == hand_no:
            mover = next(p.user_id for p in result.private.values() if p.legal)
            move = await seats[mover].choose()
            result = await harness.client.tables.act(lobby.id, mover, move, result.version)
        tables = LeakCheck(fake, harness.db_path)._load()
        now = next(t for t in tables if t.id == result.table_id).versions[-1]
        mine = result.for_user(bob.id)
        assert mine is not None
        bob_seat = mine.seat
        thrown = sorted(now.earlier & now.secret[bob_seat])
    card = pretty(thrown[0])
    last_moves = {"embeds": [{"fields": [{"name": LAST_MOVES, "value": f"Ann threw {card}."}]}]}

    assert caught(harness, lobby, lobby, "", last_moves) == ""
    assert card in caught(harness, lobby, lobby, f"Bob holds {card}")
    before = {"components": [hand_button(result.table_id, result.version - 1)]}
    assert caught(harness, lobby, lobby, f"Ann threw {card}", before) == ""
    now_button = {"components": [hand_button(result.table_id, result.version)]}
    assert card in caught(harness, lobby, lobby, f"Ann threw {card}", now_button)


def hand_button(table_id: int, version: int) -> dict[str, object]:
    """A row with a table's *Your hand* button drawn at ``version``."""
    button = {"type": 2, "style": 1, "label": "Your hand",
              "custom_id": f"dh:{table_id}:{version}:hand"}
    return {"type": 1, "components": [button]}
