"""The path of a click: every component reaches the ``Controller`` through
``bot.ui.handlers.Clicks``, and ``/play``, ``/hand`` and ``/hint`` call it; it checks what
Discord cannot vouch for, calls the ``TableService``, answers the interaction, and hands
the result to the ``Publisher`` with what publishing may use of the interaction
(``Token``) and what the answer showed already (``Answered``). The lobby's buttons go to
its desk (``bot.ui.lobby``), an event's to theirs (``bot.ui.events``). Nothing below calls
back up into it. Decisions:

* **Answered in time, truthfully.** Every handler acknowledges before it touches the
  database or waits for a table's lock (``answers.defer``), and every deferred answer is
  replaced — by the result, or by the one error path (``answers.guarded``). The service
  returns as soon as the user's own change is saved; computer moves follow as events.
* **Never trust a component.** A custom id only names a table: the table must belong to
  the place (scope and channel, ``bot.ui.places``) the click came from (in the bot's own
  DM only a seated player's own moves and pages work), a page of moves is only shown on a
  private message, and the service re-checks seat, turn and version. An id that only
  looks like ours, or that no item takes, is answered as a broken button.
* Where only interaction tokens reach a table (``Reach``), its message has a **Refresh**
  button (``refresh``). One table message is live: a click on an older copy is told where
  the table went and changes nothing, and a table whose install is gone
  (``Publisher.lost``) answers every click in its callback with how to bring it back.
"""

from __future__ import annotations

from dataclasses import replace

import discord

import games
from bot import custom_ids, permissions
from bot.custom_ids import CustomId
from bot.render import renderer
from bot.render.hand import move_for
from bot.render.hint import hint_text
from bot.render.messages import MessageSpec
from bot.render.rules import rules_message
from bot.services.errors import NotSeated, ServiceError
from bot.services.tables import SeatPrivate, TableResult, TableService, TableStatus
from bot.services.tables.records import OPEN
from bot.ui import places, replays
from bot.ui.answers import defer, guarded, reply, say, update
from bot.ui.asks import private
from bot.ui.cooldown import SLOW_DOWN, Cooldown
from bot.ui.events import EventDesk
from bot.ui.language import heard_of
from bot.ui.lobby import CONTROLS, LobbyDesk
from bot.ui.publish import Answered, Publisher
from i18n import N_, _
from storage import tables as table_repo
from storage.db import Database

YOUR_TURN = N_("**It is your turn.**")
_SEAT_KINDS = frozenset({"act", "sel", "multi", "page", "hand"})
_NOT_HERE = N_("That button belongs to a table somewhere else; use the buttons of this"
               " channel.")
BROKEN = N_("That button doesn't work (any more); use the buttons of the latest table"
            " message.")
GAME_OVER = N_("That game is over; the buttons of this message no longer work.")
OLD_COPY = N_("This is an old copy of the table; it goes on here: {link}")
LOST = N_(
    "I can't show this table here any more: the install that let me post in this"
    " conversation is gone (whoever added Deckhand removed it, or left). The game is saved"
    " and this click changed nothing. Anyone here who has Deckhand can bring the table back"
    " with `/table status`. Add Deckhand to your account: <{link}>"
)
#: The kinds of button a table message carries (a hand's are ``_SEAT_KINDS``).
_TABLE_KINDS = (CONTROLS - {"rematch"}) | {"hand", "refresh"}


