"""Interaction tokens as the publishing side sees them.

Discord counts every call made with the bot token toward the bot's global limit of 50 per
second; calls made with an interaction's token (its answer and follow-ups, for 15 minutes)
do not. So the messages that change on every move are kept on tokens:

* a player's **hand panel** in the channel: the private answer to their latest interaction
  at the table (*Your hand*, a move or a page on the panel, ``/hand``, ``/play``);
* the public **table message**, while the interaction that posted it (or last clicked it)
  is young enough; it is posted afresh through a newer click before that runs out.

Decisions:

* The edge consumes the interaction (acknowledges and answers it) and passes a ``Token``
  down: a value saying who acted where, on which message, and when the interaction was
  created. Publishing sends follow-ups and edits that interaction's messages through it,
  never its first answer.
* A token's age counts from its interaction's creation (its snowflake's time, read on the
  bot's monotonic clock when the token is taken), whatever message it holds and however
  late it is used: Discord's 15 minutes run from there.
* A token is used until ``USABLE`` (14 minutes) of its 15, so a slow edit never lands
  after Discord forgot it; an edit refused anyway (401/404) drops the token and the caller
  falls back to the bot token or to asking for a click.
* A newer interaction replaces an older one; nothing is stored in the database (a token
  is a secret, and a restart simply waits for the next click).
* Every request through a token takes one of its slots (``bot.ui.allowance.paced``: 4 per
  2 s, under the 5 Discord's users measured), and a follow-up counts against the interaction's
  allowance (5 where only a user install authorised it); one past it is refused here
  without a request. A follow-up asked to be public that Discord made ephemeral (a server
  that keeps apps it did not add private) is deleted and refused too: it would show the
  clicker alone what everyone was meant to see.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import discord

from bot.render.messages import MessageSpec
from bot.services.preferences import Heard
from bot.ui import allowance
from bot.ui.allowance import Exhausted
from bot.ui.language import heard_of
from i18n import SOURCE, current

#: How long Discord accepts an interaction's token.
TOKEN_LIFETIME = 15 * 60.0
#: How long Deckhand uses one (a minute is kept back for slow edits).
USABLE = TOKEN_LIFETIME - 60.0
#: Discord drops an interaction not acknowledged within 3 s, so one that can be answered
#: arrived at most this late; a larger gap between its snowflake and the bot's clock is a
#: difference of clocks, not age.
ARRIVAL_LAG = 3.0

Clock = Callable[[], float]
#: How the owner of a clock waits on it (``asyncio.sleep`` on the system's).
Sleep = Callable[[float], Awaitable[None]]
K = TypeVar("K", bound=Hashable)


class Refused(Exhausted):
    """A follow-up not posted as asked: the interaction's allowance is used up
    (``Exhausted`` itself), or Discord made a public one ephemeral (this)."""


@dataclass(frozen=True, eq=False)
class Token:
    """What publishing may use of an interaction the edge has answered: its token (follow-ups
    and edits of its messages), when it was created, who acted, where, and on which
    message (``message_id``; None for a slash command), the language its answer spoke
    (``language``: what is later said to that user through it speaks it too), and the
    preferences it read (``heard``: resolved from it, not read again)."""

    interaction: discord.Interaction = field(repr=False)
    created: float
    user_id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    language: str = SOURCE
    heard: Heard | None = None

    @classmethod
    def of(cls, interaction: discord.Interaction, clock: Clock = time.monotonic) -> Token:
        """The token of ``interaction``, its creation read on ``clock``."""
        made = discord.utils.snowflake_time(interaction.id).timestamp()
        lag = min(max(time.time() - made, 0.0), ARRIVAL_LAG)
        message = interaction.message
        return cls(
            interaction, clock() - lag, interaction.user.id, interaction.guild_id,
            interaction.channel_id, message.id if message is not None else None, current(),
            heard_of(interaction),
        )

    def age(self, now: float) -> float:
        """Seconds since Discord created the interaction."""
        return now - self.created

    async def send(
        self,
        message: dict[str, Any],
        *,
        ephemeral: bool = False,
        mentions: discord.AllowedMentions | None = None,
    ) -> int:
        """A new follow-up message; its id (``Refused`` or ``discord.HTTPException`` when it
        was not posted as asked)."""
        interaction = self.interaction
        allowance.spend(interaction)
        extra: dict[str, Any] = {"allowed_mentions": mentions} if mentions is not None else {}
        async with allowance.paced(interaction):
            sent = await interaction.followup.send(
                wait=True, ephemeral=ephemeral, **message, **extra
            )
        if not ephemeral and sent.flags.ephemeral:
            async with allowance.paced(interaction):
                await interaction.followup.delete_message(sent.id)
            raise Refused("Discord showed a public follow-up to the clicker alone")
        return sent.id

    async def edit(self, message_id: int | None, edit: dict[str, Any]) -> None:
        """Edit one of the interaction's messages: a follow-up by id, or its answer (None)."""
        async with allowance.paced(self.interaction):
            if message_id is None:
                await self.interaction.edit_original_response(**edit)
            else:
                await self.interaction.followup.edit_message(message_id, **edit)

    async def delete(self, message_id: int | None) -> None:
        """Delete one of the interaction's messages: a follow-up by id, or its answer (None)."""
        async with allowance.paced(self.interaction):
            if message_id is None:
                await self.interaction.delete_original_response()
            else:
                await self.interaction.followup.delete_message(message_id)


