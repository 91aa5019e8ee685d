"""Events as Discord messages: the sign-up message, a round's tables, the standings.

Pure (no discord import): ``MessageSpec``s and text from the event service's rows. Names
are escaped for markdown; a round announcement mentions its players (the caller allows
those user mentions, nothing else).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import games
from bot import custom_ids
from bot.render import columns
from bot.render.messages import Button, EmbedSpec, MessageSpec
from bot.services.events.service import COMPUTER, EventStandings
from bot.text import cut, plain
from i18n import N_, Message, _, ngettext, pgettext
from storage.events import EntrantRow, EventRow, TableRow

SIGNUP_COLOUR = 0x5865F2
RUNNING_COLOUR = 0x2ECC71
FINISHED_COLOUR = 0xF1C40F
NAMES_SHOWN = 40
ROWS_SHOWN = 20
#: Each event format's name, as Discord's event lines and the events pages show it.
FORMAT_NAMES = {
    "swiss": N_("Swiss"), "round_robin": N_("Round robin"), "duplicate": N_("Duplicate"),
}


def format_name(format: str) -> str:
    """An event format's name in the language spoken (``Swiss``, ``Round robin``)."""
    return _(FORMAT_NAMES[format])


def status_word(status: str) -> str:
    """An event's status in a word or two, as ``/event list`` and the events page show it
    (an unknown stored word as it is)."""
    words = {
        "signup": pgettext("an event's status", "taking sign-ups"),
        "running": pgettext("an event's status", "running"),
        "finished": pgettext("an event's status", "finished"),
        "cancelled": pgettext("an event's status", "cancelled"),
    }
    return words.get(status, status)


def describe(event: EventRow) -> str:
    """``Gin Rummy · Swiss · 3 rounds`` (and boards, for duplicate)."""
    parts = [_(games.get(event.game).title), format_name(event.format),
             ngettext("{n} round", "{n} rounds", event.rounds)]
    if event.format == "duplicate":
        parts.append(ngettext("{n} board a round", "{n} boards a round", event.boards))
    if event.computer is not None:
        parts.append(_("a {level} computer evens out an odd field", level=event.computer))
    return " · ".join(parts)


def signup_message(event: EventRow, players: Sequence[EntrantRow]) -> MessageSpec:
    """The event's message: what it is, who signed up, and (before the start) the buttons."""
    names = [plain(str(p.name)) for p in players]
    shown = ", ".join(names[:NAMES_SHOWN]) or _("nobody yet")
    if len(names) > NAMES_SHOWN:
        shown = _("{names} and {more} more", names=shown, more=len(names) - NAMES_SHOWN)
    fields = [(_("Signed up ({count})", count=len(names)), cut(shown, 1024))]
    if event.status == "signup":
        colour, state = SIGNUP_COLOUR, _("Sign up below; the organiser starts the event.")
        rows: tuple[tuple[Button, ...], ...] = ((
            Button(_("Sign up"), custom_ids.event_id(event.id, "join"), "success"),
            Button(_("Leave"), custom_ids.event_id(event.id, "leave")),
            Button(_("Start"), custom_ids.event_id(event.id, "start"), "primary"),
        ),)
    else:
        colour = FINISHED_COLOUR if event.status == "finished" else RUNNING_COLOUR
        state = {
            "running": _("Running: round {round} of {rounds}.", round=event.round,
                         rounds=event.rounds),
            "finished": _("Finished."),
            "cancelled": _("Cancelled."),
        }[event.status]
        rows = ()
    return MessageSpec(
        embed=EmbedSpec(
            title=cut(_("Event #{id}: {name}", id=event.id, name=event.name), 256),
            description=f"{describe(event)}\n{state}",
            colour=colour,
            fields=tuple(fields),
            footer=f"/event standings event:{event.id}",
        ),
        rows=rows,
    )


def _side(names: Mapping[int, str | Message], seats: Sequence[int], mention: bool) -> str:
    who = sorted(set(seats), key=list(seats).index)
    return " & ".join(
        f"<@{u}>" if mention and u != COMPUTER else plain(str(names[u])) for u in who
    )


