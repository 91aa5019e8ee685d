"""What an interaction's token may still do: the follow-ups it has left, the requests it
may make now, and whether Discord took its authorisation away.

Decisions (Discord's rules behind each, and what is only reported, are in
docs/user-install.md):

* **Follow-ups.** "Apps are limited to 5 followup messages per interaction if it was
  initiated from a user-installed app and isn't installed in the server (meaning the
  authorizing integration owners object only contains USER_INSTALL)"; only Create Followup
  Message counts, edits do not (developers/interactions/receiving-and-responding.mdx;
  change-log, User-Installed Apps General Availability). Every follow-up Deckhand sends
  is counted here, on the interaction's ``extras``, so whatever sends one (an answer, a
  hand panel, a ping, a picture, the table posted afresh) sees what is left, whichever
  ``Token`` of the interaction it holds; one past the allowance is refused here
  (``Exhausted``) without a request. The limit is lifted only where the interaction shows
  the server installed the app (``is_guild_integration``).
* **Requests.** Discord documents that interaction endpoints are not bound to the global
  limit and that a webhook's token is a top-level resource of its per-route limits
  (developers/topics/rate-limits.mdx), and leaves the numbers to the headers. Its users
  measured 5 requests per 2 s per interaction (discord/discord-api-docs#2701; Discord's
  reply: "identical to webhook rate limits"), and 429s on the follow-up route have counted
  toward the invalid-request limit that bans a bot's address (#7243). So every request
  made with an interaction's token — its callback, answers, edits, follow-ups and deletes —
  first takes one of ``REQUESTS`` slots (``paced``); a slot is free again ``PER`` seconds
  after its request came back, so a request Discord counted late still falls inside its
  window. ``REQUESTS`` is 4 of the 5: the token's bucket is never seen exhausted, which
  would make discord.py sleep out its reset inside the request (holding whoever awaits
  it), and a window counted from a different instant still has room. Waiting for a slot
  holds no lock: a table message's coalesced edit simply shows a newer state when it
  goes.
* **A lost authorisation.** A token Deckhand uses is always young (at most 14 of its 15
  minutes, ``bot.ui.publish.tokens``); one refused with 401, 10005 Unknown Integration,
  10015 Unknown Webhook or 50027 Invalid Webhook Token has lost the install that
  authorised it (the installer removed Deckhand or left the conversation: reported on
  Discord's tracker, not documented), not its time (``lost``).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import discord

#: Follow-ups an interaction authorised only by a user install may send.
LIMIT = 5
#: Requests Deckhand makes with one interaction token in ``PER`` seconds: one fewer than
#: the 5 reported (see above).
REQUESTS, PER = 4, 2.0
#: Discord's codes for a token whose install is gone (opcodes-and-status-codes.mdx).
UNKNOWN_INTEGRATION, UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN = 10005, 10015, 50027
_USED = "deckhand.followups"
_WINDOW = "deckhand.requests"


class Exhausted(Exception):
    """A follow-up not sent: the interaction's allowance is used up."""


def left(interaction: discord.Interaction) -> int | None:
    """Follow-ups the interaction may still send (None: no limit)."""
    if interaction.is_guild_integration():
        return None
    return max(0, LIMIT - _used(interaction))


def spend(interaction: discord.Interaction) -> None:
    """Count one follow-up about to be sent (``Exhausted`` when none is left)."""
    if left(interaction) == 0:
        raise Exhausted("this interaction's follow-ups are used up")
    interaction.extras[_USED] = _used(interaction) + 1


def _used(interaction: discord.Interaction) -> int:
    used = interaction.extras.get(_USED, 0)
    assert isinstance(used, int)
    return used


@dataclass
class _Window:
    """The requests of one token: when each recent one came back, and those in flight."""

    done: deque[float] = field(default_factory=deque)
    busy: int = 0

    def wait(self, now: float) -> float:
        """Seconds until a slot is free (0: now)."""
        while self.done and now - self.done[0] >= PER:
            self.done.popleft()
        if len(self.done) + self.busy < REQUESTS:
            return 0.0
        return self.done[0] + PER - now if self.done else PER / REQUESTS


@asynccontextmanager
async def paced(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Hold one of the token's request slots around a request made with it."""
    window = interaction.extras.get(_WINDOW)
    if not isinstance(window, _Window):
        window = interaction.extras[_WINDOW] = _Window()
    while (wait := window.wait(time.monotonic())) > 0:
        await asyncio.sleep(wait)
    window.busy += 1
    try:
        yield
    finally:
        window.busy -= 1
        window.done.append(time.monotonic())


def lost(exc: BaseException) -> bool:
    """Whether Discord refused a (young) token because its authorisation is gone."""
    return isinstance(exc, discord.HTTPException) and (
        exc.status == 401
        or exc.code in (UNKNOWN_INTEGRATION, UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN)
    )
