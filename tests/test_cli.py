"""The command line as a newcomer and an admin meet it: every subcommand explains itself
with an example, every numeric option has a range and a bad value is one line and exit
status 2, options go where a user puts them, and failures are sentences, not tracebacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

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
    if option[-1] in ("--seed", "--delay", "--idle-days") and value == "0":
        return  # 0 is a fine seed, delay and limit
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
    assert code == 2 and err.startswith("deckhand: There is no database at")
    assert not missing.exists()


def test_run_without_discord_is_one_line(tmp_path: Path) -> None:
    """No network here (or a made-up token where there is): one line, its own status."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"], capture_output=True, text=True, cwd=ROOT,
        timeout=120, check=False,
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "made.up.token",
             "DECKHAND_DB": str(tmp_path / "d.db"), "DECKHAND_LOG_LEVEL": "ERROR"},
    )
    assert done.returncode in (3, 5), done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("deckhand:")]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
