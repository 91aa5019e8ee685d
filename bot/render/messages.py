"""Whole Discord messages as plain data, assembled from the per-game renderers.

Nothing here imports discord: a message is a ``MessageSpec`` (content, one embed, rows of
buttons and select menus) that ``bot.ui.views`` turns into discord.py objects, so the
rendering rules — above all "the public message only ever sees public data" — are unit
tested without Discord.

* ``table_message`` renders a table from a ``TableResult``'s public part only (seats,
  spectator view, outcome) plus the public event lines kept by the caller.
* ``hand_message`` renders one seat's private part (``TableResult.private[seat]``).
* ``move_rows`` lays out a seat's legal moves: one-word moves and verbs with a single
  move become buttons, other verbs a select menu (values are whole moves); a verb with
  more than 25 moves whose arguments come from at most 25 cards (Spades' exchange) is a
  multi-select of those cards; anything else is split into menus of 25. More than five
  rows are paged with ◀/▶ buttons.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import games
from bot.render import renderer
from bot.render.durations import timer_text
from bot.render.markup import markdown_lines
from bot.render.steps import event_lines
from bot.services.tables import MANAGED, SeatInfo, SeatPrivate, Step, TableResult
from bot.services.tables.hints import UNRATED
from bot.text import clip, cut
from bot.ui import custom_ids
from bot.ui.custom_ids import CustomId
from games.search import Advice
from games.wording import number, option_value, plural

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25
EVENTS_SHOWN = 6
#: The table message's field of recent event lines (they may reach back into the
#: previous deal).
LAST_MOVES = "Last moves"
RULES_PAGE_CHARS = 1800

LOBBY_COLOUR = 0x5865F2
PLAYING_COLOUR = 0x2ECC71
FINISHED_COLOUR = 0xF1C40F
CLOSED_COLOUR = 0x95A5A6


@dataclass(frozen=True)
class Button:
    """A button: ``style`` is primary, secondary, success or danger."""

    label: str
    custom_id: str
    style: str = "secondary"
    disabled: bool = False
    #: A custom emoji shown before the label (``<:name:id>``), or "" for none.
    emoji: str = ""


@dataclass(frozen=True)
class Select:
    """A string select menu; ``options`` are ``(label, value)`` pairs."""

    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]
    min_values: int = 1
    max_values: int = 1
    #: Per option, a custom emoji (``<:name:id>``) or "" (empty: none at all).
    emojis: tuple[str, ...] = ()


Component = Button | Select


@dataclass(frozen=True)
class EmbedSpec:
    """One embed: title, description, ``(name, value)`` fields and a footer."""

    title: str
    description: str
    colour: int
    fields: tuple[tuple[str, str], ...] = ()
    footer: str = ""


@dataclass(frozen=True)
class MessageSpec:
    """A whole message: text, an optional embed, and up to five rows of components."""

    content: str = ""
    embed: EmbedSpec | None = None
    rows: tuple[tuple[Component, ...], ...] = ()
    #: Shown with Discord's layout components (a container in the embed's colour, text
    #: displays and separators) instead of content and an embed; a message sent so stays so.
    layout: bool = False
    #: Files to attach when the message is sent: ``(filename, bytes)``.
    files: tuple[tuple[str, bytes], ...] = ()

    def text(self) -> str:
        """Every human-readable string of the message (for tests and logs of shape)."""
        parts = [self.content]
        if self.embed is not None:
            e = self.embed
            parts += [e.title, e.description, e.footer]
            parts += [f"{n}\n{v}" for n, v in e.fields]
        for row in self.rows:
            for c in row:
                if isinstance(c, Button):
                    parts.append(c.label)
                else:
                    parts.append(c.placeholder)
                    parts += [label for label, _ in c.options]
        return "\n".join(p for p in parts if p)


@dataclass
class EventLog:
    """The last public event lines of a table (kept in memory by the adapter)."""

    lines: list[str] = field(default_factory=list)
    size: int = EVENTS_SHOWN

    def add(self, result: TableResult) -> None:
        """Append the lines of the result's public events (its steps)."""
        self.lines.extend(step_lines(result.game, result.steps, [s.name for s in result.seats]))
        del self.lines[: -self.size]


