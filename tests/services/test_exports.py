"""``deckhand export`` / ``deckhand replay`` on both backends: games out as JSON lines and
back in, replayed by the engines and checked against their recorded outcome."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest

import storage.exports
from bot.__main__ import main
from bot.services import exports, publication
from bot.services.leagues import LeagueService, NotAdmin
from bot.services.tables import TableService
from bot.terminal.replay import replay
from storage.connect import open_database
from storage.db import Conn, Database
from storage.leagues import League
from storage.matches import MatchRecord, SeatResult, insert_match
from tests.services.conftest import ManualClock, play_out
from tests.terminal.driver import cli

GUILD, ANN, BEN = 5, 900_000_000_000_000_001, 900_000_000_000_000_002


def build(where: str) -> None:
    """A Gin Rummy game between two people (in league "Friday") and an ONO 99 game against
    computers, both played to the end."""

    async def run() -> None:
        db = await open_database(where)
        clock = ManualClock(1_000_000.0)
        leagues = LeagueService(db, clock=clock.now)
        service = TableService(db, clock=clock)
        service.add_match_recorder(leagues.record_match)
        friday = await leagues.create_league(GUILD, "Friday", is_admin=True)
        await service.create(1, GUILD, ANN, "Ann", "gin_rummy", {"target": 10},
                             league_id=friday.id)
        await service.join(1, BEN, "Ben")
        await play_out(service, 1, await service.start(1, ANN))
        await service.create(2, GUILD, ANN, "Ann", "ono99")
        await service.add_bot(2, ANN, "normal")
        await service.add_bot(2, ANN, "random")
        await play_out(service, 2, await service.start(2, ANN))
        await service.close()
        await db.close()

    asyncio.run(run())


def test_export_then_replay_verifies_every_game(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(where)
    out = tmp_path / "all.jsonl"
    assert main(["export", "--db", where, "--guild", str(GUILD), "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["schema"] == "deckhand.game/1" and first["game"] == "gin_rummy"
    assert sorted(s["name"] for s in first["seats"]) == ["Ann", "Ben"]  # seats are drawn
    assert first["moves"] and first["outcome"]["ranks"] in ([1, 2], [2, 1], [1, 1])
    assert str(ANN) not in out.read_text() and str(BEN) not in out.read_text()  # no ids
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.count("verified") == 3 and "2 games, 2 verified." in said, said
    assert re.search(r"^match 1 · Gin Rummy · \d+ moves · 1\. (Ann|Ben) \d+ · [12]\. (Ann|Ben)"
                     r" \d+ · verified$", said, re.M), said


def friday(where: str, tmp_path: Path) -> tuple[Path, exports.ExportedGame]:
    """The export of league "Friday" (``build``'s Gin Rummy game) and its one game."""
    build(where)
    out = tmp_path / "friday.jsonl"
    assert main(["export", "--db", where, "--guild", str(GUILD), "--league", "Friday",
                 "--out", str(out)]) == 0
    (only,) = exports.read_lines(out.read_text().splitlines())
    return out, only


def test_a_league_export_and_stepping_through_one_game(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, only = friday(where, tmp_path)
    assert only.game == "gin_rummy"
    capsys.readouterr()
    assert main(["replay", str(out), "--show", str(only.match)]) == 0
    said = capsys.readouterr().out
    last = len(only.moves or ())
    assert f"── Step 0/{last} · The deal ─" in said and f"── Step 1/{last} · " in said
    assert said.count("── Step ") == last + 1
    assert "**" not in said and "\x1b" not in said  # piped: the words alone


def tampered(where: str, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """The Gin Rummy game of ``build`` as a JSON object, and a file to write edits of it."""
    build(where)
    out = tmp_path / "all.jsonl"
    main(["export", "--db", where, "--guild", str(GUILD), "--out", str(out)])
    return json.loads(out.read_text().splitlines()[0]), tmp_path / "bad.jsonl"


def replayed(game: dict[str, Any], bad: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``replay`` of the edited game: it must fail (status 1); what it printed."""
    bad.write_text(json.dumps(game) + "\n")
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 1
    return capsys.readouterr().out


def test_every_field_replay_shows_is_checked_and_named(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Today's code compared the outcome only: one seat's score edited (62 → 63) printed
    "verified" beside it."""
    game, bad = tampered(where, tmp_path)
    match, names = game["match"], [s["name"] for s in game["seats"]]
    edit = json.loads(json.dumps(game))
    edit["seats"][1]["score"] += 1
    said = replayed(edit, bad, capsys)
    score = game["seats"][1]["score"]
    assert f"{names[1]} {score + 1}" in said  # shown…
    assert (f"  match {match}, seat 1 ({names[1]}): score is {score + 1} in the file,"
            f" {score} by the rules") in said  # …and named where it differs
    assert "NOT verified" in said and "0 verified" in said
    edit = json.loads(json.dumps(game))
    edit["seats"][0]["rank"], edit["seats"][1]["rank"] = (
        edit["seats"][1]["rank"], edit["seats"][0]["rank"])
    said = replayed(edit, bad, capsys)
    assert f"seat 0 ({names[0]}): rank is" in said and f"seat 1 ({names[1]}): rank is" in said
    edit = json.loads(json.dumps(game))
    edit["outcome"]["scores"] = [s + 1 for s in edit["outcome"]["scores"]]
    assert "outcome.scores is [" in replayed(edit, bad, capsys)
    edit = json.loads(json.dumps(game))
    edit["seats"][0]["team"] = 1
    assert f"seat 0 ({names[0]}): team is 1 in the file, 0 by the rules" in replayed(
        edit, bad, capsys)
    edit = json.loads(json.dumps(game))
    edit["seats"][0]["kind"], edit["seats"][0]["level"] = "computer", "genius"
    assert "level 'genius' is not a level of this game" in replayed(edit, bad, capsys)
    edit = json.loads(json.dumps(game))
    seat, action = edit["moves"][1]
    edit["moves"][1] = [1 - seat, action]
    assert f"match {match}, move 2 ({action!r} by seat {1 - seat}): " in replayed(
        edit, bad, capsys)
    edit = json.loads(json.dumps(game))
    edit["moves"].append(edit["moves"][-1])
    assert "the game was already over" in replayed(edit, bad, capsys)
    edit["moves"] = game["moves"][:-1]  # one move short (a game can end in two moves)
    assert "end before the game does" in replayed(edit, bad, capsys)
    bad.write_text('{"schema": "deckhand.game/1", "match": "x"}\n')
    assert main(["replay", str(bad)]) == 2
    assert "line 1: match" in capsys.readouterr().err


def test_an_empty_file_or_a_pipe_nobody_writes_to_is_refused_at_once(tmp_path: Path) -> None:
    """Today's code said "0 games" for an empty file, and waited for ever on a named pipe
    (``cli`` gives up after 60 s)."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    done = cli("replay", str(empty))
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.strip().endswith("holds no game: it is empty, not an export.")
    assert len(done.stderr.strip().splitlines()) == 1
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    done = cli("replay", str(pipe))
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.strip().endswith("is a pipe that nothing writes to: start the program"
                                        " that writes the export into it first.")


def test_a_pipe_that_is_written_to_is_read(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = tampered(where, tmp_path)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def write() -> None:
        with pipe.open("w") as f:
            f.write(json.dumps(game) + "\n")

    writer = threading.Thread(target=write)
    writer.start()
    capsys.readouterr()
    assert main(["replay", str(pipe)]) == 0
    writer.join()
    assert "1 game, 1 verified." in capsys.readouterr().out


async def many_games(db: Database, count: int) -> League:
    """A league of ``count`` recorded games (no table logs: short lines)."""
    leagues = LeagueService(db, clock=lambda: 1_000_000.0)
    cup = await leagues.create_league(GUILD, "Cup", is_admin=True)
    seats = (SeatResult(0, ANN, None, "Ann", 0, 100, 1), SeatResult(1, BEN, None, "Ben", 1, 50, 2))

    def record(conn: Conn) -> None:
        for n in range(count):
            match = MatchRecord(
                table_id=None, guild_id=GUILD, channel_id=1, league_id=cup.id, game="gin_rummy",
                options={}, seed=n, started_at=0.0, finished_at=float(n), seats=seats,
            )
            leagues.record_match(conn, insert_match(conn, match), match)

    await db.write(record)
    return await leagues.league(GUILD, "Cup")


async def test_a_league_export_stops_at_its_limit_off_the_event_loop(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/league export``'s file: built a page at a time in a worker thread, and refused as
    soon as a line would pass the limit — without reading the pages after it."""
    cup = await many_games(db, 30)
    monkeypatch.setattr(exports, "PAGE", 4)
    pages: list[int] = []
    threads: set[int] = set()
    read_page, encode = storage.exports.league_games, exports._encoded

    def counted(*args: Any) -> list[Any]:
        pages.append(1)
        return read_page(*args)

    def encoded(page: list[Any]) -> list[bytes]:
        threads.add(threading.get_ident())
        return encode(page)

    monkeypatch.setattr(storage.exports, "league_games", counted)
    monkeypatch.setattr(exports, "_encoded", encoded)
    whole = await exports.league_file(db, cup, is_admin=True)
    assert whole.games == 30 and len(pages) == 8  # 4 a page: the 8th holds the last 2
    assert threading.get_ident() not in threads  # never encoded on the event loop
    lines = whole.data.decode().splitlines()
    assert [g.match for g in exports.read_lines(lines)] == list(range(1, 31))

    pages.clear()
    limit = len("\n".join(lines[:6])) + 1 + len(lines[6])  # 6 lines and a half fit
    with pytest.raises(exports.TooLarge, match=r"\(the first 6 fit\)"):
        await exports.league_file(db, cup, is_admin=True, limit=limit)
    assert len(pages) == 2  # the 7th game is on the 2nd page; the rest was never read
    exact = await exports.league_file(db, cup, is_admin=True, limit=len(whole.data))
    assert exact == whole


async def test_only_an_admin_exports_a_league_that_is_not_published(db: Database) -> None:
    cup = await many_games(db, 2)
    with pytest.raises(NotAdmin, match="Manage Server"):
        await exports.league_file(db, cup, is_admin=False)
    assert (await exports.league_file(db, cup, is_admin=True)).games == 2
    await publication.set_published(db, cup, True, is_admin=True)
    published = await LeagueService(db).league(GUILD, "Cup")
    assert (await exports.league_file(db, published, is_admin=False)).games == 2


def test_show_waits_for_enter_goes_back_on_b_and_stops_on_q(
    where: str, tmp_path: Path
) -> None:
    out, only = friday(where, tmp_path)
    answers = iter(["", " ", "b", "Q"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    said = io.StringIO()
    assert replay(out, said, only.match, ask) == 0
    last = len(only.moves or ())
    headings = re.findall(r"── Step (\d+)/", said.getvalue())
    assert headings == ["0", "1", "2", "1"]  # Enter, Enter, back, then q stops
    assert asked[0] == f"Step 0 of {last} — Enter: next · b: back · q: stop "
    said = io.StringIO()
    assert replay(out, said, only.match, lambda prompt: "") == 0  # Enter to the end
    assert re.findall(r"── Step (\d+)/", said.getvalue()) == [str(n) for n in range(last + 1)]

    def gone(prompt: str) -> str:
        raise EOFError

    said = io.StringIO()
    assert replay(out, said, only.match, gone) == 0  # end of input: stop after the step
    assert re.findall(r"── Step (\d+)/", said.getvalue()) == ["0"]
