"""Slash commands in the players' languages: discord.py's ``Translator`` on Deckhand's catalogs.

When commands are synced, discord.py asks the translator for every command and group
name and description, every option's name and description and every choice, once per
locale Discord has (its list: en-US, fr, pt-BR, ja, …). The answer comes from the catalog
that speaks the locale (``i18n.match``), under the message context ``discord <where>``
(``discord command_name``, ``discord choice_name``, …: a command's name and the same word
in a sentence are translated apart); without such a catalog, or for English, there is no
answer and Discord shows the English text. Discord has none of Welsh, Icelandic, Tagalog
or Swahili, so there commands stay English and ``/settings language:`` picks the language
of everything Deckhand says.
"""

from __future__ import annotations

from discord import Locale, app_commands

import i18n

#: The ``locale_str`` extras of a text no locale translates: a language's own name in the
#: ``/settings language:`` choices, which every reader must recognise as it is.
UNTRANSLATED = {"untranslated": True}


def discord_speaks(lang: str) -> bool:
    """Whether Discord has a locale for ``lang`` (so its commands can be translated)."""
    return any(i18n.match(locale.value) == lang for locale in Locale)


def commands_stay_english(lang: str) -> str:
    """Saying (in the language spoken) that Discord has no locale for ``lang``, so slash
    commands keep their English names while Deckhand speaks ``lang``."""
    return i18n._("Discord has no {language} for its menus, so slash commands keep their"
                  " English names there; `/settings language:` chooses the language Deckhand"
                  " speaks to you.", language=i18n.language_name(lang))


def context_of(context: app_commands.TranslationContextTypes) -> str:
    """The message context of a slash-command text: ``discord command_name``, …"""
    return f"discord {context.location.name}"


class CatalogTranslator(app_commands.Translator):
    """Each Discord locale for which Deckhand has a catalog gets its commands translated."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = i18n.match(locale.value)
        if lang is None or lang == i18n.SOURCE or string.extras.get("untranslated"):
            return None
        text = i18n.translations(lang).pgettext(context_of(context), string.message)
        return text if text != string.message else None
