"""The table message: one public message per table, showing the game as it is.

Decisions:

* It is rendered from a result's public part only, its new steps added to the table's
  event log, and edited through the coalescer: one edit in flight per table, the newest
  state wins (an older result is never shown over a newer one).
* Its id is stored (``storage.messages``), so a restart edits the same message.
* It is edited through an interaction's token while one is young enough (the one that
  posted it, or a later click on it); when that token is ``REPOST_AFTER`` old, the next
  click in the channel posts the table afresh through its own token and deletes the old
  message. Without a usable token the bot's own token edits it (``Delivery``).
* **A message is never edited once it is ``replace_after`` old (50 minutes), through any
  token** (30046 names no token type, and edits of hour-old messages through tokens are
  reported): the table is posted afresh instead — through the freshest click, or the
  token holding it, as a follow-up; with the bot's token where the table's reach allows;
  else at the next click (``answer_click``: a click on an old table message posts the
  table afresh as its own follow-up rather than editing what was clicked).
* **One live message.** Whichever message shows the table last is its message
  (``message_id``, kept in memory and stored); the one it replaces is deleted through the
  token that holds it (or the bot's), and where that cannot be done it stays an *old
  copy*: its buttons answer where the table is (``bot.ui.controller``), and no click on it
  makes it live again.
* With the bot's token, a message ``replace_after`` old is replaced by a fresh one and
  the old one points to it; a deleted message (or one Discord will not edit: 30046,
  50083) is posted again; a deleted channel closes the table (``on_channel_gone``); a
  channel the bot may no longer see or write to keeps the table (it is logged; players
  can use ``/table status`` once access is back).
* At a table only tokens reach (``Reach.TOKENS``), a state no token can show waits for
  the next click; while a game is played the message has a **Refresh** button (any click
  on it is a fresh token), and the last edit its token allows says it stops updating
  (``bot.render.refresh``).
* ``speaker`` is the freshest interaction that may still post in the channel (the latest
  click, or the one editing the table message, with follow-ups left): what pictures,
  pings and reminders are posted through where the bot's token is not used.
* It speaks the table's language (``PreferenceService.table_language``: the host's, or
  the server's), read for its first message and again after anyone's choices change
  (``language``), so its kept "Last moves" lines, its notes and the hand-end pictures
  speak one language whoever clicked, and a host's new language from the next message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from bot.discord_io import Coalescer, Gone, Sent
from bot.render.messages import MessageSpec
from bot.render.refresh import refreshable, stopping
from bot.render.table import EventLog, table_message
from bot.services.preferences import PreferenceService
from bot.services.tables import Step, TableResult, TableStatus
from bot.services.tables.records import OPEN
from bot.ui import allowance
from bot.ui.publish.delivery import Delivery, Reach
from bot.ui.publish.tokens import Clock, Sleep, Token, TokenMessage, Tokens
from i18n import SOURCE, _, speaking
from storage import messages as refs
from storage.db import Database

log = logging.getLogger(__name__)

_STATUS_ORDER = {TableStatus.LOBBY: 0, TableStatus.PLAYING: 1}
#: A table message whose token is this old is posted afresh through the next click.
REPOST_AFTER = 10 * 60.0


def order(result: TableResult) -> tuple[int, int]:
    """Results in the order they happened (a lobby, then the game, then its end)."""
    return (_STATUS_ORDER.get(result.status, 2), result.version)


@dataclass
class _Shown:
    """What the table message of one table last showed."""

    order: tuple[int, int] = (-1, -1)
    logged_version: int = 0
    events: EventLog = field(default_factory=EventLog)
    spec: MessageSpec | None = None
    #: The table's language, as read when the preferences had ``language_at`` changes.
    language: str | None = None
    language_at: int = -1


class TableMessages:
    """The table message of every table; ``on_channel_gone(channel_id)`` is called when a
    table's channel turns out to be deleted."""

    def __init__(
        self,
        db: Database,
        delivery: Delivery,
        edits: Coalescer,
        clock: Clock,
        on_channel_gone: Callable[[int], Awaitable[None]],
        preferences: PreferenceService,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.db, self.delivery, self.edits = db, delivery, edits
        self.preferences = preferences
        #: The token editing each table message (``"table"``) and the latest click in its
        #: channel (``"click"``), by kind and table.
        self.tokens: Tokens[tuple[str, int]] = Tokens(
            clock, on_expiry=self._expiring, sleep=sleep
        )
        self.repost_after = REPOST_AFTER
        self.on_channel_gone = on_channel_gone
        self._shown: dict[int, _Shown] = {}
        #: The live table message of each table this process showed or read.
        self._live: dict[int, int] = {}
        #: Asked when the bot's token may not reach a table's channel: True when the table
        #: is reached by tokens from now on (the bot is no member of its server).
        self.on_no_access: Callable[[TableResult], Awaitable[bool]] | None = None

    def _of(self, table_id: int) -> _Shown:
        return self._shown.setdefault(table_id, _Shown())

    def forget(self, table_id: int) -> None:
        """The table closed: drop what was shown (its tokens go when they run out: the
        last edit, queued already, may still need them — where only tokens reach the
        table, the click that ended the game posts its end afresh)."""
        self._shown.pop(table_id, None)
        self._live.pop(table_id, None)

    async def language(self, result: TableResult) -> str:
        """The table's language: read for its first message in this process and after a
        choice changed, else kept (so results published one after another are rendered in
        their order, unawaited)."""
        shown = self._of(result.table_id)
        if shown.language is None or shown.language_at != self.preferences.changes:
            shown.language_at = self.preferences.changes
            shown.language = await self.preferences.table_language(
                result.guild_id, result.host_id
            )
        return shown.language

    def spoken(self, table_id: int) -> str:
        """The language a table's message speaks (English before it was read)."""
        shown = self._shown.get(table_id)
        return shown.language if shown is not None and shown.language else SOURCE

    async def spec(self, result: TableResult, league: str = "") -> MessageSpec:
        """The table message for a result in the table's language (its new steps logged,
        in that language too)."""
        with speaking(await self.language(result)):
            shown = self._of(result.table_id)
            fresh = [s for s in result.steps if s.version > shown.logged_version]
            if fresh:
                shown.logged_version = max(s.version for s in fresh)
                shown.events.add(_with_steps(result, fresh))
            timed_out = any(step.by == "timeout" for step in result.steps)
            spec = table_message(
                result, list(shown.events.lines), league_line=league,
                note=result.message if timed_out else "",
            )
            if result.status is TableStatus.PLAYING and self.tokens_only(result.table_id):
                return refreshable(spec, result.table_id, result.version)
            return spec

    def tokens_only(self, table_id: int) -> bool:
        """Whether only interaction tokens reach the table."""
        return self.delivery.reach(table_id) is Reach.TOKENS

    async def message_id(self, table_id: int) -> int | None:
        """The live table message's id, if one is known (this process's, else stored)."""
        if table_id in self._live:
            return self._live[table_id]
        ref = await self.db.read(refs.get, table_id, refs.TABLE)
        if ref is None:
            return None
        self._live.setdefault(table_id, ref.message_id)
        return ref.message_id

    def _now_live(self, result: TableResult, message_id: int, via: Token | None = None) -> None:
        """``message_id`` shows the table from now on: stored, and the message it replaces
        retired — deleted through the token that held it, or the click on it (``via``), or
        the bot's; else left as an old copy, whose buttons say where the table went."""
        table_id = result.table_id
        old = self._live.get(table_id)
        self._live[table_id] = message_id
        ref = refs.MessageRef(table_id, refs.TABLE, 0, result.channel_id, message_id)
        self.edits.submit(("ref", table_id), lambda: self.db.write(refs.put, ref))
        if old is None or old == message_id:
            return
        held = self.tokens.get(("table", table_id))
        holder = held if held is not None and held.message_id == old else None
        if holder is None and via is not None and via.message_id == old:
            holder = TokenMessage(via, old, original=True)

        async def retire() -> None:
            # after any edit of the old message already on its way (it would find it gone)
            await self.edits.settled(("table", table_id))
            if holder is None or not await self.delivery.delete_held(holder):
                await self.delivery.delete(table_id, result.channel_id, old)

        self.edits.submit(("retire", old), retire)

    def speaker(self, table_id: int) -> Token | None:
        """The freshest interaction that may still post in the table's channel (the latest
        click there, or the one editing the table message), if any has follow-ups left."""
        held = [
            h for h in (self.tokens.get(("click", table_id)), self.tokens.get(("table", table_id)))
            if h is not None and allowance.left(h.token.interaction) != 0
        ]
        return max(held, key=lambda h: h.token.created).token if held else None

    def _expiring(self, key: tuple[str, int], held: TokenMessage) -> None:
        """A table message's token is about to run out: at a table only tokens reach, its
        last edit says the message stops updating by itself, and how to see the game."""
        kind, table_id = key
        shown = self._shown.get(table_id)
        if kind != "table" or shown is None or shown.spec is None:
            return
        if self.delivery.aged(held.message_id):
            return  # never edited when this old; its Refresh still works
        if not self.tokens_only(table_id):
            return
        with speaking(self.spoken(table_id)):
            note = stopping(shown.spec)

        async def job() -> None:
            await self.delivery.edit_held(held, note)

        self.edits.submit(("table", table_id), job)

    def shown(
        self,
        result: TableResult,
        spec: MessageSpec,
        message_id: int | None,
        token: Token | None = None,
        *,
        original: bool = True,
    ) -> None:
        """The edge showed ``spec`` for ``result`` itself (as ``token``'s answer, or in its
        follow-up ``message_id`` when not ``original``; or with the bot's token): that
        message is the table message, and that token edits it from now on."""
        shown = self._of(result.table_id)
        shown.order, shown.spec = max(shown.order, order(result)), spec
        if message_id is not None:
            self._now_live(result, message_id, token)
        if token is not None and message_id is not None and result.status in OPEN:
            self.tokens.hold(("table", result.table_id), token, message_id, original=original)

    async def answer_click(self, result: TableResult, spec: MessageSpec, token: Token) -> None:
        """Show ``spec`` in answer to a click on the live table message: the clicked message
        becomes it — or, when that message is ``replace_after`` old (never edited then), a
        follow-up of the click posts the table afresh and the old one is retired."""
        clicked = token.message_id
        if clicked is None:
            return
        if not self.delivery.aged(clicked):
            held = TokenMessage(token, clicked, original=True)
            if (await self.delivery.edit_held(held, spec)).gone is None:
                self.shown(result, spec, clicked, token)
                return
        else:
            posted = await self.delivery.reply(token, spec, ephemeral=False)
            if posted is not None:
                self.shown(result, spec, posted, token, original=False)
                return
        self.update(result, spec)  # the click's token would not: the usual way, in turn

    async def post(self, result: TableResult, spec: MessageSpec) -> bool:
        """Post the table message with the bot's token (a table opened in a new thread, or
        by an event): it is the table message from now on. Whether it was posted."""
        sent = await self.delivery.post(result.table_id, result.channel_id, spec)
        if sent.message_id is None:
            log.warning("table %s: its first message was not posted (%s)", result.table_id,
                        sent.gone)
            return False
        self.shown(result, spec, sent.message_id)
        return True

    def clicked(self, table_id: int, token: Token) -> None:
        """A click in the table's channel (acknowledged as an update): its token can post
        the table message afresh when the current one's token ages."""
        if token.message_id is not None:
            self.tokens.hold(("click", table_id), token, token.message_id, original=True)

    def update(self, result: TableResult, spec: MessageSpec) -> None:
        """Edit the table message to ``spec`` (in order; the newest state wins)."""
        shown = self._of(result.table_id)
        if order(result) < shown.order:
            return
        shown.order = order(result)

        async def job() -> None:
            await self._show(result, spec)

        self.edits.submit(("table", result.table_id), job)

    async def _show(self, result: TableResult, spec: MessageSpec) -> None:
        shown = self._shown.get(result.table_id)
        if shown is not None and shown.spec == spec:
            return
        ref = await self.db.read(refs.get, result.table_id, refs.TABLE)
        if ref is not None and await self._by_token(result, spec, ref):
            if shown is not None and result.status in OPEN:
                shown.spec = spec
            return
        if self.tokens_only(result.table_id):
            log.debug("table %s: no token shows it now; it waits for a click", result.table_id)
            return
        sent = await self._by_bot(result, spec, ref)
        if sent.gone is Gone.CHANNEL:
            log.info("channel %s of table %s is gone; closing it", result.channel_id,
                     result.table_id)
            await self.on_channel_gone(result.channel_id)
            await self.db.write(refs.forget, result.table_id, refs.TABLE)
            return
        if sent.gone is Gone.NO_ACCESS:
            if self.on_no_access is not None and await self.on_no_access(result):
                return  # the bot is no member there: tokens reach the table from now on
            log.warning(
                "table %s: no access to channel %s; the table message is not updated",
                result.table_id, result.channel_id,
            )
            return
        if shown is not None and result.status in OPEN:
            shown.spec = spec
        if sent.message_id is not None and (ref is None or ref.message_id != sent.message_id):
            self._live[result.table_id] = sent.message_id
            await self.db.write(
                refs.put,
                refs.MessageRef(
                    result.table_id, refs.TABLE, 0, result.channel_id, sent.message_id
                ),
            )

    async def _by_bot(
        self, result: TableResult, spec: MessageSpec, ref: refs.MessageRef | None
    ) -> Sent:
        """Show the table message with the bot's token."""
        delivery = self.delivery
        if ref is None or result.status not in OPEN or not delivery.aged(ref.message_id):
            old = ref.message_id if ref else None
            return await delivery.edit_or_repost(result.table_id, result.channel_id, old, spec)
        # Discord limits edits of messages older than an hour (30046): a long game moves
        # to a fresh message, and the old one says where it went.
        sent = await delivery.post(result.table_id, result.channel_id, spec)
        if sent.message_id is not None:
            link = f"https://discord.com/channels/{result.guild_id}/{result.channel_id}"
            with speaking(self.spoken(result.table_id)):
                content = _("**{title}** goes on in a newer message below: {link}",
                            title=_(result.title), link=f"{link}/{sent.message_id}")
            # the old table message is a layout message for good
            moved = MessageSpec(content=content, layout=True)

            async def note() -> None:
                await delivery.edit(result.table_id, ref.channel_id, ref.message_id, moved)

            self.edits.submit(("moved", ref.message_id), note)
        return sent

    async def _by_token(
        self, result: TableResult, spec: MessageSpec, ref: refs.MessageRef
    ) -> bool:
        """Show the table message through an interaction's token; False when no token can
        (the bot's token is tried then, where the table's reach allows)."""
        key = ("table", result.table_id)
        held = self.tokens.get(key)
        if held is not None and held.message_id != ref.message_id:
            self.tokens.drop(key, held)  # the table moved to a message of the bot's own
            held = None
        open_ = result.status in OPEN
        aged = self.delivery.aged(ref.message_id)
        # A game's end is posted afresh too where no other token could show it.
        if (open_ or self.tokens_only(result.table_id)) and await self._repost(
            result, spec, ref, held, aged
        ):
            if not open_:
                self.tokens.drop(key)
            return True
        if held is None or aged:
            return False
        gone = (await self.delivery.edit_held(held, spec)).gone
        if gone is Gone.MESSAGE and await self._repost(result, spec, ref, held, True):
            return True  # older than Discord lets anyone edit (30046): posted afresh
        if gone is not None:
            self.tokens.drop(key, held)
            return False
        if not open_:
            self.tokens.drop(key, held)
        return True

    async def _repost(
        self,
        result: TableResult,
        spec: MessageSpec,
        ref: refs.MessageRef,
        held: TokenMessage | None,
        aged: bool,
    ) -> bool:
        """Post the table afresh as a follow-up: through the latest click when the token
        holding it has aged (or there is none) and the click is newer; and whenever the
        message itself is ``aged``, through the freshest token at hand (the holder's own
        follow-up will do). The old message is retired (``_now_live``)."""
        click = ("click", result.table_id)
        fresh = self.tokens.get(click)
        now = self.tokens.clock()
        newer = fresh is not None and (held is None or fresh.token.created > held.token.created)
        if aged:
            poster = fresh if newer else held or fresh
        elif fresh is not None and (held is None or (newer and held.age(now) > self.repost_after)):
            poster = fresh
        else:
            return False
        if poster is None:
            return False
        posted = await self.delivery.reply(poster.token, spec, ephemeral=False)
        if posted is None:
            self.tokens.drop(click if poster is fresh else ("table", result.table_id), poster)
            return False
        self._live.setdefault(result.table_id, ref.message_id)
        self._now_live(result, posted, poster.token)
        self.tokens.hold(("table", result.table_id), poster.token, posted, original=False)
        return True


def _with_steps(result: TableResult, steps: Sequence[Step]) -> TableResult:
    return replace(result, steps=tuple(steps))
