"""The words belong to the front end: no text the runtime or the terminal shows names a
Discord thing (a button, a slash command, a DM), and no Discord text names a terminal
thing (typing at the prompt, ``help``, ``quit``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

import games
from bot.docs import rules_markdown
from bot.render.hand import hand_message
from bot.render.rules import rules_pages
from bot.render.table import table_message
from bot.terminal.app import rules_text
from bot.wording import option_value, signed
from games.base import read_number
from i18n import ngettext, number, speaking
from tests.discord.test_messages import GAMES, play

ROOT = Path(__file__).resolve().parent.parent

DISCORD_WORDS = re.compile(r"\bbuttons?\b|\bDMs?\b|(?<![\w/])/(table|play|hand|league|rules)\b")
TERMINAL_WORDS = re.compile(r"\btype (help|quit)\b|\bat the prompt\b|\.venv/bin", re.I)


def shown_strings(path: Path) -> list[tuple[int, str]]:
    """String literals that can reach a person: not docstrings, not log calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            skip.add(id(first.value))
        func = node.func if isinstance(node, ast.Call) else None
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "log"
        ):
            skip.update(id(n) for n in ast.walk(node))
    return [
        (n.lineno, n.value) for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def files(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize(
    "path", files("bot/services", "bot/terminal"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_runtime_and_terminal_text_names_nothing_of_discord(path: Path) -> None:
    for line, text in shown_strings(path):
        assert not DISCORD_WORDS.search(text), f"{path.relative_to(ROOT)}:{line}: {text!r}"


@pytest.mark.parametrize("path", files("bot/ui", "bot/cogs"), ids=lambda p: p.name)
def test_discord_text_names_nothing_of_the_terminal(path: Path) -> None:
    for line, text in shown_strings(path):
        assert not TERMINAL_WORDS.search(text), f"{path.relative_to(ROOT)}:{line}: {text!r}"


# -- counts, switches and signs: one way each (bot/wording.py) -------------------------
#: "card(s)", "lobby(ies)": a count written both ways at once.
BOTH_WAYS = re.compile(r"\w\((?:s|es|ies)\)")
#: A Python value where a player reads words (an option is on or off).
PYTHON_VALUES = re.compile(r"\b(?:True|False|None)\b")
#: "1 games": a plural after one.
ONE_OF_MANY = re.compile(
    r"(?<![\w.,/−-])1 (?:cards|tricks|games|hands|points|tokens|bags|rounds|boards|players"
    r"|tables|problems|moves|lobbies|seats|deals|migrations|rows)\b"
)
#: A negative number written with the hyphen (the minus sign is U+2212).
HYPHEN_MINUS = re.compile(r"(?<![\w-])-\d")


def _said_badly(text: str) -> list[str]:
    found = [p.pattern for p in (BOTH_WAYS, PYTHON_VALUES, ONE_OF_MANY) if p.search(text)]
    return found + (["hyphen-minus"] if HYPHEN_MINUS.search(text) else [])


@pytest.mark.parametrize(
    "path", files("bot", "games", "storage", "bench"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_text_writes_a_count_both_ways(path: Path) -> None:
    for line, text in shown_strings(path):
        assert not BOTH_WAYS.search(text), f"{path.relative_to(ROOT)}:{line}: {text!r}"


@pytest.mark.parametrize(("name", "players", "seed", "options"), GAMES)
def test_what_a_game_shows_counts_switches_and_signs_one_way(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    """Every table message, hand, hint and replay step of a seeded game, and the game's
    rules everywhere they are shown."""
    game = games.get(name)
    shown: list[str] = []
    for moment in play(name, players, seed, {**options, **_SWITCHED.get(name, {})}):
        result = moment.result
        shown.append(table_message(result, moment.events).text())
        for mine in result.private.values():
            shown.append(hand_message(result, mine, "#cards").text())
            if mine.legal:
                move = game.choose(moment.state, mine.seat, "normal")
                shown.append(game.explain(dict(mine.view), list(mine.legal), move))
    for text in shown:
        assert not _said_badly(text), (_said_badly(text), text)
    for rules in ("\n".join(rules_pages(name)), "\n".join(rules_text(game)), rules_markdown()):
        bad = [b for b in _said_badly(rules) if b != "hyphen-minus"]  # 'play -10' is typed
        assert not bad, (bad, rules)


#: Options switched away from their defaults, so the footer shows a switch's value.
_SWITCHED: dict[str, dict[str, Any]] = {"spades": {"blind_nil": False},
                                         "ono99": {"negative_totals": True}}


def test_the_wording_helpers() -> None:
    assert [ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == [
        "0 cards", "1 card", "2 cards"]
    assert ngettext("{n} stale lobby", "{n} stale lobbies", 1) == "1 stale lobby"
    assert ngettext("{n} stale lobby", "{n} stale lobbies", 3) == "3 stale lobbies"
    assert ngettext("{n} point", "{n} points", -2) == "\u22122 points"
    assert [number(n) for n in (-50, 0, 7)] == ["\u221250", "0", "7"]
    assert [signed(n) for n in (-50, 0, 7)] == ["\u221250", "+0", "+7"]
    assert [option_value(v) for v in (True, False, 150, "points")] == ["on", "off", "150",
                                                                        "points"]
    for value in (10_000, -250):  # as typed back: no grouping, an ASCII minus
        assert read_number(option_value(value)) == value
        with speaking("is"):
            assert read_number(option_value(value)) == value



# -- words several surfaces show: each written once --------------------------------------
_GETTEXT = {"_": 0, "N_": 0, "lazy_gettext": 0, "gettext": 0, "pgettext": 1}


def _messages(path: Path) -> list[tuple[str | None, str, int]]:
    """``(context, msgid, line)`` of every message the file writes with a literal id."""
    found: list[tuple[str | None, str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        at = _GETTEXT.get(name)
        if at is None or len(node.args) <= at:
            continue
        parts = node.args[: at + 1]
        texts = [a.value for a in parts if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if len(texts) == len(parts):
            context = texts[0] if at else None
            found.append((context, texts[at], node.lineno))
    return found


def test_a_word_with_a_context_is_written_once() -> None:
    """A short word that needs its context to be translated (a column head, a status) is
    written in one place, which every surface asks (``bot/render/columns.py``, an event's
    ``status_word``), and never written again without its context."""
    written: dict[tuple[str | None, str], list[str]] = {}
    for path in files("bot", "games", "storage"):
        for context, msgid, line in _messages(path):
            written.setdefault((context, msgid), []).append(f"{path.relative_to(ROOT)}:{line}")
    with_context = {key: where for key, where in written.items() if key[0] is not None}
    twice = {key: where for key, where in with_context.items() if len(where) > 1}
    assert not twice
    bare = {msgid: written[(None, msgid)] for _, msgid in with_context if (None, msgid) in written}
    assert not bare
