"""Events from Discord alone: a 6-player Swiss night of 3 rounds and a duplicate night,
signed up by button, every game played by people through their hands in threads, the bot
restarted in the middle — and the event's results counted toward the server's league."""

from __future__ import annotations

import re
import sqlite3

import pytest

from bot.services.tables import SeatInfo
from tests.e2e.driver import Person
from tests.e2e.fake_state import CREATE_PUBLIC_THREADS, Channel, Message
from tests.e2e.play import Harness, Seat, harness_fixture, play_out  # noqa: F401
from tests.waiting import until


def threads_of(harness: Harness, parent: Channel) -> list[Channel]:
    return [c for c in harness.fake.channels.values() if c.parent is parent and not c.deleted]


async def sign_up(people: list[Person], message: Message) -> None:
    for person in people:
        done = await person.click(message, "Sign up")
        assert done.callback_type == 6, done.text  # the sign-up message itself is updated
    await until(lambda: f"Signed up ({len(people)})" in message.text,
                f"the sign-up message to count {len(people)}")


async def open_table(harness: Harness, thread: Channel, after: int = 0) -> int:
    """Wait until a game newer than table ``after`` is being played in the thread; its id."""

    async def playing() -> int | None:
        result = await harness.result(thread)
        new = result.status == "playing" and result.table_id > after
        return result.table_id if new else None

    return await until(playing, f"a new game in {thread.name}")


def person_at(people: dict[int, Person], seat: SeatInfo) -> Person:
    """The person in a human ``seat``."""
    assert seat.user_id is not None, seat
    return people[seat.user_id]


async def play_round(
    harness: Harness, lobby: Channel, people: dict[int, Person], round_no: int, *,
    skip: int = 0, stop_after: int | None = None,
) -> list[Channel]:
    """Play the round's tables (after the first ``skip``; ``stop_after`` tables at most);
    the threads of the round."""
    await until(
        lambda: len([t for t in threads_of(harness, lobby) if f"round {round_no}" in t.name])
        == 3, f"round {round_no}'s three tables",
    )
    threads = [t for t in threads_of(harness, lobby) if f"round {round_no} " in t.name + " "]
    for thread in threads[skip:][:stop_after]:
        await open_table(harness, thread)
        result = await harness.result(thread)
        seats = [Seat(person_at(people, s), harness, thread) for s in result.seats]
        final = await play_out(seats, thread)
        assert final.status == "finished"
    return threads


