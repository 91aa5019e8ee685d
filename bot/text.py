"""Text helpers shared by the services and every front end."""

from __future__ import annotations

#: How much of something a user typed is ever echoed back.
ECHO_LIMIT = 40


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks a cut), on one line."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
