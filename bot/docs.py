"""``docs/rules.md`` and ``docs/rules.<lang>.md``: the rules as Deckhand plays them, in
English and in every language Deckhand has, written from each game's own rules text (its
package docstring, which states every rule decision, translated paragraph by paragraph)
and its table options, so the repository explains the games without anything outside it.

Regenerate with ``.venv/bin/python -m bot.docs`` (a test checks every file is current).
"""

from __future__ import annotations

from pathlib import Path

import games
from bot.wording import option_value
from i18n import SOURCE, _, languages, speaking

DOCS = Path(__file__).resolve().parent.parent / "docs"
PATH = DOCS / "rules.md"


def path_of(lang: str) -> Path:
    """Where the rules in ``lang`` are written: ``rules.md`` for English, else
    ``rules.<lang>.md``."""
    return PATH if lang == SOURCE else DOCS / f"rules.{lang}.md"


def rules_markdown() -> str:
    """The whole document in the language spoken."""
    out = [
        "# " + _("The rules as Deckhand plays them"),
        "",
        "<!-- Generated from each game's rules text: python -m bot.docs -->",
        _("In Discord, /rules shows the same text, and so does rules in deckhand play.\n"
          "Where the printed rules of a game leave a choice, each game says how Deckhand\n"
          "plays it."),
    ]
    for name in games.names():
        g = games.get(name)
        count = (
            f"{g.min_players}" if g.min_players == g.max_players
            else f"{g.min_players}–{g.max_players}"
        )
        out += ["", "## " + _("{game} (`{name}`, {count} players)", game=_(g.title), name=name,
                              count=count), ""]
        out += [g.rules, ""]
        if g.options:
            out += [_("Table options (`/table new options:` or `deckhand play -o name=value`):"),
                    ""]
            out += [
                "* " + _("`{name}` — {help} (default {value})", name=k, help=_(o.help),
                         value=option_value(o.default))
                for k, o in g.options.items()
            ]
        out += ["", _("Computer players:"), ""]
        out += [f"* `{level}` {g.explain_level(level)}" for level in g.levels]
    return "\n".join(out).rstrip() + "\n"


def documents() -> dict[Path, str]:
    """Every rules document: its path and its text."""
    out = {}
    for lang in languages():
        with speaking(lang):
            out[path_of(lang)] = rules_markdown()
    return out


if __name__ == "__main__":
    DOCS.mkdir(exist_ok=True)
    for path, text in documents().items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
