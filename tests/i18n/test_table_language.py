"""A table message speaks its host's language, and follows a change of it from the next
message on (read once, then again only after someone's choices changed)."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any, cast

from bot.services.preferences import PreferenceService
from bot.ui.publish.table import TableMessages


class _Preferences:
    """The preferences a table message asks: the host's language, and how many choices
    were recorded (as ``PreferenceService.changes``)."""

    def __init__(self) -> None:
        self.host_language, self.changes, self.reads = "cy", 0, 0

    async def table_language(self, guild_id: int, host_id: int | None) -> str:
        self.reads += 1
        return self.host_language


async def test_a_table_follows_its_hosts_language_at_the_next_message() -> None:
    prefs = _Preferences()
    messages = TableMessages(cast(Any, None), cast(Any, None), cast(Any, None), time.monotonic,
                             cast(Any, None), cast(PreferenceService, prefs))
    result = cast(Any, SimpleNamespace(table_id=7, guild_id=1, host_id=10))
    assert await messages.language(result) == "cy"
    assert await messages.language(result) == "cy" and prefs.reads == 1  # kept
    prefs.host_language, prefs.changes = "is", 1  # the host chose Icelandic
    assert await messages.language(result) == "is" and messages.spoken(7) == "is"
    assert prefs.reads == 2
