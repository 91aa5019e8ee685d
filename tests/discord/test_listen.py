"""The language an interaction is answered in never costs the answer (``bot.ui.language``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.services.preferences import Heard
from bot.ui.language import hear, heard_of, listen
from i18n import current, speaking
from storage.db import StorageUnavailable


class _Preferences:
    def __init__(self, heard: str | None) -> None:
        self.said = heard

    async def heard(self, guild_id: int | None, user_id: int, locale: str) -> Heard:
        if self.said is None:
            raise StorageUnavailable("database is locked")
        return Heard(user_id, guild_id, {"language": self.said})


def _interaction(heard: str | None) -> discord.Interaction:
    client = SimpleNamespace(preferences=_Preferences(heard))
    fake: Any = SimpleNamespace(client=client, guild_id=1, user=SimpleNamespace(id=2),
                                locale="is", extras={})
    return cast(discord.Interaction, fake)


async def test_the_players_language_is_spoken_once_read() -> None:
    with speaking("en"):
        interaction = _interaction("sw")
        hear(interaction)
        assert current() == "is"
        await listen(interaction)
        assert current() == "sw"
        assert heard_of(interaction) == Heard(2, 1, {"language": "sw"})  # kept, for publishing


async def test_without_the_database_the_interactions_own_language_stays() -> None:
    with speaking("en"):
        interaction = _interaction(None)
        hear(interaction)
        await listen(interaction)  # no StorageUnavailable: /rules needs no database
        assert current() == "is" and heard_of(interaction) is None
