"""Playing without DMs: ``/settings hand:channel`` keeps each hand in a private panel in
the channel that the bot updates after every move, through interaction tokens."""

from __future__ import annotations

import pytest

from bot.ui.publish import Reach
from bot.ui.publish.tokens import USABLE
from tests.e2e.fake_state import Message
from tests.e2e.play import (  # noqa: F401
    FakeTime,
    Harness,
    PanelSeat,
    Seat,
    harness_fixture,
    play_out,
)
from tests.e2e.test_games_e2e import GAMES, open_table
from tests.waiting import until

TABLE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_with_hands_in_the_channel(harness: Harness, game: str) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    humans = [fake.user("alice"), fake.user("bob")]
    for person in humans:
        answer = await person.slash("settings", hand="channel")
        assert answer.ephemeral and "in the channel" in answer.text, answer.text
    options, computers = GAMES[game]
    with fake.count() as counter:
        await open_table(harness, game, options, humans, computers)
        seats = [PanelSeat(p, harness, lobby) for p in humans]
        final = await play_out(seats, lobby)
        await harness.idle()

    assert final.status == "finished"
    for seat in seats:
        assert seat.person.dm_messages() == [], "no DM for a player who keeps the channel"
        # The host's panel came with the Start click; the other pressed Your hand once:
        # after that every move, theirs or anyone's, updated the panel in place.
        assert seat.opened <= 1, (seat.person.name, seat.opened)
        panel = seat.panel()
        assert panel is not None

        def ended(panel: Message = panel) -> bool:
            return "The game is over" in panel.content

        await until(ended, f"the end in {seat.person.name}'s panel")
        assert not panel.buttons() and not panel.selects()
    moves = sum(s.moves for s in seats)
    # Table edits through tokens; the bot's own token only for turn pings of players who
    # were away (here: each player's first turn) — far below one call per move.
    assert counter.by_route[TABLE_EDIT] == 0, counter.by_route
    assert counter.global_limited <= 4 + moves * 0.3, (counter.global_limited, moves)


async def test_a_panel_about_to_run_out_says_how_to_keep_it(harness: Harness) -> None:
    """A minute before Discord stops taking a panel's token, its last edit says so; a move
    made on it anyway gives it a fresh token, and it updates itself again. The bot's clock
    is the fake Discord's, moved on by the test (``FakeTime``)."""
    fake = harness.fake
    await harness.start(clock=FakeTime(fake))
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    for person in (alice, bob):
        await person.slash("settings", hand="channel")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    seats = [PanelSeat(alice, harness, lobby), PanelSeat(bob, harness, lobby)]
    await play_out(seats, lobby, limit=2)
    await harness.idle()
    fake.clock.advance(USABLE)  # every token there is reaches the end of its use
    panels = [panel for s in seats if (panel := s.panel()) is not None]
    assert panels
    for panel in panels:

        def noted(panel: Message = panel) -> bool:
            return "stops updating here" in panel.content

        await until(noted, "the panel's last-minute note")
    await play_out(seats, lobby, limit=2)  # moves made from the panels revive them
    result = await harness.result(lobby)
    assert result.status == "playing" and result.version > 0


async def test_hands_in_both_places_stay_the_same(harness: Harness) -> None:
    """``hand:both``: the hand DM and the channel panel (once opened) both follow every
    move; the player plays from the DM."""
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    for person in (alice, bob):
        await person.slash("settings", hand="both")
    await open_table(harness, "spades", "target=50", [alice, bob], 0)
    dm_seats = [Seat(alice, harness, lobby), Seat(bob, harness, lobby)]
    await bob.click(harness.table_message(lobby), "Your hand")  # bob opens a panel too
    await play_out(dm_seats, lobby, limit=12)
    await harness.idle()
    result = await harness.result(lobby)
    mine = result.for_user(bob.id)
    assert mine is not None
    panel = PanelSeat(bob, harness, lobby)
    shown = await panel.hand(result, mine)  # waits until the panel shows this version
    newest = panel.panel()
    assert panel.opened == 0 and newest is not None and shown.id == newest.id
    assert "your hand" in dm_seats[1].hand_dm().content


async def test_a_table_reached_only_through_tokens_makes_no_bot_call(harness: Harness) -> None:
    """A table set to ``Reach.TOKENS`` (a place the bot's token cannot reach) is played to
    the end with every message through interaction tokens: the bot's own token is never
    used for it — not for the table message, the panels, pings or pictures."""
    client = await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    for person in (alice, bob):
        await person.slash("settings", hand="channel")
    opened = await alice.slash("table new", game="gin_rummy", options="target=10")
    table_id = (await harness.result(lobby)).table_id
    client.publisher.delivery.set_reach(table_id, Reach.TOKENS)
    assert opened.response is not None
    with fake.count() as counter:
        await bob.click(opened.response, "Join")
        await alice.click(opened.response, "Start")
        seats = [PanelSeat(p, harness, lobby) for p in (alice, bob)]
        final = await play_out(seats, lobby)
        await harness.idle()
    assert final.status == "finished"
    await until(lambda: "Result" in harness.table_message(lobby).text, "the result")
    assert counter.global_limited == 0, counter.by_route