@pytest.mark.slow
async def test_a_swiss_night_of_three_rounds_with_a_restart(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    ada = fake.member("ada", manage_guild=True)
    names = ("bea", "cal", "dot", "eli", "fay", "gus")
    players = [fake.user(n) for n in names]
    people = {p.id: p for p in players}

    refused = await players[0].slash(
        "event new", name="Friday Swiss", game="gin_rummy", format="swiss", rounds=3
    )
    assert "Manage Server" in refused.text, refused.text
    opened = await ada.slash(
        "event new", name="Friday Swiss", game="gin_rummy", format="swiss", rounds=3,
        options="target=10",
    )
    message = opened.response
    assert message is not None and "Event #1: Friday Swiss" in message.text, opened.text
    await sign_up(players, message)
    again = await players[0].click(message, "Sign up")
    assert any("already signed up" in m.text for m in again.followups), again.text
    early = await players[1].click(message, "Start")
    assert any("created the event" in m.text for m in early.followups), early.text
    started = await ada.click(message, "Start")
    assert started.callback_type == 6
    await until(lambda: "Running: round 1 of 3" in message.text, "the event's message to run")

    await until(lambda: any("round 1 of 3 is on" in m.text for m in lobby.messages()),
                "round 1's announcement")
    announcement = next(m for m in lobby.messages() if "round 1 of 3 is on" in m.text)
    assert all(p.mention in announcement.text for p in players), announcement.text
    await play_round(harness, lobby, people, 1)
    await play_round(harness, lobby, people, 2, stop_after=2)

    await harness.idle()
    await harness.stop()  # a deploy in the middle of round 2
    await harness.start()
    await play_round(harness, lobby, people, 2, skip=2)
    await play_round(harness, lobby, people, 3)

    await until(lambda: any("The event is over" in m.text for m in lobby.messages()),
                "the final standings")
    final = next(m for m in lobby.messages() if "The event is over" in m.text)
    assert "Order: points, then Buchholz, then Sonneborn-Berger, then seed." in final.text
    await until(lambda: "Finished." in message.text, "the event's message to say it ended")
    assert "winner:" in final.text
    standings = await bea_standings(players[0])
    rows = re.findall(r"^\s*\d+ (\w+)\s+([\d.]+)", standings, re.M)
    assert sorted(n.lower() for n, _ in rows) == sorted(names), standings
    assert sum(float(p) for _, p in rows) == 9  # nine games, a point each (no byes)

    # Nobody met the same opponent twice, and every game counted toward the league.
    db = sqlite3.connect(harness.db_path)
    seats = db.execute("SELECT seats FROM event_tables WHERE event_id = 1").fetchall()
    pairs = [frozenset(map(int, re.findall(r"\d+", s))) for (s,) in seats]
    assert len(pairs) == 9 and len(set(pairs)) == 9, pairs
    counted = db.execute(
        "SELECT COUNT(*) FROM league_matches lm JOIN event_tables et"
        " ON et.match_id = lm.match_id WHERE et.event_id = 1"
    ).fetchone()[0]
    assert counted == 9
    rematch = [m for t in threads_of(harness, lobby) for m in t.messages() if "Rematch" in m.text]
    assert rematch == []  # an event's game has no rematch button


async def bea_standings(person: Person) -> str:
    shown = await person.slash("event standings", event=1)
    return shown.text


async def test_a_duplicate_night_plays_the_same_cards_at_every_table(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    ada = fake.member("ada", manage_guild=True)
    players = [fake.user(n) for n in ("bea", "cal", "dot", "eli")]
    people = {p.id: p for p in players}
    opened = await ada.slash(
        "event new", name="Duplicate", game="gin_rummy", format="duplicate", rounds=1,
        boards=2, options="target=10",
    )
    assert opened.response is not None
    await sign_up(players, opened.response)
    await ada.slash("event start")
    await until(lambda: len(threads_of(harness, lobby)) == 2, "two tables")
    first, second = threads_of(harness, lobby)
    # Every table plays the same cards: a table's thread is private to its players.
    assert first.private and second.private
    await open_table(harness, first)
    at_first = {s.user_id for s in (await harness.result(first)).seats}
    assert first.members == at_first | {fake.bot_user.id}
    outsider = next(p for p in players if p.id not in at_first)
    with pytest.raises(AssertionError, match="not in the private"):
        await outsider.click(harness.table_message(first), "Your hand")

    async def board(thread: Channel, after: int = 0) -> int:
        table_id = await open_table(harness, thread, after)
        result = await harness.result(thread)
        seats = [Seat(person_at(people, s), harness, thread) for s in result.seats]
        await play_out(seats, thread)
        return table_id

    played = [await board(first)]
    # Board 1 is still to be played at the other table: its game is not replayed yet.
    db = sqlite3.connect(harness.db_path)
    (match_id,) = db.execute(
        "SELECT match_id FROM event_tables WHERE event_id = 1 AND table_no = 1 AND board = 1"
    ).fetchone()
    early = await outsider.slash("game replay", id=match_id)
    assert f"no finished game #{match_id}" in early.text, early.text
    # Nor has it moved any rating yet: the finished table says when it will count.
    later = "This board counts toward the league once every table has played it."
    await until(lambda: any(later in m.text for m in first.messages()), "when the board counts")
    rows = re.findall(r"^ *\d +\S+ +(\d+) +(\d+) +\d+$", await bea_standings(ada), re.M)
    assert rows == [("0", "0")] * 4, rows  # no matchpoints, no board played, counted yet
    await harness.stop()
    await harness.start()
    played += [await board(first, played[0]), await board(second), await board(second)]
    await until(lambda: any("The event is over" in m.text for m in lobby.messages()),
                "the final standings")
    final = next(m for m in lobby.messages() if "The event is over" in m.text)
    assert "Order: matchpoints, then seed." in final.text, final.text

    shown = await outsider.slash("game replay", id=match_id)
    assert shown.response is not None and "The deal" in shown.response.text, shown.text
    rows = db.execute(
        "SELECT et.board, t.seed, t.snapshot IS NOT NULL FROM event_tables et"
        " JOIN tables t ON t.id = et.table_id WHERE et.event_id = 1 ORDER BY et.board"
    ).fetchall()
    assert len(rows) == 4
    seeds = {b: {s for bb, s, _ in rows if bb == b} for b, _, _ in rows}
    assert all(len(s) == 1 for s in seeds.values()), seeds  # one deal per board
    assert seeds[1] != seeds[2]
    # Matchpoints: 2 a board for the better result, 1 each for a tie — 4 to share a board.
    total = db.execute("SELECT COUNT(*) FROM event_tables WHERE event_id = 1 AND scores"
                       " IS NOT NULL").fetchone()[0]
    assert total == 4


async def test_a_withdrawn_player_is_replaced_and_then_gets_no_pairing(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    ada = fake.member("ada", manage_guild=True)
    players = [fake.user(n) for n in ("bea", "cal", "dot", "eli")]
    people = {p.id: p for p in players}

    bare = fake.add_channel("no-threads")
    fake.deny(bare, CREATE_PUBLIC_THREADS)
    refused = await ada.slash("event new", channel=bare, name="Cup", game="gin_rummy",
                              format="swiss", rounds=2)
    assert refused.ephemeral and "Create Public Threads" in refused.text, refused.text

    opened = await ada.slash("event new", name="Cup", game="gin_rummy", format="swiss",
                             rounds=2, options="target=10")
    invite = opened.response
    assert invite is not None
    await sign_up(players[:3], invite)
    joined = await players[3].slash("event join")  # by command: the message follows
    assert "signed up for Cup" in joined.text, joined.text
    await until(lambda: "Signed up (4)" in invite.text, "the message to count 4")
    await ada.slash("event start", event=1)
    await until(lambda: len(threads_of(harness, lobby)) == 2, "round 1's tables")
    first, other = threads_of(harness, lobby)

    # A stop between opening a game and posting its table message (as if killed then):
    # the next start posts it.
    await harness.idle()
    await harness.stop()
    posted = [m for m in other.messages() if " — table " in m.text]
    db = sqlite3.connect(harness.db_path)
    with db:
        db.execute("DELETE FROM discord_messages WHERE kind = 'table' AND channel_id = ?",
                   (other.id,))
    await harness.start()
    await until(lambda: len([m for m in other.messages() if " — table " in m.text])
                == len(posted) + 1, "the table message posted again")
    await open_table(harness, first)
    seated = (await harness.result(first)).seats
    quitter, stayer = (person_at(people, s) for s in seated)
    gone = await quitter.slash("event leave")
    assert "withdrew" in gone.text, gone.text
    after = await harness.result(first)
    assert after.seats[[s.user_id for s in seated].index(quitter.id)].user_id is None
    for thread in threads_of(harness, lobby):
        await open_table(harness, thread)
        result = await harness.result(thread)
        seats = [Seat(people[s.user_id], harness, thread) for s in result.seats if s.user_id]
        assert (await play_out(seats, thread)).status == "finished"

    await until(lambda: any("round 2 of 2 is on" in m.text for m in lobby.messages()),
                "round 2")
    second = next(m for m in lobby.messages() if "round 2 of 2 is on" in m.text)
    assert "Bye:" in second.text and quitter.mention not in second.text, second.text
    assert stayer.mention in second.text or "Bye: " + stayer.mention in second.text

    # The organiser calls it off in round 2: its open game is closed, nothing more opens.
    nope = await stayer.slash("event cancel")
    assert "created the event" in nope.text, nope.text
    done = await ada.slash("event cancel")
    assert "cancelled" in done.text, done.text
    await harness.idle()
    for thread in threads_of(harness, lobby):
        assert (await harness.result(thread)).status != "playing"
    assert not any("The event is over" in m.text for m in lobby.messages())


async def test_a_computer_evens_out_an_odd_field_when_allowed(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    ada = fake.member("ada", manage_guild=True)
    players = [fake.user(n) for n in ("bea", "cal", "dot")]
    people = {p.id: p for p in players}
    opened = await ada.slash("event new", name="Odd", game="gin_rummy", format="swiss",
                             rounds=1, options="target=10", computer="normal")
    assert opened.response is not None and "computer evens out" in opened.response.text
    await sign_up(players, opened.response)
    await ada.slash("event start")
    await until(lambda: any("round 1 of 1 is on" in m.text for m in lobby.messages()),
                "round 1")
    announced = next(m for m in lobby.messages() if "round 1 of 1 is on" in m.text)
    assert "Bye" not in announced.text and r"vs Computer \(normal\)" in announced.text
    for thread in threads_of(harness, lobby):
        await open_table(harness, thread)
        result = await harness.result(thread)
        seats = [Seat(people[s.user_id], harness, thread) for s in result.seats if s.user_id]
        assert (await play_out(seats, thread)).status == "finished"
    await until(lambda: any("The event is over" in m.text for m in lobby.messages()),
                "the final standings")
    final = next(m for m in lobby.messages() if "The event is over" in m.text)
    rows = re.findall(r"^\s*\d .*?(\d+)$", final.text, re.M)  # each row's byes, last
    assert "Computer (normal)" in final.text and rows == ["0"] * 4, final.text
