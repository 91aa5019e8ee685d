"""Messages Deckhand edits through an interaction's token instead of the bot's own token.

Discord counts every call made with the bot token toward the bot's global limit of 50 per
second; calls made with an interaction's token (its answer and follow-ups, for 15 minutes)
do not. So the messages that change on every move are kept on tokens:

* a player's **hand panel** in the channel: the private answer to their latest interaction
  at the table (*Your hand*, a move or a page on the panel, ``/hand``, ``/play``);
* the public **table message**, while the interaction that posted it (or last clicked it)
  is young enough; it is posted afresh through a newer click before that runs out.

Decisions:

* A token is used until ``USABLE`` (14 minutes) of its 15, so a slow edit never lands
  after Discord forgot it; an edit refused anyway (401/404) drops the token and the caller
  falls back to the bot token or to asking for a click.
* A newer interaction replaces an older one; nothing is stored in the database (a token
  is a secret, and a restart simply waits for the next click).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

#: How long Discord accepts an interaction's token.
TOKEN_LIFETIME = 15 * 60.0
#: How long Deckhand uses one (a minute is kept back for slow edits).
USABLE = TOKEN_LIFETIME - 60.0


#: What a token message is kept under: ``("panel", table, user)``, ``("table", table, 0)``
#: for the table message, ``("click", table, 0)`` for the latest click in the channel.
Key = tuple[str, int, int]


@dataclass
class TokenMessage:
    """A message an interaction's token may edit: its answer (``original``) or one of its
    follow-ups."""

    interaction: discord.Interaction
    message_id: int
    original: bool
    since: float
    #: What the message shows (a signature the owner compares, and the spec to re-show).
    shown: str = ""
    version: int = -1
    spec: Any = None
    expiry: asyncio.TimerHandle | None = None

    def age(self, now: float) -> float:
        """Seconds since Discord handed out the token."""
        return now - self.since

    async def edit(self, **kwargs: Any) -> None:
        """Edit the message through the token (``discord.HTTPException`` when refused)."""
        if self.original:
            await self.interaction.edit_original_response(**kwargs)
        else:
            await self.interaction.followup.edit_message(self.message_id, **kwargs)

    async def delete(self) -> None:
        """Delete the message through the token."""
        if self.original:
            await self.interaction.delete_original_response()
        else:
            await self.interaction.followup.delete_message(self.message_id)


class Tokens:
    """The live token messages, by key; ``on_expiry(key, held)`` is called when a held
    token reaches ``usable`` (while Discord still takes it for a last edit)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        usable: float = USABLE,
        on_expiry: Callable[[Key, TokenMessage], None] | None = None,
    ) -> None:
        self.clock = clock
        self.usable = usable
        self.on_expiry = on_expiry
        self._held: dict[Key, TokenMessage] = {}

    def hold(
        self, key: Key, interaction: discord.Interaction, message_id: int, *, original: bool
    ) -> TokenMessage:
        """Keep ``interaction``'s message under ``key`` (replacing an older one)."""
        self.drop(key)
        held = TokenMessage(interaction, message_id, original, self.clock())
        self._held[key] = held
        if self.on_expiry is not None:
            callback = self.on_expiry
            held.expiry = asyncio.get_running_loop().call_later(
                self.usable, lambda: self._expired(key, held, callback)
            )
        return held

    def _expired(
        self, key: Key, held: TokenMessage, callback: Callable[[Key, TokenMessage], None]
    ) -> None:
        if self._held.get(key) is held:
            del self._held[key]
            callback(key, held)

    def get(self, key: Key) -> TokenMessage | None:
        """The message under ``key`` while its token is usable."""
        held = self._held.get(key)
        if held is not None and held.age(self.clock()) >= self.usable:
            self.drop(key)
            return None
        return held

    def drop(self, key: Key, held: TokenMessage | None = None) -> None:
        """Forget ``key`` (only if it still holds ``held``, when given)."""
        current = self._held.get(key)
        if current is not None and (held is None or current is held):
            del self._held[key]
            if current.expiry is not None:
                current.expiry.cancel()

    def drop_table(self, table_id: int, kinds: tuple[str, ...]) -> None:
        """Forget a table's messages of these kinds (its game ended)."""
        for key in [k for k in self._held if k[1] == table_id and k[0] in kinds]:
            self.drop(key)
