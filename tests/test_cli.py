"""The command line as a newcomer and an admin meet it: every subcommand explains itself
with an example, every numeric option has a range and a bad value is one line and exit
status 2, options go where a user puts them, and failures are sentences, not tracebacks."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import games
from bot.__main__ import main
from i18n import languages
from i18n.catalogs import PSEUDO, PSEUDO_SWITCH
from tests.i18n.surfaces import leftovers

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = [
    ["run"], ["play"], ["standings"], ["simulate"], ["web"], ["db"], ["db", "migrate"],
    ["db", "backup"], ["db", "tables"], ["db", "purge"], ["db", "check"], ["db", "copy"], ["art"],
    ["export"], ["replay"],
]
NUMBERS = [
    ["play", "gin_rummy", "--players"], ["play", "gin_rummy", "--seed"],
    ["play", "gin_rummy", "--delay"], ["simulate", "gin_rummy", "-n"],
    ["simulate", "gin_rummy", "--players"], ["simulate", "gin_rummy", "--seed"],
    ["db", "purge", "--idle-days"], ["web", "--port"],
]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_subcommand_says_what_it_does_with_an_example(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run([*command, "--help"], capsys)
    assert code == 0
    description = out.split("\n\n")[1]
    assert description[0].isupper() and description.rstrip().endswith(".")
    assert "example:\n  .venv/bin/deckhand " + " ".join(command) in out


@pytest.mark.parametrize("option", NUMBERS, ids=" ".join)
@pytest.mark.parametrize("value", ["0", "-1", "99999999999999999999", "lots"])
def test_numeric_options_are_checked_in_one_line(
    option: list[str], value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if option[-1] in ("--seed", "--delay") and value == "0":
        return  # 0 is a fine seed and delay (not an idle limit: every game would be idle)
    code, out, err = run([*option, value], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "out of range" in err or "not a number" in err, err


def test_db_options_go_before_or_after_the_subcommand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "d.db")
    assert run(["db", "--db", db, "migrate"], capsys)[0] == 0
    after = run(["db", "check", "--db", db], capsys)
    before = run(["db", "--db", db, "check"], capsys)
    assert after[0] == before[0] == 0 and after[1] == before[1]


def test_upkeep_of_a_missing_database_is_one_sentence_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.db"
    code, _, err = run(["db", "check", "--db", str(missing)], capsys)
    assert code == 2 and err.startswith(".venv/bin/deckhand db check: There is no database at")
    assert not missing.exists()


def run_bot(tmp_path: Path, level: str) -> subprocess.CompletedProcess[str]:
    """``deckhand run`` with a made-up token (and no network here)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "run"], capture_output=True, text=True, cwd=ROOT,
        timeout=120, check=False,
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "made.up.token",
             "DECKHAND_DB": str(tmp_path / "d.db"), "DECKHAND_LOG_LEVEL": level},
    )


def test_run_without_discord_is_one_line(tmp_path: Path) -> None:
    """No network here (1: out of reach), or a made-up token where there is (2: a setting
    to fix): one line after the command as typed, as every command says a failure."""
    from tests.terminal.driver import RAN

    done = run_bot(tmp_path, "ERROR")
    assert done.returncode in (1, 2), done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith(f"{RAN} run: ")]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr


def test_run_says_nothing_about_voice(tmp_path: Path) -> None:
    """discord.py warns at start-up that PyNaCl and davey are missing: no voice here."""
    done = run_bot(tmp_path, "INFO")
    assert "logging in" in done.stderr and "voice" not in done.stderr.lower(), done.stderr


# -- hostile paths and settings: one line, status 2, no traceback, never a token ---------

