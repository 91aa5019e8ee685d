"""Event messages (``bot.render.events``): names shown plain, mentions only in a round's
announcement and never for the computer, and every text within Discord's limits."""

from __future__ import annotations

import re

import pytest

from bot.render.events import round_announcement, signup_message, standings_text
from bot.services.events.pairing import Standing
from bot.services.events.service import COMPUTER, EventStandings
from i18n import lazy_gettext, speaking
from storage.events import EntrantRow, EventRow, TableRow
from tests.discord.support import buttons

NAMES = {1: "**Ann**", 2: "Ben <@9>", 3: "Cy", COMPUTER: "Computer (normal)"}
MEMBERS = {1: (1, 3), 2: (2, COMPUTER)}


def event(**kw: object) -> EventRow:
    base = EventRow(
        id=7, guild_id=1, channel_id=2, name="Pairs_night", game="back_alley", format="swiss",
        rounds=3, boards=1, options={}, seed=1, league_id=None, status="running", round=1,
        created_by=1, created_at=0.0, computer="normal",
    )
    return base.__class__(**{**base.__dict__, **kw})


def tables(points: float | None) -> list[TableRow]:
    return [TableRow(1, 1, 0, 5, 1, 2, (1, 2, 3, COMPUTER), None if points is None else
                     (100, 40, 100, 40), points, None, channel_id=55)]


def test_the_round_mentions_people_but_not_the_computer() -> None:
    text = round_announcement(event(), tables(None), MEMBERS, NAMES)
    assert "<@1> & <@3> vs <@2> & Computer \\(normal\\) in <#55>" in text
    assert f"<@{COMPUTER}>" not in text


def test_standings_show_names_plain_and_the_order() -> None:
    rows = tuple(
        Standing(rank=i + 1, entrant=e, names=tuple(NAMES[u] for u in MEMBERS[e]),
                 points=p, buchholz=0.0, sonneborn_berger=0.0, seed=e, played=1, byes=0)
        for i, (e, p) in enumerate(((1, 1.0), (2, 0.0)))
    )
    st = EventStandings(
        event(), lazy_gettext("points, then Buchholz, then Sonneborn-Berger, then seed"), rows
    )
    text = standings_text(st, tables(1.0), MEMBERS, NAMES)
    assert text.startswith("**Pairs\\_night** · Back Alley · Swiss · 3 rounds")
    assert "Order: points, then Buchholz" in text
    assert "**Ann** & Cy" in text.split("```")[1]  # inside the code block names are as typed
    shown = "\\*\\*Ann\\*\\* & Cy vs Ben \\<@\u200b9\\> & Computer \\(normal\\)"
    assert f"Table 1: {shown} in <#55> — 1–0" in text
    many = EventStandings(event(), lazy_gettext("points"), rows * 200)
    assert len(standings_text(many, tables(1.0), MEMBERS, NAMES)) <= 2000


def test_the_sign_up_message_has_buttons_only_before_the_start() -> None:
    players = [EntrantRow(u, NAMES[u], u, None, None, False) for u in (1, 2, 3)]
    open_ = signup_message(event(status="signup", round=0), players)
    assert [b.label for row in open_.rows for b in buttons(row)] == ["Sign up", "Leave", "Start"]
    assert open_.embed is not None and "Signed up (3)" in open_.embed.fields[0][0]
    running = signup_message(event(), players)
    assert running.rows == () and running.embed is not None
    assert "Running: round 1 of 3" in running.embed.description


@pytest.mark.parametrize("lang", ["en", "cy", "is", "sw", "tl"])
def test_the_standings_columns_line_up_in_every_language(lang: str) -> None:
    """Each number ends under the end of its column's head, however long the language's
    head is (Icelandic's byes are *Yfirsetur*, nine letters over three-wide numbers)."""
    rows = tuple(
        Standing(rank=i + 1, entrant=e, names=tuple(NAMES[u] for u in MEMBERS[e]),
                 points=p, buchholz=12.5, sonneborn_berger=3.0, seed=e, played=10, byes=1)
        for i, (e, p) in enumerate(((1, 10.5), (2, 0.0)))
    )
    with speaking(lang):
        st = EventStandings(event(), lazy_gettext("points"), rows)
        text = standings_text(st, tables(1.0), MEMBERS, NAMES)
    head, *lines = text.split("```")[1].strip("\n").split("\n")
    ends = [[m.end() for m in re.finditer(r"\S+", line)][-5:] for line in lines]
    assert ends[0] == ends[1], lines  # 10.5 over 0, 10 over 10: each number column lines up
    assert {len(line) for line in lines} == {len(head)}, (head, lines)  # and ends under its head
