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
) -> None:
    """The host opens the table; the others join by button; computers are added; start."""
    host = humans[0]
    given: dict[str, Any] = {"options": options} if options else {}
    opened = await host.slash("table new", channel=channel, game=game, **given)
    lobby = opened.response
    assert lobby is not None and not opened.ephemeral, opened.text
    for person in humans[1:]:
        await person.click(lobby, "Join")
        assert person.mention in lobby.text
    for _ in range(computers):
        await host.click(lobby, "Add computer")
    started = await host.click(lobby, "Start")
    assert not started.ephemeral, started.text
    assert [b["label"] for b in lobby.buttons()] == ["Your hand"]


def standings_rows(text: str) -> list[str]:
    """Player names in the standings table, best first."""
    rows = re.findall(r"^\s*\d+ (\S+)", text.split("```")[1], re.M)
    return [r for r in rows if r != "Player"]


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
    table = harness.table_message(lobby)
    assert "Result" in table.text and [b["label"] for b in table.buttons()] == ["Rematch"]
    for line in final.outcome.scores:
        assert str(line) in table.text
    for seat in seats:
        hand = seat.hand_dm()
        assert "The game is over" in hand.content and not hand.buttons() and not hand.selects()
    standings = await humans[0].slash("league standings", game=game)
    assert games.get(game).title in standings.text
    rows = standings_rows(standings.text)
    ranks = {s.name: final.outcome.ranks[s.seat] for s in final.seats if s.user_id}
    assert sorted(rows) == sorted(ranks), (rows, ranks)
    assert [ranks[r] for r in rows] == sorted(ranks[r] for r in rows), (rows, ranks)
    summary = cost_summary(harness.costs, fake.latencies())
    print(f"\n{game}: {final.version} table versions\n{summary}")


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