TOKEN = "MTIzNDU2Nzg5MDEy.SECRET.tokenTOKENtoken"


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Hostile places, and a sound database, in a folder with no ``.env``. Tests run as
    root, who may write anywhere a permission bit forbids: the read-only place is under
    ``/sys`` (sysfs refuses files even to root), or under a file."""
    monkeypatch.chdir(tmp_path)
    for key in [k for k in os.environ if k.startswith("DECKHAND_") or k == "DISCORD_TOKEN"]:
        monkeypatch.delenv(key)
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("not a database\n" * 4)
    good = tmp_path / "good.db"
    assert main(["db", "migrate", "--db", str(good)]) == 0
    return {
        "folder": str(tmp_path / "folder"),
        "missing": str(tmp_path / "nowhere" / "x.db"),
        "read-only": "/sys/deckhand-test/x.db",
        "under a file": str(tmp_path / "notes.txt" / "x.db"),
        "not a database": str(tmp_path / "notes.txt"),
        "good": str(good),
    }


def _busy_port() -> tuple[socket.socket, int]:
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    return held, int(held.getsockname()[1])


def at(name: str) -> str:
    """The placeholder of a place, filled in by the test."""
    return "{" + name + "}"


HOSTILE: list[tuple[str, list[str]]] = [
    *[(p, ["export", "--db", "{good}", "--out", at(p)])
      for p in ("folder", "missing", "read-only", "under a file")],
    *[(p, ["db", "backup", "--db", "{good}", at(p)])
      for p in ("folder", "read-only", "under a file", "not a database")],
    *[(p, ["art", "--out", at(p)]) for p in ("not a database", "read-only")],
    *[(p, ["replay", at(p)]) for p in ("missing", "folder", "not a database")],
    ("endless", ["replay", "/dev/zero"]),
    *[(p, [*cmd, "--db", at(p)])
      for p in ("missing", "folder", "not a database")
      for cmd in (["web"], ["export"], ["db", "tables"], ["db", "check"], ["db", "purge"],
                  ["db", "backup", "{folder}/b.db"])],
    *[(p, [*cmd, "--db", at(p)])
      for p in ("folder", "not a database", "read-only", "under a file")
      for cmd in (["play", "gin_rummy"], ["db", "migrate"])],
    *[(p, ["standings", "--db", at(p)]) for p in ("folder", "not a database")],
    *[(p, ["db", "copy", at(p), "{folder}/copy.db"])
      for p in ("missing", "folder", "not a database")],
    ("bad host", ["web", "--db", "{good}", "--host", "999.1.1.1"]),
    ("port in use", ["web", "--db", "{good}", "--port", "{port}"]),
]


@pytest.mark.parametrize(
    ("case", "argv"), HOSTILE, ids=[f"{' '.join(a[:2])} {c}" for c, a in HOSTILE]
)
def test_every_command_on_a_hostile_path_says_one_line(
    case: str, argv: list[str], place: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    held, port = _busy_port()
    try:
        code, out, err = run([a.format(port=port, **place) for a in argv], capsys)
    finally:
        held.close()
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    typed = " ".join(argv[:2] if argv[0] == "db" else argv[:1])
    assert len(lines) == 1 and lines[0].startswith(f".venv/bin/deckhand {typed}: "), err
    assert "Traceback" not in out + err and "Error:" not in err, err
    if case in ("missing", "not a database", "folder") and "copy" in argv:
        assert "source" in err and "copy.db" not in err  # blamed on the source
    assert not Path(place["missing"]).exists() and not Path(place["folder"], "copy.db").exists()


BAD_SETTINGS = [
    {"DECKHAND_LOG_LEVEL": "LOUD"},
    {"DECKHAND_SHARD_IDS": "0"},  # a whole-model error: pydantic would show its input
    {"DECKHAND_TURN_TIMER": "soon", "DECKHAND_USER_RATE": "-1"},
    {"DECKHAND_WEB_URL": "cards.example.org"},
]


@pytest.mark.parametrize("settings", BAD_SETTINGS, ids=",".join)
@pytest.mark.parametrize("command", [["run"], ["web"], ["standings"], ["db", "tables"],
                                     ["play", "ono99"], ["export"]], ids=" ".join)
def test_a_bad_setting_is_named_in_one_line_without_any_value(
    settings: dict[str, str], command: list[str], place: dict[str, str],
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    code, out, err = run(command, capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert all(key in err for key in settings), err
    assert "fix it in .env or the environment" in err
    for value in [TOKEN[:6], "SECRET", "input_value", *settings.values()]:
        assert value not in err.replace("DECKHAND_", "").replace("the environment", ""), err


def test_ctrl_c_stops_a_simulation_and_says_what_was_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import games.simulate
    from bot import simulate

    real = games.simulate.play_game
    played: list[int] = []

    def until_the_third(*args: Any, **kw: Any) -> games.simulate.Played:
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(simulate, "play_game", until_the_third)
    code, out, err = run(["simulate", "ono99", "-n", "100"], capsys)
    assert code == 130 and "stopped after 3 of 100 games" in out, out
    assert err == ""  # no bar when standard error is not a terminal


def test_the_command_is_named_as_the_user_ran_it(tmp_path: Path) -> None:
    from bot.invocation import command_of

    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert command_of(".venv/bin/deckhand", "x") == ".venv/bin/deckhand"
        assert command_of(str(venv / "deckhand"), "x") == ".venv/bin/deckhand"
        assert command_of("/elsewhere/.venv/bin/deckhand", "x") == "/elsewhere/.venv/bin/deckhand"
        assert command_of("../p/bot/__main__.py", str(venv / "python")) == ".venv/bin/python -m bot"
        assert command_of("/usr/lib/python3/pytest", "x") == ".venv/bin/deckhand"  # imported
    finally:
        os.chdir(here)


def stale_tables(where: Path) -> None:
    """An old lobby and a game nobody moved for ten days (``tests/services/test_dbcli``)."""
    from tests.services.test_dbcli import build

    build(where)


def test_purge_names_what_it_deletes_and_asks_on_a_terminal(tmp_path: Path) -> None:
    """Today's code deleted at once, piped or not, naming only how many went."""
    from tests.terminal.driver import RAN, Live, cli, query

    db = tmp_path / "d.db"
    stale_tables(db)
    piped = cli("db", "purge", "--db", str(db))
    assert piped.returncode == 2 and piped.stdout == "", piped
    assert piped.stderr.splitlines() == [
        f"{RAN} db purge: db purge would delete 2 tables for good, and there is no terminal"
        " to ask:"
        " add --yes to delete them, or --dry-run to list them."]
    dry = cli("db", "purge", "--db", str(db), "--dry-run")
    assert dry.returncode == 0 and "table 1 · Gin Rummy · a game, no move for" in dry.stdout
    assert len(query(db, "SELECT id FROM tables WHERE status IN ('lobby', 'playing')")) == 2
    asked = Live("db", "purge", "--db", str(db), tty=True)
    asked.expect("table 3 · Craits · a lobby, open for")
    asked.expect("Delete these 2 tables for good? [y/N] ")
    asked.send("n")
    code, rest = asked.finish()
    assert code == 1 and "Nothing was deleted." in rest, rest
    assert len(query(db, "SELECT id FROM tables WHERE status IN ('lobby', 'playing')")) == 2
    asked = Live("db", "purge", "--db", str(db), tty=True)
    asked.expect("[y/N] ")
    asked.send("y")
    code, rest = asked.finish()
    assert code == 0 and "Deleted 1 stale lobby, 0 cancelled lobbies and 1 idle game." in rest
    assert query(db, "SELECT id FROM tables WHERE status IN ('lobby', 'playing')") == []
    stale_tables(tmp_path / "e.db")
    scripted = cli("db", "purge", "--db", str(tmp_path / "e.db"), "--yes")
    assert scripted.returncode == 0 and scripted.stdout.startswith("Deleted 1 stale lobby"), (
        scripted)


