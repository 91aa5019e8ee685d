"""``deckhand export`` and ``deckhand replay FILE``: finished games out as JSON lines, and
back in — each replayed by the engine and checked, one game stepped through on request.

``replay`` reads its file one line at a time (a game is replayed and forgotten before the
next is read), refuses a line over ``LINE_LIMIT`` (no export line is longer than the
8 MiB a Discord export may be; ``/dev/zero`` is refused at once) and a line that is not
UTF-8 text."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

import games
from bot.progress import Interrupted, progress
from bot.render import renderer
from bot.render.common import prettify
from bot.services import exports
from bot.services.dbcli import run_on
from bot.services.errors import ServiceError
from bot.text import clip, plural
from storage import leagues as league_repo
from storage.db import Database

#: The longest line ``replay`` reads.
LINE_LIMIT = 8 * 1024 * 1024


def export(where: str | Path, out: TextIO, guild_id: int, league: str | None) -> int:
    """Write the guild's (or one of its leagues') finished games to ``out``; how many."""
    count = 0

    async def job(db: Database) -> int:
        nonlocal count
        league_id = None
        if league is not None:
            found = await db.read(league_repo.league_by_name, guild_id, league)
            if found is None:
                place = "offline" if guild_id == 0 else f"in the server {guild_id}"
                raise ServiceError(
                    f"There is no league named {clip(league)!r} {place} (--guild names the"
                    " server)."
                )
            league_id = found.id
        with progress(None, "games", "Exporting") as bar:
            async for text in exports.export_lines(db, guild_id=guild_id, league_id=league_id):
                out.write(text + "\n")
                count += 1
                bar.update(1)
        return count

    return run_on(
        where, job,
        stopped=lambda: f"Stopped after {plural(count, 'game')}; the export is incomplete.",
    )


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


def _games(file: BinaryIO, bar: Callable[[int], object]) -> Iterator[exports.ExportedGame]:
    """The games of an export, one line at a time (``BadLine`` names a bad line)."""
    number = 0
    while raw := file.readline(LINE_LIMIT + 1):
        number += 1
        bar(len(raw))
        if len(raw) > LINE_LIMIT:
            raise exports.BadLine(
                f"line {number} is longer than {LINE_LIMIT // 2**20} MiB:"
                " this is not an export."
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise exports.BadLine(
                f"line {number} is not UTF-8 text: this is not an export."
            ) from None
        game = exports.read_line(number, text)
        if game is not None:
            yield game


def replay(file: Path, out: TextIO, show: int | None = None) -> int:
    """Replay every game of an export (exit status 1 if any does not verify); with
    ``show``, step through that match's public table move by move."""
    count = failed = 0
    found = False
    with file.open("rb") as data, progress(file.stat().st_size or None, "B", "Replaying") as bar:
        try:
            for game in _games(data, bar.update):
                replayed = exports.replay(game)
                title = games.get(game.game).title if game.game in games.names() else game.game
                players = ", ".join(f"{s.name} {s.score}" for s in game.seats)
                verdict = "verified" if replayed.verified else f"NOT verified: {replayed.problem}"
                bar.write(
                    f"match {game.match} · {title} · {len(game.moves or ())} moves · {players}"
                    f" · {verdict}", file=out,
                )
                count += 1
                failed += not replayed.verified
                found = found or show == game.match
                if show == game.match and replayed.states:
                    out.writelines(line + "\n" for line in _steps(replayed))
        except KeyboardInterrupt:
            raise Interrupted(
                f"Stopped after {plural(count, 'game')}, {count - failed} verified."
            ) from None
    if show is not None and not found:
        out.write(f"There is no match {show} in {file}.\n")
        return 1
    out.write(f"{plural(count, 'game')}, {count - failed} verified.\n")
    return 1 if failed else 0
