"""The repository explains itself: docs/rules.md (and docs/rules.<lang>.md in each other
language) is current, every link of the README and docs/ resolves inside a clone (anchors
included), and each reference table is tied to the code it describes: the settings, the
languages, the slash commands, the command line and the games."""

from __future__ import annotations

import contextlib
import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import games
from bot.docs import DOCS, documents
from bot.translator import discord_speaks
from i18n import SOURCE, languages

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def prose(text: str) -> str:
    """``text`` without its fenced code blocks (a ``#`` there is no heading, a ``](`` no link)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped,
    spaces as hyphens, a repeated one numbered."""
    seen: Counter[str] = Counter()
    out = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", prose(read(path)), re.M):
        text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        out.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return out


def rows(text: str, first: str) -> list[str]:
    """The lines of a Markdown table whose first cell starts with ``first``."""
    return [line for line in text.splitlines() if line.startswith("| " + first)]


def test_the_rules_documents_are_current() -> None:
    written = documents()
    assert DOCS / "rules.md" in written
    for path, text in written.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} is out of date: run .venv/bin/python -m bot.docs"
        )
    stale = set(DOCS.glob("rules.*.md")) - set(written)
    assert not stale, f"{sorted(p.name for p in stale)} has no catalog: delete it"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_in_a_clone(page: Path) -> None:
    """Every relative link of the README and docs/*.md names a file a clone has, and an
    anchor one of that file's headings (a section that moved leaves no link behind)."""
    text = read(page)
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)\s]+)\)", prose(text)):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        where, _, anchor = target.partition("#")
        path = (page.parent / where).resolve() if where else page
        assert path.exists(), f"{page.name} links to {target}, which a clone lacks"
        if anchor:
            assert path.suffix == ".md", target
            assert anchor in anchors(path), f"{page.name} links to {target}: no such heading"


def test_the_link_check_knows_a_missing_anchor() -> None:
    assert {"on-discord", "create-the-application", "set-up"} <= anchors(ROOT / "README.md")
    assert "discords-rules-and-where-they-are-written" in anchors(DOCS / "user-install.md")
    assert "playing-offline" in anchors(DOCS / "command-line.md")
    assert "on-discord-1" not in anchors(ROOT / "README.md")


def test_every_setting_is_in_the_settings_page_and_env_example() -> None:
    """One list of settings (``bot.settings.Settings``); docs/settings.md's table and
    ``.env.example`` name each one, and the table's default, read as that setting, is the
    code's default (the README once lacked DECKHAND_WEB_URL)."""
    from bot.settings import Settings

    fields = {str(f.alias): name for name, f in Settings.model_fields.items()}
    table = dict(re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", read(DOCS / "settings.md"), re.M))
    example = re.findall(r"^#? ?([A-Z_]+)=", read(ROOT / ".env.example"), re.M)
    assert set(fields) == set(table), set(fields) ^ set(table)
    assert set(fields) <= set(example), set(fields) - set(example)
    for alias, default in table.items():
        if default.strip() == "—":  # required: no default to state
            continue
        given = re.match(r"`([^`]*)`", default.strip())
        value = given.group(1) if given else ""
        assert given or default.startswith("empty"), (alias, default)
        name = fields[alias]
        given_value: dict[str, Any] = {alias: value}  # (by its alias, a name known at run time)
        # pydantic types __init__ with the fields only, not BaseSettings' _env_file:
        read_as = getattr(Settings(_env_file=None, **given_value), name)  # type: ignore[call-arg]
        assert read_as == Settings.model_fields[name].default, (alias, default)


def test_the_docs_name_the_languages_deckhand_speaks() -> None:
    """The languages the README and docs/languages.md name are the catalogs
    (``i18n.languages``): the list with their codes, each glossary's link and rules
    document, and those it says Discord has no locale for are exactly those
    ``bot.translator.discord_speaks`` says so of."""
    others = set(languages()) - {SOURCE}
    for page in (ROOT / "README.md", DOCS / "languages.md"):
        speaks = re.search(r"Deckhand speaks English, (.+?),\s+the languages", read(page), re.S)
        assert speaks, f"{page.name} names the languages Deckhand speaks"
        assert set(re.findall(r"\(`(\w+)`\)", speaks.group(1))) == others, page.name
    section = read(DOCS / "languages.md")
    glossaries = dict(re.findall(r"\[([^]]+)\]\(\.\./i18n/locales/(\w+)/glossary\.md\)", section))
    assert set(glossaries.values()) == others
    rules = set(re.findall(r"rules\.(\w+)\.md", section))
    assert rules == others
    lacking = re.search(r"Discord offers none of the seed languages \(([^)]+)\)", section)
    assert lacking, "docs/languages.md says which languages Discord has no locale for"
    named = {glossaries[name.strip()] for name in lacking.group(1).split(",")}
    assert named == {lang for lang in others if not discord_speaks(lang)} == others


async def registered_commands() -> dict[str, set[str]]:
    """Every slash command ``deckhand run`` registers, with its options' names."""
    from discord import app_commands
    from discord.ext import commands

    from bot.app import COGS, DeckhandTree, intents

    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=intents(),
                       tree_cls=DeckhandTree)
    try:
        for name in COGS:
            await bot.load_extension(name)
        return {
            c.qualified_name: {p.display_name for p in c.parameters}
            for c in bot.tree.walk_commands()
            if isinstance(c, app_commands.Command)
        }
    finally:
        await bot.close()


