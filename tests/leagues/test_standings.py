"""Standings after scripted sequences: 2-, 4- and 5-player games, partnerships, computers."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.services import ratings
from bot.services.leagues import (
    GameRequired,
    InvalidRequest,
    LeagueService,
    Scoring,
    team_results,
)
from storage.db import Database
from storage.matches import SeatResult
from tests.leagues.conftest import Kit

MODEL = PlackettLuce()


def oracle(history: list[tuple[list[list[str]], list[int]]]) -> dict[str, tuple[float, float]]:
    """Ratings straight from OpenSkill for a sequence of (teams of player keys, ranks)."""
    cur: dict[str, tuple[float, float]] = {}
    for teams, ranks in history:
        objs = [[MODEL.rating(*cur.get(p, (25.0, 25.0 / 3))) for p in t] for t in teams]
        out = MODEL.rate(objs, ranks=[float(r) for r in ranks])
        for t, ot in zip(teams, out, strict=True):
            for p, r in zip(t, ot, strict=True):
                cur[p] = (r.mu, r.sigma)
    return cur


async def test_two_player_sequence(kit: Kit, svc: LeagueService) -> None:
    await kit.rank_everyone()
    await kit.duel("gin_rummy", 1, 2)
    await kit.duel("gin_rummy", 1, 2)
    await kit.duel("gin_rummy", 2, 1)
    await kit.duel("gin_rummy", 1, 3)
    st = await svc.standings(kit.guild)
    assert st.game == "gin_rummy" and st.season == 1 and st.current and st.total == 3
    assert [r.user_id for r in st.rows] == [1, 2, 3]
    one, two, three = st.rows
    assert (one.rank, one.games, one.wins, one.draws, one.losses) == (1, 4, 3, 0, 1)
    assert one.win_rate == 0.75 and one.average_score == (100 + 100 + 50 + 100) / 4
    assert one.streak == "W1" and two.streak == "W1" and three.streak == "L1"
    assert (two.games, two.wins, two.losses) == (3, 1, 2)
    want = oracle([([["1"], ["2"]], [1, 2]), ([["1"], ["2"]], [1, 2]),
                   ([["2"], ["1"]], [1, 2]), ([["1"], ["3"]], [1, 2])])
    for row in st.rows:
        mu, sigma = want[str(row.user_id)]
        assert row.mu == pytest.approx(mu) and row.sigma == pytest.approx(sigma)
        assert row.rating == pytest.approx(mu - 3 * sigma)
        assert row.rating_display == round(1000 + 40 * (mu - 3 * sigma))
    assert one.name == "user1"


async def test_four_player_placements_with_points(kit: Kit, svc: LeagueService) -> None:
    lg = await svc.create_league(kit.guild, "Ono Cup", is_admin=True, game="ono99",
                                 scoring="points:3/1/0")
    seats = [kit.human(i, 10 + i, 0 if i else 5, i + 1) for i in range(4)]  # 10 wins … 13 last
    await kit.record(kit.match("ono99", seats, league_id=lg.id))
    st = await svc.standings(kit.guild, "ono cup")
    assert st.scoring == "points:3/1/0"
    assert [(r.user_id, r.points, r.wins, r.losses) for r in st.rows] == [
        (10, 9, 1, 0), (11, 6, 0, 1), (12, 3, 0, 1), (13, 0, 0, 1)
    ]
    want = oracle([([["10"], ["11"], ["12"], ["13"]], [1, 2, 3, 4])])
    assert st.rows[1].mu == pytest.approx(want["11"][0])
    # the same game also counts toward the default league, rated there
    default = await svc.standings(kit.guild, game="ono99")
    assert [r.user_id for r in default.rows] == [10, 11, 12, 13]
    assert default.scoring == "rating"


async def test_five_players_with_a_shared_first_place(kit: Kit, svc: LeagueService) -> None:
    await svc.create_league(kit.guild, "Points", is_admin=True, scoring="points")
    lg = await svc.league(kit.guild, "points")
    ranks = [1, 1, 3, 4, 4]
    seats = [kit.human(i, 20 + i, 10 - r, r) for i, r in enumerate(ranks)]
    await kit.record(kit.match("craits", seats, league_id=lg.id))
    st = await svc.standings(kit.guild, "Points", game="craits")
    got = {r.user_id: (r.points, r.wins, r.draws, r.losses, r.streak) for r in st.rows}
    # W per team below, D per team level, L per team above (3/1/0)
    assert got == {
        20: (3 * 3 + 1, 0, 1, 0, "D1"), 21: (3 * 3 + 1, 0, 1, 0, "D1"),
        22: (3 * 2, 0, 0, 1, "L1"), 23: (1, 0, 0, 1, "L1"), 24: (1, 0, 0, 1, "L1"),
    }
    # tie-break inside equal points: ordinal, wins, fewer games, then the lower user id
    assert [r.user_id for r in st.rows][:2] == [20, 21]
    assert [r.user_id for r in st.rows][3:] == [23, 24]
    want = oracle([([[str(20 + i)] for i in range(5)], ranks)])
    assert st.rows[0].mu == pytest.approx(want["20"][0])
    assert st.rows[0].mu == pytest.approx(st.rows[1].mu)


async def test_partnerships_are_rated_as_teams(kit: Kit, svc: LeagueService) -> None:
    # Back Alley: seats 0 and 2 (team 0) against 1 and 3 (team 1)
    def deal(win_team: int) -> list[SeatResult]:
        return [kit.human(s, 30 + s, 200 if s % 2 == win_team else 150,
                          1 if s % 2 == win_team else 2, team=s % 2) for s in range(4)]

    for w in (0, 0, 1):
        await kit.record(kit.match("back_alley", deal(w)))
    st = await svc.standings(kit.guild, game="back_alley")
    rows = {r.user_id: r for r in st.rows}
    assert (rows[30].wins, rows[30].losses, rows[30].streak) == (2, 1, "L1")
    assert (rows[31].wins, rows[31].losses, rows[31].streak) == (1, 2, "W1")
    assert rows[30].mu == pytest.approx(rows[32].mu)
    want = oracle([([["30", "32"], ["31", "33"]], [1, 2])] * 2
                  + [([["30", "32"], ["31", "33"]], [2, 1])])
    assert rows[33].mu == pytest.approx(want["33"][0])
    assert rows[33].sigma == pytest.approx(want["33"][1])
    assert [r.user_id for r in st.rows] == [30, 32, 31, 33]


async def test_computer_seats_count_for_humans_but_are_never_ranked(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    strict = await svc.create_league(kit.guild, "Humans only", is_admin=True, count_bots=False)
    for _ in range(3):
        await kit.record(kit.match(
            "gin_rummy", [kit.human(0, 1, 100, 1), kit.computer(1, "normal", 20, 2)],
            league_id=strict.id,
        ))
    st = await svc.standings(kit.guild)
    assert [(r.user_id, r.wins) for r in st.rows] == [(1, 3)]
    bot = await db.read(
        lambda c: c.one("SELECT mu, sigma FROM league_bot_ratings WHERE bot_level = 'normal'")
    )
    assert bot is not None
    want = oracle([([["h"], ["normal"]], [1, 2])] * 3)
    assert bot["mu"] == pytest.approx(want["normal"][0])
    assert st.rows[0].mu == pytest.approx(want["h"][0])
    empty = await svc.standings(kit.guild, "humans only")
    assert empty.rows == () and empty.total == 0 and empty.game is None
    assert await svc.league_history(kit.guild, "Humans only") == []


async def test_computer_partner_and_two_computers_of_one_level(
    kit: Kit, svc: LeagueService
) -> None:
    seats = [kit.human(0, 1, 300, 1, team=0), kit.computer(1, "random", 100, 2, team=1),
             kit.computer(2, "normal", 300, 1, team=0), kit.computer(3, "random", 100, 2, team=1)]
    await kit.record(kit.match("back_alley", seats))
    st = await svc.standings(kit.guild)
    assert [(r.user_id, r.wins) for r in st.rows] == [(1, 1)]


async def test_matches_without_humans_or_with_one_team_do_not_count(
    kit: Kit, svc: LeagueService
) -> None:
    await kit.record(kit.match("gin_rummy", [kit.computer(0, "normal", 1, 1),
                                             kit.computer(1, "random", 0, 2)]))
    await kit.record(kit.match("gin_rummy", [kit.human(0, 1, 1, 1), kit.human(1, 1, 0, 2)]))
    assert (await svc.standings(kit.guild)).rows == ()


async def test_game_filter_and_game_argument(kit: Kit, svc: LeagueService) -> None:
    spades = await svc.create_league(kit.guild, "Spades Night", is_admin=True, game="Spades")
    assert spades.game == "spades"
    await kit.duel("spades", 1, 2, league_id=spades.id)
    await kit.duel("gin_rummy", 2, 1, league_id=spades.id)  # wrong game: default league only
    st = await svc.standings(kit.guild, "Spades Night")
    assert [(r.user_id, r.games) for r in st.rows] == [(1, 1), (2, 1)]
    with pytest.raises(GameRequired, match="gin_rummy, spades"):
        await svc.standings(kit.guild)
    gin = await svc.standings(kit.guild, game="gin rummy")
    assert [r.user_id for r in gin.rows] == [2, 1]
    with pytest.raises(InvalidRequest, match="spades only"):
        await svc.standings(kit.guild, "Spades Night", game="gin_rummy")
    with pytest.raises(InvalidRequest, match="Unknown game"):
        await svc.standings(kit.guild, game="chess")
    with pytest.raises(InvalidRequest, match="spades only"):
        await svc.league_for_table(kit.guild, "spades night", "ono99")
    assert (await svc.league_for_table(kit.guild, "spades night", "spades")).id == spades.id


async def test_identical_records_are_ordered_by_user_id(kit: Kit, svc: LeagueService) -> None:
    await kit.rank_everyone()
    await kit.duel("gin_rummy", 7, 8)
    await kit.duel("gin_rummy", 5, 6)
    st = await svc.standings(kit.guild)
    assert [r.user_id for r in st.rows] == [5, 7, 6, 8]
    assert st.rows[0].rating == st.rows[1].rating
    page = await svc.standings(kit.guild, limit=2, offset=2)
    assert [(r.rank, r.user_id) for r in page.rows] == [(3, 6), (4, 8)] and page.total == 4


async def test_a_draw_between_two(kit: Kit, svc: LeagueService) -> None:
    await kit.record(kit.match("gin_rummy", [kit.human(0, 1, 50, 1), kit.human(1, 2, 50, 1)]))
    st = await svc.standings(kit.guild)
    assert [(r.draws, r.streak) for r in st.rows] == [(1, "D1"), (1, "D1")]
    assert st.rows[0].mu == pytest.approx(25.0)


async def test_names_follow_the_latest_match(kit: Kit, svc: LeagueService) -> None:
    await kit.duel("gin_rummy", 1, 2)
    renamed = SeatResult(0, 1, None, "Ada", 0, 10, 1)
    await kit.record(kit.match("gin_rummy", [renamed, kit.human(1, 2, 0, 2)]))
    assert (await svc.standings(kit.guild)).rows[0].name == "Ada"


def test_team_results_and_scoring() -> None:
    seats = [SeatResult(i, i, None, "x", i % 2, 0, 1 if i % 2 == 0 else 2) for i in range(4)]
    res = team_results(seats, Scoring.parse("points:2/1/0"))
    assert (res[0].result, res[0].points, res[1].result, res[1].points) == ("W", 2, "L", 0)
    assert str(Scoring.parse(" Points ")) == "points:3/1/0"
    assert str(Scoring.parse("points:5/2/1")) == "points:5/2/1"
    assert str(Scoring.parse("RATING")) == "rating"
    for bad in ("elo", "points:1/2/0", "points:3/1", ""):
        with pytest.raises(InvalidRequest):
            Scoring.parse(bad)


def test_rating_display() -> None:
    assert ratings.display(ratings.DEFAULT.ordinal) == 1000
    assert ratings.DEFAULT.ordinal == pytest.approx(0.0)
    assert ratings.rate([[ratings.DEFAULT]], [1]) == [[ratings.DEFAULT]]


async def test_streaks_run_and_reset(kit: Kit, svc: LeagueService) -> None:
    for w, lo in ((1, 2), (1, 2), (1, 2), (2, 1)):
        await kit.duel("spades", w, lo)
    assert {r.user_id: r.streak for r in (await svc.standings(kit.guild)).rows} == {
        1: "L1", 2: "W1"}
    await kit.duel("spades", 1, 2)
    await kit.duel("spades", 1, 2)
    await kit.record(kit.match("spades", [kit.human(0, 1, 5, 1), kit.human(1, 2, 5, 1)]))
    await kit.record(kit.match("spades", [kit.human(0, 1, 5, 1), kit.human(1, 2, 5, 1)]))
    assert {r.user_id: r.streak for r in (await svc.standings(kit.guild)).rows} == {
        1: "D2", 2: "D2"}
    for _ in range(3):
        await kit.duel("spades", 2, 1)
    assert {r.user_id: r.streak for r in (await svc.standings(kit.guild)).rows} == {
        1: "L3", 2: "W3"}
