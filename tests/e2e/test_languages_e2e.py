"""Four languages at one table, end to end through the fake Discord: a Welsh host, an
Icelandic, a Tagalog and a Swahili player each choose their language with ``/settings
language:`` (Discord has a locale for none of them, so the answer says slash commands stay
English), then play a whole game together. Each reads their own hand DM in their own
language; the table message, its buttons and its Last moves speak the table's (its
host's); the harness's leak check runs over every message as it does in English."""

from __future__ import annotations

from typing import Any

import pytest

import games
from bot.translator import commands_stay_english
from i18n import _, speaking
from tests.e2e.driver import Person
from tests.e2e.play import (  # noqa: F401
    Harness,
    Seat,
    harness_fixture,
    is_hand,
    plain,
    play_out,
)
from tests.e2e.test_events_e2e import open_table as event_table
from tests.e2e.test_events_e2e import threads_of
from tests.e2e.test_games_e2e import GAMES
from tests.waiting import until

#: Who plays, and the language each chose; the first is the host.
PLAYERS = (("gwen", "cy"), ("jon", "is"), ("maria", "tl"), ("amani", "sw"))


def is_hand_in(lang: str, content: str, mention: str) -> bool:
    """Whether ``content`` is a hand of the table in ``mention`` as ``lang`` writes it."""
    with speaking(lang):
        return is_hand(content, mention)


def said(lang: str, msgid: str, **params: object) -> str:
    """``msgid`` as ``lang`` says it."""
    with speaking(lang):
        return _(msgid, **params)


async def choose_languages(harness: Harness) -> list[tuple[Person, str]]:
    """Each player's ``/settings language:``, answered in the language just chosen."""
    chosen = []
    for name, lang in PLAYERS:
        person = harness.fake.user(name)
        answer = await person.slash("settings", language=lang)
        assert answer.ephemeral, answer.text
        head = said(lang, "Your settings: {settings}.", settings="\0").split("\0")[0]
        assert answer.text.startswith(head), (lang, answer.text)
        with speaking(lang):
            assert commands_stay_english(lang) in answer.text, answer.text
        chosen.append((person, lang))
    return chosen


async def open_multilingual(harness: Harness, game: str, options: str) -> list[Seat]:
    """The Welsh host opens ``game``; as many of the others as it seats join by the Welsh
    *Join* button; the host starts it by the Welsh *Start*. Their seats."""
    (host, table_lang), *guests = await choose_languages(harness)
    lobby_channel = harness.fake.channel("lobby")
    playing = [(host, table_lang), *guests][: games.get(game).max_players]
    given: dict[str, Any] = {"options": options} if options else {}
    opened = await host.slash("table new", game=game, **given)
    lobby = opened.response
    assert lobby is not None and not opened.ephemeral, opened.text
    assert lobby.buttons()[0]["label"] == said(table_lang, "Join"), lobby.buttons()
    for person, _lang in playing[1:]:
        await person.click(lobby, said(table_lang, "Join"))
        assert person.mention in lobby.text
    await host.click(lobby, said(table_lang, "Start"))
    assert [b["label"] for b in lobby.buttons()] == [said(table_lang, "Your hand")]
    return [Seat(p, harness, lobby_channel, lang=lang, table_lang=table_lang)
            for p, lang in playing]


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_four_languages_at_one_table(harness: Harness, game: str) -> None:
    """Each game with as many of the four as it seats (two at Gin Rummy and Spades); turn
    pings at once, so each player gets theirs."""
    await harness.start(turn_ping_after=0)
    lobby = harness.fake.channel("lobby")
    seats = await open_multilingual(harness, game, GAMES[game][0])
    result = await harness.result(lobby)
    by_user = {p.user_id: p for p in result.private.values()}
    # Mid-game: each hand DM in its player's language, in no other.
    mention = f"<#{lobby.id}>"
    for seat in seats:  # (sent after the Start click's answer)
        hand = await seat.hand(result, by_user[seat.person.id])
        for _name, lang in (*PLAYERS, ("", "en")):
            with speaking(lang):
                assert is_hand(hand.content, mention) is (lang == seat.lang), (lang, hand.content)
    # The table message in the host's Welsh, Last moves included.
    table = harness.table_message(lobby)
    title = said("cy", "{game} — table {table}", game=said("cy", games.get(game).title),
                 table=result.table_id)
    assert title in table.text, table.text
    final = await play_out(seats, lobby)
    assert final.status == "finished", final.status
    await until(lambda: said("cy", "Result") in harness.table_message(lobby).text,
                "the result on the table message")
    table = harness.table_message(lobby)
    assert said("cy", "Last moves") in table.text and "Last moves" not in table.text, table.text
    for seat in seats:  # the end of the game, in each player's own hand
        with speaking(seat.lang):
            over = _("The game is over: {placements}", placements="\0").split("\0")[0]

        def ended(seat: Seat = seat, over: str = over) -> bool:
            return over in seat.hand_dm().content

        await until(ended, f"the end in {seat.person.name}'s hand")
    await harness.idle()
    for seat in seats:  # every DM (the hand, turn pings) in its player's language alone
        turn = said(seat.lang, "Your turn in {channel} ({game}).", channel=mention,
                    game=said(seat.lang, games.get(game).title))
        english = said("en", "Your turn in {channel} ({game}).", channel=mention,
                       game=games.get(game).title)
        dms = [m.content for m in seat.person.dm_messages()]
        assert all(turn == text or is_hand_in(seat.lang, text, mention) for text in dms), dms
        assert turn in dms, dms
        assert english not in dms and not any(is_hand_in("en", t, mention) for t in dms), dms


