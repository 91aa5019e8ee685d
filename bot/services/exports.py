"""Finished games as JSON lines (``deckhand export``, ``/league export``) and reading them
back (``deckhand replay``). The schema is documented in ``docs/export.md``.

Decisions:

* One game per line, oldest first: ``schema``, ``match``, ``game``, ``options``, ``seed``,
  ``started_at``/``finished_at`` (Unix seconds), ``seats`` (seat, display name, human or
  computer and its level, team, final score, rank), ``moves`` (``[seat, action]`` in
  order, or null when the table's log is gone) and ``outcome`` (scores and ranks by
  seat). No Discord ids: players are their display names.
* Reading a line back replays it with the engine from its seed and options; it is
  *verified* when the moves are legal, end the game, and give the recorded outcome.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import games
from games.base import IllegalAction, State
from storage import exports as repo
from storage.db import Database
from storage.models import load_options

SCHEMA: Literal["deckhand.game/1"] = "deckhand.game/1"
PAGE = 500


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
            seat=s.seat, name=s.name, kind="human" if s.user_id is not None else "computer",
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


async def export_lines(
    db: Database, *, guild_id: int | None = None, league_id: int | None = None
) -> AsyncIterator[str]:
    """Every finished game of a league (else of a guild, else of guild 0, the offline
    one) as JSON lines, oldest first, read a page at a time."""
    after = 0
    while True:
        if league_id is not None:
            page = await db.report(repo.league_games, league_id, after, PAGE)
        else:
            page = await db.report(repo.guild_games, guild_id or 0, after, PAGE)
        for record in page:
            yield line(exported(record))
        if len(page) < PAGE:
            return
        after = page[-1].match_id


class BadLine(ValueError):
    """A line that is not an exported game (says which line and why)."""


def read_lines(lines: Iterable[str]) -> list[ExportedGame]:
    """Parse an export (blank lines skipped); ``BadLine`` names the first bad one."""
    out = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            out.append(ExportedGame.model_validate_json(text))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the line"
            raise BadLine(f"line {number}: {where}: {first['msg']}") from None
    return out


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
        return Replayed(game, (), "no moves were kept (the table's log was gone)")
    try:
        g = games.get(game.game)
        state = g.new(len(game.seats), seed=game.seed, options=game.options)
    except (games.UnknownGame, ValueError) as exc:
        return Replayed(game, (), f"cannot start: {exc}")
    states = [state]
    for n, (seat, action) in enumerate(game.moves, start=1):
        try:
            state = g.apply(state, seat, action)
        except IllegalAction as exc:
            return Replayed(game, tuple(states), f"move {n} ({action!r} by seat {seat}): {exc}")
        states.append(state)
    if not state.is_over:
        return Replayed(game, tuple(states), "the moves end before the game does")
    outcome = g.outcome(state)
    if (outcome.scores, outcome.ranks) != (game.outcome.scores, game.outcome.ranks):
        return Replayed(
            game, tuple(states),
            f"replayed scores {list(outcome.scores)} ≠ recorded {list(game.outcome.scores)}",
        )
    return Replayed(game, tuple(states))
