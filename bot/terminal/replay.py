"""``deckhand export`` and ``deckhand replay FILE``: finished games out as JSON lines, and
back in — each replayed by the engine and checked, one game stepped through on request."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import games
from bot.render import renderer
from bot.render.common import prettify
from bot.services import exports
from bot.services.dbcli import run_on
from bot.services.errors import ServiceError
from games.wording import plural
from storage import leagues as league_repo
from storage.db import Database


def export(path: str | Path, out: TextIO, guild_id: int, league: str | None) -> int:
    """Write the guild's (or one of its leagues') finished games to ``out``; how many."""

    async def job(db: Database) -> int:
        league_id = None
        if league is not None:
            found = await db.read(league_repo.league_by_name, guild_id, league)
            if found is None:
                raise ServiceError(f"There is no league named {league!r} in guild {guild_id}.")
            league_id = found.id
        count = 0
        async for text in exports.export_lines(db, guild_id=guild_id, league_id=league_id):
            out.write(text + "\n")
            count += 1
        return count

    return run_on(path, job)


def _steps(replayed: exports.Replayed) -> Iterator[str]:
    game = replayed.game
    r = renderer(game.game)
    g = games.get(game.game)
    names = [s.name for s in game.seats]
    moves = game.moves or ()
    for n, state in enumerate(replayed.states):
        if n == 0:
            yield "── The deal"
        else:
            seat, action = moves[n - 1]
            yield f"── Move {n}: {names[seat]} — {prettify(r.action_label(action))}"
        yield from ("   " + line for line in r.table(g.view(state, None), names))


def replay(file: Path, out: TextIO, show: int | None = None) -> int:
    """Replay every game of an export (exit status 1 if any does not verify); with
    ``show``, step through that match's public table move by move."""
    read = exports.read_lines(file.read_text(encoding="utf-8").splitlines())
    failed = 0
    for game in read:
        replayed = exports.replay(game)
        title = games.get(game.game).title if game.game in games.names() else game.game
        players = ", ".join(f"{s.name} {s.score}" for s in game.seats)
        verdict = "verified" if replayed.verified else f"NOT verified: {replayed.problem}"
        moves = plural(len(game.moves or ()), "move")
        out.write(f"match {game.match} · {title} · {moves} · {players}"
                  f" · {verdict}\n")
        failed += not replayed.verified
        if show == game.match and replayed.states:
            out.writelines(line + "\n" for line in _steps(replayed))
    if show is not None and all(g.match != show for g in read):
        out.write(f"There is no match {show} in {file}.\n")
        return 1
    out.write(f"{plural(len(read), 'game')}, {len(read) - failed} verified.\n")
    return 1 if failed else 0
