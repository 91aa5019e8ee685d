"""What the render tests share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import GameRenderer
from bot.render.markup import markdown


def said(r: GameRenderer, event: dict[str, Any], names: Sequence[str]) -> str:
    """The line ``r`` gives ``event``, as Discord shows it (the event must not be skipped)."""
    line = r.event(event, names)
    assert line is not None, event
    return markdown(line)
