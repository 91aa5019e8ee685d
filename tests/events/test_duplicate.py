"""Duplicate boards on the real engines, seat rotation, and matchpoints — including the
worked example of docs/competition.md, read from the page."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.services.events.duplicate import (
    DUPLICATE_GAMES,
    Board,
    TableResult,
    make_boards,
    score_boards,
    seat_sides,
    side_results,
    totals,
)
from bot.services.events.seeds import EventSeeds
from tests.games.support import of_a_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "competition.md"
def secret(n: int) -> EventSeeds:
    """An event's seeds from a made-up secret (``n`` picks it)."""
    return EventSeeds(n.to_bytes(16, "big").hex())


SHORT = {"gin_rummy": {"target": 30}, "spades": {"target": 100}, "back_alley": {"deals": 4}}


def deals(board: Board, seed: int, limit: int = 4000) -> dict[int, Any]:
    """Play a board with random legal moves (``seed`` picks them); the cards dealt by each
    shuffle, keyed by the shuffle's number."""
    game = games.get(board.game)
    rng = random.Random(seed)
    state = board.new_state()
    dealt = {0: game.to_json(state)}
    for _ in range(limit):
        if state.is_over:
            break
        seat = state.to_act[0]
        before = of_a_game(state).shuffles
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if of_a_game(state).shuffles != before:
            dealt[before] = game.to_json(state)
    return dealt


@pytest.mark.parametrize("game", sorted(DUPLICATE_GAMES))
def test_two_tables_of_one_board_get_the_same_cards(game: str) -> None:
    board = make_boards(game, 1, secret(2026), options=SHORT[game])[0]
    one, two = board.new_state(), board.new_state()
    engine = games.get(game)
    assert engine.to_json(one) == engine.to_json(two)
    for seat in range(board.seats):
        assert engine.view(one, seat)["hand"] == engine.view(two, seat)["hand"]
    other = make_boards(game, 2, secret(2026), options=SHORT[game])[1]
    assert engine.to_json(other.new_state()) != engine.to_json(one)  # boards differ


@pytest.mark.parametrize("game", ["gin_rummy", "back_alley"])
def test_later_deals_match_whatever_the_tables_played(game: str) -> None:
    """Two tables play the board differently; every deal made after the same number of
    shuffles holds the same cards in the same seats."""
    board = make_boards(game, 1, secret(8), options=SHORT[game])[0]
    a, b = deals(board, 1), deals(board, 2)
    common = set(a) & set(b) - {0}
    assert common, "the tables should reach a second deal"
    for n in common:
        assert a[n]["hands"] == b[n]["hands"], n


def test_boards_are_checked() -> None:
    with pytest.raises(ValueError, match="Duplicate is for"):
        make_boards("ono99", 1, secret(1))
    with pytest.raises(ValueError, match="Unknown option"):
        make_boards("spades", 1, secret(1), options={"deals": 1})
    boards = make_boards("back_alley", 3, secret(5), first=4)
    assert [b.number for b in boards] == [4, 5, 6] and boards[0].options == {"deals": 25}
    assert make_boards("back_alley", 3, secret(5), first=4) == boards  # from the seed


def test_seats_rotate_so_each_side_sits_both_ways() -> None:
    """Board 1 at table 1: the first side takes team 0's seats; board 2 or table 2 flips."""
    assert seat_sides("gin_rummy", 1, 1, [1], [2]) == (1, 2)
    assert seat_sides("gin_rummy", 2, 1, [1], [2]) == (2, 1)
    assert seat_sides("gin_rummy", 1, 2, [3], [4]) == (4, 3)
    assert seat_sides("back_alley", 1, 1, [1, 2], [3, 4]) == (1, 3, 2, 4)  # partners opposite
    assert seat_sides("back_alley", 2, 1, [1, 2], [3, 4]) == (3, 1, 4, 2)
    with pytest.raises(ValueError, match="2 player"):
        seat_sides("back_alley", 1, 1, [1], [2])


def doc_rows() -> list[dict[str, str]]:
    """The worked example's table, from docs/competition.md."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Worked example"):]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(head, (c.strip() for c in ln.strip("|").split("|")), strict=True))
            for ln in lines[2:]]


def test_the_documented_example_number_for_number() -> None:
    rows = doc_rows()
    names = sorted({r["Seat 0"] for r in rows} | {r["Seat 1"] for r in rows})
    ids = {n: i for i, n in enumerate(names)}
    board = Board(1, "gin_rummy", seed=0, options={"target": 100})
    pairs = {1: ("Ann", "Bob"), 2: ("Cy", "Dee"), 3: ("Eve", "Fay")}  # first named first
    results = []
    for r in rows:
        table = int(r["Table"])
        first, second = pairs[table]
        seats = seat_sides(board.game, board.number, table, [ids[first]], [ids[second]])
        assert seats == (ids[r["Seat 0"]], ids[r["Seat 1"]])
        results.append(TableResult(board, table, seats, (int(r["Score 0"]), int(r["Score 1"]))))
    scored = {(s.table, s.direction): s for s in score_boards(results)}
    for r in rows:
        t = int(r["Table"])
        for d in (0, 1):
            assert scored[(t, d)].result == int(r[f"Result {d}"])
            assert scored[(t, d)].matchpoints == int(r[f"MP {d}"])
            assert scored[(t, d)].top == 4
    by_name = {n: totals(results)[i] for n, i in ids.items()}
    assert by_name == {"Cy": 4, "Ann": 3, "Eve": 3, "Bob": 1, "Fay": 1, "Dee": 0}
    summary = DOC.read_text(encoding="utf-8").split("After this board: ")[1].split(".")[0]
    assert summary == ", ".join(f"{n} {p}" for n, p in
                                sorted(by_name.items(), key=lambda x: (-x[1], names.index(x[0]))))


def test_back_alley_partners_share_their_matchpoints() -> None:
    board = Board(1, "back_alley", seed=1, options={"deals": 1})
    results = [
        TableResult(board, 1, (1, 2, 3, 4), (50, 20, 50, 20)),
        TableResult(board, 2, (5, 6, 7, 8), (10, 40, 10, 40)),
    ]
    assert side_results(results[0]) == {0: 30, 1: -30}
    got = {(s.table, s.direction): (s.players, s.matchpoints) for s in score_boards(results)}
    assert got == {(1, 0): ((1, 3), 2), (1, 1): ((2, 4), 0),
                   (2, 0): ((5, 7), 0), (2, 1): ((6, 8), 2)}
    assert totals(results) == {1: 2, 3: 2, 2: 0, 4: 0, 5: 0, 7: 0, 6: 2, 8: 2}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), min_size=1, max_size=8))
def test_matchpoints_add_up_to_a_top_per_table(scores: list[tuple[int, int]]) -> None:
    board = Board(1, "spades", seed=1)
    results = [TableResult(board, t + 1, (2 * t, 2 * t + 1), s) for t, s in enumerate(scores)]
    scored = score_boards(results)
    top = 2 * (len(scores) - 1)
    for t in range(1, len(scores) + 1):
        assert sum(s.matchpoints for s in scored if s.table == t) == top
    # a better result never earns fewer matchpoints in the same direction
    for d in (0, 1):
        line = sorted((s.result, s.matchpoints) for s in scored if s.direction == d)
        assert [mp for _, mp in line] == sorted(mp for _, mp in line)


def test_the_page_names_the_rule() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert re.search(r"2 for each result\s+beaten, 1 for each tie", text)
