"""A SQLite database that cannot be used says so in one plain sentence: a damaged file,
a damaged table, another program holding the write lock, a file the process cannot write."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import pytest

import storage.sqlite
from storage.connect import open_database
from storage.db import Conn, StorageUnavailable

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534


def add_tables(c: Conn, channels: range, seats: str = "[]") -> None:
    c.executemany(
        "INSERT INTO tables (channel_id, guild_id, game, options, host_id, status, seed, seats,"
        " created_at, updated_at) VALUES (?, 1, 'ono99', '{}', 1, 'lobby', 1, ?, 0, 0)",
        [(ch, seats) for ch in channels],
    )


def channels(c: Conn) -> list[int]:
    return [r["channel_id"] for r in c.all("SELECT channel_id FROM tables ORDER BY channel_id")]


async def test_a_file_that_is_not_a_database_is_reported_damaged(tmp_path: Path) -> None:
    path = tmp_path / "deckhand.db"
    db = await open_database(path)
    await db.close()
    garbage = b"this is no SQLite header, just words " * 3
    with path.open("r+b") as f:
        f.write(garbage)
    with pytest.raises(StorageUnavailable) as info:
        await open_database(path)
    assert f"The database {path} is damaged" in str(info.value)
    assert path.read_bytes().startswith(garbage)  # left as it was, for the admin to look at


def page_of_tables(path: Path, kind: str) -> tuple[int, int]:
    """``(page number, page size)`` of the ``tables`` b-tree's root (an interior page once
    the table spans several pages) or of its right-most leaf (walked down from the root)."""
    with closing(sqlite3.connect(path)) as raw:
        size = raw.execute("PRAGMA page_size").fetchone()[0]
        page = raw.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'tables'").fetchone()[0]
    data = path.read_bytes()
    assert data[(page - 1) * size] == 0x05, "tables should span several pages"
    while kind == "leaf" and data[(page - 1) * size] == 0x05:  # interior: follow its last child
        start = (page - 1) * size
        page = int.from_bytes(data[start + 8:start + 12], "big")
    assert data[(page - 1) * size] == (0x05 if kind == "interior" else 0x0D)
    return page, size


@pytest.mark.parametrize("kind", ["interior", "leaf"])
async def test_an_overwritten_page_is_found_and_named(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "deckhand.db"
    db = await open_database(path)
    await db.write(add_tables, range(1, 301), "[" + "0," * 500 + "0]")
    await db.close()
    assert not path.with_name("deckhand.db-wal").exists()  # everything is in the file
    page, size = page_of_tables(path, kind)
    with path.open("r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\xde\xad\xbe\xef" * (size // 4))
    db = await open_database(path, migrate=False)
    try:
        problems = await db.integrity()
    finally:
        await db.close()
    assert problems, "the overwritten page went unnoticed"
    assert all(line.startswith("table tables: ") for line in problems), problems


async def test_a_write_while_another_program_holds_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.sqlite, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "deckhand.db"
    db = await open_database(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageUnavailable) as info:
            await db.write(add_tables, range(1, 3))
        assert f"The database {path} is locked by another program" in str(info.value)
        assert await db.read(channels) == []
        other.execute("ROLLBACK")
        assert await db.read(channels) == []  # nothing was written, not even late
        await db.write(add_tables, range(1, 3))
        assert await db.read(channels) == [1, 2]
    finally:
        other.close()
        await db.close()


#: Opens the database given as argv[1] as user nobody (dropping root after the imports,
#: since the interpreter may live where nobody cannot read) and prints why it cannot.
CHILD = f"""
import asyncio, os, sys
from storage.connect import open_database
from storage.db import StorageUnavailable

if os.geteuid() == 0:
    os.setgroups([])
    os.setgid({NOBODY})
    os.setuid({NOBODY})


async def main(path):
    try:
        db = await open_database(path)
    except StorageUnavailable as exc:
        print(exc)
        return 1
    await db.close()
    print("opened")
    return 0


sys.exit(asyncio.run(main(sys.argv[1])))
"""


async def test_a_database_the_process_cannot_write() -> None:
    with tempfile.TemporaryDirectory(dir="/tmp") as where:  # tmp_path is private to root
        folder = Path(where)
        folder.chmod(0o755)
        path = folder / "deckhand.db"
        db = await open_database(path)
        await db.close()
        path.chmod(0o644)
        if os.geteuid() != 0:
            path.chmod(0o444)
            folder.chmod(0o555)
        try:
            done = subprocess.run(
                [sys.executable, "-c", CHILD, str(path)], cwd=ROOT, capture_output=True,
                text=True, timeout=30, check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail("opening a database it cannot write hung")
        finally:
            folder.chmod(0o755)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"The database {path} cannot be written")
