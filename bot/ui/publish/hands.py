"""Each seat's hand: a DM, a private panel in the table's channel, or both
(``/settings hand:``).

Decisions:

* A hand is rendered only from that seat's private part, decorated with the player's own
  card emojis, and edited only when their hand or moves changed (``signature``), never
  from anyone else's data.
* Newest wins: each hand has one edit in flight (the coalescer); a result older than the
  hand already shown or queued is never shown over it (a computer's move can be published
  before the player's own result that came first).
* A hand DM is edited with the bot's token; one as old as ``replace_after`` is sent afresh
  and the old one deleted (30046). A DM refused with 50007 is announced once
  (``Notices.dms_closed``) and no more DMs are tried at that table.
* A channel panel is the private answer to the player's latest interaction at the table,
  edited through that interaction's token (``Tokens``) while it lasts; a minute before it
  runs out the panel says so and how to reopen it. A player who keeps their hand in the
  channel and has no panel gets one through their own next click there.
* The player who clicked a move on their hand gets it through that click, in turn with
  the edits above.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace

from bot.card_emojis import CardEmojis
from bot.discord_io import Coalescer, Gone
from bot.render.hand import hand_message
from bot.render.messages import MessageSpec
from bot.services.preferences import Heard, Preferences, PreferenceService
from bot.services.tables import SeatPrivate, TableResult
from bot.services.tables.records import OPEN
from bot.text import cut
from bot.ui.answers import CONTENT_LIMIT
from bot.ui.cards import decorate
from bot.ui.publish.delivery import Delivery
from bot.ui.publish.notices import Notices
from bot.ui.publish.tokens import Clock, Sleep, Token, TokenMessage, Tokens
from i18n import N_, _, speaking
from storage import messages as refs
from storage.db import Database

log = logging.getLogger(__name__)

PANEL_EXPIRED = N_(
    "⏳ *This panel stops updating here (Discord lets me update it for 15 minutes).*"
    " Press **Your hand** on the table message, or make a move, to keep it live."
)


def expiring(spec: MessageSpec) -> MessageSpec:
    """A panel's last edit: the hand, cut to leave room within Discord's 2,000 characters,
    and ``PANEL_EXPIRED`` in the language spoken."""
    note = _(PANEL_EXPIRED)
    return replace(spec, content=f"{cut(spec.content, CONTENT_LIMIT - len(note) - 1)}\n{note}")


@dataclass
class _Hands:
    """What the hands of one table last showed."""

    #: Each user's hand DM signature, the table version it showed, and the newest version
    #: queued for it (two results published at once may queue their hands in either order).
    signatures: dict[int, str] = field(default_factory=dict)
    versions: dict[int, int] = field(default_factory=dict)
    queued: dict[int, int] = field(default_factory=dict)


def signature(result: TableResult, mine: SeatPrivate) -> str:
    """What a hand shows that is worth an edit (a running total or whose turn it is
    elsewhere is on the table message). While the player has moves, the version too: the
    buttons carry it, and the same hand and moves can come back a turn later (ONO 99:
    play a 1, draw a 1)."""
    version = result.version if mine.legal else None
    return repr((mine.view.get("hand"), mine.legal, result.status, version))


class Hands:
    """Every seat's hand DM and channel panel."""

    def __init__(
        self,
        db: Database,
        delivery: Delivery,
        edits: Coalescer,
        preferences: PreferenceService,
        notices: Notices,
        clock: Clock,
        *,
        card_emojis: CardEmojis,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.db, self.delivery, self.edits = db, delivery, edits
        self.preferences, self.notices = preferences, notices
        self.card_emojis = card_emojis
        #: Each panel's token, by table and user.
        self.tokens: Tokens[tuple[int, int]] = Tokens(
            clock, on_expiry=self._panel_expired, sleep=sleep
        )
        self._tables: dict[int, _Hands] = {}

    def forget(self, table_id: int) -> None:
        """The table closed: drop what was shown and its panels' tokens (their last edits
        are queued already)."""
        self._tables.pop(table_id, None)
        self.tokens.drop_where(lambda key: key[0] == table_id)

    # -- the hand's message --------------------------------------------------------------------
    def spec(
        self, result: TableResult, mine: SeatPrivate, prefs: Preferences, page: int = 0
    ) -> MessageSpec:
        """A player's hand message in their language, with card emojis when they asked
        for them."""
        with speaking(prefs.language):
            spec = hand_message(result, mine, f"<#{result.channel_id}>", page=page)
        return decorate(spec, result.game, self.card_emojis, prefs)

    async def of(
        self, result: TableResult, mine: SeatPrivate, page: int = 0, heard: Heard | None = None
    ) -> MessageSpec:
        """``spec`` with the player's preferences for the table's server (as the table can
        keep them: ``Delivery.reachable``), from what their interaction ``heard``."""
        prefs = await self.preferences.of(result.guild_id, mine.user_id, heard)
        return self.spec(result, mine, self.delivery.reachable(result.table_id, prefs), page)

    # -- after a change --------------------------------------------------------------------------
    async def publish(
        self,
        result: TableResult,
        prefs: Mapping[int, Preferences],
        *,
        via: Token | None,
        shown: int | None,
    ) -> None:
        """Show every changed hand: panels through their tokens (or one opened through
        ``via``, the clicker's own interaction), DMs with the bot's token — except the hand
        message ``shown`` that the clicker's interaction showed already."""
        state = self._tables.setdefault(result.table_id, _Hands())
        for mine in result.private.values():
            user_id, chosen = mine.user_id, prefs[mine.user_id]
            sig = signature(result, mine)
            self._panel(result, mine, sig, chosen, via)
            if not chosen.by_dm or state.signatures.get(user_id) == sig:
                continue
            ref = await self.db.read(refs.get, result.table_id, refs.HAND, user_id)
            if via is not None and user_id == via.user_id and ref is not None and (
                ref.message_id == shown
            ):
                continue  # the clicked hand DM (``clicked``)
            if await self.db.read(refs.noted, result.table_id, user_id, refs.DM_CLOSED):
                continue
            self._submit_dm(result, mine, self.spec(result, mine, chosen), via, sig, chosen)

    async def close(self, result: TableResult) -> None:
        """The table was closed without a result: each hand DM says so (in its player's
        language)."""
        hands = [r for r in await self.db.read(refs.for_table, result.table_id)
                 if r.kind == refs.HAND]
        prefs = await self.preferences.for_players(result.guild_id, [r.user_id for r in hands])
        for ref in hands:
            with speaking(prefs[ref.user_id].language):
                closed = MessageSpec(content=_(
                    "**{game}** in {channel} — this table was closed.",
                    game=_(result.title), channel=f"<#{result.channel_id}>",
                ))
            self.edits.submit(
                ("hand", result.table_id, ref.user_id), self._dm_editor(ref, closed)
            )

    def _dm_editor(self, ref: refs.MessageRef, spec: MessageSpec) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            await self.delivery.edit(ref.table_id, ref.channel_id, ref.message_id, spec)

        return job

    # -- channel panels ---------------------------------------------------------------------
    def opened(
        self,
        result: TableResult,
        token: Token,
        message_id: int,
        spec: MessageSpec,
        *,
        original: bool,
    ) -> None:
        """``token``'s interaction showed the user's hand privately in ``message_id`` (its
        answer when ``original``, else a follow-up): in the table's channel (not a hand
        DM) that is their panel now."""
        mine = result.for_user(token.user_id)
        if mine is None or token.channel_id != result.channel_id:
            return
        held = self.tokens.hold(
            (result.table_id, mine.user_id), token, message_id, original=original
        )
        held.version, held.shown, held.spec = result.version, signature(result, mine), spec

    def _panel(
        self,
        result: TableResult,
        mine: SeatPrivate,
        sig: str,
        prefs: Preferences,
        via: Token | None,
    ) -> None:
        """Keep a player's panel up to date: edit it through its token while usable; open
        one through the player's own click in the channel when they keep their hand there
        and have none."""
        key = (result.table_id, mine.user_id)
        held = self.tokens.get(key)
        if held is not None:
            if held.shown != sig and held.version <= result.version:
                self._submit_panel(result, key, held, self.spec(result, mine, prefs), sig)
            return
        here = (
            via is not None
            and via.user_id == mine.user_id
            and via.channel_id == result.channel_id
            and result.status in OPEN
        )
        if here and via is not None and prefs.in_channel:
            self._open_panel(result, mine, self.spec(result, mine, prefs), via)

    def _open_panel(
        self, result: TableResult, mine: SeatPrivate, spec: MessageSpec, via: Token
    ) -> None:
        async def job() -> None:
            sent = await self.delivery.reply(via, spec, ephemeral=True)
            if sent is not None:
                self.opened(result, via, sent, spec, original=False)

        self.edits.submit(("panel", result.table_id, mine.user_id), job)

    def _submit_panel(
        self,
        result: TableResult,
        key: tuple[int, int],
        held: TokenMessage,
        spec: MessageSpec,
        sig: str,
    ) -> None:
        held.version, held.shown, held.spec = result.version, sig, spec

        async def job() -> None:
            if (await self.delivery.edit_held(held, spec)).gone is not None:
                self.tokens.drop(key, held)

        self.edits.submit(("panel", *key), job)

    def _panel_expired(self, key: tuple[int, int], held: TokenMessage) -> None:
        """A panel's token is about to run out: its last edit says how to keep it live."""
        spec = held.spec
        if spec is None or key[0] not in self._tables:
            return
        with speaking(held.token.language):
            note = expiring(spec)

        async def job() -> None:
            await self.delivery.edit_held(held, note)

        self.edits.submit(("panel", *key), job)

    # -- the clicker's own hand ---------------------------------------------------------------
    def clicked(self, result: TableResult, spec: MessageSpec, token: Token) -> None:
        """Show the clicker's hand in the message they clicked (their hand DM or private
        panel), in turn with the other edits of that hand: a computer's move shown
        meanwhile is never overwritten by this older state."""
        user_id = token.user_id
        mine = result.for_user(user_id)
        sig = signature(result, mine) if mine is not None else ""
        if token.channel_id == result.channel_id:
            if mine is not None and token.message_id is not None:
                key = (result.table_id, user_id)
                held = self.tokens.hold(key, token, token.message_id, original=True)
                self._submit_panel(result, key, held, spec, sig)
            return

        async def job() -> None:
            if self._newer_shown(result, user_id):
                return
            if token.message_id is not None:
                held = TokenMessage(token, token.message_id, original=True)
                shown = (await self.delivery.edit_held(held, spec)).gone is None or (
                    # the click's token would not (the DM is too old to edit: 30046)
                    await self._show_dm(result, user_id, spec, token, token.language)
                )
                if shown:
                    self._dm_shown(result, user_id, sig)

        self.edits.submit(("hand", result.table_id, user_id), job)

    # -- hand DMs -----------------------------------------------------------------------------
    def _submit_dm(
        self,
        result: TableResult,
        mine: SeatPrivate,
        spec: MessageSpec,
        via: Token | None,
        sig: str,
        prefs: Preferences,
    ) -> None:
        user_id = mine.user_id
        state = self._tables.setdefault(result.table_id, _Hands())
        if state.queued.get(user_id, -1) > result.version:
            return  # a newer hand is queued already: this older one must not replace it
        state.queued[user_id] = result.version

        async def job() -> None:
            if self._newer_shown(result, user_id):
                return
            if await self._show_dm(result, user_id, spec, via, prefs.language):
                # Marked shown only once Discord took it (a failed edit is tried again).
                self._dm_shown(result, user_id, sig)

        self.edits.submit(("hand", result.table_id, user_id), job)

    def _newer_shown(self, result: TableResult, user_id: int) -> bool:
        state = self._tables.get(result.table_id)
        return state is not None and state.versions.get(user_id, -1) > result.version

    def _dm_shown(self, result: TableResult, user_id: int, sig: str) -> None:
        state = self._tables.setdefault(result.table_id, _Hands())
        state.signatures[user_id] = sig
        state.versions[user_id] = result.version

    async def _show_dm(
        self, result: TableResult, user_id: int, spec: MessageSpec, via: Token | None,
        language: str,
    ) -> bool:
        """Edit (or send) a player's hand DM; whether it is now shown. A hand DM as old as
        ``replace_after`` is sent afresh and the old one deleted (30046)."""
        table_id = result.table_id
        ref = await self.db.read(refs.get, table_id, refs.HAND, user_id)
        stale = None
        if ref is not None:
            self.delivery.remember_dm(user_id, ref.channel_id)
            if self.delivery.aged(ref.message_id):
                stale = ref
            else:
                sent = await self.delivery.edit(table_id, ref.channel_id, ref.message_id, spec)
                if sent.gone is None:
                    return True
                if sent.gone is Gone.MESSAGE:  # gone, or refused for its age (30046) on a
                    stale = ref  # clock that runs late: sent afresh, the old copy deleted
        sent = await self.delivery.send_dm(table_id, user_id, spec)
        if stale is not None and sent.message_id is not None:
            await self.delivery.delete(table_id, stale.channel_id, stale.message_id)
        if sent.gone is Gone.DMS_CLOSED:
            await self.notices.dms_closed(table_id, result.channel_id, user_id, via, language)
            return False
        if sent.message_id is None:
            return False
        ref = refs.MessageRef(table_id, refs.HAND, user_id, sent.channel_id, sent.message_id)
        await self.db.write(refs.put, ref)
        return True
