"""The DynamicItems behind every Deckhand button and select menu.

They are registered at start-up (``bot.add_dynamic_items``), so a component works for as
long as its message exists, restarts included. An item only parses its custom id — one
that only looks like ours, or holds a number out of range, parses to ``None`` and is
answered as a broken button, never with a traceback — and hands it to the bot's
handlers (``bot.ui.handlers.Clicks``, the controller), which re-check everything against
the services: never trust a button. A component no item takes (``taken``) goes to the
handlers too, so every click gets an answer.
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

#: Each item's component type and template (as registered: discord.py dispatches a click
#: to an item only when both fit).
_TAKES = tuple(
    (kind, re.compile(template))
    for kind, template in (
        (discord.ComponentType.button, custom_ids.BUTTON_TEMPLATE),
        (discord.ComponentType.select, custom_ids.SELECT_TEMPLATE),
        (discord.ComponentType.button, custom_ids.RULES_TEMPLATE),
        (discord.ComponentType.button, custom_ids.EVENT_TEMPLATE),
        (discord.ComponentType.button, custom_ids.REPLAY_TEMPLATE),
    )
)


def taken(component_type: object, custom_id: str) -> bool:
    """Whether one of ``ITEMS`` takes a click on this component (one that none takes would
    get no answer at all)."""
    return any(t.value == component_type and p.fullmatch(custom_id) for t, p in _TAKES)


async def on_interaction(interaction: discord.Interaction) -> None:
    """Every interaction (discord.py's listener): a component no item takes is answered."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    if not taken(data.get("component_type"), str(data.get("custom_id", ""))):
        await clicks(interaction.client).on_stray_click(interaction)
