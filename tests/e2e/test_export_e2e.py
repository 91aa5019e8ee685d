"""``/league export``: a league's finished games as a file, which replays and verifies."""

from __future__ import annotations

from bot.services import exports
from tests.e2e.play import Harness, Seat, harness_fixture, play_out  # noqa: F401
from tests.e2e.test_games_e2e import open_table


async def test_a_league_export_is_a_file_that_replays(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_table(harness, "gin_rummy", "target=10", [alice, bob], 0)
    final = await play_out([Seat(alice, harness, lobby), Seat(bob, harness, lobby)], lobby)
    assert final.status == "finished"

    # An export holds every hand of every game: a member may export a league once it is
    # published (its replays are public then), an admin always.
    refused = await bob.slash("league export")
    assert refused.ephemeral and "Manage Server" in refused.text, refused.text
    assert refused.response is None or not refused.response.attachments
    mia = fake.member("mia", manage_guild=True)
    by_admin = await mia.slash("league export")
    assert by_admin.ephemeral and "1 game of" in by_admin.text, by_admin.text
    await mia.slash("league publish", state="on")
    answer = await bob.slash("league export")
    assert answer.ephemeral and "1 game of" in answer.text, answer.text
    message = answer.response
    assert message is not None and len(message.attachments) == 1
    attachment = message.attachments[0]
    assert attachment["filename"].endswith(".jsonl")
    data = fake.uploads[attachment["id"]].decode()
    assert str(alice.id) not in data and str(bob.id) not in data
    (game,) = exports.read_lines(data.splitlines())
    assert exports.replay(game).verified
    assert sorted(s.name for s in game.seats) == ["Alice", "Bob"]

    missing = await bob.slash("league export", league="nope")
    assert missing.ephemeral and "nope" in missing.text.lower(), missing.text
