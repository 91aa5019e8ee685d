"""The site's pages as HTML, from data the site module gathered (no database here).

Every page shows display names only; links carry slugs (``bot.web.paths``). A replay step
is shown as the table message showed it, by the game's renderer (``bot.render.steps``)
in the page's markup (``html.rich``); revealed hands are card chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import games
from bot.render import ono99
from bot.render.columns import won_drawn_lost
from bot.render.scoring import scoring_words
from bot.render.steps import shown
from bot.services.leagues import Standings
from bot.services.player_record import Record
from bot.services.publication import Slugs
from bot.services.ratings import display
from bot.services.replays import ReplayStep
from bot.web import language, paths
from bot.web.chart import Series, rating_chart
from bot.web.html import Child, Safe, document, filled, grid, h, join, link, rich
from games.cards import BIG_JOKER, LITTLE_JOKER, RED_SUITS, STANDARD_DECK, pretty
from i18n import N_, _, number
from storage.league_reports import SeasonTotals
from storage.leagues import League, Season
from storage.matches import PlayedMatch, SeatResult

#: Jokers in words (the suit-symbol fonts of many systems lack a joker glyph).
_JOKER_TEXT = {BIG_JOKER: N_("Big"), LITTLE_JOKER: N_("Little")}


@dataclass(frozen=True)
class GameSection:
    """One game's standings in a season, and its players' rating lines."""

    standings: Standings
    series: tuple[Series, ...]
    games: int


def day(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def game_title(game: str) -> str:
    return _(games.get(game).title)


def league_crumbs(slugs: Slugs, league: League) -> list[tuple[str, str | None]]:
    return [
        (_("Leagues"), paths.guild(slugs, league.guild_id)),
        (league.name, paths.league(slugs, league.id)),
    ]


def home() -> Safe:
    """The front page: what the site is and how to get a league onto it."""
    return document(
        _("League standings"), [],
        h("p", _(
            "This site shows the standings, players and finished games of the Deckhand leagues "
            "whose server admins published them."
        )),
        h("p", filled(_("On Discord, {standings} links to your league's page once an admin"
                        " ran {publish}."), standings=h("code", "/league standings"),
                      publish=h("code", "/league publish on"))),
    )


def guild_page(slugs: Slugs, leagues: Sequence[League]) -> Safe:
    """A guild's published leagues."""
    items = [
        h("li", link(paths.league(slugs, lg.id), lg.name), " — ",
          game_title(lg.game) if lg.game else _("every game"),
          _(", {scoring}, season {season}", scoring=scoring_words(lg.scoring),
            season=lg.season))
        for lg in leagues
    ]
    return document(_("Leagues"), [(_("Leagues"), None)], h("ul", items, class_="plain"))


def league_page(
    slugs: Slugs, league: League, seasons: Sequence[Season], played: dict[int, list[str]],
    events: Child = None,
) -> Safe:
    """A league's seasons, newest first, with the games played in each; then ``events``
    (its events' section, ``bot.web.events``)."""
    rows = [
        h("tr",
          h("td", link(paths.season(slugs, league.id, s.season),
                       _("Season {season}", season=s.season))),
          h("td", day(s.started_at)),
          h("td", day(s.ended_at) if s.ended_at else _("now")),
          h("td", ", ".join(game_title(g) for g in played.get(s.season, [])) or "—"))
        for s in reversed(seasons)
    ]
    return document(
        league.name, [(_("Leagues"), paths.guild(slugs, league.guild_id)), (league.name, None)],
        h("p", game_title(league.game) if league.game else _("Every game counts"),
          _(" · scoring: {scoring}", scoring=scoring_words(league.scoring))),
        h("section", h("h2", _("Seasons")),
          grid((_("Season"), _("From"), _("To"), _("Games")), rows)),
        events,
    )