async def test_the_commands_page_lists_every_slash_command_and_option() -> None:
    documented: dict[str, str] = {}
    for row in rows(read(DOCS / "commands.md"), "`/"):
        for code in re.findall(r"`(/[^`]+)`", row.split(" | ")[0]):
            command = re.match(r"/([a-z]+(?: [a-z]+)*)(?![:\w])", code)
            assert command, code
            documented[command.group(1)] = row
    found = await registered_commands()
    assert set(documented) == set(found), set(documented) ^ set(found)
    for name, options in found.items():
        for option in options:
            assert re.search(rf"[\s\[`]{option}[]:`]", documented[name]), f"/{name} {option}"


def usage(*words: str) -> str:
    """The usage line ``deckhand WORDS --help`` prints (argparse's public way in)."""
    from bot.__main__ import parser

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser().parse_args([*words, "--help"])
    return out.getvalue().split("\n\n")[0]


def test_the_command_line_page_lists_every_command_and_option() -> None:
    page = read(DOCS / "command-line.md")
    documented = {row.split("`")[1].split()[1]: row for row in rows(page, "`deckhand ")}
    choices = re.search(r"\{([a-z,]+)\}\s+\.\.\.", usage())
    assert choices is not None
    commands = choices.group(1).split(",")
    assert set(documented) == set(commands), set(documented) ^ set(commands)
    for command in commands:
        below = re.search(r"\{([a-z,]+)\}\s+\.\.\.", usage(command))  # its subcommands
        for sub in below.group(1).split(",") if below else [""]:
            words = [command, sub] if sub else [command]
            row = documented[command]
            assert sub in row, f"deckhand {command} {sub}"
            for option, shown in set(re.findall(r"\[(-[-\w]+) ?([^]\s]*)", usage(*words))):
                if option in ("-h", "--lang"):
                    continue
                assert option in row, f"deckhand {' '.join(words)} {option}"
                if shown.isupper():  # the row writes the placeholder --help shows
                    assert f"{option} {shown}" in row, f"deckhand {' '.join(words)} {option}"
    assert "--lang" in page


def test_the_games_page_lists_every_game_its_players_and_options() -> None:
    documented = {
        name: (players, options)
        for name, players, options in re.findall(
            r"^\| `(\w+)` \| ([\d–]+) \| (.+) \|$", read(DOCS / "games.md"), re.M)
    }
    assert set(documented) == set(games.names())
    for name, (players, options) in documented.items():
        game = games.get(name)
        low, _, high = players.partition("–")
        assert (int(low), int(high or low)) == (game.min_players, game.max_players), name
        shown = dict(re.findall(r"`(\w+)` \(([^)]*)\)", options))
        assert set(shown) == set(game.options), name
        for option, text in shown.items():
            default = game.options[option].default
            expected = ("on" if default else "off") if isinstance(default, bool) else str(default)
            assert re.split(r"[;:,]", text)[0].strip("` ") == expected, (name, option)


def test_the_numbers_rules_gives_are_the_benchmarks_rows() -> None:
    """/rules names measured win rates (Gin Rummy's, Craits' and ONO 99's ``expert.MEASURED``):
    the rows of BENCHMARKS.md they were measured in hold the same games and win rate."""
    from games.craits.expert import MEASURED as CRAITS
    from games.gin_rummy.expert import MEASURED as GIN
    from games.ono99.expert import MEASURED as ONO

    text = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    for label, played, wins in (
        ("(2026-11-29, issue 47) the learned evaluation trained", GIN["games"], GIN["expert"]),
        ("the learned value: expert vs normal×3, games 1,800,000–1,804,799", ONO["games"],
         ONO["expert"]),
        ("bound: every hand (`--clairvoyant hands`), games 300,000–300,479",
         ONO["bound_games"], ONO["clairvoyant"]),
        ("the learned value: expert vs normal×3, games 1,300,000–1,306,399", CRAITS["games"],
         CRAITS["expert"]),
    ):
        row = next(line for line in text.splitlines() if label in line)
        cells = [c.strip(" *") for c in row.split("|")]
        assert str(played) in cells or f"{played} games" in cells, row
        assert f"{100 * wins / played:.1f} %" in row, row
