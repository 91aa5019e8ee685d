"""Text helpers shared by the services and every front end."""

from __future__ import annotations

import re

#: The command as it works right after the README's set-up (no venv activation needed):
#: every message that tells someone what to run names it so.
COMMAND = ".venv/bin/deckhand"

#: The longest move anyone can type (every move of every game is far shorter).
MOVE_LENGTH = 100

#: How much of something a user typed is ever echoed back.
ECHO_LIMIT = 40


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks a cut), on one line."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks a cut), its lines kept."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


_MARKDOWN = re.compile(r"([\\*_~|>#\-\[\]()<:])")


def plain(name: str) -> str:
    """A user-chosen name shown as plain text in Discord markdown: every markdown mark
    escaped, backticks made quotes (so no code block breaks), and no mention (``<@id>``,
    ``@everyone``: shown, never rendered as one)."""
    return _MARKDOWN.sub(r"\\\1", name.replace("`", "'")).replace("@", "@\u200b")
