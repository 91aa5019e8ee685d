"""An event's rounds, pure: entrants, pairing a round into tables (with its boards'
deals), what a table's result is worth, and the standings. The pairing and scoring rules
are ``pairing``'s and ``duplicate``'s; this module applies them to an event's rows.

Decisions:
* A table's result is the seat scores of the finished game. Swiss and round robin turn
  them into a win, draw or loss of the first-named side (by the game's placements);
  duplicate keeps them for matchpoints, which the standings count once no table of the
  round plays that board any more (``storage.events.boards_in_play``: until then its
  scores must not be shown, and matchpoints compare them).
* Round robin has at most as many rounds as its schedule (n − 1, or n when odd); a
  duplicate event meets opponents in round-robin order (the schedule repeats if it has
  more rounds), and every table of a round plays the round's ``boards`` boards.
* A bye is worth a win (Swiss, round robin) or half a top on every board of the round
  (duplicate: ``tables − 1`` matchpoints a board).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import replace

import games
from bot.services.events import duplicate, pairing
from bot.services.events.duplicate import TableResult
from bot.services.events.pairing import BYE_POINTS, DRAW, LOSS, WIN, Pairing, Result, Standing
from bot.services.events.seeds import of_event
from games.base import rank_scores
from storage.events import EntrantRow, EventRow, TableRow


def entrant_players(players: Sequence[EntrantRow]) -> dict[int, tuple[int, ...]]:
    """Each entrant's players, by seed."""
    out: dict[int, list[int]] = {}
    for p in sorted(players, key=lambda p: p.seed or 0):
        if p.entrant is not None:
            out.setdefault(p.entrant, []).append(p.user_id)
    return {e: tuple(users) for e, users in out.items()}


def seed_order(players: Sequence[EntrantRow]) -> list[int]:
    """The entrants, first seed first."""
    return list(entrant_players(players))


def _results(tables: Sequence[TableRow]) -> list[Result]:
    """The played Swiss or round-robin tables as pairing results."""
    return [
        Result.bye(t.round, t.side_a) if t.side_b is None
        else Result(t.round, t.side_a, t.side_b, t.points)
        for t in tables if t.points is not None
    ]


def _pairings(
    event: EventRow, players: Sequence[EntrantRow], done: Sequence[TableRow], round_no: int
) -> list[Pairing]:
    seeds = seed_order(players)
    gone = {p.entrant for p in players if p.withdrawn and p.entrant is not None}
    if event.format == "swiss":
        return pairing.swiss_round(seeds, _results(done), withdrawn=gone)
    schedule = pairing.round_robin(seeds)
    out = []
    for p in schedule[(round_no - 1) % len(schedule)]:
        sides = [e for e in (p.a, p.b) if e is not None and e not in gone]
        if len(sides) == 2:
            out.append(p)
        elif sides:
            out.append(Pairing(sides[0], None))
    return sorted(out, key=lambda p: p.is_bye)


def round_tables(
    event: EventRow, players: Sequence[EntrantRow], done: Sequence[TableRow], round_no: int
) -> list[TableRow]:
    """The tables (then byes) of a new round."""
    members = entrant_players(players)
    pairs = _pairings(event, players, done, round_no)
    matched = [(p.a, p.b) for p in pairs if p.b is not None]
    out = []
    if event.format == "duplicate":
        boards = duplicate.make_boards(
            event.game, event.boards, of_event(event), event.options,
            first=(round_no - 1) * event.boards + 1,
        )
        out += [
            TableRow(round_no, t, b.number, b.seed, a, o,
                     duplicate.seat_sides(event.game, b.number, t, members[a], members[o]),
                     None, None, None)
            for t, (a, o) in enumerate(matched, start=1) for b in boards
        ]
    else:
        out += [
            TableRow(round_no, t, 0, of_event(event).table(round_no, t), a, o,
                     duplicate.seat_sides(event.game, round_no, t, members[a], members[o]),
                     None, None, None)
            for t, (a, o) in enumerate(matched, start=1)
        ]
    bye_points = None if event.format == "duplicate" else BYE_POINTS
    out += [
        TableRow(round_no, len(matched) + i, 0, 0, p.a, None, (), None, bye_points, None)
        for i, p in enumerate((p for p in pairs if p.b is None), start=1)
    ]
    return out


def side_a_points(
    event: EventRow, table: TableRow, side_a: Sequence[int], scores: Sequence[int]
) -> float:
    """What the first-named side (its players ``side_a``) scored at a Swiss or round-robin
    table: a win, draw or loss by the game's placements of the two sides."""
    game = games.get(event.game)
    ranks = rank_scores(
        list(scores), game.higher_scores_win(event.options), game.teams(len(scores))
    )
    mine = min(r for user, r in zip(table.seats, ranks, strict=True) if user in side_a)
    theirs = min(r for user, r in zip(table.seats, ranks, strict=True) if user not in side_a)
    return WIN if mine < theirs else DRAW if mine == theirs else LOSS


def _duplicate_rows(
    players: Sequence[EntrantRow], tables: Sequence[TableRow], event: EventRow,
    in_play: Set[tuple[int, int]],
) -> list[Standing]:
    """Matchpoint standings: total, then seed; a board still in play (``in_play``: its
    round and number) counts once no table plays it any more."""
    members = entrant_players(players)
    entrant_of = {u: e for e, users in members.items() for u in users}
    boards = {b.number: b for b in duplicate.make_boards(
        event.game, event.round * event.boards, of_event(event), event.options)}
    played = [
        TableResult(boards[t.board], t.table_no, t.seats, t.scores)
        for t in tables if t.scores is not None and (t.round, t.board) not in in_play
    ]
    points = dict.fromkeys(members, 0.0)
    count = dict.fromkeys(members, 0)
    byes = dict.fromkeys(members, 0)
    for side in duplicate.score_boards(played):
        e = entrant_of[side.players[0]]
        points[e] += side.matchpoints
        count[e] += 1
    for t in tables:
        if t.side_b is None:  # half a top on each board of the round
            others = {o.table_no for o in tables if o.round == t.round and o.side_b is not None}
            points[t.side_a] += event.boards * max(len(others) - 1, 0)
            byes[t.side_a] += 1
    seed_of = {e: i + 1 for i, e in enumerate(members)}
    order = sorted(members, key=lambda e: (-points[e], seed_of[e]))
    names = {p.user_id: p.name for p in players}
    return [
        Standing(i + 1, e, points[e], 0.0, 0.0, seed_of[e], count[e], byes[e],
                 tuple(names[u] for u in members[e]))
        for i, e in enumerate(order)
    ]


def standing_rows(
    event: EventRow, players: Sequence[EntrantRow], tables: Sequence[TableRow],
    in_play: Set[tuple[int, int]],
) -> list[Standing]:
    """The standings' rows: Swiss and round robin by ``pairing.standings``, duplicate by
    matchpoints."""
    if event.format == "duplicate":
        return _duplicate_rows(players, tables, event, in_play)
    members = entrant_players(players)
    names = {p.user_id: p.name for p in players}
    return [
        replace(s, names=tuple(names[u] for u in members[s.entrant]))
        for s in pairing.standings(list(members), _results(tables))
    ]
