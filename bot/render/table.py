"""The public table message, in every state — lobby, playing, finished, closed — rendered
from a ``TableResult``'s public part only (seats, spectator view, outcome) plus the public
event lines kept by the caller (``EventLog``); never from ``private``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import games
from bot.custom_ids import CustomId
from bot.render import renderer
from bot.render.common import seat_names
from bot.render.durations import timer_text
from bot.render.markup import markdown_lines
from bot.render.messages import (
    CLOSED_COLOUR,
    FINISHED_COLOUR,
    LOBBY_COLOUR,
    PLAYING_COLOUR,
    Button,
    Component,
    EmbedSpec,
    MessageSpec,
)
from bot.render.options import options_text
from bot.render.steps import event_lines
from bot.services.tables import MANAGED, SeatInfo, Step, TableResult
from bot.services.tables.hints import UNRATED
from bot.text import cut
from i18n import N_, Message, _, listing, ngettext, number

EVENTS_SHOWN = 6
#: The table message's field of recent event lines (they may reach back into the
#: previous deal).
LAST_MOVES = N_("Last moves")


@dataclass
class EventLog:
    """The last public event lines of a table (kept in memory by the adapter)."""

    lines: list[str] = field(default_factory=list)
    size: int = EVENTS_SHOWN

    def add(self, result: TableResult) -> None:
        """Append the lines of the result's public events (its steps)."""
        self.lines.extend(step_lines(result.game, result.steps, seat_names(result.seats)))
        del self.lines[: -self.size]


def step_lines(game: str, steps: Iterable[Step], names: Sequence[str]) -> list[str]:
    """One line per public event of ``steps`` that the game's renderer shows (markdown)."""
    return markdown_lines(event_lines(game, (e for step in steps for e in step.events), names))


def _seat_label(s: SeatInfo, host_id: int) -> str:
    who = f"<@{s.user_id}>" if s.user_id is not None else str(s.name)
    if s.user_id is not None and s.user_id == host_id:
        return _("{who} (host)", who=who)
    return who


def _options(result: TableResult) -> str:
    return options_text(result.game, result.options)


def lobby_message(result: TableResult, note: str | Message = "") -> MessageSpec:
    """The lobby: seats, options and Join / Leave / Add computer / Start / Cancel."""
    game = games.get(result.game)
    lines = [f"{i + 1}. {_seat_label(s, result.host_id)}" for i, s in enumerate(result.seats)]
    free = game.max_players - len(result.seats)
    span = (
        f"{game.min_players}"
        if game.min_players == game.max_players
        else f"{game.min_players}–{game.max_players}"
    )
    lines.append(ngettext("{n} free seat · {span} players", "{n} free seats · {span} players",
                          free, span=span))
    if note:
        lines.append(f"*{note}*")
    t, v = result.table_id, result.version
    full = free <= 0
    rows: tuple[tuple[Component, ...], ...] = (
        (
            Button(_("Join"), str(CustomId(t, v, "join")), "primary", disabled=full),
            Button(_("Leave"), str(CustomId(t, v, "leave"))),
            Button(_("Add computer"), str(CustomId(t, v, "bot", "normal")), disabled=full),
            Button(
                _("Start"),
                str(CustomId(t, v, "start")),
                "success",
                disabled=len(result.seats) < game.min_players,
            ),
            Button(_("Cancel"), str(CustomId(t, v, "cancel")), "danger"),
        ),
    )
    embed = EmbedSpec(
        title=_("{game} — new table", game=_(game.title)),
        description="\n".join(lines),
        colour=LOBBY_COLOUR,
        fields=((_("Rules"), f"{_options(result)} · {timer_text(result.turn_timer)}"),),
        footer=_("Table {table} · /rules {game} · the host starts the game", table=t,
                 game=game.name),
    )
    return MessageSpec(embed=embed, rows=rows, layout=True)


def placements(result: TableResult) -> list[str]:
    """``1. Alice — 120`` lines, best first (from the public outcome)."""
    if result.outcome is None:
        return []
    out = result.outcome
    order = sorted(range(len(result.seats)), key=lambda s: (out.ranks[s], s))
    names = seat_names(result.seats)
    return [f"{out.ranks[s]}. {names[s]} — {number(out.scores[s])}" for s in order]


def table_message(
    result: TableResult, events: Sequence[str] = (), *, league_line: str = "",
    note: str | Message = "",
) -> MessageSpec:
    """The public table message: rendered only from public data, never from ``private``."""
    if result.status == "lobby":
        return lobby_message(result, note)
    game = games.get(result.game)
    names = seat_names(result.seats)
    t, v = result.table_id, result.version
    fields: list[tuple[str, str]] = []
    body: list[str] = []
    if result.public is not None:
        body = markdown_lines(renderer(result.game).table(result.public, names))
    if events:
        fields.append((_(LAST_MOVES), cut("\n".join(events), 1024)))
    rows: tuple[tuple[Component, ...], ...] = ()
    if result.status == "playing":
        colour = PLAYING_COLOUR
        turn = [names[s] for s in result.to_act]
        if turn:
            who = listing([f"**{n}**" for n in turn])
            line = (
                _("▶ {who} to move · timer ends <t:{deadline}:R>", who=who,
                  deadline=int(result.deadline))
                if result.deadline is not None else _("▶ {who} to move", who=who)
            )
            fields.append((_("Turn"), line))
        rows = ((Button(_("Your hand"), str(CustomId(t, v, "hand")), "primary"),),)
    elif result.status == "finished":
        colour = FINISHED_COLOUR
        replay = (
            "\n" + _("Replay: `/game replay id:{match}`", match=result.match_id)
            if result.match_id else ""
        )
        fields.append((_("Result"), cut("\n".join(placements(result)) or "—", 900) + replay))
        if league_line:
            fields.append((_("League"), cut(league_line, 1024)))
        if result.host_id != MANAGED:  # an event's game has no rematch
            rows = ((Button(_("Rematch"), str(CustomId(t, v, "rematch")), "success"),),)
    else:
        colour = CLOSED_COLOUR
        body.append("*" + _("This table was closed.") + "*")
    if result.unrated and result.status != "aborted":
        body.append(f"*{_(UNRATED)}*")
    if note:
        body.append(f"*{note}*")
    embed = EmbedSpec(
        title=_("{game} — table {table}", game=_(game.title), table=t),
        description=cut("\n".join(body), 4000),
        colour=colour,
        fields=tuple(fields),
        footer=_("Table {table} · move {move} · {options} · /hand shows your cards", table=t,
                 move=v, options=_options(result)),
    )
    return MessageSpec(embed=embed, rows=rows, layout=True)
