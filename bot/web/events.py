"""Event pages: a league's events, and an event's standings and rounds (no database here).

Decisions:
* Names and results only: a table still being played says "playing" and nothing of its
  game; a played table links its replay when its game counted toward the league.
* The standings are ``EventService.standings`` as they are, preceded by the order that
  decides them in words.
* A side is its players' names (a Back Alley partnership: "Ann & Cy"); its score at a
  table is the score of its first seat (partners share their team's score).
* Rounds are shown in order, each as its tables (for duplicate: every board of every
  table, with both sides' matchpoints on it), then its byes. In a round under way the
  matchpoints compare the tables played so far, as the standings do. A duplicate board
  shows its scores, matchpoints and replays only once no table of the round plays it any
  more (``storage.events.boards_in_play``, read with the tables; until then a finished
  table says "played"): its cards are still in play elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from bot.render.events import format_name, status_word
from bot.services.events import duplicate
from bot.services.events.pairing import DRAW, LOSS, WIN
from bot.services.events.service import EventStandings
from bot.services.publication import Slugs
from bot.web import paths
from bot.web.html import Child, Safe, document, grid, h, join, link
from bot.web.pages import game_title, league_crumbs
from i18n import _, ngettext
from storage.events import EntrantRow, EventRow, TableRow
from storage.leagues import League

#: The second side's points at a table, from the first side's.
_OTHER = {WIN: LOSS, DRAW: DRAW, LOSS: WIN}


def _playing() -> Safe:
    """What a table still being played shows instead of its result."""
    return h("span", _("playing"), class_="playing")


def _played() -> Safe:
    """What a duplicate table shows while its board is still played elsewhere."""
    return h("span", _("played"), class_="playing")


@dataclass(frozen=True)
class EventData:
    """What an event's page shows: its standings, sign-ups, every table so far, the match
    ids among them that have a replay in the league, and the ``(round, board)`` of each
    duplicate board still in play."""

    standings: EventStandings
    entrants: tuple[EntrantRow, ...]
    tables: tuple[TableRow, ...]
    replays: frozenset[int]
    in_play: frozenset[tuple[int, int]] = frozenset()


def rounds_played(event: EventRow) -> int:
    """How many rounds are complete."""
    return event.round if event.status == "finished" else max(event.round - 1, 0)


def _number(x: float) -> str:
    return f"{x:g}"


def listing(slugs: Slugs, league: League, events: Sequence[EventRow]) -> Child:
    """A league's events, newest first (None when it has none)."""
    if not events:
        return None
    rows = [
        h("tr", h("td", link(paths.event(slugs, league.id, e.id), e.name)),
          h("td", game_title(e.game)), h("td", format_name(e.format)),
          h("td", status_word(e.status)),
          h("td", _("{played} of {rounds}", played=rounds_played(e), rounds=e.rounds),
            class_="num"))
        for e in events
    ]
    return h("section", h("h2", _("Events")),
             grid((_("Event"), _("Game"), _("Format"), _("Status"), _("Rounds played")), rows,
                  (4,)))


def _progress(event: EventRow) -> str:
    if event.status == "running":
        return _("round {round} of {rounds} under way", round=event.round, rounds=event.rounds)
    if event.status == "finished":
        return ngettext("finished after {round} of {n} round", "finished after {round} of {n}"
                        " rounds", event.rounds, round=event.round)
    return ngettext("{status} · {n} round", "{status} · {n} rounds", event.rounds,
                    status=status_word(event.status))


def _standings(data: EventData) -> Safe:
    st = data.standings
    if not st.rows:
        names = [str(p.name) for p in data.entrants]
        return h("p", _("Signed up so far: {names}.", names=", ".join(names)) if names
                 else _("Nobody has signed up yet."))
    dup = st.event.format == "duplicate"
    gone = {p.entrant for p in data.entrants if p.withdrawn}
    side = _("Team") if any(len(r.names) > 1 for r in st.rows) else _("Player")
    columns: tuple[Child, ...] = (
        (_("Matchpoints"),) if dup
        else (_("Points"), _("Buchholz"), h("abbr", _("SB"), title=_("Sonneborn-Berger")))
    )
    rows = [
        h("tr",
          h("td", r.rank, class_="num"),
          h("td", r.side,
            h("span", _("withdrawn"), class_="tag") if r.entrant in gone else None),
          [h("td", _number(x), class_="num")
           for x in ((r.points,) if dup else (r.points, r.buchholz, r.sonneborn_berger))],
          h("td", r.played, class_="num"), h("td", r.byes, class_="num"))
        for r in st.rows
    ]
    return join([
        h("p", _("Ranked by {order}.", order=st.order), class_="note"),
        h("p", _("On each board a side is compared with the sides that held the same cards at"
                 " the other tables: 2 matchpoints for each it beat, 1 for each tie."),
          class_="note")
        if dup else None,
        grid(("#", side, *columns, _("Played"), _("Byes")), rows,
             (0, *range(2, len(columns) + 4)), class_="standings"),
    ])


