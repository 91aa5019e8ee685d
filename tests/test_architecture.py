"""The layers import one way only (DESIGN.md): i18n ← games ← storage ← bot; services are
Discord-free."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import games

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
        ("i18n", {"games", "bot", "storage", "discord", "asyncio", "sqlite3"}),
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
        ("bot/render", ("bot.ui", "bot.terminal", "bot.cogs")),
        ("bot/terminal", ("bot.ui", "bot.cogs", "discord")),
        ("bot/art", ("bot.ui", "bot.cogs", "bot.services", "bot.app", "discord", "storage")),
    ],
)
def test_inner_layers_of_bot(package: str, forbidden: tuple[str, ...]) -> None:
    """The runtime knows no front end; renderers know nothing of the Discord edge (the
    component ids they draw are ``bot.custom_ids``, below both); the terminal knows nothing
    of Discord; pictures are drawn from engines' data alone."""
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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports anywhere: at the top, inside
    functions, and under ``if TYPE_CHECKING:`` alike."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in modules:
                    found.add(target)
                elif base in modules:
                    found.add(base)
    return found - {name}


def _import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph (as the modules around it), or [] when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return [*path[path.index(module):], module]
        if module in done:
            return []
        path.append(module)
        for imported in sorted(graph[module]):
            cycle = visit(imported)
            if cycle:
                return cycle
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        cycle = visit(module)
        if cycle:
            return cycle
    return []


def test_the_rest_edge_and_the_items_know_nothing_above_them() -> None:
    """The bot token's REST edge knows no view; a component's item only parses and calls
    the handlers' protocol, never the controller."""
    assert not {m for m in _dotted_imports(ROOT / "bot" / "discord_io.py") if "bot.ui" in m}
    items = _dotted_imports(ROOT / "bot" / "ui" / "items.py")
    assert {m for m in items if m.startswith("bot")} == {"bot", "bot.custom_ids",
                                                         "bot.ui.handlers"}


def test_no_import_circle_even_for_types() -> None:
    """No module of Deckhand imports itself back through others, counting imports made
    only for the type checker: each layer stands on the ones below it."""
    paths = {
        _module_name(p): p
        for package in ("i18n", "games", "storage", "bot", "bench")
        for p in sorted((ROOT / package).rglob("*.py"))
    }
    graph = {name: _imported_modules(path, set(paths)) for name, path in paths.items()}
    assert "bot.ui.controller" in graph["bot.cogs"]  # imported only for the type checker
    cycle = _import_cycle(graph)
    assert not cycle, " → ".join(cycle)


def test_the_import_circle_check_finds_a_circle() -> None:
    assert _import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _import_cycle({"a": {"b"}, "b": set()}) == []


def test_every_module_of_the_core_serves_the_engines() -> None:
    """A module of ``games`` is a game, the driver that plays whole games, or something
    another module of ``games`` uses: what only front ends use lives with them in ``bot``."""
    paths = {_module_name(p): p for p in sorted((ROOT / "games").rglob("*.py"))}
    graph = {name: _imported_modules(path, set(paths)) for name, path in paths.items()}
    used = set().union(*graph.values())
    played = {f"games.{name}" for name in games.names()} | {"games.simulate"}
    assert set(paths) - used - played == set()


#: The most lines a module of the edge holds: past it, it holds more than one job.
EDGE_MODULE_LINES = 450


@pytest.mark.parametrize("package", ["bot/ui", "bot/cogs", "bot/render"])
def test_no_module_of_the_edge_is_over_450_lines(package: str) -> None:
    for path in sorted((ROOT / package).rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= EDGE_MODULE_LINES, f"{path.relative_to(ROOT)}: {lines} lines"
