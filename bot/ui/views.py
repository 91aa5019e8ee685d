"""``MessageSpec`` → discord.py objects: an ``Embed`` and a ``View`` of DynamicItems."""

from __future__ import annotations

from typing import Any

import discord

from bot.render.messages import Button, EmbedSpec, MessageSpec, Select
from bot.ui import custom_ids
from bot.ui.items import RulesButton, TableButton, TableSelect

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


def _button(b: Button, row: int) -> discord.ui.Item[Any]:
    style = _STYLES[b.style]
    if b.custom_id.startswith(f"{custom_ids.PREFIX}:rules:"):
        game, page = custom_ids.parse_rules(b.custom_id)
        return RulesButton(game, page, label=b.label, disabled=b.disabled, row=row)
    return TableButton(
        custom_ids.parse(b.custom_id), label=b.label, style=style, disabled=b.disabled, row=row
    )


def _select(s: Select, row: int) -> discord.ui.Item[Any]:
    options = [discord.SelectOption(label=label, value=value) for label, value in s.options]
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


def send_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for ``InteractionResponse.send_message`` and followups."""
    out: dict[str, Any] = {}
    if spec.content:
        out["content"] = spec.content
    if spec.embed is not None:
        out["embed"] = embed_of(spec.embed)
    view = view_of(spec)
    if view is not None:
        out["view"] = view
    return out


def edit_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """Keyword arguments for edits: everything set, so stale parts are cleared."""
    return {
        "content": spec.content or None,
        "embed": embed_of(spec.embed) if spec.embed is not None else None,
        "view": view_of(spec),
    }
