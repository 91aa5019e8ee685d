"""The words belong to the front end: no text the runtime or the terminal shows names a
Discord thing (a button, a slash command, a DM), and no Discord text names a terminal
thing (typing at the prompt, ``help``, ``quit``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

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
