"""A table's options as text, both ways: the ones a table changed from the game's
defaults, shown; and ``name=value`` pairs, typed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import games
from bot.text import clip
from bot.wording import option_value
from i18n import _, lazy_gettext


def options_text(game_name: str, options: Mapping[str, Any]) -> str:
    """The options that differ from the game's defaults, or ``standard rules``."""
    game = games.get(game_name)
    changed = [
        f"{k}={option_value(v)}"
        for k, v in options.items()
        if k in game.options and game.options[k].default != v
    ]
    return ", ".join(changed) or _("standard rules")


def option_pairs(text: str) -> dict[str, str]:
    """``target=150 blind_nil=off`` → a dict; ``ValueError`` with a plain message."""
    out: dict[str, str] = {}
    for pair in text.replace(",", " ").split():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(lazy_gettext(
                "Options look like name=value (e.g. target=150), not {pair!r}.", pair=clip(pair)
            ))
        out[key.strip().lower()] = value.strip()
    return out
