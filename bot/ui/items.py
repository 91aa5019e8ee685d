"""The DynamicItems behind every Deckhand button and select menu.

They are registered at start-up (``bot.add_dynamic_items``), so a component works for as
long as its message exists, restarts included. An item only parses its custom id; the
bot's ``Controller`` (``interaction.client.controller``) re-checks everything against
the table service — never trust a button. Every callback runs through the one error path,
``bot.ui.answers.guarded``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.ui import custom_ids
from bot.ui.answers import guarded, say
from bot.ui.cooldown import SLOW_DOWN, Cooldown
from bot.ui.custom_ids import CustomId

if TYPE_CHECKING:
    from bot.ui.controller import Controller
    from bot.ui.events import EventDesk

class _HasController(Protocol):
    controller: Controller
    events: EventDesk
    cooldown: Cooldown


def _controller(interaction: discord.Interaction) -> Controller:
    return cast(_HasController, interaction.client).controller


BROKEN = "That button doesn't work (any more); use the buttons of the latest table message."


def _parsed(match: re.Match[str]) -> CustomId | None:
    """The id of a clicked component; None for one that only looks like ours."""
    try:
        return custom_ids.parse(match.string)
    except custom_ids.BadCustomId:
        return None


async def _on_table_component(
    interaction: discord.Interaction, cid: CustomId | None, values: list[str]
) -> None:
    if not cast(_HasController, interaction.client).cooldown.allow(interaction.user.id):
        await guarded(interaction, say(interaction, SLOW_DOWN))
    elif cid is None:
        await guarded(interaction, say(interaction, BROKEN))
    else:
        await guarded(interaction, _controller(interaction).on_component(interaction, cid, values))


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
        await _on_table_component(interaction, self.cid, [])


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
        await _on_table_component(interaction, self.cid, list(self.item.values))


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
        await guarded(
            interaction, _controller(interaction).on_rules_page(interaction, self.game, self.page)
        )


class EventButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.EVENT_TEMPLATE
):
    """Sign up, Leave and Start on an event's message."""

    def __init__(
        self,
        event: int,
        kind: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=custom_ids.event_id(event, kind), style=style, row=row
            )
        )
        self.event, self.kind = event, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EventButton:
        event, kind = custom_ids.parse_event(match.string)
        return cls(event, kind)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = cast(_HasController, interaction.client)
        if not client.cooldown.allow(interaction.user.id):
            await guarded(interaction, say(interaction, SLOW_DOWN))
        else:
            await guarded(interaction, client.events.on_button(interaction, self.event, self.kind))


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
        await guarded(
            interaction,
            _controller(interaction).on_replay(interaction, self.match_id, self.step, self.hands),
        )


ITEMS = (TableButton, TableSelect, RulesButton, EventButton, ReplayButton)
