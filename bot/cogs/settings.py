"""``/settings``: how your cards are shown (or, with ``server:``, this server's defaults —
only in a server; a DM or group DM has only its players' own settings)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.cogs import anywhere, app
from bot.services.preferences import CARDS, DECKS, HANDS
from bot.translator import UNTRANSLATED, commands_stay_english, discord_speaks
from bot.ui.answers import privately
from bot.ui.places import is_admin, place_of
from bot.ui.publish import Reach
from i18n import N_, _, language_name, languages, speak

#: What ``/settings`` adds where Deckhand's bot is no member.
PANELS_HERE = N_("Here, where I am not a member, hands are private panels whatever you choose.")


def _choices(values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v, value=v) for v in values]


def _languages() -> list[app_commands.Choice[str]]:
    """Every language Deckhand has, each named in its own words (never translated)."""
    return [app_commands.Choice(name=app_commands.locale_str(language_name(v), **UNTRANSLATED),
                                value=v) for v in languages()]


def _commands_note(chosen: str | None) -> str:
    """When a language Discord has no locale for was just chosen: that slash commands
    stay English (``/rules`` says it too)."""
    if chosen is None or discord_speaks(chosen):
        return ""
    return " " + commands_stay_english(chosen)


class SettingsCommands(commands.Cog):
    """Per-player preferences and a server's defaults."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="How your cards are shown")
    @app_commands.describe(
        cards="Card pictures (emoji) or plain text",
        deck="Two colours, or four (♠ black, ♥ red, ♦ blue, ♣ green)",
        hand="Your hand by DM, in a private panel in the channel, or both",
        threads="Server only: open each new table in its own thread",
        stand_in="Server only: the computer level that plays for anyone who times out or leaves",
        language="The language Deckhand speaks to you (or, with server, this server's)",
        server="Set this server's defaults instead of yours (Manage Server)",
    )
    @app_commands.choices(
        cards=_choices(CARDS), deck=_choices(DECKS), hand=_choices(HANDS),
        stand_in=_choices(tuple(games.levels())), language=_languages(),
    )
    @anywhere
    async def settings(
        self,
        interaction: discord.Interaction,
        cards: str | None = None,
        deck: str | None = None,
        hand: str | None = None,
        threads: bool | None = None,
        stand_in: str | None = None,
        language: str | None = None,
        server: bool = False,
    ) -> None:
        place = place_of(interaction)
        assert place is not None  # not offered in the bot's own DM
        guild_id = place.scope
        prefs = app(self.bot).preferences

        async def work() -> str:
            if (server or threads is not None or stand_in is not None) and place.private:
                return _(
                    "Server defaults belong to servers: in a DM or group DM only each"
                    " player's own `/settings` (cards, deck, hand) apply."
                )
            if server:
                admin = await is_admin(app(self.bot).db, interaction)
                defaults = await prefs.choose_for_server(
                    guild_id, is_admin=admin,
                    threads=threads, stand_in=stand_in, cards=cards, deck=deck, hand=hand,
                    language=language,
                )
                return _("This server's defaults: {defaults}. Players' own `/settings` come"
                         " first.", defaults=defaults.describe()) + _commands_note(language)
            for name, value in (("threads", threads), ("stand_in", stand_in)):
                if value is not None:
                    return _("`{name}` is a server default: add `server: True` (Manage Server).",
                             name=name)
            chosen = await prefs.choose(guild_id, interaction.user.id, cards=cards, deck=deck,
                                        hand=hand, language=language)
            speak(chosen.language)  # the answer speaks the language just chosen
            here = " " + _(PANELS_HERE) if place.reach is Reach.TOKENS else ""
            return (_("Your settings: {settings}.", settings=chosen.describe()) + here
                    + _commands_note(language))

        await privately(interaction, work)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(SettingsCommands(bot))