def _standings_table(slugs: Slugs, st: Standings) -> Safe:
    points = st.scoring != "rating"
    head = ["#", _("Player"), _("Points") if points else _("Rating"), _("Games"),
            *won_drawn_lost(), _("Streak")]
    rows = [
        h("tr",
          h("td", r.rank if r.rank is not None else "–", class_="num"),
          h("td", link(paths.player(slugs, st.league.id, r.user_id), r.name)),
          h("td", number(r.points) if points else r.rating_display, class_="num"),
          h("td", r.games, class_="num"), h("td", r.wins, class_="num"),
          h("td", r.draws, class_="num"), h("td", r.losses, class_="num"),
          h("td", r.streak))
        for r in st.rows
    ]
    table = grid(head, rows, (0, 2, 3, 4, 5, 6), class_="standings")
    if not any(r.provisional for r in st.rows):
        return table
    return join([table, h("p", f"–: {st.provisional_heading.rstrip(':')}", class_="note")])


def _result(seats: Sequence[SeatResult]) -> Safe:
    """``1. Ann — 100 · 2. Ben — 50``: placements, best first, as a finished table's
    message writes them (a score in parentheses would read as part of a computer's name,
    ``Computer (normal) 1``)."""
    ranked = sorted(seats, key=lambda s: (s.rank, s.seat))
    return join([f"{s.rank}. {s.name} — {number(s.score)}" for s in ranked], " · ")


def _matches_table(slugs: Slugs, league: League, matches: Sequence[PlayedMatch]) -> Safe:
    rows = []
    for m in matches:
        rows.append(h(
            "tr", h("td", day(m.finished_at)), h("td", game_title(m.game)),
            h("td", _result(m.seats)),
            h("td", link(paths.match(slugs, league.id, m.match_id), _("Replay"))),
        ))
    if not rows:
        return h("p", _("No games yet."))
    return grid((_("Date"), _("Game"), _("Result"), ""), rows)


def season_page(
    slugs: Slugs, league: League, season: Season, sections: Sequence[GameSection],
    recent: Sequence[PlayedMatch],
) -> Safe:
    """A season's standings per game, each with its rating chart, and its latest games."""
    crumbs = [*league_crumbs(slugs, league), (_("Season {season}", season=season.season), None)]
    status = (_("current season") if season.ended_at is None
              else _("ended {day}", day=day(season.ended_at)))
    parts: list[Child] = [h("p", _(
        "Season {season} · started {day} · {status} · {scoring}", season=season.season,
        day=day(season.started_at), status=status, scoring=scoring_words(league.scoring),
    ))]
    if not sections:
        parts.append(h("p", _("No games have counted toward this season yet.")))
    for sec in sections:
        st = sec.standings
        assert st.game is not None
        title = game_title(st.game)
        parts.append(h(
            "section",
            h("h2", title),
            _standings_table(slugs, st),
            h("figure",
              rating_chart(sec.series, sec.games,
                           _("{game}: rating over the season", game=title)),
              h("figcaption",
                _("Rating over the season (the leaders; a newcomer starts at 1000)"))),
        ))
    parts.append(h("section", h("h2", _("Latest games")), _matches_table(slugs, league, recent)))
    return document(_("{name} · season {season}", name=league.name, season=season.season),
                    crumbs, *parts)


def _record_table(rows: Sequence[Record], partner: bool) -> Safe:
    head = [_("Game"), *([_("Partner")] if partner else []), _("Played"), _("Won"), _("Drawn"),
            _("Lost")]
    body = [
        h("tr", h("td", game_title(r.game)), h("td", r.partner) if partner else None,
          h("td", r.played, class_="num"), h("td", r.won, class_="num"),
          h("td", r.drawn, class_="num"), h("td", r.lost, class_="num"))
        for r in rows
    ]
    return grid(head, body, range(len(head) - 4, len(head)))


