"""Preferences resolve player → server → Deckhand's default, on both backends."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import storage.preferences
from bot.services.preferences import (
    DEFAULT,
    BadPreference,
    Preferences,
    PreferenceService,
    ServerDefaults,
)
from storage.db import Conn, Database


async def test_nothing_chosen_is_the_default(db: Database) -> None:
    svc = PreferenceService(db)
    assert await svc.of(1, 10) == DEFAULT
    assert await svc.server(1) == ServerDefaults(DEFAULT, threads=False, stand_in="normal")


async def test_a_player_overrides_the_server_which_overrides_the_default(db: Database) -> None:
    svc = PreferenceService(db)
    await svc.choose_for_server(1, is_admin=True, hand="channel", deck="four-colour")
    assert await svc.of(1, 10) == Preferences(hand="channel", deck="four-colour")
    assert await svc.of(2, 10) == DEFAULT  # another server keeps Deckhand's default
    mine = await svc.choose(1, 10, hand="both")
    assert mine == Preferences(hand="both", deck="four-colour")
    assert mine.by_dm and mine.in_channel
    # the player's choice follows them to another server
    assert (await svc.of(2, 10)).hand == "both"
    # choosing one thing keeps the others
    await svc.choose(1, 10, cards="text")
    assert await svc.of(1, 10) == Preferences(cards="text", hand="both", deck="four-colour")


async def test_many_players_in_one_read(db: Database) -> None:
    svc = PreferenceService(db)
    await svc.choose(1, 11, hand="channel")
    found = await svc.for_players(1, [10, 11, 12])
    assert found == {10: DEFAULT, 11: Preferences(hand="channel"), 12: DEFAULT}


async def test_bad_values_and_non_admins_change_nothing(db: Database) -> None:
    svc = PreferenceService(db)
    with pytest.raises(BadPreference, match="hand"):
        await svc.choose(1, 10, hand="pigeon")
    with pytest.raises(BadPreference, match="Manage Server"):
        await svc.choose_for_server(1, is_admin=False, hand="channel")
    assert await svc.of(1, 10) == DEFAULT


async def test_threads_default(db: Database) -> None:
    svc = PreferenceService(db)
    assert (await svc.choose_for_server(1, is_admin=True, threads=True)).threads is True
    assert (await svc.server(1)).threads is True
    assert (await svc.choose_for_server(1, is_admin=True, threads=False)).threads is False


async def test_a_server_chooses_who_stands_in_for_absent_players(db: Database) -> None:
    svc = PreferenceService(db)
    assert await svc.stand_in(1) == "normal"
    chosen = await svc.choose_for_server(1, is_admin=True, stand_in="expert", hand="channel")
    assert chosen == ServerDefaults(Preferences(hand="channel"), False, "expert")
    assert "the **expert** computer plays for anyone" in chosen.describe()
    assert await svc.stand_in(1) == "expert" and await svc.stand_in(2) == "normal"
    with pytest.raises(BadPreference, match="stand_in"):
        await svc.choose_for_server(1, is_admin=True, stand_in="grandmaster")
    with pytest.raises(BadPreference, match="Manage Server"):
        await svc.choose_for_server(1, is_admin=False, stand_in="random")
    assert await svc.stand_in(1) == "expert"


async def test_what_an_interaction_heard_is_not_read_again(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``heard`` reads a player's choices (and their server's) once; resolving that player
    again with it reads nothing of theirs, and another server's defaults still count."""
    svc = PreferenceService(db)
    await svc.choose(1, 10, cards="text")
    await svc.choose_for_server(1, is_admin=True, hand="channel")
    await svc.choose_for_server(2, is_admin=True, deck="four-colour")
    heard = await svc.heard(1, 10, "cy")
    reads: list[object] = []
    players, guild = storage.preferences.players, storage.preferences.guild

    def read_players(c: Conn, ids: Iterable[int]) -> dict[int, dict[str, str | None]]:
        reads.append(list(ids))
        return players(c, ids)

    def read_guild(c: Conn, g: int) -> dict[str, str | int | None]:
        reads.append(g)
        return guild(c, g)

    monkeypatch.setattr(storage.preferences, "players", read_players)
    monkeypatch.setattr(storage.preferences, "guild", read_guild)
    mine = await svc.of(1, 10, heard)
    assert reads == []
    assert (mine.cards, mine.hand, mine.language) == ("text", "channel", "cy")
    both = await svc.for_players(1, [10, 11], heard)
    assert reads == [[11]] and both[11].hand == "channel"
    elsewhere = await svc.of(2, 10, heard)
    assert reads == [[11], 2] and (elsewhere.cards, elsewhere.deck) == ("text", "four-colour")
