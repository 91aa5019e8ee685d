"""Finished games as JSON lines (``deckhand export``, ``/league export``) and reading them
back (``deckhand replay``). The schema is documented in ``docs/export.md``.

Decisions:

* One game per line, oldest first: ``schema``, ``match``, ``game``, ``options``, ``seed``,
  ``started_at``/``finished_at`` (Unix seconds), ``seats`` (seat, display name, human or
  computer and its level, team, final score, rank), ``moves`` (``[seat, action]`` in
  order, or null when the table's log is gone) and ``outcome`` (scores and ranks by
  seat). No Discord ids: players are their display names.
* Only games that may be shown are exported (``storage.events.shown``: never a duplicate
  board still in play elsewhere); no event's secret is in any line.
* Who may export a league (``/league export``): a server admin (Manage Server), or anyone
  once an admin published the league — its games, every hand included, are on the
  standings page then anyway. An export holds every game's seed and moves, all that is
  needed to see each hand, so it is not for every member of a server otherwise.
  ``deckhand export`` is the bot's host, who has the database.
* ``/league export`` sends one file of at most ``limit`` bytes (8 MiB: Discord takes 10
  per message from a bot). It is read a page at a time, each page turned into lines in a
  worker thread (never on the event loop), and it stops at the first line past the limit
  (``TooLarge``), so no more than the limit and one page are ever held.
* Reading a line back replays it with the engine from its seed and options; it is
  *verified* when the moves are legal, end the game, and give the recorded outcome.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import games
from bot.services.errors import ServiceError
from bot.services.leagues import NotAdmin
from games.base import IllegalAction, State
from i18n import _, lazy_gettext
from storage import exports as repo
from storage.db import Database
from storage.leagues import League
from storage.models import load_options

SCHEMA: Literal["deckhand.game/1"] = "deckhand.game/1"
PAGE = 200
#: The largest export ``/league export`` sends as a file.
EXPORT_LIMIT = 8 * 1024 * 1024


class TooLarge(ServiceError):
    """The export would be larger than one file may be."""


@dataclass(frozen=True)
class ExportFile:
    """A league's export as one file: its bytes and how many games it holds."""

    data: bytes
    games: int


class ExportSeat(BaseModel):
    """One seat of an exported game."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(ge=0)
    name: str
    kind: Literal["human", "computer"]
    level: str | None = None
    team: int
    score: int
    rank: int = Field(ge=1)


class ExportOutcome(BaseModel):
    """Final scores and ranks, by seat."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    scores: tuple[int, ...]
    ranks: tuple[int, ...]