async def test_rules_speak_the_readers_language_and_say_commands_stay_english(
    harness: Harness,
) -> None:
    """``/rules`` is where a new player looks first (Deckhand has no ``/help``): read in a
    language Discord has no locale for, it says that slash commands stay English; in
    English it says nothing more than the rules."""
    await harness.start()
    (gwen, lang), *_others = await choose_languages(harness)
    title = said(lang, "{game} — the rules as Deckhand plays them",
                 game=said(lang, games.get("craits").title))
    answer = await gwen.slash("rules", game="craits")
    assert answer.ephemeral and title in answer.text, answer.text
    with speaking(lang):
        assert commands_stay_english(lang) in answer.text, answer.text
    english = await harness.fake.user("ed").slash("rules", game="craits")
    assert "Craits — the rules as Deckhand plays them" in english.text, english.text
    assert "slash commands" not in english.text, english.text


async def test_an_event_speaks_its_servers_language(harness: Harness) -> None:
    """A Swahili server's event: its sign-up message, the thread of its table, the table
    message (an event's table has no host: the server's language) and the final standings
    are in Swahili; a Welsh player still reads their own hand in Welsh."""
    await harness.start()
    fake = harness.fake
    lobby = fake.channel("lobby")
    ada = fake.member("ada", manage_guild=True)
    await ada.slash("settings", server=True, language="sw")
    (gwen, cy), (jon, is_) = (await choose_languages(harness))[:2]
    opened = await ada.slash("event new", name="Kombe", game="gin_rummy", format="swiss",
                             rounds=1, options="target=10")
    signup = opened.response
    assert signup is not None and said("sw", "Sign up") in [b["label"] for b in signup.buttons()]
    for person in (gwen, jon):
        await person.click(signup, said("sw", "Sign up"))
    await ada.slash("event start")
    await until(lambda: bool(threads_of(harness, lobby)), "the round's table")
    thread = threads_of(harness, lobby)[0]
    assert said("sw", "{event} · round {round} · table {table}", event="Kombe", round="1",
                table="1") == thread.name
    await event_table(harness, thread)
    result = await harness.result(thread)
    title = said("sw", "{game} — table {table}", game="Gin Rummy", table=result.table_id)
    await until(lambda: any(title in m.text for m in thread.messages()), "the table message")
    langs = {gwen.id: cy, jon.id: is_}
    seats = [Seat(p, harness, thread, lang=langs[p.id], table_lang="sw") for p in (gwen, jon)]
    assert (await play_out(seats, thread)).status == "finished"
    over = said("sw", "The event is over.")
    await until(lambda: any(over in m.text for m in lobby.messages()), "the end")