class Controller:
    """Turns interactions into service calls and answers; results go to the ``Publisher``."""

    def __init__(
        self,
        db: Database,
        tables: TableService,
        publisher: Publisher,
        lobby: LobbyDesk,
        events: EventDesk,
        cooldown: Cooldown,
    ) -> None:
        self.db, self.tables, self.publisher = db, tables, publisher
        self.lobby, self.events = lobby, events
        self.cooldown = cooldown

    # -- components (``bot.ui.handlers.Clicks``) -----------------------------------------------
    async def on_table_click(
        self, interaction: discord.Interaction, cid: CustomId | None, values: list[str]
    ) -> None:
        """Any table button or select: checked against where it was clicked and the
        service, never trusted."""
        if not self.cooldown.allow(interaction.user.id):
            await guarded(interaction, say(interaction, _(SLOW_DOWN)))
        elif cid is None:
            await guarded(interaction, say(interaction, _(BROKEN)))
        elif self.publisher.lost(cid.table_id):
            # Said in the callback itself: no token of this table's install works now.
            link = permissions.user_install_link(str(interaction.application_id))
            await guarded(interaction, say(interaction, _(LOST, link=link)))
        else:
            await guarded(interaction, self._component(interaction, cid, values))

    async def on_event_click(
        self, interaction: discord.Interaction, event_id: int | None, kind: str
    ) -> None:
        """Sign up, Leave or Start on an event's message (``EventDesk``)."""
        if not self.cooldown.allow(interaction.user.id):
            await guarded(interaction, say(interaction, _(SLOW_DOWN)))
        elif event_id is None:
            await guarded(interaction, say(interaction, _(BROKEN)))
        else:
            await guarded(interaction, self.events.on_button(interaction, event_id, kind))

    async def on_replay_click(
        self, interaction: discord.Interaction, match_id: int, step: int, hands: bool
    ) -> None:
        """A replay button: the step it names, checked again (``bot.ui.replays``)."""
        await guarded(interaction, replays.show(interaction, self.db, match_id, step, hands))

    async def on_rules_click(self, interaction: discord.Interaction, game: str, page: int) -> None:
        """◀/▶ on a rules message."""
        await guarded(interaction, self._rules_page(interaction, game, page))

    async def on_stray_click(self, interaction: discord.Interaction) -> None:
        """A component whose id no item takes (not ours, or numbers out of range)."""
        await self.on_table_click(interaction, None, [])

    async def _rules_page(self, interaction: discord.Interaction, game: str, page: int) -> None:
        await defer(interaction, update=True)  # then the page speaks the reader's language
        try:
            spec = rules_message(game, page)
        except games.UnknownGame:
            await say(interaction, _("There is no such game."))
            return
        await update(interaction, spec)

    async def _component(
        self, interaction: discord.Interaction, cid: CustomId, values: list[str]
    ) -> None:
        await defer(interaction, update=True)
        row = await self.db.read(table_repo.get, cid.table_id)
        if row is None:
            await say(interaction, _("That table no longer exists. Open one with `/table new`."))
            return
        place = places.place_of(interaction)  # None: a hand DM, in the bot's own DM
        if (place is None and cid.kind not in _SEAT_KINDS) or (place is not None and (
            row.guild_id != place.scope or row.channel_id != place.channel_id
        )):
            await say(interaction, _(_NOT_HERE))
            return
        channel_id = row.channel_id
        if place is not None and cid.kind in _TABLE_KINDS and row.status in OPEN:
            live = await self.publisher.table.message_id(row.id)
            clicked = interaction.message
            if live is not None and clicked is not None and clicked.id != live:
                where = "@me" if place.private else str(place.scope)
                link = f"https://discord.com/channels/{where}/{channel_id}/{live}"
                await say(interaction, _(OLD_COPY, link=link))
                return
        if place is not None:
            self.publisher.table.clicked(row.id, self.publisher.token(interaction))
        if cid.kind in CONTROLS:
            await self.lobby.click(interaction, cid, channel_id, row.status)
        elif cid.kind == "hand":
            await self.hand(interaction, channel_id)
        elif cid.kind == "refresh":
            await self.refresh(interaction, channel_id)
        elif row.status != TableStatus.PLAYING:
            await say(interaction, _(GAME_OVER))
        elif cid.kind == "page":
            await self._page(interaction, cid, channel_id)
        else:
            await self._move(interaction, cid, channel_id, values)

    async def _page(self, interaction: discord.Interaction, cid: CustomId, channel_id: int) -> None:
        if not private(interaction):
            await say(interaction, _("Press **Your hand** to see your own moves."))
            return
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await say(interaction, _("That is not your seat."))
            return
        if result.version != cid.version:
            await say(interaction,
                      _("That button is from an earlier turn; use the latest message."))
            return
        spec = await self.publisher.hands.of(result, mine, int(cid.arg), heard_of(interaction))
        if self._old_dm(interaction):
            await reply(interaction, spec)  # a fresh private page: an old DM is not edited
            return
        await update(interaction, spec)
        if interaction.message is not None:
            token = self.publisher.token(interaction)
            self.publisher.hands.opened(
                result, token, interaction.message.id, spec, original=True
            )

    def _old_dm(self, interaction: discord.Interaction) -> bool:
        """Whether the clicked message is a hand DM too old to edit (30046: posted afresh)."""
        clicked = interaction.message
        return clicked is not None and not clicked.flags.ephemeral and (
            self.publisher.delivery.aged(clicked.id)
        )

    async def _move(
        self, interaction: discord.Interaction, cid: CustomId, channel_id: int, values: list[str]
    ) -> None:
        try:
            move = move_for(cid, values)
        except custom_ids.BadCustomId:
            await say(interaction, _("Pick one move from the menu."))
            return
        try:
            result = await self.tables.act(channel_id, interaction.user.id, move, cid.version)
        except NotSeated:
            await say(interaction, _("That is not your seat."))
            return
        token = self.publisher.token(interaction)
        mine = result.for_user(token.user_id)
        shown = None
        if mine is not None and private(interaction) and token.message_id is not None and (
            not self._old_dm(interaction)  # else the hand DM is sent afresh (``Hands``)
        ):
            # The click's answer is the clicked hand, shown in turn with its other edits.
            shown = token.message_id
            hand = await self.publisher.hands.of(result, mine, heard=token.heard)
            self.publisher.hands.clicked(result, hand, token)
        await self.publisher.publish(
            result, Answered(via=token, actor=token.user_id, hand=shown)
        )

    async def refresh(self, interaction: discord.Interaction, channel_id: int) -> None:
        """**Refresh** (at a table only tokens reach) on the live table message: it shows
        the game as it is now — edited, or posted afresh when it is too old to edit
        (``TableMessages.answer_click``) — and the click's token keeps it up to date from
        here; a player whose turn it is gets their hand as well, told so. (A click on an
        old copy never gets here: ``_component`` says where the table is.)"""
        await defer(interaction, update=True)
        result = await self.tables.status(channel_id)
        spec = await self.publisher.table.spec(result)
        token = self.publisher.token(interaction)
        if result.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            await say(interaction, _(GAME_OVER))
            return
        await self.publisher.table.answer_click(result, spec, token)
        mine = result.for_user(token.user_id)
        if mine is not None and mine.legal and result.status is TableStatus.PLAYING:
            hand = await self._hand(interaction, result, mine)
            turn = f"{_(YOUR_TURN)}\n{hand.content}"
            await self._panel(interaction, result, replace(hand, content=turn))

    async def hand(self, interaction: discord.Interaction, channel_id: int) -> None:
        """The caller's hand, privately, with their move components."""
        await defer(interaction)
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await say(
                interaction,
                _("The game has not started yet.") if result.status is TableStatus.LOBBY
                else _("You are not playing at this table."),
            )
            return
        await self._panel(interaction, result, await self._hand(interaction, result, mine))

    async def _hand(
        self, interaction: discord.Interaction, result: TableResult, mine: SeatPrivate
    ) -> MessageSpec:
        """The caller's hand, from the preferences their interaction read."""
        return await self.publisher.hands.of(result, mine, heard=heard_of(interaction))

    async def _panel(
        self, interaction: discord.Interaction, result: TableResult, spec: MessageSpec
    ) -> None:
        """Answer with the caller's hand privately; in the channel it becomes their panel
        (kept up to date while its token lasts)."""
        message_id, original = await reply(interaction, spec)
        token = self.publisher.token(interaction)
        self.publisher.hands.opened(result, token, message_id, spec, original=original)

    async def play(self, interaction: discord.Interaction, channel_id: int, move: str) -> None:
        """``/play move``: the move is checked by the engine; answer with the new hand."""
        await defer(interaction)
        result = await self.tables.act(channel_id, interaction.user.id, move)
        mine = result.for_user(interaction.user.id)
        if mine is not None:
            await self._panel(interaction, result, await self._hand(interaction, result, mine))
        else:
            await say(interaction, _("Done."))
        token = self.publisher.token(interaction)
        await self.publisher.publish(result, Answered(via=token, actor=token.user_id))

    async def hint(self, interaction: discord.Interaction, channel_id: int) -> None:
        """``/hint``: the move the expert would make for the caller, and why (privately;
        at practice tables only, as ``hints.check_hint`` says)."""
        await defer(interaction)
        result, advice = await self.tables.hint(channel_id, interaction.user.id)
        await say(interaction, hint_text(result.game, advice))

    async def move_choices(
        self, interaction: discord.Interaction, channel_id: int, typed: str
    ) -> list[tuple[str, str]]:
        """``(label, move)`` of the caller's legal moves matching ``typed`` (≤ 25); answered
        from the cached table, without waiting for any lock."""
        try:
            result = await self.tables.status(channel_id)
        except ServiceError:
            return []
        mine = result.for_user(interaction.user.id)
        if mine is None or result.status is not TableStatus.PLAYING:
            return []
        label = renderer(result.game).action_label
        needle = typed.strip().lower()[:100]
        out = [
            (label(a)[:100], a)
            for a in mine.legal
            if len(a) <= 100 and (needle in a.lower() or needle in label(a).lower())
        ]
        return out[:25]
