"""How Deckhand answers an interaction: the one error path of the Discord edge.

Decisions:

* Every answer fits Discord's limits: at most 2,000 characters (``bot.text.clip``), no
  mentions (the client's default ``allowed_mentions`` is none; anything that must ping
  says so itself).
* ``defer`` comes before anything that may wait (the database, a lock): Discord drops an
  interaction not acknowledged within 3 s. A deferred answer is always replaced — by the
  result or by the error. Once acknowledged, the player's language is read and spoken
  (``bot.ui.language``).
* A "thinking…" message is replaced by editing it (``edit_original_response``), never by
  a first follow-up (Discord keeps that only for backwards compatibility and documents it
  as deprecated); whether one is still waiting is kept in the interaction's ``extras``.
  Anything said after it is a follow-up of its own, counted: one past the interaction's
  allowance is refused here, without a request (``bot.ui.allowance``). Every request with
  the interaction's token, its callback included, takes one of the token's slots
  (``allowance.paced``).
* A public "thinking…" whose work failed becomes a private answer through documented calls
  only: it is edited (Edit Original Interaction Response: a loading message is only ever
  edited, receiving-and-responding.mdx), the error follows as an ephemeral follow-up, and
  the public message is deleted (Delete Original Interaction Response).
* A public answer Discord made ephemeral (a server that keeps the answers of apps it did
  not add private) is seen in the callback's response; ``publicly`` can refuse the work
  then, saying why, rather than show the asker alone what was meant for everyone.
* ``guarded`` runs a handler; a refusal (``ServiceError``) is answered with its text in
  Discord's words (``bot.ui.words``); an unreachable database and any unexpected failure
  are logged and answered plainly, without claiming that nothing changed (a move may
  already be saved when a later step fails).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.render.messages import MessageSpec
from bot.services.errors import ServiceError
from bot.text import clip
from bot.ui import allowance
from bot.ui.allowance import Exhausted
from bot.ui.language import hear, listen
from bot.ui.views import edit_kwargs, send_kwargs
from bot.ui.words import say_in_discord
from i18n import N_, _
from storage.db import StorageUnavailable

log = logging.getLogger(__name__)

#: Discord's limit on a message's content.
CONTENT_LIMIT = 2000

UNAVAILABLE = N_("I can't reach my saved games right now. Please try again in a minute.")
FAILED = N_(
    "Something went wrong on my side. Please try again; the table message shows the game "
    "as it is."
)


#: The ``extras`` key saying a "thinking…" message waits for its answer.
_THINKING = "deckhand.thinking"
#: What a public "thinking…" shows for the moment between its work failing and its
#: deletion (the error itself is said privately).
WITHDRAWN = "…"


def _thinking(interaction: discord.Interaction) -> bool:
    return bool(interaction.extras.get(_THINKING))


async def _think(interaction: discord.Interaction, *, ephemeral: bool) -> bool:
    """Defer with a "thinking…" message; whether Discord made it ephemeral."""
    async with allowance.paced(interaction):
        callback = await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras[_THINKING] = True
    await listen(interaction)
    return callback is not None and callback.is_ephemeral()


async def _replace_thinking(
    interaction: discord.Interaction, edit: dict[str, Any]
) -> discord.InteractionMessage:
    async with allowance.paced(interaction):
        message = await interaction.edit_original_response(**edit)
    interaction.extras[_THINKING] = False
    return message


async def say(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already
    (``Exhausted`` when only a follow-up could say it and none is left)."""
    text = clip(text, CONTENT_LIMIT) if len(text) > CONTENT_LIMIT else text
    if _thinking(interaction):
        await _replace_thinking(interaction, {"content": text})
        return
    done = interaction.response.is_done()
    if done:
        allowance.spend(interaction)
    async with allowance.paced(interaction):
        if done:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


