"""The commands the suite never drove, end to end on the fake: leagues from creation to a
new season, a table counted toward a named league with a turn timer, /stats for someone
else, the lobby's Leave button, and /hint."""

from __future__ import annotations

from bot.services.tables.hints import UNRATED
from tests.e2e.play import Harness, Seat, harness_fixture, play_out  # noqa: F401
from tests.waiting import until


async def test_a_league_from_creation_to_a_new_season(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    mia = fake.member("mia", manage_guild=True)
    alice, bob = fake.user("alice"), fake.user("bob")

    created = await mia.slash("league create", name="Cup", game="ono99", scoring="points:3/1/0")
    assert not created.ephemeral and "League **Cup** created" in created.text
    joined = await alice.slash("league join", name="cup")
    assert joined.ephemeral and "league:Cup" in joined.text
    refused = await alice.slash("league create", name="Mine")
    assert refused.ephemeral and "Manage Server" in refused.text

    opened = await alice.slash("table new", game="ono99", league="Cup", timer=5)
    table = opened.response
    assert table is not None and "5 min per turn" in table.text, table.text if table else ""
    await bob.click(table, "Join")
    await alice.click(table, "Start")
    final = await play_out([Seat(alice, harness, lobby), Seat(bob, harness, lobby)], lobby)
    assert final.status == "finished"

    standings = await alice.slash("league standings", league="Cup")
    assert "**Cup**" in standings.text and "Alice" in standings.text
    history = await bob.slash("league history", league="Cup")
    assert history.ephemeral and "ONO 99" in history.text
    theirs = await bob.slash("stats", user=alice)
    assert theirs.ephemeral and "**Alice**: 1 game" in theirs.text

    season = await mia.slash("league season new", league="Cup")
    assert "Season 2 has started" in season.text
    seasons = await alice.slash("league season list", league="Cup")
    assert seasons.ephemeral and "Season 2" in seasons.text and "Season 1" in seasons.text


async def test_the_lobby_leave_button(harness: Harness) -> None:
    await harness.start()
    fake = harness.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None
    await bob.click(table, "Join")
    assert bob.mention in table.text
    await bob.click(table, "Leave")
    assert bob.mention not in table.text and alice.mention in table.text


async def test_a_hint_at_a_practice_table_and_none_at_a_rated_one(harness: Harness) -> None:
    """/hint answers privately with the expert's move and its reason (a search in a
    worker process, answered after a deferral) at a table opened with hints:True, which
    says from the start that it counts toward no rating; a rated table refuses it, and a
    league's table cannot be a practice table."""
    await harness.start()
    fake = harness.fake
    lobby, ranked = fake.channel("lobby"), fake.channel("general")
    alice, mia = fake.user("alice"), fake.member("mia", manage_guild=True)
    table = (await alice.slash("table new", game="gin_rummy", hints=True)).response
    assert table is not None
    assert UNRATED in table.text, table.text
    await alice.click(table, "Add computer")
    await alice.click(table, "Start")
    await harness.idle()
    hinted = await alice.slash("hint")
    assert hinted.ephemeral and "The expert would play **" in hinted.text, hinted.text
    assert (await harness.result(lobby)).status == "playing"
    await until(lambda: UNRATED in harness.table_message(lobby).text, "the table to say unrated")
    elsewhere = await fake.user("bob").slash("hint")
    assert elsewhere.ephemeral and "not playing at this table" in elsewhere.text

    await mia.slash("league create", name="Cup", game="gin_rummy")
    practice = await alice.slash("table new", channel=ranked, game="gin_rummy", league="Cup",
                                 hints=True)
    assert practice.ephemeral and "counts toward no league" in practice.text, practice.text
    cup = (await alice.slash("table new", channel=ranked, game="gin_rummy", league="Cup")).response
    assert cup is not None and UNRATED not in cup.text
    await alice.click(cup, "Add computer")
    await alice.click(cup, "Start")
    refused = await alice.slash("hint", channel=ranked)
    assert refused.ephemeral and "Hints are off at this table" in refused.text
