"""A game at one step as spectators saw it, for the table message and every replay.

The table message, ``/game replay`` in Discord, the standings page's replays and
``deckhand replay --show`` in the terminal all show a step with these functions, each in
its own markup (``bot.render.markup``): the game's renderer draws the table from the
spectator view and the public events in words, so no surface has a renderer of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.render import View, renderer
from bot.render.markup import Line, Text, line, strong
from i18n import N_, _

#: What step 0 of a replay shows in place of a move (marked for the catalogs).
DEAL = N_("The deal")


@dataclass(frozen=True)
class Shown:
    """One step: the move that led to it, the public events it made, and the table."""

    moved: Text
    events: list[Text]
    table: list[Text]


def event_lines(game: str, events: Iterable[dict[str, Any]], names: Sequence[str]) -> list[Text]:
    """One line per public event the game's renderer shows."""
    r = renderer(game)
    return [text for text in (r.event(e, names) for e in events) if text]


def moved(
    game: str, names: Sequence[str], seat: int, action: str, timed_out: bool = False
) -> Line:
    """``Alice: Draw from the stock`` (the name strong; `` (timed out)`` when the
    computer moved for an absent player)."""
    label = renderer(game).action_label(action)
    return line(strong(names[seat]), _(": {move} (timed out)", move=label) if timed_out
                else _(": {move}", move=label))


def shown(
    game: str, view: View, events: Iterable[dict[str, Any]], names: Sequence[str],
    move: tuple[int, str, bool] | None,
) -> Shown:
    """The step whose spectator view is ``view``, reached by ``move`` (seat, action, timed
    out; None at the deal), which made ``events``."""
    return Shown(
        _(DEAL) if move is None else moved(game, names, *move),
        event_lines(game, events, names),
        renderer(game).table(view, names),
    )