async def reply(
    interaction: discord.Interaction, spec: MessageSpec, *, ephemeral: bool = True
) -> tuple[int, bool]:
    """Answer with a message: the "thinking…" message becomes it when one waits, else it
    is a follow-up (``ephemeral`` or public). Where it is: its id, and whether it is the
    interaction's original answer."""
    if _thinking(interaction):
        return (await _replace_thinking(interaction, edit_kwargs(spec))).id, True
    allowance.spend(interaction)
    async with allowance.paced(interaction):
        sent = await interaction.followup.send(
            ephemeral=ephemeral, wait=True, **send_kwargs(spec)
        )
    return sent.id, False


async def update(interaction: discord.Interaction, spec: MessageSpec) -> None:
    """Answer a click by turning the clicked message into ``spec``."""
    async with allowance.paced(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**edit_kwargs(spec))
        else:
            await interaction.response.edit_message(**edit_kwargs(spec))


async def defer(interaction: discord.Interaction, *, update: bool = False) -> None:
    """Acknowledge now: ``update`` for a click on a message that will be edited, else an
    ephemeral "thinking…" that the answer replaces."""
    if interaction.response.is_done():
        return
    if update and interaction.message is not None:
        async with allowance.paced(interaction):
            await interaction.response.defer()
        await listen(interaction)
    else:
        await _think(interaction, ephemeral=True)


def describe(interaction: discord.Interaction) -> str:
    """What was used, for log lines: the command or the component kind (no user text)."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return "component " + ":".join(str(data.get("custom_id", "")).split(":")[:4])


async def answer_error(interaction: discord.Interaction, exc: BaseException) -> None:
    """Answer a failed interaction truthfully (and log what is not the user's doing)."""
    if isinstance(exc, ServiceError):
        text = say_in_discord(exc)
    elif isinstance(exc, StorageUnavailable):
        log.warning("%s: storage unavailable: %s", describe(interaction), exc)
        text = _(UNAVAILABLE)
    else:
        log.error("%s failed", describe(interaction), exc_info=exc)
        text = _(FAILED)
    try:
        await say(interaction, text)
    except discord.HTTPException as http:
        log.info("could not answer %s: %s", describe(interaction), http.status)
    except Exhausted:
        log.info("could not answer %s: no follow-up left", describe(interaction))


async def guarded(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Run a handler (in the interaction's language, ``bot.ui.language``); any failure
    is answered by ``answer_error``."""
    hear(interaction)
    try:
        await work
    except Exception as exc:
        await answer_error(interaction, exc)


async def publicly(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[dict[str, Any]]],
    *,
    unless_private: str = "",
) -> discord.Message | None:
    """Defer publicly, run ``work`` (it returns the answer's message arguments) and answer
    with it; on a failure the error is said privately and the public "thinking…" goes
    (None is returned; see the module's docstring). With ``unless_private``, an answer
    Discord shows the asker alone is no answer: ``work`` is not run and that text says why
    (None is returned)."""
    if await _think(interaction, ephemeral=False) and unless_private:
        await say(interaction, unless_private)
        return None
    try:
        answer = await work()
    except Exception as exc:
        await _withdraw(interaction, exc)
        return None
    return await _replace_thinking(interaction, answer)


async def _withdraw(interaction: discord.Interaction, exc: Exception) -> None:
    """A public "thinking…" whose work failed: edited, the error said privately after it,
    then deleted — each a documented call."""
    try:
        await _replace_thinking(interaction, {"content": WITHDRAWN})
    except discord.HTTPException as http:
        log.info("could not end the deferred answer: %s", http.status)
        interaction.extras[_THINKING] = False
    await answer_error(interaction, exc)
    try:
        async with allowance.paced(interaction):
            await interaction.delete_original_response()
    except discord.HTTPException as http:
        log.info("could not delete the deferred answer: %s", http.status)


async def privately(interaction: discord.Interaction, work: Callable[[], Awaitable[str]]) -> None:
    """Defer privately, run ``work`` and answer with the text it returns (failures go to
    the error handler)."""
    await defer(interaction)
    await say(interaction, await work())
