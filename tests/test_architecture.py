"""The layers import one way only (DESIGN.md): games ← storage ← bot; services are Discord-free."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("games", {"bot", "storage", "discord", "asyncio", "sqlite3"}),
        ("storage", {"bot", "discord"}),
        ("bot/services", {"discord"}),
    ],
)
def test_layers_import_one_way(package: str, forbidden: set[str]) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    for path in files:
        bad = _imports(path) & forbidden
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def _dotted_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("bot/services", ("bot.ui", "bot.render", "bot.terminal", "bot.cogs", "bot.app")),
        ("bot/render", ("bot.ui.controller", "bot.ui.publisher", "bot.terminal", "bot.cogs")),
        ("bot/terminal", ("bot.ui", "bot.cogs", "discord")),
        ("bot/art", ("bot.ui", "bot.cogs", "bot.services", "bot.app", "discord", "storage")),
    ],
)
def test_inner_layers_of_bot(package: str, forbidden: tuple[str, ...]) -> None:
    """The runtime knows no front end; renderers know no transport; the terminal knows
    nothing of Discord; pictures are drawn from engines' data alone."""
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = {m for m in _dotted_imports(path) if m.startswith(forbidden)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


#: Objects of third-party libraries that Deckhand's code holds (a ``_name`` on one of these
#: would be a private attribute of the library).
_LIBRARY_OBJECTS = re.compile(
    r"\b(conn|connection|raw|client|bot|http|interaction|response|message|channel|view|"
    r"tree|loop|session|cursor)\._[a-z]\w*"
)


def test_no_private_attribute_of_a_library_is_touched() -> None:
    for package in ("bot", "storage", "games", "bench"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found = _LIBRARY_OBJECTS.search(line)
                assert found is None, f"{path.relative_to(ROOT)}:{n}: {found.group(0)}"


@pytest.mark.parametrize("module", ["pairing.py", "duplicate.py"])
def test_the_event_core_is_pure(module: str) -> None:
    """Pairing and duplicate scoring need no database, event loop or network."""
    path = ROOT / "bot" / "services" / "events" / module
    bad = _imports(path) & {"storage", "asyncio", "discord", "sqlite3", "psycopg", "aiohttp"}
    assert not bad, f"{module} imports {sorted(bad)}"
