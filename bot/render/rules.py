"""``/rules``: a game's rules as Deckhand plays them, in pages."""

from __future__ import annotations

import re

import games
from bot import custom_ids
from bot.render.messages import LOBBY_COLOUR, Button, Component, EmbedSpec, MessageSpec
from bot.wording import option_value
from i18n import _

RULES_PAGE_CHARS = 1800
_LITERAL = re.compile(r"``([^`]+)``")


def rules_pages(game_name: str) -> list[str]:
    """The game's rules as Deckhand plays them (its documented decisions, options and
    moves), split into pages for an embed."""
    game = games.get(game_name)
    text = _LITERAL.sub(r"`\1`", game.rules)
    paragraphs = [
        _join_bullets(p)
        if any(line.lstrip().startswith("* ") for line in p.splitlines())
        else p.replace("\n  ", " ").replace("\n", " ")
        for p in text.split("\n\n")
    ]
    if game.options:
        opts = "\n".join(
            "• " + _("`{name}` (default {value}): {help}", name=k,
                     value=option_value(o.default), help=_(o.help))
            for k, o in game.options.items()
        )
        paragraphs.append(_("**Options** (`/table new … options:name=value`):") + "\n" + opts)
    span = (
        f"{game.min_players}"
        if game.min_players == game.max_players
        else f"{game.min_players}–{game.max_players}"
    )
    paragraphs.append(_(
        "**Playing here:** {span} players; moves come as buttons and menus in your DM"
        " (or the table's *Your hand* button), or type them with `/play`, e.g."
        " `/play move:{example}`.", span=span, example=game.example_action(),
    ))
    paragraphs.append(
        _("**Computer players** (`/table addbot level:`):") + "\n"
        + "\n".join(f"• `{level}` {game.explain_level(level)}" for level in game.levels)
    )
    pages: list[str] = []
    current = ""
    for p in paragraphs:
        for i, piece in enumerate(p.split("\n")):
            glue = "\n\n" if i == 0 else "\n"
            line = piece
            while len(line) > RULES_PAGE_CHARS:
                cut = line.rfind(" ", 0, RULES_PAGE_CHARS)
                pages.extend([current, line[:cut]] if current else [line[:cut]])
                current, line = "", line[cut + 1 :]
            if current and len(current) + len(glue) + len(line) > RULES_PAGE_CHARS:
                pages.append(current)
                current = line
            else:
                current = f"{current}{glue}{line}" if current else line
    if current:
        pages.append(current)
    return pages


def _join_bullets(block: str) -> str:
    """A paragraph with bullets: its lead-in on one line, then one line per bullet."""
    items: list[str] = []
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("* "):
            items.append("• " + stripped[2:])
        elif items:
            items[-1] += " " + stripped
        else:
            items.append(stripped)
    return "\n".join(items)


def rules_message(game_name: str, page: int = 0) -> MessageSpec:
    """One page of ``/rules`` with ◀/▶ buttons when there are several."""
    game = games.get(game_name)
    pages = rules_pages(game.name)
    page = max(0, min(page, len(pages) - 1))
    rows: tuple[tuple[Component, ...], ...] = ()
    if len(pages) > 1:
        rows = (
            (
                Button(
                    _("◀ Previous"),
                    custom_ids.rules_id(game.name, max(page - 1, 0)),
                    disabled=page == 0,
                ),
                Button(
                    _("Next ▶"),
                    custom_ids.rules_id(game.name, min(page + 1, len(pages) - 1)),
                    disabled=page == len(pages) - 1,
                ),
            ),
        )
    embed = EmbedSpec(
        title=_("{game} — the rules as Deckhand plays them", game=_(game.title)),
        description=pages[page],
        colour=LOBBY_COLOUR,
        footer=_("Page {page} of {pages}", page=page + 1, pages=len(pages)),
    )
    return MessageSpec(embed=embed, rows=rows)
