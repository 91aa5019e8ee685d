"""The terminal's small parts in-process: input parsing, styling, layout, the standings table."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import games
from bot.render.columns import grid
from bot.render.markup import line, strong
from bot.services.tables import SeatPrivate
from bot.terminal import commands
from bot.terminal.app import channel_for, hint, rules_text
from bot.terminal.screen import BOLD, RED, RESET, Screen, columns, style, use_colour
from tests.terminal.driver import cli


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("", commands.Empty()),
        ("   \t", commands.Empty()),
        ("3", commands.Pick(3)),
        (" 12 ", commands.Pick(12)),
        ("-1", commands.Pick(-1)),
        ("HELP", commands.Command("help")),
        ("?", commands.Command("help")),
        ("rules", commands.Command("rules")),
        ("Hint", commands.Command("hint")),
        ("q", commands.Command("quit")),
        ("exit", commands.Command("quit")),
        ("discard  QH", commands.Move("discard QH")),
        ("play 10h", commands.Move("play 10h")),
        ("1.5", commands.Move("1.5")),
        ("٣", commands.Move("٣")),
    ],
)
def test_parse(line: str, parsed: commands.Input) -> None:
    assert commands.parse(line) == parsed


def test_a_menu_is_numbered_from_1_and_bids_under_their_own_number() -> None:
    """Today's menus numbered Spades' bids one off (``1`` bid Nil, ``3`` bid 2)."""
    plain = commands.Menu.of(["draw", "take"])
    assert plain.keys == ("1", "2") and plain.find("2") == "take" and plain.span() == "1-2"
    assert [plain.find(k) for k in ("0", "3", "-1")] == [None, None, None]
    spades = commands.Menu.of([f"bid {n}" for n in range(14)])
    assert spades.keys == tuple(str(n) for n in range(14)) and spades.span() == "0-13"
    assert spades.find("3") == "bid 3" and spades.find("0") == "bid 0"
    alley = commands.Menu.of(["pass", *(f"bid {n}" for n in range(1, 13)), "board"])
    assert alley.span() == "1-12, pass, board" and alley.find("12") == "bid 12"
    assert alley.find("pass") == "pass" and alley.key_of("board") == "board"
    assert alley.find("13") is None


def test_style_plain_drops_emphasis_and_colour_marks_red_cards() -> None:
    assert style(line(strong("Alice"), " wins with Q♥"), False) == "Alice wins with Q♥"
    coloured = style(line(strong("10♦ and Q♠"), " **"), True)
    assert coloured == f"{BOLD}{RED}10♦{RESET}{BOLD} and Q♠{RESET} **"
    assert style("Discard 4♣", True) == "Discard 4♣"
    assert style("**Bo** 9♥", True) == f"**Bo** {RED}9♥{RESET}"  # a name's marks are words


def test_colour_needs_a_terminal_and_no_no_color() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert use_colour(Tty(), {}) is True
    assert use_colour(Tty(), {"NO_COLOR": "1"}) is False
    assert use_colour(Tty(), {"NO_COLOR": ""}) is True
    assert use_colour(io.StringIO(), {}) is False


def test_columns_fill_down_then_across_within_the_width() -> None:
    items = [f"{i}) Discard X" for i in range(1, 8)]
    rows = columns(items, 50)
    assert all(len(r) <= 50 for r in rows)
    assert [r.split()[0::3] for r in rows] == [["1)", "4)", "7)"], ["2)", "5)"], ["3)", "6)"]]
    assert columns(items, 10) == items
    assert columns([], 80) == []


def test_page_stops_when_asked() -> None:
    out = io.StringIO()
    screen = Screen(out, colour=False, interactive=True)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "q"

    screen.page([f"line {i}" for i in range(200)], ask)
    shown = out.getvalue().splitlines()
    assert len(asked) == 1 and 5 <= len(shown) < 200 and shown[0] == "line 0"


def test_page_prints_everything_when_not_interactive() -> None:
    out = io.StringIO()
    Screen(out, colour=False, interactive=False).page(["a"] * 200, lambda p: "q")
    assert out.getvalue() == "a\n" * 200


def test_offline_channels_are_distinct_stable_and_below_discord_ids() -> None:
    ids = {channel_for(g) for g in games.names()}
    assert len(ids) == len(games.names())
    assert channel_for("gin_rummy") == 3476873431  # fixed forever: saved games resume
    assert max(ids) < 2**32


def test_hint_is_the_normal_bot_on_the_seat_view() -> None:
    game = games.get("gin_rummy")
    state = game.new(2, seed=9)
    seat = state.to_act[0]
    import random

    mine = SeatPrivate(seat, 1, game.view(state, seat), tuple(game.legal_actions(state, seat)))
    assert hint(game, mine, 4) == game.choose(state, seat, "normal", random.Random(4))


def test_rules_text_is_the_module_doc_and_options() -> None:
    lines = rules_text(games.get("craits"))
    assert lines[0].startswith("Craits: ")
    assert "  short: Play only the first 8 rounds (8 cards down to 1). (default off)" in lines


def test_grid_aligns_columns_under_heads_longer_than_their_numbers() -> None:
    lines = grid(["#", "Player", "Games"], [["1", "alice", "12"], ["10", "bo", "3"]],
                 gap="  ", rule="─")
    assert lines == [
        " #  Player  Games",
        "──  ──────  ─────",
        " 1  alice      12",
        "10  bo          3",
    ]


def test_junk_is_never_echoed_whole(tmp_path: Path) -> None:
    """5,000 characters typed at the prompt: a short prefix at most comes back."""
    junk_digits, junk_text = "9" * 5000, "x" * 5000
    assert commands.parse(junk_digits) == commands.Pick(0)  # no crash on a huge number
    done = cli("play", "gin_rummy", "--db", str(tmp_path / "d.db"),
               stdin=f"{junk_digits}\n{junk_text}\nquit\n")
    assert done.returncode == 0, done.stderr
    # A piped session echoes each line read, as a terminal would show it; nothing more.
    echoed = done.stdout.replace(junk_text, "", 1).replace(junk_digits, "", 1)
    assert junk_text[:100] not in echoed and junk_digits[:100] not in echoed
    assert "is too long to be a move" in done.stdout and "There is no move 9" in done.stdout
