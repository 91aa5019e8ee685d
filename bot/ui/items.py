"""The DynamicItems behind every Deckhand button and select menu.

They are registered at start-up (``bot.add_dynamic_items``), so a component works for as
long as its message exists, restarts included. An item only parses its custom id — one
that only looks like ours, or holds a number out of range, parses to ``None`` and is
answered as a broken button, never with a traceback — and hands it to the bot's
handlers (``bot.ui.handlers.Clicks``, the controller), which re-check everything against
the services: never trust a button. A component no item takes goes to the handlers
too, and ``taken`` decides that by discord.py's own rule, so every click gets exactly one
answer.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import custom_ids
from bot.custom_ids import CustomId
from bot.ui.handlers import clicks


def _parsed(match: re.Match[str]) -> CustomId | None:
    """The id of a clicked component; None for one that only looks like ours."""
    try:
        return custom_ids.parse(match.string)
    except custom_ids.BadCustomId:
        return None


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.BUTTON_TEMPLATE
):
    """A table button: lobby controls, a move, "Your hand", a page of moves, rematch."""

    def __init__(
        self,
        cid: CustomId | None,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        raw: str = "",
        emoji: discord.PartialEmoji | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=cid.text if cid else raw,
                disabled=disabled, row=row, emoji=emoji,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(_parsed(match), raw=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction.client).on_table_click(interaction, self.cid, [])


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.SELECT_TEMPLATE
):
    """A select menu of moves (values are moves) or of cards for one move (``multi``)."""

    def __init__(
        self,
        cid: CustomId | None,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
        raw: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=cid.text if cid else raw,
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…")],
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableSelect:
        return cls(_parsed(match), raw=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction.client).on_table_click(
            interaction, self.cid, list(self.item.values)
        )


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.RULES_TEMPLATE
):
    """◀/▶ on a ``/rules`` message."""

    def __init__(
        self,
        game: str,
        page: int,
        *,
        label: str = "…",
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=custom_ids.rules_id(game, page), disabled=disabled, row=row
            )
        )
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RulesButton:
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction.client).on_rules_click(interaction, self.game, self.page)


class EventButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.EVENT_TEMPLATE
):
    """Sign up, Leave and Start on an event's message."""

    def __init__(
        self,
        event: int | None,
        kind: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        raw: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=raw or custom_ids.event_id(event or 0, kind), style=style,
                row=row,
            )
        )
        self.event, self.kind = event, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EventButton:
        try:
            event, kind = custom_ids.parse_event(match.string)
        except custom_ids.BadCustomId:  # an event id past what a database keeps
            return cls(None, match["kind"], raw=match.string)
        return cls(event, kind)

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction.client).on_event_click(interaction, self.event, self.kind)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.REPLAY_TEMPLATE
):
    """◀◀ ◀ ▶ ▶▶ and Hands on a ``/game replay`` message (the id names the step to show;
    the controller checks the match again)."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=custom_id, style=style, disabled=disabled, row=row
            )
        )
        self.match_id, self.step, self.hands = custom_ids.parse_replay(custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction.client).on_replay_click(
            interaction, self.match_id, self.step, self.hands
        )


ITEMS = (TableButton, TableSelect, RulesButton, EventButton, ReplayButton)


def taken(interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this click to one of ``ITEMS``: its id fits an item's
    template, and the clicked message, as discord.py reads it, holds a component of the
    click's type with that id (``ViewStore.schedule_dynamic_item_call`` in discord/ui/view.py
    asks exactly this; a message it cannot read dispatches nothing). A click none takes —
    a foreign id, a select carrying a button's id, a button no longer on its message —
    would get no answer at all; one that both took would be answered twice (40060)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind = str(data.get("custom_id", "")), data.get("component_type")
    message = interaction.message
    if message is None or not any(re.fullmatch(t, custom_id) for t in custom_ids.TEMPLATES):
        return False
    layout = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    try:
        view = layout.from_message(message, timeout=None)
    except (TypeError, ValueError):  # components discord.py cannot lay out
        return False
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


async def on_interaction(interaction: discord.Interaction) -> None:
    """Every interaction (discord.py's listener): a component no item takes is answered."""
    if interaction.type is discord.InteractionType.component and not taken(interaction):
        await clicks(interaction.client).on_stray_click(interaction)