def sides(table: TableRow, members: Mapping[int, Sequence[int]]) -> tuple[list[int], list[int]]:
    """The seats' players of each side, first-named side first."""
    a = [u for u in table.seats if u in members[table.side_a]]
    return a, [u for u in table.seats if u not in a]


def round_text(
    event: EventRow, tables: Sequence[TableRow], members: Mapping[int, Sequence[int]],
    names: Mapping[int, str | Message], *, mention: bool,
) -> str:
    """One round: each table (where it is played, or its result) and the byes."""
    this = [t for t in tables if t.round == event.round]
    lines = []
    for no in sorted({t.table_no for t in this}):
        boards = [t for t in this if t.table_no == no]
        first = boards[0]
        if first.side_b is None:
            bye = _side(names, members[first.side_a], mention)
            lines.append(_("Bye: {who}", who=bye))
            continue
        a, b = sides(first, members)
        channel = next((t.channel_id for t in boards if t.channel_id), None)
        args = {"no": no, "a": _side(names, a, mention), "b": _side(names, b, mention)}
        line = (_("Table {no}: {a} vs {b} in <#{channel}>", channel=channel, **args)
                if channel else _("Table {no}: {a} vs {b}", **args))
        done = [t for t in boards if t.scores is not None]
        if event.format != "duplicate" and first.points is not None:
            line += f" — {_score(first.points)}–{_score(1 - first.points)}"
        elif done:
            line += " — " + _("{done}/{boards} boards played", done=len(done),
                              boards=len(boards))
        lines.append(line)
    return "\n".join(lines)


def _score(points: float) -> str:
    return "½" if points == 0.5 else str(int(points))


def round_announcement(
    event: EventRow, tables: Sequence[TableRow], members: Mapping[int, Sequence[int]],
    names: Mapping[int, str | Message],
) -> str:
    """Posted in the event's channel when a round's tables are open (mentions players)."""
    head = _("**{name}** — round {round} of {rounds} is on:", name=plain(event.name),
             round=event.round, rounds=event.rounds)
    return cut(head + "\n" + round_text(event, tables, members, names, mention=True), 2000)


def standings_text(
    st: EventStandings, tables: Sequence[TableRow], members: Mapping[int, Sequence[int]],
    names: Mapping[int, str | Message],
) -> str:
    """The standings as a monospace table, the order that decides them, and the current
    round (or, at the end, the winner)."""
    e = st.event
    head = _("**{name}** · {event}", name=plain(e.name), event=describe(e))
    if e.status == "signup":
        return head + "\n" + _("Sign-ups are open; standings start with round 1.")
    duplicate = e.format == "duplicate"
    player, bye = _("Player"), pgettext("column: byes", "Bye")
    points = pgettext("column: matchpoints", "MP") if duplicate else columns.points()
    tiebreaks = [] if duplicate else [pgettext("column: Buchholz", "Buch"), _("SB")]
    lines = columns.grid([
        "#", player, points, *tiebreaks, columns.played(), bye
    ], [
        [str(r.rank), r.side.replace("`", "'")[:22], f"{r.points:g}",
         *([] if duplicate else [f"{r.buchholz:g}", f"{r.sonneborn_berger:g}"]),
         str(r.played), str(r.byes)]
        for r in st.rows[:ROWS_SHOWN]
    ])
    more = ("\n" + _("…and {more} more", more=len(st.rows) - ROWS_SHOWN)
            if len(st.rows) > ROWS_SHOWN else "")
    body = "```\n" + "\n".join(lines) + "\n```" + more
    order = _("Order: {order}.", order=st.order)
    if e.status == "finished":
        tail = (_("Finished — winner: **{who}**.", who=plain(st.rows[0].side))
                if st.rows else "")
    else:
        tail = _("Round {round} of {rounds}:", round=e.round, rounds=e.rounds) + "\n" + (
            round_text(e, tables, members, names, mention=False)
        )
    return cut(f"{head}\n{order}\n{body}\n{tail}", 2000)
