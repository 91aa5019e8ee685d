"""The slash commands' texts for the catalogs: a Babel extractor (``babel.cfg`` maps this
file to it) that builds the command tree as ``deckhand run`` does and records every string
discord.py would ask ``bot.translator.CatalogTranslator`` for, with its context — so the
catalogs hold exactly what a sync translates, and nothing in ``bot/cogs`` needs marking."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import COGS, DeckhandTree, intents
from bot.translator import context_of

#: What a translator is told about each text, by its context.
NOTES = {
    "discord command_name": "A slash command's name: lower case, no spaces, at most 32.",
    "discord group_name": "A slash command group's name: lower case, no spaces, at most 32.",
    "discord parameter_name": "A slash command option's name: lower case, no spaces, at most 32.",
    "discord choice_name": "A choice of a slash command option: at most 100 characters.",
}


class _Recorder(app_commands.Translator):
    """Records what it is asked; translates nothing."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if not string.extras.get("untranslated"):
            self.seen[context_of(context), string.message] = None
        return None


async def command_strings() -> list[tuple[str, str]]:
    """Every ``(context, text)`` a sync of Deckhand's commands translates, in tree order."""
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=intents(),
                       tree_cls=DeckhandTree)
    try:
        for name in COGS:
            await bot.load_extension(name)
        recorder = _Recorder()
        for command in bot.tree.get_commands():
            await command.get_translated_payload(bot.tree, recorder)
        return list(recorder.seen)
    finally:
        await bot.close()


def extract_commands(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extractor: the commands' texts as ``pgettext`` would mark them."""
    for context, text in asyncio.run(command_strings()):
        note = NOTES.get(context, "A slash command's description: at most 100 characters.")
        yield 1, "pgettext", (context, text), [note]
