"""``/game replay id:`` end to end: a finished game's result names its replay; the replay
answers only the asker, steps forward, back and to the end in place, shows every hand on
request — each step the spectator view of the logged game — and an unknown id, or a game
that is no longer this server's, is refused politely, the replay's own buttons included."""

from __future__ import annotations

import re
import sqlite3

import games
from bot.render import renderer
from bot.render.markup import markdown_lines
from bot.render.steps import event_lines
from bot.services.tables.replay import states
from bot.text import plain
from storage.models import load_seats
from storage.tables import ActionRow, TableRow
from tests.e2e.fake_state import Message
from tests.e2e.play import Harness, Seat, harness_fixture, play_out  # noqa: F401

OTHER_GUILD = 424242


def _logged(harness: Harness, table_id: int) -> tuple[TableRow, list[ActionRow]]:
    """The table's row and action log, read from the database file itself."""
    with sqlite3.connect(f"file:{harness.db_path}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        log = conn.execute(
            "SELECT version, seat, action, by_user, timed_out, at FROM table_actions"
            " WHERE table_id = ? ORDER BY version", (table_id,)
        ).fetchall()
    return TableRow.from_row(row), [ActionRow(*r) for r in log]


def _description(message: Message) -> list[str]:
    (embed,) = message.embeds
    return str(embed["description"]).split("\n")


async def test_a_finished_game_replays_step_by_step(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    table = (await alice.slash("table new", game="gin_rummy", options="target=10")).response
    assert table is not None
    await alice.click(table, "Add computer")
    await alice.click(table, "Start")
    final = await play_out([Seat(alice, harness, lobby)], lobby)
    assert final.status == "finished"
    await harness.idle()
    said = re.search(r"Replay: `/game replay id:(\d+)`", harness.table_message(lobby).text)
    assert said is not None, harness.table_message(lobby).text
    match_id = int(said[1])
    history = await bob.slash("league history")
    assert f"#{match_id} **Gin Rummy**" in history.text, history.text
    # After a restart the finished table, posted again, still names its game.
    await harness.stop()
    await harness.start()
    again = await bob.slash("table status")
    assert again.response is not None
    assert f"Replay: `/game replay id:{match_id}`" in again.response.text, again.text

    row, log = _logged(harness, final.table_id)
    game, r = games.get("gin_rummy"), renderer("gin_rummy")
    names = [plain(str(o.name)) for o in load_seats(row.seats)]
    every = list(states(row, log))
    last = len(log)

    def expect(message: Message, step: int, hands: bool) -> None:
        """The message shows ``step``: its move and the public events it made, the
        spectator view, hands or not."""
        head, *rest = _description(message)
        happened, table_lines = rest[:rest.index("")], rest[rest.index("") + 1:]
        assert head.startswith(f"**{step}/{last} · "), head
        if step:
            move = log[step - 1]
            assert f"{names[move.seat]}: {r.action_label(move.action)}" in head, head
        events = every[step].events
        assert happened == markdown_lines(event_lines("gin_rummy", events, names))
        assert table_lines == markdown_lines(r.table(game.view(every[step], None), names))
        fields = {f["name"]: f["value"] for f in message.embeds[0].get("fields", [])}
        if hands:
            for seat, name in enumerate(names):
                hand = str(r.hand(game.view(every[step], seat))[0]).removeprefix("Your hand: ")
                assert f"**{name}**: {hand}" in fields["Hands"]
        else:
            assert fields == {}

    public = len(lobby.messages())
    opened = await bob.slash("game replay", id=match_id)
    replay = opened.response
    assert opened.ephemeral and replay is not None and replay.ephemeral_for is bob.user
    expect(replay, 0, False)
    assert "The deal" in _description(replay)[0]
    await bob.click(replay, "▶")
    expect(replay, 1, False)
    await bob.click(replay, "▶")
    await bob.click(replay, "◀")
    expect(replay, 1, False)
    await bob.click(replay, "Hands")
    expect(replay, 1, True)
    await bob.click(replay, "▶▶")
    expect(replay, last, True)
    assert [b.get("disabled", False) for b in replay.buttons()] == [
        False, False, True, True, False
    ]
    await bob.click(replay, "Hide hands")
    expect(replay, last, False)
    await bob.click(replay, "◀◀")
    expect(replay, 0, False)
    assert len(lobby.messages()) == public  # nothing shown to the channel

    unknown = await bob.slash("game replay", id=match_id + 1)
    assert unknown.ephemeral and unknown.text == f"There is no finished game #{match_id + 1} here."

    # The game moves to another server (as if its rows were another guild's): the replay
    # refuses it, and so do the buttons of the replay already open — never trusted.
    with sqlite3.connect(harness.db_path) as conn:
        conn.execute("UPDATE matches SET guild_id = ? WHERE id = ?", (OTHER_GUILD, match_id))
        conn.execute("UPDATE tables SET guild_id = ? WHERE id = ?", (OTHER_GUILD, row.id))
    foreign = await bob.slash("game replay", id=match_id)
    assert foreign.ephemeral and foreign.text == f"There is no finished game #{match_id} here."
    before = replay.text
    clicked = await bob.click(replay, "▶")
    assert [m.text for m in clicked.followups] == [f"There is no finished game #{match_id} here."]
    assert replay.text == before
