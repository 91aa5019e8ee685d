"""``docs/rules.md``: the rules as Deckhand plays them, written from each game's own rules
text (its package docstring, which states every rule decision) and its table options, so
the repository explains the games without anything outside it.

Regenerate with ``.venv/bin/python -m bot.docs`` (a test checks the file is current).
"""

from __future__ import annotations

from pathlib import Path

import games
from games.wording import option_value

PATH = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def rules_markdown() -> str:
    """The whole document."""
    out = [
        "# The rules as Deckhand plays them",
        "",
        "<!-- Generated from each game's rules text: python -m bot.docs -->",
        "In Discord, /rules shows the same text, and so does rules in deckhand play.",
        "Where the printed rules of a game leave a choice, each game says how Deckhand",
        "plays it.",
    ]
    for name in games.names():
        g = games.get(name)
        count = (
            f"{g.min_players}" if g.min_players == g.max_players
            else f"{g.min_players}–{g.max_players}"
        )
        out += ["", f"## {g.title} (`{name}`, {count} players)", ""]
        out += [g.rules, ""]
        if g.options:
            out += ["Table options (`/table new options:` or `deckhand play -o name=value`):", ""]
            out += [
                f"* `{k}` — {o.help} (default {option_value(o.default)})"
                for k, o in g.options.items()
            ]
        out += ["", "Computer players:", ""]
        out += [f"* `{level}` {g.explain_level(level)}" for level in g.levels]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(rules_markdown(), encoding="utf-8")
    print(f"wrote {PATH}")