@dataclass
class TokenMessage:
    """A message a token may edit: its interaction's answer (``original``) or a follow-up."""

    token: Token
    message_id: int
    original: bool
    #: What the message shows (a signature the owner compares, the version and the spec).
    shown: str = ""
    version: int = -1
    spec: MessageSpec | None = None
    expiry: asyncio.Task[None] | None = None

    def age(self, now: float) -> float:
        """Seconds since Discord created the token's interaction."""
        return self.token.age(now)

    @property
    def handle(self) -> int | None:
        """The message as the token names it (None: the interaction's answer)."""
        return None if self.original else self.message_id


class Tokens(Generic[K]):
    """The live token messages, by key; ``on_expiry(key, held)`` is called when a held
    token reaches ``usable`` (while Discord still takes it for a last edit), waited for
    with ``sleep`` on the same clock (a test's clock makes a day pass at once)."""

    def __init__(
        self,
        clock: Clock = time.monotonic,
        usable: float = USABLE,
        on_expiry: Callable[[K, TokenMessage], None] | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.usable = usable
        self.on_expiry = on_expiry
        self._held: dict[K, TokenMessage] = {}

    def hold(self, key: K, token: Token, message_id: int, *, original: bool) -> TokenMessage:
        """Keep ``token``'s message under ``key`` (replacing an older one)."""
        self.drop(key)
        held = TokenMessage(token, message_id, original)
        self._held[key] = held
        if self.on_expiry is not None:
            callback = self.on_expiry
            left = max(0.0, self.usable - held.age(self.clock()))
            held.expiry = asyncio.get_running_loop().create_task(
                self._expire(left, key, held, callback)
            )
        return held

    async def _expire(
        self,
        seconds: float,
        key: K,
        held: TokenMessage,
        callback: Callable[[K, TokenMessage], None],
    ) -> None:
        await self.sleep(seconds)
        if self._held.get(key) is held:
            del self._held[key]
            callback(key, held)

    def get(self, key: K) -> TokenMessage | None:
        """The message under ``key`` while its token is usable."""
        held = self._held.get(key)
        if held is not None and held.age(self.clock()) >= self.usable:
            self.drop(key)
            return None
        return held

    def drop(self, key: K, held: TokenMessage | None = None) -> None:
        """Forget ``key`` (only if it still holds ``held``, when given)."""
        current = self._held.get(key)
        if current is not None and (held is None or current is held):
            del self._held[key]
            if current.expiry is not None:
                current.expiry.cancel()

    def drop_where(self, test: Callable[[K], bool]) -> None:
        """Forget every key ``test`` accepts (a table's game ended)."""
        for key in [k for k in self._held if test(k)]:
            self.drop(key)
