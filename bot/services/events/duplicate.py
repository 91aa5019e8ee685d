"""Duplicate boards: every table of a round plays the same deals, and each side is scored
against everyone who held the same cards. Pure (engines only); worked example in
docs/competition.md.

Decisions:
* **Games**: Gin Rummy and Spades (two seats, each player a side) and Back Alley (four
  seats, two partnerships: seats 0 and 2 against 1 and 3).
* **A board** is ``(game, seed, options)``: a whole game started with ``game.new(seats,
  seed, options)``. Engines shuffle from the seed and a count of shuffles made so far, so
  every table of a board gets the same first deal, and the same later deals as long as as
  many shuffles came before them — always in Gin Rummy; in Back Alley unless a deal was
  thrown in (everybody bid nothing); in Spades unless a Blind Nil exchange drew cards.
  Short boards (Back Alley ``deals: 1``, a low Gin Rummy or Spades ``target``) keep the
  deals the same throughout. Board seeds come from the event's secret and the board number
  (``seeds``).
* **Seats rotate**: a table's two sides are named first and second by the pairing; at
  board b of table t (both counted from 1) the first side takes team 0's seats when
  b + t is even, team 1's otherwise. So over two boards each pair or partnership sits
  both ways, and each board has the first-named sides on both directions.
* **A side's result** on a board is its score minus the best score of the other side
  (negated when lower scores win), from ``game.outcome``. A **direction** is one team's
  seats: everyone who played a board in the same direction held the same cards.
* **Matchpoints**: on each board and direction, a side scores 2 for every other table
  whose result it beat and 1 for every tie, so a top is 2 × (tables − 1) and the two
  sides of one table always share one top. An event ranks sides by their total.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import games
from bot.services.events.seeds import EventSeeds
from games.base import State
from i18n import lazy_gettext, lazy_ngettext

#: The duplicate games and their seats (also the two-sided games Swiss and round robin
#: events are for).
DUPLICATE_GAMES: Mapping[str, int] = {"gin_rummy": 2, "spades": 2, "back_alley": 4}

Player = int


@dataclass(frozen=True)
class Board:
    """One board of an event: every table that plays it gets these deals."""

    number: int
    game: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        """How many seats a table of this board has."""
        return DUPLICATE_GAMES[self.game]

    def new_state(self) -> State:
        """The board's game as every table starts it."""
        state: State = games.get(self.game).new(self.seats, self.seed, self.options)
        return state


def make_boards(
    game: str, count: int, seeds: EventSeeds, options: Mapping[str, object] | None = None,
    first: int = 1,
) -> list[Board]:
    """Boards ``first`` … ``first + count − 1`` of an event; bad games or options raise
    ``ValueError``."""
    if game not in DUPLICATE_GAMES:
        raise ValueError(
            lazy_gettext(
                "Duplicate is for {games}, not {game!r}.",
                games=', '.join(sorted(DUPLICATE_GAMES)), game=game,
            )
        )
    checked = games.get(game).check_options(options or {})
    return [
        Board(n, game, seeds.board(n), dict(checked))
        for n in range(first, first + count)
    ]


def seat_sides(
    game: str, turn: int, table: int, first: Sequence[Player], second: Sequence[Player]
) -> tuple[Player, ...]:
    """Who sits in each seat of ``table`` (from 1) at board (or, outside duplicate, round)
    ``turn``: each side is one player (two seats) or a partnership of two (four seats),
    filling its team's seats in order; see the module docstring for who takes team 0."""
    seats = DUPLICATE_GAMES[game]
    teams = games.get(game).teams(seats)
    per_side = seats // 2
    if len(first) != per_side or len(second) != per_side:
        raise ValueError(lazy_ngettext("A side of {game} has {n} player.",
                                       "A side of {game} has {n} players.", per_side, game=game))
    team0, team1 = (first, second) if (turn + table) % 2 == 0 else (second, first)
    queues = {0: list(team0), 1: list(team1)}
    return tuple(queues[t].pop(0) for t in teams)


@dataclass(frozen=True)
class TableResult:
    """A board finished at one table: who sat in each seat and the final seat scores."""

    board: Board
    table: int
    seats: tuple[Player, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class SideScore:
    """One side's result on a board and the matchpoints it earned (out of ``top``)."""

    board: int
    table: int
    direction: int
    players: tuple[Player, ...]
    result: int
    matchpoints: int
    top: int


def side_results(r: TableResult) -> dict[int, int]:
    """Each direction's result at one table (see the module docstring)."""
    game = games.get(r.board.game)
    teams = game.teams(len(r.seats))
    sign = 1 if game.higher_scores_win(r.board.options) else -1
    best = {t: sign * s for s, t in zip(r.scores, teams, strict=True)}
    return {t: v - max(o for u, o in best.items() if u != t) for t, v in best.items()}


def score_boards(results: Sequence[TableResult]) -> list[SideScore]:
    """Matchpoints of every side of every table result, by board, table and direction."""
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for r in results:
        by_board[r.board.number].append(r)
    out = []
    for number in sorted(by_board):
        tables = sorted(by_board[number], key=lambda r: r.table)
        top = 2 * (len(tables) - 1)
        nets = [side_results(r) for r in tables]
        for r, net in zip(tables, nets, strict=True):
            teams = games.get(r.board.game).teams(len(r.seats))
            for direction, mine in sorted(net.items()):
                others = [n[direction] for n in nets if n is not net]
                mp = 2 * sum(mine > o for o in others) + sum(mine == o for o in others)
                players = tuple(p for p, t in zip(r.seats, teams, strict=True) if t == direction)
                out.append(SideScore(number, r.table, direction, players, mine, mp, top))
    return out


def totals(results: Sequence[TableResult]) -> dict[Player, int]:
    """Each player's matchpoints over every board (partners earn the same)."""
    out: dict[Player, int] = defaultdict(int)
    for s in score_boards(results):
        for p in s.players:
            out[p] += s.matchpoints
    return dict(out)