def step_lines(game: str, steps: Iterable[Step], names: Sequence[str]) -> list[str]:
    """One line per public event of ``steps`` that the game's renderer shows (markdown)."""
    return markdown_lines(event_lines(game, (e for step in steps for e in step.events), names))


def _seat_label(s: SeatInfo, host_id: int) -> str:
    who = f"<@{s.user_id}>" if s.user_id is not None else s.name
    if s.user_id is not None and s.user_id == host_id:
        who += " (host)"
    return who


def _options_text(result: TableResult) -> str:
    game = games.get(result.game)
    changed = [
        f"{k}={option_value(v)}"
        for k, v in result.options.items()
        if k in game.options and game.options[k].default != v
    ]
    return ", ".join(changed) or "standard rules"


def lobby_message(result: TableResult, note: str = "") -> MessageSpec:
    """The lobby: seats, options and Join / Leave / Add computer / Start / Cancel."""
    game = games.get(result.game)
    lines = [f"{i + 1}. {_seat_label(s, result.host_id)}" for i, s in enumerate(result.seats)]
    free = game.max_players - len(result.seats)
    span = (
        f"{game.min_players}"
        if game.min_players == game.max_players
        else f"{game.min_players}–{game.max_players}"
    )
    lines.append(f"{plural(free, 'free seat')} · {span} players")
    if note:
        lines.append(f"*{note}*")
    t, v = result.table_id, result.version
    full = free <= 0
    rows: tuple[tuple[Component, ...], ...] = (
        (
            Button("Join", str(CustomId(t, v, "join")), "primary", disabled=full),
            Button("Leave", str(CustomId(t, v, "leave"))),
            Button("Add computer", str(CustomId(t, v, "bot", "normal")), disabled=full),
            Button(
                "Start",
                str(CustomId(t, v, "start")),
                "success",
                disabled=len(result.seats) < game.min_players,
            ),
            Button("Cancel", str(CustomId(t, v, "cancel")), "danger"),
        ),
    )
    embed = EmbedSpec(
        title=f"{game.title} — new table",
        description="\n".join(lines),
        colour=LOBBY_COLOUR,
        fields=(("Rules", f"{_options_text(result)} · {timer_text(result.turn_timer)}"),),
        footer=f"Table {t} · /rules {game.name} · the host starts the game",
    )
    return MessageSpec(embed=embed, rows=rows, layout=True)


def placements(result: TableResult) -> list[str]:
    """``1. Alice — 120`` lines, best first (from the public outcome)."""
    if result.outcome is None:
        return []
    out = result.outcome
    order = sorted(range(len(result.seats)), key=lambda s: (out.ranks[s], s))
    return [f"{out.ranks[s]}. {result.seats[s].name} — {number(out.scores[s])}" for s in order]


