"""A seat's hand message: its private part (``TableResult.private[seat]``) with components
for exactly its legal moves.

``move_rows`` lays out a seat's legal moves: one-word moves and verbs with a single move
become buttons, other verbs a select menu (values are whole moves); a verb with more than
25 moves whose arguments come from at most 25 cards (Spades' exchange) is a multi-select
of those cards; anything else is split into menus of 25. More than five rows are paged
with ◀/▶ buttons. ``move_for`` reads a clicked component back as its move.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from bot import custom_ids
from bot.custom_ids import CustomId
from bot.render import renderer
from bot.render.common import seat_names
from bot.render.markup import markdown_lines
from bot.render.messages import Button, Component, MessageSpec, Select
from bot.render.table import placements
from bot.services.tables import SeatPrivate, TableResult
from bot.text import cut
from i18n import N_, _, listing

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25
#: A menu's title for each verb of the games whose moves take arguments.
VERB_TITLES = {
    "play": N_("Play"), "discard": N_("Discard"), "knock": N_("Knock"), "bid": N_("Bid"),
    "exchange": N_("Exchange"), "callout": N_("Callout"),
}


def hand_message(
    result: TableResult, mine: SeatPrivate, channel_mention: str, page: int = 0
) -> MessageSpec:
    """A seat's private hand with components for exactly its legal moves."""
    r = renderer(result.game)
    lines = [
        _("**{game}** in {channel} — your hand", game=_(result.title), channel=channel_mention),
        *markdown_lines(r.hand(mine.view)),
    ]
    if result.status == "finished":
        lines.append(_("The game is over: {placements}",
                       placements=" · ".join(placements(result))))
    elif result.status != "playing":
        lines.append(_("This table was closed."))
    elif mine.legal:
        lines.append(_("**Your move:**"))
    else:
        names = seat_names(result.seats)
        waiting = listing([names[s] for s in result.to_act]) or _("nobody")
        lines.append(_("Waiting for {who}.", who=waiting))
    rows: tuple[tuple[Component, ...], ...] = ()
    if result.status == "playing" and mine.legal:
        rows = move_rows(result.table_id, result.version, mine.legal, r.action_label, page)
    return MessageSpec(content=cut("\n".join(lines), 2000), rows=rows)


def _verb(action: str) -> str:
    return action.split(" ", 1)[0]


def _combinational(verb: str, actions: Sequence[str]) -> list[str] | None:
    """The cards of a verb whose moves are every combination of some cards, else None."""
    args = [a.split()[1:] for a in actions]
    tokens = list(dict.fromkeys(t for a in args for t in a))
    if not args or len(tokens) > MAX_OPTIONS or any(len(set(a)) != len(a) for a in args):
        return None
    sizes = {len(a) for a in args}
    expected = sum(1 for k in sizes for _ in combinations(tokens, k))
    return tokens if expected == len({frozenset(a) for a in args}) else None


def _move_components(
    table_id: int, version: int, legal: Sequence[str], label: Any
) -> tuple[list[Button], list[Select]]:
    groups: dict[str, list[str]] = {}
    for action in legal:
        groups.setdefault(_verb(action), []).append(action)
    buttons: list[Button] = []
    selects: list[Select] = []
    for verb, actions in groups.items():
        singles = [a for a in actions if " " not in a]
        rest = [a for a in actions if " " in a]
        if len(rest) == 1:
            singles += rest
            rest = []
        for a in singles:
            if custom_ids.fits(table_id, version, "act", a):
                style = "primary" if len(buttons) == 0 else "secondary"
                buttons.append(
                    Button(cut(label(a), 80), str(CustomId(table_id, version, "act", a)), style)
                )
            else:
                rest.append(a)
        if not rest:
            continue
        title = _(VERB_TITLES[verb]) if verb in VERB_TITLES else verb.capitalize()
        if len(rest) > MAX_OPTIONS:
            tokens = _combinational(verb, rest)
            if tokens is not None and custom_ids.fits(table_id, version, "multi", verb):
                sizes = [len(a.split()) - 1 for a in rest]
                selects.append(
                    Select(
                        str(CustomId(table_id, version, "multi", verb)),
                        cut(_("{verb}: pick {least}–{most} cards", verb=title,
                              least=min(sizes), most=max(sizes)), 150),
                        tuple((cut(label(f"{verb} {t}"), 100), t) for t in tokens),
                        min(sizes),
                        max(sizes),
                    )
                )
                continue
        chunks = [rest[i : i + MAX_OPTIONS] for i in range(0, len(rest), MAX_OPTIONS)]
        for n, chunk in enumerate(chunks):
            suffix = f" ({n + 1}/{len(chunks)})" if len(chunks) > 1 else ""
            arg = verb if len(chunks) == 1 else f"{verb}.{n}"
            selects.append(
                Select(
                    str(CustomId(table_id, version, "sel", arg)),
                    cut(f"{title}…{suffix}", 150),
                    tuple((cut(label(a), 100), a) for a in chunk),
                )
            )
    return buttons, selects


def move_rows(
    table_id: int, version: int, legal: Sequence[str], label: Any, page: int = 0
) -> tuple[tuple[Component, ...], ...]:
    """At most five rows of components for ``legal``; page ``page`` when they need more."""
    buttons, selects = _move_components(table_id, version, legal, label)
    rows: list[tuple[Component, ...]] = [
        tuple(buttons[i : i + MAX_BUTTONS_PER_ROW])
        for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)
    ]
    rows += [(s,) for s in selects]
    if len(rows) <= MAX_ROWS:
        return tuple(rows)
    per_page = MAX_ROWS - 1
    pages = (len(rows) + per_page - 1) // per_page
    page = max(0, min(page, pages - 1))
    nav: list[Component] = []
    if page > 0:
        nav.append(
            Button(_("◀ Previous"), str(CustomId(table_id, version, "page", str(page - 1))))
        )
    if page < pages - 1:
        nav.append(Button(_("Next ▶"), str(CustomId(table_id, version, "page", str(page + 1)))))
    return (*rows[page * per_page : (page + 1) * per_page], tuple(nav))


def move_for(cid: CustomId, values: Sequence[str]) -> str:
    """The move a clicked component stands for (``BadCustomId`` if it names none)."""
    if cid.kind == "act":
        return cid.arg
    if cid.kind == "sel" and len(values) == 1:
        return values[0]
    if cid.kind == "multi":
        return " ".join([cid.arg, *values])
    raise custom_ids.BadCustomId(f"component {cid.kind!r} does not name a move")
