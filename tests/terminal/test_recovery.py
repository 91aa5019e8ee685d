"""Runs that were cut short (kill -9) at awkward moments: the next ``deckhand play`` goes on.
The awkward state is made with the real service on a real SQLite file, then the real
program is run on it."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.services.tables import TableService
from bot.terminal.app import LOCAL_USER_ID, OFFLINE_GUILD, channel_for
from storage.connect import open_database
from storage.models import Computer, dump_seats, load_seats
from tests.terminal.driver import ALL_ONES, ENV, ROOT, cli, query
from tests.waiting import DEADLINE

CHANNEL = channel_for("gin_rummy")


async def test_computer_moves_cut_short_are_played_on_resume(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    db = await open_database(path)
    service = TableService(db, new_seed=lambda: 8)
    await service.create(CHANNEL, OFFLINE_GUILD, LOCAL_USER_ID, "tester", "gin_rummy",
                         turn_timer=0)
    await service.join(CHANNEL, 2, "Other")
    result = await service.start(CHANNEL, LOCAL_USER_ID)
    while (mine := result.for_user(LOCAL_USER_ID)) is not None and mine.legal:
        result = await service.act(CHANNEL, LOCAL_USER_ID, mine.legal[0])
    version = result.version
    await service.close()
    await db.close()
    # As if the process died after the player's move and before the computer's: the seat
    # to act is a computer's, and nobody has played it yet.
    (seats_json,), = query(path, "SELECT seats FROM tables")
    seats = load_seats(seats_json)
    other = next(i for i, s in enumerate(seats) if getattr(s, "user_id", None) == 2)
    seats[other] = Computer(bot="normal", name="Computer (normal) 1")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tables SET seats = ?", (dump_seats(seats),))
    conn.close()

    run = cli("play", "gin_rummy", "--db", str(path), stdin="quit\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"Resuming your Gin Rummy game at move {version + 1} (")
    assert "Computer (normal) 1 " in run.stdout.split("── Gin Rummy")[0]  # its move, shown
    (now,), = query(path, "SELECT version FROM tables")
    assert now > version
    assert query(path, "SELECT count(*) FROM table_actions WHERE version > ? AND by_user IS NULL",
                 (version,)) == [(now - version,)]


async def test_a_lobby_left_by_an_interrupted_start_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    db = await open_database(path)
    await TableService(db).create(CHANNEL, OFFLINE_GUILD, LOCAL_USER_ID, "tester", "gin_rummy")
    await db.close()
    run = cli("play", "gin_rummy", "--db", str(path), "-o", "target=10", stdin=ALL_ONES)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("A new Gin Rummy game")
    assert query(path, "SELECT status FROM tables ORDER BY id") == [("aborted",), ("finished",)]


def test_the_terminal_front_end_never_loads_discord() -> None:
    for path in sorted((ROOT / "bot" / "terminal").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]
                assert not any(n.split(".")[0] == "discord" for n in names), path
    code = ("import sys, bot.__main__, bot.terminal.app, bot.terminal.standings;"
            " print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_an_unreadable_saved_game_is_set_aside_and_a_new_one_starts(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    cli("play", "gin_rummy", "--db", str(path), stdin="quit\n")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tables SET snapshot = '{\"not\": \"a state\"}'")
    conn.close()
    run = cli("play", "gin_rummy", "--db", str(path), stdin="quit\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Your saved game could not be read. It is set aside")
    assert "A new Gin Rummy game" in run.stdout
    rows = query(path, "SELECT status, quarantine IS NOT NULL FROM tables ORDER BY id")
    assert rows == [("aborted", 1), ("playing", 0)]


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    """``deckhand play … | head``: the closed pipe ends the program quietly, game kept."""
    db = tmp_path / "pipe.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "gin_rummy", "--seed", "3", "--db", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV,
    )
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdout.readline()
    proc.stdout.close()
    try:
        proc.stdin.write(b"1\n" * 50)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=DEADLINE) == 0
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()
    assert query(db, "SELECT count(*) FROM tables WHERE status = 'playing'") == [(1,)]