def table_message(
    result: TableResult, events: Sequence[str] = (), *, league_line: str = "", note: str = ""
) -> MessageSpec:
    """The public table message: rendered only from public data, never from ``private``."""
    if result.status == "lobby":
        return lobby_message(result, note)
    game = games.get(result.game)
    names = [s.name for s in result.seats]
    t, v = result.table_id, result.version
    fields: list[tuple[str, str]] = []
    body: list[str] = []
    if result.public is not None:
        body = markdown_lines(renderer(result.game).table(result.public, names))
    if events:
        fields.append((LAST_MOVES, cut("\n".join(events), 1024)))
    rows: tuple[tuple[Component, ...], ...] = ()
    if result.status == "playing":
        colour = PLAYING_COLOUR
        turn = [names[s] for s in result.to_act]
        if turn:
            line = "▶ " + " and ".join(f"**{n}**" for n in turn) + " to move"
            if result.deadline is not None:
                line += f" · timer ends <t:{int(result.deadline)}:R>"
            fields.append(("Turn", line))
        rows = ((Button("Your hand", str(CustomId(t, v, "hand")), "primary"),),)
    elif result.status == "finished":
        colour = FINISHED_COLOUR
        replay = f"\nReplay: `/game replay id:{result.match_id}`" if result.match_id else ""
        fields.append(("Result", cut("\n".join(placements(result)) or "—", 900) + replay))
        if league_line:
            fields.append(("League", cut(league_line, 1024)))
        if result.host_id != MANAGED:  # an event's game has no rematch
            rows = ((Button("Rematch", str(CustomId(t, v, "rematch")), "success"),),)
    else:
        colour = CLOSED_COLOUR
        body.append("*This table was closed.*")
    if result.unrated and result.status != "aborted":
        body.append(f"*{UNRATED}*")
    if note:
        body.append(f"*{note}*")
    embed = EmbedSpec(
        title=f"{game.title} — table {t}",
        description=cut("\n".join(body), 4000),
        colour=colour,
        fields=tuple(fields),
        footer=f"Table {t} · move {v} · {_options_text(result)} · /hand shows your cards",
    )
    return MessageSpec(embed=embed, rows=rows, layout=True)