def test_one_convention_prefix_status_and_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Usage 2, a failed check 1, every message on standard error after the command as
    typed — argparse's own errors and ours alike. Today's ``simulate --ai ,`` ended in a
    ZeroDivisionError reported as a bug, and ``-o`` without ``=`` exited 1 without a prefix."""
    cases = [
        (["simulate", "gin_rummy", "--ai", ","], 2, ".venv/bin/deckhand simulate: argument"
         " --ai: give computer levels separated by commas"),
        (["simulate", "gin_rummy", "--ai", "normal,genius"], 2, ".venv/bin/deckhand simulate:"
         " argument --ai: give computer levels"),
        (["play", "gin_rummy", "-o", "target"], 2, ".venv/bin/deckhand play: argument"
         " -o/--option: options look like name=value, not 'target'"),
        (["play", "chess", "--db", str(tmp_path / "p.db")], 2,
         ".venv/bin/deckhand play: Unknown game 'chess'"),
        (["db", "tables", "--db", str(tmp_path / "none.db")], 2,
         ".venv/bin/deckhand db tables: There is no database at"),
        (["export", "--out", str(tmp_path / "no" / "x.jsonl"), "--db", str(tmp_path / "e.db")],
         2, f".venv/bin/deckhand export: {tmp_path}/no/x.jsonl cannot be written: the folder"
         f" {tmp_path}/no does not exist, and this command makes no folders."),
        (["art", "--out", str(tmp_path / "no" / "images")], 2, ".venv/bin/deckhand art: The"
         f" folder {tmp_path}/no/images does not exist, and this command makes no folders"),
        (["replay", str(tmp_path / "gone.jsonl")], 2, f".venv/bin/deckhand replay:"
         f" {tmp_path}/gone.jsonl does not exist: check the path."),
        (["db", "copy", str(tmp_path / "e.db"), f"sqlite://{tmp_path}/e.db"], 2,
         ".venv/bin/deckhand db copy: The source and the target are the same file"),
    ]
    assert main(["db", "migrate", "--db", str(tmp_path / "e.db")]) == 0
    capsys.readouterr()
    for argv, status, said in cases:
        code, out, err = run(argv, capsys)
        assert (code, out) == (status, ""), (argv, code, out, err)
        assert err.startswith(said) and len(err.splitlines()) == 1, (argv, err)
    assert not (tmp_path / "no").exists()


def test_argparse_speaks_the_run_language(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's usage line, section titles, --help line and errors come from the
    catalogs, through the standard gettext functions; the process is as it was after."""
    import gettext

    before = (gettext.textdomain(), os.environ.get("LANGUAGE"))
    code, out, _ = run(["--lang", "cy", "play", "--help"], capsys)
    assert code == 0 and out.startswith("defnydd: .venv/bin/deckhand play"), out
    assert "\nopsiynau:\n" in out and "dangos y neges gymorth hon a gadael" in out
    assert "\nymresymiadau safle:\n" in out and "usage" not in out
    code, _, err = run(["--lang", "is", "play", "gin_rummy", "--ai", "genius"], capsys)
    assert code == 2 and "viðfang --ai: ógilt val: 'genius' (veldu úr" in err, err
    assert err.rstrip().endswith("(sjá .venv/bin/deckhand play --help)"), err
    code, _, err = run(["--lang", "sw", "play", "gin_rummy", "--bogus"], capsys)
    assert code == 2 and "hoja zisizotambulika: --bogus" in err, err
    assert (gettext.textdomain(), os.environ.get("LANGUAGE")) == before
    code, out, _ = run(["play", "--help"], capsys)
    assert out.startswith("usage: ") and "\noptions:\n" in out