@dataclass(frozen=True)
class _Round:
    """What drawing one round needs: sides' names, whose side each player is on, links."""

    slugs: Slugs
    league: League
    event: EventRow
    sides: Mapping[int, str]
    entrant_of: Mapping[int, int | None]
    replays: frozenset[int]
    in_play: frozenset[tuple[int, int]]

    def score(self, t: TableRow, side: int) -> int:
        assert t.scores is not None
        return next(s for u, s in zip(t.seats, t.scores, strict=True)
                    if self.entrant_of[u] == side)

    def scores(self, t: TableRow) -> str:
        assert t.side_b is not None
        return f"{self.score(t, t.side_a)} – {self.score(t, t.side_b)}"

    def replay(self, t: TableRow) -> Child:
        if t.match_id is None or t.match_id not in self.replays:
            return None
        return link(paths.match(self.slugs, self.league.id, t.match_id), _("Replay"))

    def table(self, t: TableRow) -> Safe:
        """A Swiss or round-robin table: its sides, points and scores."""
        assert t.side_b is not None
        if t.points is None:
            result: tuple[Child, Child] = (_playing(), None)
        else:
            result = (f"{_number(t.points)} – {_number(_OTHER[t.points])}", self.scores(t))
        return h(
            "tr", h("td", t.table_no, class_="num"), h("td", self.sides[t.side_a]),
            h("td", self.sides[t.side_b]), [h("td", x, class_="num") for x in result],
            h("td", self.replay(t)),
        )

    def boards(self, tables: Sequence[TableRow]) -> Safe:
        """A duplicate round: every board of every table, scores and matchpoints."""
        results = [
            duplicate.TableResult(
                duplicate.Board(t.board, self.event.game, t.seed, self.event.options),
                t.table_no, t.seats, t.scores)
            for t in tables if t.scores is not None and (t.round, t.board) not in self.in_play
        ]
        mp = {
            (s.board, s.table, self.entrant_of[s.players[0]]): s.matchpoints
            for s in duplicate.score_boards(results)
        }

        def matchpoints(t: TableRow) -> str:
            return f"{mp[t.board, t.table_no, t.side_a]} – {mp[t.board, t.table_no, t.side_b]}"

        rows = []
        for t in sorted(tables, key=lambda t: (t.board, t.table_no)):
            assert t.side_b is not None
            done = t.scores is not None and (t.round, t.board) not in self.in_play
            state = _played() if t.scores is not None else _playing()
            rows.append(h(
                "tr", h("td", t.board, class_="num"), h("td", t.table_no, class_="num"),
                h("td", self.sides[t.side_a]), h("td", self.sides[t.side_b]),
                h("td", self.scores(t) if done else state, class_="num"),
                h("td", matchpoints(t) if done else None, class_="num"),
                h("td", self.replay(t) if done else None),
            ))
        return grid((_("Board"), _("Table"), _("First side"), _("Second side"), _("Score"),
                     _("Matchpoints"), ""), rows, (0, 1, 4, 5), class_="boards")

    def section(self, number: int, tables: Sequence[TableRow]) -> Safe:
        """Round ``number``: its tables, then its byes."""
        matched = [t for t in tables if t.side_b is not None]
        byes = [self.sides[t.side_a] for t in tables if t.side_b is None]
        under_way = not all(t.played for t in tables)
        if self.event.format == "duplicate":
            top = 2 * (len({t.table_no for t in matched}) - 1)
            body = join([self.boards(matched),
                         h("p", _("A top is {top} matchpoints a board.", top=top),
                           class_="note")])
            bye = _("Bye (half a top on each board): {who}.", who=", ".join(byes))
        else:
            body = grid((_("Table"), _("First side"), _("Second side"), _("Points"), _("Score"),
                         ""), [self.table(t) for t in matched], (0, 3, 4), class_="pairings")
            bye = _("Bye (a win): {who}.", who=", ".join(byes))
        return h(
            "section",
            h("h2", _("Round {round}", round=number),
              h("span", _(" · under way"), class_="playing") if under_way else None),
            body,
            h("p", bye, class_="note") if byes else None,
        )


def event_page(slugs: Slugs, league: League, data: EventData) -> Safe:
    """An event's standings, then each round's tables and byes."""
    event = data.standings.event
    drawer = _Round(
        slugs, league, event, {r.entrant: r.side for r in data.standings.rows},
        {p.user_id: p.entrant for p in data.entrants}, data.replays, data.in_play,
    )
    parts = [game_title(event.game), format_name(event.format)]
    if event.format == "duplicate":
        parts.append(ngettext("{n} board a round", "{n} boards a round", event.boards))
    return document(
        event.name, [*league_crumbs(slugs, league), (event.name, None)],
        h("p", " · ".join([*parts, _progress(event)])),
        h("section", h("h2", _("Standings")), _standings(data)),
        [drawer.section(n, list(ts)) for n, ts in groupby(data.tables, key=lambda t: t.round)],
    )