def player_page(
    slugs: Slugs, league: League, name: str, seasons: Sequence[SeasonTotals],
    per_game: Sequence[Record], per_partner: Sequence[Record],
    recent: Sequence[PlayedMatch],
) -> Safe:
    """A player's standing per season and game (by the league's measure, rating or points,
    as its standings rank them), record per game and partner, last games."""
    points = league.scoring != "rating"
    season_rows = [
        h("tr", h("td", link(paths.season(slugs, league.id, s.season),
                             _("Season {season}", season=s.season))),
          h("td", game_title(s.game)),
          h("td", number(s.totals.points) if points else display(s.totals.ordinal),
            class_="num"),
          h("td", s.totals.games, class_="num"), h("td", s.totals.wins, class_="num"),
          h("td", s.totals.draws, class_="num"), h("td", s.totals.losses, class_="num"))
        for s in seasons
    ]
    head = (_("Season"), _("Game"), _("Points") if points else _("Rating"), _("Games"),
            *won_drawn_lost())
    return document(
        name, [*league_crumbs(slugs, league), (name, None)],
        h("section", h("h2", _("Per season")), grid(head, season_rows, (2, 3, 4, 5, 6))),
        h("section", h("h2", _("Record per game")), _record_table(per_game, False)),
        h("section", h("h2", _("Record with partners")),
          _record_table(per_partner, True) if per_partner else h("p", _("No human partners."))),
        h("section", h("h2", _("Latest games")), _matches_table(slugs, league, recent)),
    )


# -- replays ------------------------------------------------------------------------------
def card(code: str) -> Safe:
    """One card as a chip with its suit symbol (red suits in red); ONO 99 cards as the
    game names them."""
    red = code in STANDARD_DECK and code[1] in RED_SUITS
    text = (pretty(code) if code in STANDARD_DECK
            else _(_JOKER_TEXT[code]) if code in _JOKER_TEXT else ono99.pretty(code))
    return h("span", text, class_="card red" if red else "card")


def cards(codes: Sequence[str]) -> Safe:
    """Cards as chips, or a dash."""
    return h("span", [card(c) for c in codes], class_="cards") if codes else Safe("—")


def replay_page(
    slugs: Slugs, league: League, match: PlayedMatch, rep: ReplayStep, hands: bool
) -> Safe:
    """One step of a replay as the table message showed it (``bot.render.steps``): the
    move, what it made happen and the public table; then every hand, if asked."""
    game = games.get(rep.game)
    names = [str(s.name) for s in sorted(match.seats, key=lambda s: s.seat)]
    move = None if rep.move is None else (rep.move.seat, rep.move.action, rep.move.timed_out)
    step = shown(rep.game, rep.public, rep.events, names, move)

    def at(step: int, text: str, rel: str | None = None) -> Safe:
        href = paths.match(slugs, league.id, match.match_id, step, hands)
        if step == rep.step or not 0 <= step <= rep.last:
            return h("span", text, class_="button off")
        return h("a", text, href=language.href(href), class_="button", rel=rel)

    held = (
        grid((_("Seat"), _("Hand")), [h("tr", h("td", name), h("td", cards(rep.hands[i])))
                                for i, name in enumerate(names)], class_="seats")
        if rep.hands else None
    )
    toggle = paths.match(slugs, league.id, match.match_id, rep.step, not hands)
    return document(
        f"{_(game.title)} · {day(match.finished_at)}",
        [*league_crumbs(slugs, league), (_("Replay"), None)],
        h("p", _("Result: "), _result(match.seats)),
        h("nav",
          at(0, _("« First")), at(rep.step - 1, _("◀ Previous"), "prev"),
          h("span", _("Step {step} of {last}", step=rep.step, last=rep.last), class_="step",
            id="step"),
          at(rep.step + 1, _("Next ▶"), "next"), at(rep.last, _("Last »")),
          class_="steps", aria_label=_("Replay steps")),
        h("p", rich(step.moved), class_="move"),
        h("ul", [h("li", rich(t)) for t in step.events], class_="happened")
        if step.events else None,
        h("section", [h("p", rich(t)) for t in step.table], class_="table",
          aria_label=_("The table")),
        held,
        h("p", link(toggle, _("Hide the hands") if hands else _("Show every hand")),
          _(" — the game is over, so its hands may be shown."), class_="hint"),
    )


def error_page(status: int, text: str) -> Safe:
    """A plain error page (no detail of what went wrong inside)."""
    return document(f"{status}", [], h("p", text), h("p", link("/", _("Front page"))))
