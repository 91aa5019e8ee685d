"""The DynamicItems behind every Deckhand button and select menu.

They are registered at start-up (``bot.add_dynamic_items``), so a component works for as
long as its message exists, restarts included. An item only parses its custom id; the
bot's ``Controller`` (``interaction.client.controller``) re-checks everything against
the table service — never trust a button.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.ui import custom_ids
from bot.ui.custom_ids import CustomId

if TYPE_CHECKING:
    from bot.ui.controller import Controller

log = logging.getLogger(__name__)


class _HasController(Protocol):
    controller: Controller


def _controller(interaction: discord.Interaction) -> Controller:
    return cast(_HasController, interaction.client).controller


async def _guarded(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Run a callback; an unexpected failure is logged and told to the user plainly."""
    try:
        await work
    except Exception:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        log.exception("component of kind %s failed", ":".join(custom_id.split(":")[:4]))
        text = "Something went wrong on my side; nothing was changed. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.info("could not tell the user about the failure")


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.BUTTON_TEMPLATE
):
    """A table button: lobby controls, a move, "Your hand", a page of moves, rematch."""

    def __init__(
        self,
        cid: CustomId,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=cid.text, disabled=disabled, row=row
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(custom_ids.parse(match.string))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(
            interaction, _controller(interaction).on_component(interaction, self.cid, [])
        )


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.SELECT_TEMPLATE
):
    """A select menu of moves (values are moves) or of cards for one move (``multi``)."""

    def __init__(
        self,
        cid: CustomId,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=cid.text,
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
        return cls(custom_ids.parse(match.string))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(
            interaction,
            _controller(interaction).on_component(interaction, self.cid, list(self.item.values)),
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
        await _guarded(
            interaction, _controller(interaction).on_rules_page(interaction, self.game, self.page)
        )


ITEMS = (TableButton, TableSelect, RulesButton)
