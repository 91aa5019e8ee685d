"""Whose language Deckhand speaks: a player's choice → their Discord client's (when
Deckhand has it) → the server's → English; a table's is its host's or the server's."""

from __future__ import annotations

from bot.services.preferences import PreferenceService, language
from storage.db import Database


def test_the_order_of_choices() -> None:
    assert language("cy", "is", "sw") == "cy"
    assert language(None, "is", "sw") == "is"
    assert language(None, "fr", "sw") == "sw"  # Deckhand has no French: the server's
    assert language(None, None, None) == "en"
    assert language("xx", "en-GB", None) == "en"  # a catalog no longer shipped is passed over


async def test_an_interaction_is_heard_in_the_players_language(db: Database) -> None:
    svc = PreferenceService(db)
    assert (await svc.heard(1, 10, "en-US")).language == "en"
    await svc.choose_for_server(1, is_admin=True, language="sw")
    assert (await svc.heard(1, 10, "fr")).language == "sw"
    assert (await svc.heard(None, 10, "fr")).language == "en"  # a DM: no server chose
    await svc.choose(1, 10, language="tl")
    assert (await svc.heard(1, 10, "is")).language == "tl"


async def test_the_client_language_heard_is_remembered_for_messages_sent_later(
    db: Database,
) -> None:
    svc = PreferenceService(db)
    await svc.choose_for_server(1, is_admin=True, language="sw")
    assert (await svc.of(1, 10)).language == "sw"
    assert (await svc.heard(1, 10, "is")).language == "is"
    assert (await svc.of(1, 10)).language == "is"  # a DM or ping later, without a locale


async def test_a_table_speaks_its_hosts_language_or_the_servers(db: Database) -> None:
    svc = PreferenceService(db)
    await svc.choose_for_server(1, is_admin=True, language="cy")
    await svc.choose(1, 10, language="is")
    assert await svc.table_language(1, 10) == "is"
    assert await svc.table_language(1, 11) == "cy"
    assert await svc.table_language(1, None) == "cy"  # an event's table