class ExportedGame(BaseModel):
    """One line of an export."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    schema_name: Literal["deckhand.game/1"] = Field(alias="schema")
    match: int
    game: str
    options: dict[str, Any]
    seed: int
    started_at: float
    finished_at: float
    seats: tuple[ExportSeat, ...]
    moves: tuple[tuple[int, str], ...] | None
    outcome: ExportOutcome


def exported(record: repo.GameRecord) -> ExportedGame:
    """The export of one stored game."""
    seats = tuple(
        ExportSeat(
            seat=s.seat, name=str(s.name), kind="human" if s.user_id is not None else "computer",
            level=s.bot_level, team=s.team, score=s.score, rank=s.rank,
        )
        for s in record.seats
    )
    return ExportedGame(
        schema=SCHEMA, match=record.match_id, game=record.game,
        options=load_options(record.options), seed=record.seed,
        started_at=record.started_at, finished_at=record.finished_at, seats=seats,
        moves=record.moves,
        outcome=ExportOutcome(
            scores=tuple(s.score for s in seats), ranks=tuple(s.rank for s in seats)
        ),
    )


def line(game: ExportedGame) -> str:
    """One JSON line (no newline)."""
    return json.dumps(game.model_dump(mode="json", by_alias=True), ensure_ascii=False,
                      separators=(",", ":"))


async def _pages(
    db: Database, *, guild_id: int | None, league_id: int | None
) -> AsyncIterator[list[repo.GameRecord]]:
    """The finished games of a league (else of a guild, else of guild 0, the offline
    one) that may be shown, oldest first, a page at a time."""
    after = 0
    while True:
        if league_id is not None:
            page = await db.report(repo.league_games, league_id, after, PAGE)
        else:
            page = await db.report(repo.guild_games, guild_id or 0, after, PAGE)
        yield page
        if len(page) < PAGE:
            return
        after = page[-1].match_id


async def export_lines(
    db: Database, *, guild_id: int | None = None, league_id: int | None = None
) -> AsyncIterator[str]:
    """Every finished game of a league (else of a guild, else of guild 0) that may be
    shown, as JSON lines, oldest first (``deckhand export``)."""
    async for page in _pages(db, guild_id=guild_id, league_id=league_id):
        for record in page:
            yield line(exported(record))


def may_export(league: League, *, is_admin: bool) -> None:
    """Refuse (``NotAdmin``) whoever may not export ``league`` (see the module
    docstring)."""
    if not (is_admin or league.published):
        raise NotAdmin(
            lazy_gettext(
                "Only a server admin (Manage Server) can export a league that is not published "
                "on the standings page."
            )
        )


def _encoded(page: list[repo.GameRecord]) -> list[bytes]:
    return [(line(exported(record)) + "\n").encode() for record in page]


async def league_file(
    db: Database, league: League, *, is_admin: bool, limit: int = EXPORT_LIMIT
) -> ExportFile:
    """``/league export``: the league's games as one file of at most ``limit`` bytes, for
    whoever may export it (see the module docstring); ``TooLarge`` as soon as a line
    would pass the limit."""
    may_export(league, is_admin=is_admin)
    out = io.BytesIO()
    count = 0
    async for page in _pages(db, guild_id=None, league_id=league.id):
        for text in await asyncio.to_thread(_encoded, page):
            if out.tell() + len(text) > limit:
                raise TooLarge(
                    lazy_gettext(
                        "This league's games make more than {limit:g} MiB, too much for one file "
                        "here (the first {count} fit); the bot's host can run `deckhand export` "
                        "(docs/export.md).",
                        limit=limit / 2**20, count=count,
                    )
                )
            out.write(text)
            count += 1
    return ExportFile(out.getvalue(), count)


class BadLine(ValueError):
    """A line that is not an exported game (says which line and why)."""


def read_line(number: int, text: str) -> ExportedGame | None:
    """Line ``number`` of an export (None when blank); ``BadLine`` says why it is not a game."""
    if not text.strip():
        return None
    try:
        return ExportedGame.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or _("the line")
        raise BadLine(_(
            "line {number}: {where}: {msg}",
            number=number, where=where, msg=first['msg'],
        )) from None


def read_lines(lines: Iterable[str]) -> list[ExportedGame]:
    """Parse an export (blank lines skipped); ``BadLine`` names the first bad one."""
    read = (read_line(number, text) for number, text in enumerate(lines, start=1))
    return [game for game in read if game is not None]


@dataclass(frozen=True)
class Replayed:
    """An exported game replayed: ``states`` from the deal to the end (empty when it could
    not start), and what did not match (empty: verified)."""

    game: ExportedGame
    states: tuple[State, ...]
    problem: str = ""

    @property
    def verified(self) -> bool:
        return not self.problem


def replay(game: ExportedGame) -> Replayed:
    """Replay a game's moves from its seed and options and check them against its outcome."""
    if game.moves is None:
        return Replayed(game, (), _("no moves were kept (the table's log was gone)"))
    try:
        g = games.get(game.game)
        state = g.new(len(game.seats), seed=game.seed, options=game.options)
    except (games.UnknownGame, ValueError) as exc:
        return Replayed(game, (), _("cannot start: {exc}", exc=exc))
    states = [state]
    for n, (seat, action) in enumerate(game.moves, start=1):
        try:
            state = g.apply(state, seat, action)
        except IllegalAction as exc:
            return Replayed(game, tuple(states), _(
                "move {n} ({action!r} by seat {seat}): {exc}",
                n=n, action=action, seat=seat, exc=exc,
            ))
        states.append(state)
    if not state.is_over:
        return Replayed(game, tuple(states), _("the moves end before the game does"))
    outcome = g.outcome(state)
    if (outcome.scores, outcome.ranks) != (game.outcome.scores, game.outcome.ranks):
        return Replayed(
            game, tuple(states),
            _(
                "replayed scores {replayed} ≠ recorded {recorded}",
                replayed=list(outcome.scores), recorded=list(game.outcome.scores),
            ),
        )
    return Replayed(game, tuple(states))
