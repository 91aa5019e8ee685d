"""``MessageSpec`` → discord.py objects: an ``Embed`` and a ``View`` of DynamicItems."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot import custom_ids
from bot.render.messages import Button, EmbedSpec, MessageSpec, Select
from bot.text import cut
from bot.ui.items import EventButton, ReplayButton, RulesButton, TableButton, TableSelect

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def embed_of(spec: EmbedSpec) -> discord.Embed:
    """The embed of a spec."""
    embed = discord.Embed(
        title=spec.title, description=spec.description or None, colour=spec.colour
    )
    for name, value in spec.fields:
        embed.add_field(name=name, value=value, inline=False)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    return embed


def _button(b: Button, row: int | None) -> discord.ui.Item[Any]:
    style = _STYLES[b.style]
    if b.custom_id.startswith(f"{custom_ids.PREFIX}:rules:"):
        game, page = custom_ids.parse_rules(b.custom_id)
        return RulesButton(game, page, label=b.label, disabled=b.disabled, row=row)
    if b.custom_id.startswith(f"{custom_ids.PREFIX}:event:"):
        event, kind = custom_ids.parse_event(b.custom_id)
        return EventButton(event, kind, label=b.label, style=style, row=row)
    if b.custom_id.startswith(f"{custom_ids.PREFIX}:replay:"):
        return ReplayButton(b.custom_id, label=b.label, style=style, disabled=b.disabled, row=row)
    return TableButton(
        custom_ids.parse(b.custom_id), label=b.label, style=style, disabled=b.disabled, row=row,
        emoji=discord.PartialEmoji.from_str(b.emoji) if b.emoji else None,
    )


def _select(s: Select, row: int | None) -> discord.ui.Item[Any]:
    emojis = s.emojis or ("",) * len(s.options)
    options = [
        discord.SelectOption(
            label=label, value=value, emoji=discord.PartialEmoji.from_str(e) if e else None
        )
        for (label, value), e in zip(s.options, emojis, strict=True)
    ]
    return TableSelect(
        custom_ids.parse(s.custom_id),
        placeholder=s.placeholder,
        options=options,
        min_values=s.min_values,
        max_values=s.max_values,
        row=row,
    )


def view_of(spec: MessageSpec) -> discord.ui.View | None:
    """A persistent view (no timeout) of the spec's rows, or None when it has none."""
    if not spec.rows:
        return None
    view = discord.ui.View(timeout=None)
    for n, row in enumerate(spec.rows):
        for c in row:
            view.add_item(_button(c, n) if isinstance(c, Button) else _select(c, n))
    return view


#: Discord's limit on the text of a layout message's text displays (all together).
LAYOUT_TEXT = 4000


def layout_of(spec: MessageSpec) -> discord.ui.LayoutView:
    """A layout message: the embed becomes a container in its colour — the title and
    description, a separator, one text display per field, the footer in small print —
    with the component rows inside it; the description is shortened to keep all text
    within ``LAYOUT_TEXT``."""
    view = discord.ui.LayoutView(timeout=None)
    if spec.content:
        view.add_item(discord.ui.TextDisplay(spec.content))
    e = spec.embed
    if e is None:
        for row in spec.rows:
            view.add_item(_row(row))
        return view
    head = f"### {e.title}"
    fields = [f"**{name}**\n{value}" for name, value in e.fields]
    footer = f"-# {e.footer}" if e.footer else ""
    room = LAYOUT_TEXT - len(spec.content) - len(head) - sum(map(len, fields)) - len(footer) - 1
    top = head + ("\n" + cut(e.description, room) if e.description and room > 0 else "")
    box = discord.ui.Container[discord.ui.LayoutView](accent_colour=e.colour)
    box.add_item(discord.ui.TextDisplay(top))
    if fields:
        box.add_item(discord.ui.Separator())
        for text in fields:
            box.add_item(discord.ui.TextDisplay(text))
    if footer:
        box.add_item(discord.ui.TextDisplay(footer))
    for row in spec.rows:
        box.add_item(_row(row))
    view.add_item(box)
    return view


def _row(row: tuple[Button | Select, ...]) -> discord.ui.ActionRow[discord.ui.LayoutView]:
    out = discord.ui.ActionRow[discord.ui.LayoutView]()
    for c in row:
        out.add_item(_button(c, None) if isinstance(c, Button) else _select(c, None))
    return out


def send_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for ``InteractionResponse.send_message`` and followups."""
    if spec.layout:
        return {"view": layout_of(spec)}
    out: dict[str, Any] = {}
    if spec.content:
        out["content"] = spec.content
    if spec.embed is not None:
        out["embed"] = embed_of(spec.embed)
    view = view_of(spec)
    if view is not None:
        out["view"] = view
    if spec.files:
        out["files"] = _files(spec)
    return out


def edit_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for edits: everything set, so stale parts are cleared (a spec's
    files are attached)."""
    if spec.layout:
        return {"content": None, "embed": None, "view": layout_of(spec)}
    out: dict[str, Any] = {
        "content": spec.content or None,
        "embed": embed_of(spec.embed) if spec.embed is not None else None,
        "view": view_of(spec),
    }
    if spec.files:
        out["attachments"] = _files(spec)
    return out


def _files(spec: MessageSpec) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in spec.files]