@pytest.mark.parametrize("command", [[], ["doctor"], *COMMANDS], ids=" ".join)
def test_help_leaves_in_english_only_what_is_typed(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the pseudo-language every word of ``--help`` comes out of the catalogs (argparse's
    texts, ours, and each value's placeholder) but what is typed as shown: the commands,
    options and their choices, language codes, paths and the example."""
    monkeypatch.setenv(PSEUDO_SWITCH, "1")
    code, out, _ = run(["--lang", PSEUDO, *command, "--help"], capsys)
    assert code == 0
    shown = out.rsplit("\n\n", 1)[0]  # the last paragraph is the example, typed as shown
    typed = re.sub(r"--?[\w-]+|\{[\w,]+\}|\S*deckhand\S*|\S+[./]\S+", " ", shown)
    names = {*games.names(), *(w for c in COMMANDS for w in c), "doctor", *languages()}
    assert [w for w in leftovers(typed) if w not in names] == [], shown


def test_the_argparse_texts_in_the_catalogs_are_those_argparse_uses() -> None:
    """Each message id of ``bot.cli_texts`` is written, as it is, in the argparse that runs:
    a newer Python that rewords one fails here instead of falling back to English."""
    import argparse
    import inspect

    from bot.cli_texts import ARGPARSE

    source = inspect.getsource(argparse)
    missing = [text for text in ARGPARSE if repr(text) not in source
               and f'"{text}"' not in source]
    assert not missing, missing
