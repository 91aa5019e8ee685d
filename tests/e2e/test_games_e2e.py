"""Every game played to the end through slash commands, buttons and selects only, hands
read from DMs (or the ephemeral *Your hand* view), then the league standings."""

from __future__ import annotations

import re
from typing import Any

import pytest

import games
from tests.e2e.driver import Person
from tests.e2e.fake_state import Channel
from tests.e2e.play import Harness, Seat, cost_summary, harness_fixture, play_out  # noqa: F401
from tests.waiting import until

# game -> (options, computer seats); short options so every game ends in seconds.
GAMES = {
    "gin_rummy": ("target=10", 0),
    "spades": ("target=50", 0),
    "back_alley": ("deals=2", 2),
    "craits": ("short=on", 3),
    "ono99": ("", 3),
}


async def open_table(
    harness: Harness,
    game: str,
    options: str,
    humans: list[Person],
    computers: int,
    channel: Channel | None = None,
    *,
    playing: tuple[str, ...] = ("Your hand",),
    **table: Any,
) -> None:
    """The host opens the table (with ``table``'s other options, e.g. ``timer``); the others
    join by button; computers are added; start: the lobby's buttons become ``playing``."""
    host = humans[0]
    given: dict[str, Any] = {"options": options} if options else {}
    opened = await host.slash("table new", channel=channel, game=game, **given, **table)
    lobby = opened.response
    assert lobby is not None and not opened.ephemeral, opened.text
    for person in humans[1:]:
        await person.click(lobby, "Join")
        assert person.mention in lobby.text
    for _ in range(computers):
        await host.click(lobby, "Add computer")
    started = await host.click(lobby, "Start")
    # Nothing private but the host's own hand panel, when they keep it in the channel.
    assert not started.ephemeral or "your hand" in started.text, started.text
    assert [b["label"] for b in lobby.buttons()] == list(playing)


def standings_rows(text: str) -> list[str]:
    """Player names in the standings table, best first (after a rank, or none for a
    provisional player)."""
    return re.findall(r"^ *\d* (\S+)", text.split("```")[1], re.M)


async def gin_for_two(harness: Harness, options: str = "target=10") -> tuple[list[Seat], Channel]:
    """Alice and Bob at a started Gin Rummy table in #lobby: their seats and the channel."""
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "gin_rummy", options, [alice, bob], 0)
    return [Seat(alice, harness, lobby), Seat(bob, harness, lobby)], lobby


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_then_the_standings(harness: Harness, game: str) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    options, computers = GAMES[game]
    names = ["alice", "bob"]
    humans = [fake.user(n) for n in names]
    await open_table(harness, game, options, humans, computers)
    seats = [Seat(p, harness, lobby) for p in humans]

    final = await play_out(seats, lobby)

    assert final.status == "finished" and final.outcome is not None
    await until(lambda: "Result" in harness.table_message(lobby).text, "the result on the table")
    table = harness.table_message(lobby)
    assert [b["label"] for b in table.buttons()] == ["Rematch"]
    for line in final.outcome.scores:
        assert str(line) in table.text
    for seat in seats:

        def ended(seat: Seat = seat) -> bool:
            return "The game is over" in seat.hand_dm().content

        await until(ended, f"the end in {seat.person.name}'s hand DM")
        hand = seat.hand_dm()
        assert not hand.buttons() and not hand.selects()
    # One picture of each scored hand, posted once (drawn from public events only).
    await until(lambda: any(m.attachments for m in lobby.messages()), "the hands' pictures")
    await harness.idle()
    pictures = [a["filename"] for m in lobby.messages() for a in m.attachments]
    assert len(pictures) == len(set(pictures)), pictures
    assert all(p.startswith(f"{game}-hand-") and p.endswith(".png") for p in pictures)
    assert harness.fake.uploads[
        next(a["id"] for m in lobby.messages() for a in m.attachments)
    ].startswith(b"\x89PNG")
    standings = await humans[0].slash("league standings", game=game)
    assert games.get(game).title in standings.text
    rows = standings_rows(standings.text)
    ranks = {str(s.name): final.outcome.ranks[s.seat] for s in final.seats if s.user_id}
    assert sorted(rows) == sorted(ranks), (rows, ranks)
    assert [ranks[r] for r in rows] == sorted(ranks[r] for r in rows), (rows, ranks)
    summary = cost_summary(harness.costs, fake.latencies())
    print(f"\n{game}: {final.version} table versions, pages turned {harness.clicked('page')}"
          f", multi-selects {harness.clicked('multi')}\n{summary}")


async def test_closed_dms_play_a_whole_game_from_the_your_hand_view(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    bob.close_dms()
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    seats = [Seat(alice, harness, lobby), Seat(bob, harness, lobby)]

    final = await play_out(seats, lobby)

    assert final.status == "finished"
    assert bob.dm_messages() == []
    notices = [m for m in lobby.messages() if "can't send you your hand" in m.content]
    assert len(notices) == 1 and bob.mention in notices[0].content
    views = [m for m in bob.ephemerals(lobby) if "your hand" in m.content]
    assert seats[1].moves > 0 and len(views) >= seats[1].moves


async def test_a_blind_nil_exchange_is_picked_card_by_card(harness: Harness) -> None:
    """The Blind Nil exchange (up to three of thirteen cards: hundreds of moves) is one
    multi-select of the player's cards; picking two exchanges exactly those two."""
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "spades", "target=50", [alice, bob], 0)
    seats = {p.id: Seat(p, harness, lobby) for p in (alice, bob)}
    declared = False
    for _ in range(60):
        result = await harness.result(lobby)
        mine = next(p for p in result.private.values() if p.legal)
        seat = seats[mine.user_id]
        if "blindnil" in mine.legal and not declared:
            await seat.move("blindnil")
            declared = True
            continue
        if any(a.startswith("exchange ") for a in mine.legal):
            break
        await seat.move()
    else:
        raise AssertionError("no Blind Nil exchange was offered")
    message = await seat.hand(result, mine)
    menus = [m for m in message.selects() if m["custom_id"].split(":")[3] == "multi"]
    assert len(menus) == 1 and (menus[0]["min_values"], menus[0]["max_values"]) == (1, 3)
    picked = [o["value"] for o in menus[0]["options"][:2]]
    await seat.move("exchange " + " ".join(picked))
    assert harness.clicked("multi") == 1
    _, after = await seat.mine()
    assert not set(picked) & set(after.view["hand"]) and len(after.view["hand"]) == 13