# -- hands -----------------------------------------------------------------------------------
def hand_message(
    result: TableResult, mine: SeatPrivate, channel_mention: str, page: int = 0
) -> MessageSpec:
    """A seat's private hand with components for exactly its legal moves."""
    r = renderer(result.game)
    lines = [
        f"**{result.title}** in {channel_mention} — your hand", *markdown_lines(r.hand(mine.view))
    ]
    if result.status == "finished":
        lines.append("The game is over: " + " · ".join(placements(result)))
    elif result.status != "playing":
        lines.append("This table was closed.")
    elif mine.legal:
        lines.append("**Your move:**")
    else:
        names = [s.name for s in result.seats]
        waiting = " and ".join(names[s] for s in result.to_act) or "nobody"
        lines.append(f"Waiting for {waiting}.")
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
        title = verb.capitalize()
        if len(rest) > MAX_OPTIONS:
            tokens = _combinational(verb, rest)
            if tokens is not None and custom_ids.fits(table_id, version, "multi", verb):
                sizes = [len(a.split()) - 1 for a in rest]
                selects.append(
                    Select(
                        str(CustomId(table_id, version, "multi", verb)),
                        cut(f"{title}: pick {min(sizes)}–{max(sizes)} cards", 150),
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
        nav.append(Button("◀ Previous", str(CustomId(table_id, version, "page", str(page - 1)))))
    if page < pages - 1:
        nav.append(Button("Next ▶", str(CustomId(table_id, version, "page", str(page + 1)))))
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


def hint_text(game_name: str, advice: Advice) -> str:
    """``/hint`` in one line: the expert's move, the rule of thumb that makes it (when
    ``normal`` plays it too), and its search's own numbers (when it searched)."""
    label = renderer(game_name).action_label
    move = f"**{label(advice.move)}**"
    ranking = advice.ranking
    others = [(a, m) for a, m in ranking.means if a != advice.move] if ranking else []
    if ranking is None or not others:
        if advice.reason:
            return f"💡 The expert would play {move}: {advice.reason}."
        return (
            f"💡 The expert would play {move}: it decides this by its rules of thumb, as"
            " nothing else is worth searching here."
        )
    mine = dict(ranking.means)[advice.move]
    runner, theirs = others[0]
    deals = f"Over {plural(ranking.worlds, 'deal')} that fit what you have seen"

    def more(gain: float, only: str = "") -> str:
        if ranking.chance:
            return f"won the game {only}{gain:.1%} more often"
        return f"scored {only}{gain:.1f} points more"

    if mine >= theirs:
        head = f"💡 The expert would play {move}"
        found = f"{deals}, it {more(mine - theirs)} than the next best ({label(runner)})."
    else:
        head = f"💡 The expert would play {move}, its rules of thumb"
        gain = more(theirs - mine, "only ")
        found = f"{deals}, {label(runner)} {gain}, too little to tell from luck."
    why = f": {advice.reason}." if advice.reason else "."
    return f"{head}{why} {found}"


# -- rules -----------------------------------------------------------------------------------
_LITERAL = re.compile(r"``([^`]+)``")


def rules_pages(game_name: str) -> list[str]:
    """The game's rules as Deckhand plays them (its documented decisions, options and
    moves), split into pages for an embed."""
    game = games.get(game_name)
    text = _LITERAL.sub(r"`\1`", game.rules)
    paragraphs = [
        _join_bullets(p)
        if any(line.lstrip().startswith("* ") for line in p.splitlines())
        else p.replace("\n  ", " ").replace("\n", " ")
        for p in text.split("\n\n")
    ]
    if game.options:
        opts = "\n".join(
            f"• `{k}` (default {option_value(o.default)}): {o.help}"
            for k, o in game.options.items()
        )
        paragraphs.append("**Options** (`/table new … options:name=value`):\n" + opts)
    span = (
        f"{game.min_players}"
        if game.min_players == game.max_players
        else f"{game.min_players}–{game.max_players}"
    )
    paragraphs.append(
        f"**Playing here:** {span} players; moves come as buttons and menus in your DM "
        f"(or the table's *Your hand* button), or type them with `/play`, e.g. "
        f"`/play move:{game.example_action()}`."
    )
    paragraphs.append(
        "**Computer players** (`/table addbot level:`):\n"
        + "\n".join(f"• `{level}` {game.explain_level(level)}" for level in game.levels)
    )
    pages: list[str] = []
    current = ""
    for p in paragraphs:
        for i, piece in enumerate(p.split("\n")):
            glue = "\n\n" if i == 0 else "\n"
            line = piece
            while len(line) > RULES_PAGE_CHARS:
                cut = line.rfind(" ", 0, RULES_PAGE_CHARS)
                pages.extend([current, line[:cut]] if current else [line[:cut]])
                current, line = "", line[cut + 1 :]
            if current and len(current) + len(glue) + len(line) > RULES_PAGE_CHARS:
                pages.append(current)
                current = line
            else:
                current = f"{current}{glue}{line}" if current else line
    if current:
        pages.append(current)
    return pages


def _join_bullets(block: str) -> str:
    """A paragraph with bullets: its lead-in on one line, then one line per bullet."""
    items: list[str] = []
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("* "):
            items.append("• " + stripped[2:])
        elif items:
            items[-1] += " " + stripped
        else:
            items.append(stripped)
    return "\n".join(items)


def rules_message(game_name: str, page: int = 0) -> MessageSpec:
    """One page of ``/rules`` with ◀/▶ buttons when there are several."""
    game = games.get(game_name)
    pages = rules_pages(game.name)
    page = max(0, min(page, len(pages) - 1))
    rows: tuple[tuple[Component, ...], ...] = ()
    if len(pages) > 1:
        rows = (
            (
                Button(
                    "◀ Previous",
                    custom_ids.rules_id(game.name, max(page - 1, 0)),
                    disabled=page == 0,
                ),
                Button(
                    "Next ▶",
                    custom_ids.rules_id(game.name, min(page + 1, len(pages) - 1)),
                    disabled=page == len(pages) - 1,
                ),
            ),
        )
    embed = EmbedSpec(
        title=f"{game.title} — the rules as Deckhand plays them",
        description=pages[page],
        colour=LOBBY_COLOUR,
        footer=f"Page {page + 1} of {len(pages)}",
    )
    return MessageSpec(embed=embed, rows=rows)


def option_pairs(text: str) -> dict[str, str]:
    """``target=150 blind_nil=off`` → a dict; ``ValueError`` with a plain message."""
    out: dict[str, str] = {}
    for pair in text.replace(",", " ").split():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"Options look like name=value (e.g. target=150), not {clip(pair)!r}.")
        out[key.strip().lower()] = value.strip()
    return out
