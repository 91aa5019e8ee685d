"""The real bot keeps its card faces as application emojis on the fake Discord: uploaded at
the first start, nothing again at the next, a face deleted by hand comes back; at the
2,000 limit a warning, cards as text, and the games still play."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.card_emojis import EmojiReport, FaceSet
from games.cards import DECK_WITH_JOKERS
from tests.e2e.fake_emojis import MAX_EMOJIS
from tests.e2e.play import Harness, PanelSeat, Seat, harness_fixture, play_out  # noqa: F401
from tests.e2e.test_games_e2e import open_table

PALETTES = {"two-colour": "2c", "four-colour": "4c"}
EMOJIS = "/applications/{application_id}/emojis"


def name_of(card: str, palette: str) -> str:
    return f"{card}_{PALETTES[palette]}"


#: A stand-in for the art: every card, jokers and the back, in both palettes (110 faces);
#: each "PNG" is the signature and its own name, so each upload can be told apart.
FACES = {
    name_of(card, palette): b"\x89PNG\r\n\x1a\n" + name_of(card, palette).encode()
    for card in (*DECK_WITH_JOKERS, "back")
    for palette in PALETTES
}
FACE_SET = FaceSet(draw=lambda: FACES, name_of=name_of)


async def start(harness: Harness, **overrides: Any) -> tuple[Any, list[tuple[str, str]]]:
    """Start the bot, wait for its emoji upload; the bot and its emoji requests that
    were answered (not 429: discord.py waits those out and asks again)."""
    harness.card_faces = FACE_SET
    seen = len(harness.fake.requests)
    client = await harness.start(**overrides)
    if client.emoji_upload is not None:
        await client.emoji_upload
    requests = [(r.method, r.route) for r in harness.fake.requests[seen:] if r.status != 429]
    return client, [r for r in requests if r[1].startswith(EMOJIS)]


async def test_faces_are_uploaded_once_and_a_deleted_one_comes_back(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    fake = harness.fake
    parrot = fake.add_app_emoji("party_parrot")  # someone's own emoji: left alone
    fake.rate_limit("POST", EMOJIS, times=2)  # and 110 uploads pass the 50/s global limit
    with caplog.at_level(logging.INFO, "bot.card_emojis"):
        client, requests = await start(harness)
    assert client.emoji_upload.result() == EmojiReport(present=0, uploaded=110)
    assert "card emojis: 0 present, 110 uploaded" in caplog.messages
    assert requests[0] == ("GET", EMOJIS) and requests.count(("GET", EMOJIS)) == 1
    assert requests.count(("POST", EMOJIS)) == 110
    assert sum(r.status == 429 for r in fake.requests) >= 2
    owned = {e.name: e for e in fake.app_emojis.values()}
    assert owned.keys() == FACES.keys() | {"party_parrot"} and owned["party_parrot"] is parrot
    assert all(owned[name].image == png for name, png in FACES.items())
    assert all(owned[name].user is fake.bot_user for name in FACES)
    ten = owned["TH_4c"]
    assert client.card_emojis.markdown("TH", "four-colour") == f"<:TH_4c:{ten.id}>"
    assert client.card_emojis.emoji("BJ", "two-colour").id == owned["BJ_2c"].id

    await harness.stop()
    caplog.clear()
    with caplog.at_level(logging.INFO, "bot.card_emojis"):
        client, requests = await start(harness)
    assert requests == [("GET", EMOJIS)]
    assert client.emoji_upload.result() == EmojiReport(present=110, uploaded=0)
    assert "card emojis: 110 present, 0 uploaded" in caplog.messages
    assert client.card_emojis.markdown("TH", "four-colour") == f"<:TH_4c:{ten.id}>"

    await harness.stop()
    queen = owned["QD_2c"]
    del fake.app_emojis[queen.id]  # deleted by hand in the Developer Portal
    client, requests = await start(harness)
    assert requests == [("GET", EMOJIS), ("POST", EMOJIS)]
    assert client.emoji_upload.result() == EmojiReport(present=109, uploaded=1)
    back = next(e for e in fake.app_emojis.values() if e.name == "QD_2c")
    assert back.id != queen.id and back.image == FACES["QD_2c"]
    assert client.card_emojis.markdown("QD", "two-colour") == f"<:QD_2c:{back.id}>"
    assert len(fake.app_emojis) == 111


async def test_at_the_limit_a_warning_text_for_the_rest_and_the_game_plays(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    fake = harness.fake
    for n in range(MAX_EMOJIS - 10):
        fake.add_app_emoji(f"sticker_{n}")
    with caplog.at_level(logging.INFO, "bot.card_emojis"):
        client, requests = await start(harness)
    assert client.emoji_upload.result() == EmojiReport(present=0, uploaded=10, missing=100)
    assert len(fake.app_emojis) == MAX_EMOJIS
    # The bot counts its emojis: no upload past the limit, so none is refused.
    assert requests.count(("POST", EMOJIS)) == 10 and requests.count(("GET", EMOJIS)) == 1
    assert not [r for r in fake.requests if r.route.endswith("/emojis") and r.status == 400]
    warning = next(r for r in caplog.records if r.levelno == logging.WARNING)
    assert "Discord's limit" in warning.message and "show as text" in warning.message
    assert "card emojis: 0 present, 10 uploaded, 100 missing (shown as text)" in caplog.messages
    uploaded = {e.name for e in fake.app_emojis.values() if e.user is fake.bot_user}
    assert uploaded == set(sorted(FACES)[:10])
    assert client.card_emojis.markdown("TH", "two-colour") is None  # not among the first 10
    assert client.card_emojis.markdown("2C", "four-colour") is not None

    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    final = await play_out([Seat(alice, harness, lobby), Seat(bob, harness, lobby)], lobby)
    assert final.status == "finished"


async def test_turned_off_the_bot_asks_nothing_and_shows_text(harness: Harness) -> None:
    client, requests = await start(harness, card_emojis=False)
    assert requests == [] and client.emoji_upload is None
    assert client.card_emojis.emoji("AS", "two-colour") is None


async def test_hands_show_card_emojis_in_the_player_s_own_palette(harness: Harness) -> None:
    """``/settings cards:emoji deck:four-colour``: that player's panel shows each card's
    four-colour emoji before its label, and their card buttons and menu options carry it;
    a player who chose text sees text only."""
    await start(harness)
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await alice.slash("settings", hand="channel", deck="four-colour")
    await bob.slash("settings", hand="channel", cards="text")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    seats = {p.id: PanelSeat(p, harness, lobby) for p in (alice, bob)}
    for _ in range(6):
        await play_out(list(seats.values()), lobby, limit=1)
    alice_panel, bob_panel = seats[alice.id].panel(), seats[bob.id].panel()
    assert alice_panel is not None and bob_panel is not None
    assert "<:" in alice_panel.content and "_4c:" in alice_panel.content, alice_panel.content
    assert "_2c:" not in alice_panel.content
    assert "<:" not in bob_panel.content
    marked = [c for c in alice_panel.buttons() + [
        o for s in alice_panel.selects() for o in s.get("options", [])
    ] if c.get("emoji")]
    assert marked or not (alice_panel.buttons() or alice_panel.selects())
    assert all(str(c["emoji"]["name"]).endswith("_4c") for c in marked)
