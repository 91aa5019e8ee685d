"""Slash-command texts through the catalogs (``bot.translator``): a locale with a catalog
gets the catalog's words under the text's context, English and unknown locales get none
(Discord shows the English), and a language's own name in ``/settings language:`` is
never translated."""

from __future__ import annotations

import asyncio

import pytest
from discord import Interaction, Locale, app_commands

import i18n
from bot.cogs.settings import _languages
from bot.translator import UNTRANSLATED, CatalogTranslator
from tests.i18n.catalogs import pot


async def _open(interaction: Interaction) -> None:
    """A command's callback (never called: the translator reads where a text is, only)."""


WHERE: app_commands.TranslationContextTypes = app_commands.TranslationContext(
    app_commands.TranslationContextLocation.command_description,
    app_commands.Command(name="new", description="Open a table in this channel", callback=_open),
)
CHOICE: app_commands.TranslationContextTypes = app_commands.TranslationContext(
    app_commands.TranslationContextLocation.choice_name,
    app_commands.Choice(name="English", value="en"),
)


def _said(text: app_commands.locale_str, locale: Locale,
          where: app_commands.TranslationContextTypes) -> str | None:
    return asyncio.run(CatalogTranslator().translate(text, locale, where))


def test_english_and_locales_without_a_catalog_keep_the_english() -> None:
    text = app_commands.locale_str("Open a table in this channel")
    assert _said(text, Locale.american_english, WHERE) is None
    assert _said(text, Locale.japanese, WHERE) is None


def test_a_locale_with_a_catalog_gets_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "match", lambda tag: "cy")  # Discord has no Welsh locale
    text = app_commands.locale_str("Open a table in this channel")
    with i18n.speaking("cy"):
        wanted = i18n.pgettext("discord command_description", text.message)
    assert wanted != text.message
    assert _said(text, Locale.french, WHERE) == wanted


def test_language_names_are_never_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``/settings language:`` choices name each language in its own words, in every
    locale: the translator passes them over and the template does not hold them."""
    monkeypatch.setattr(i18n, "match", lambda tag: "cy")
    assert [c.name for c in _languages()] == [i18n.language_name(x) for x in i18n.languages()]
    for lang in i18n.languages():
        name = app_commands.locale_str(i18n.language_name(lang), **UNTRANSLATED)
        assert _said(name, Locale.french, CHOICE) is None
    choices = {m.id for m in pot() if m.context == "discord choice_name"}
    assert not choices & {i18n.language_name(lang) for lang in i18n.languages()}
