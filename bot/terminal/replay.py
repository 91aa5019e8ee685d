"""``deckhand export`` and ``deckhand replay FILE``: finished games out as JSON lines, and
back in — each replayed by the engine and checked, one game stepped through on request.

``replay`` reads its file one line at a time (a game is replayed and forgotten before the
next is read), refuses a line over ``LINE_LIMIT`` (no export line is longer than the
8 MiB a Discord export may be; ``/dev/zero`` is refused at once) and a line that is not
UTF-8 text.

``--show`` shows each step as the table message showed it (``bot.render.steps``: the
move under a heading, what it made happen, the public table), in the terminal's own
emphasis (bold and red suits on a terminal, plain words when piped). On a terminal it
waits after each step — Enter for the next, ``b`` to go back, ``q`` to stop; piped (or
without a terminal to answer) it prints every step, one heading each, for reading or
grepping.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

import games
from bot.progress import Interrupted, progress
from bot.render.steps import Shown, shown
from bot.services import exports
from bot.services.dbcli import run_on
from bot.services.errors import ServiceError
from bot.terminal.screen import Screen, use_colour
from bot.text import clip
from i18n import N_, _, ngettext, number
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
                raise ServiceError(
                    _("There is no league named {league!r} offline (--guild names the server).",
                      league=clip(league)) if guild_id == 0
                    else _("There is no league named {league!r} in the server {guild} (--guild"
                           " names the server).", league=clip(league), guild=guild_id)
                )
            league_id = found.id
        with progress(None, _("games"), _("Exporting")) as bar:
            async for text in exports.export_lines(db, guild_id=guild_id, league_id=league_id):
                out.write(text + "\n")
                count += 1
                bar.update(1)
        return count

    return run_on(
        where, job,
        stopped=lambda: ngettext("Stopped after {n} game; the export is incomplete.",
                                 "Stopped after {n} games; the export is incomplete.", count),
    )


Ask = Callable[[str], str]
#: What the stepping prompt offers (marked for the catalogs).
STEP_KEYS = N_("Enter: next · b: back · q: stop")


def _step(replayed: exports.Replayed, n: int) -> Shown:
    """Step ``n`` of a replayed game (0: the deal)."""
    game = replayed.game
    state = replayed.states[n]
    moves = game.moves or ()
    move = None if n == 0 else (*moves[n - 1], False)
    view = games.get(game.game).view(state, None)
    return shown(game.game, view, state.events, [s.name for s in game.seats], move)


def _games(file: BinaryIO, bar: Callable[[int], object]) -> Iterator[exports.ExportedGame]:
    """The games of an export, one line at a time (``BadLine`` names a bad line)."""
    line_no = 0
    while raw := file.readline(LINE_LIMIT + 1):
        line_no += 1
        bar(len(raw))
        if len(raw) > LINE_LIMIT:
            raise exports.BadLine(_(
                "line {line} is longer than {limit} MiB: this is not an export.",
                line=line_no, limit=LINE_LIMIT // 2**20,
            ))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise exports.BadLine(
                _("line {line} is not UTF-8 text: this is not an export.", line=line_no)
            ) from None
        game = exports.read_line(line_no, text)
        if game is not None:
            yield game


def _show_step(screen: Screen, replayed: exports.Replayed, n: int) -> None:
    step = _step(replayed, n)
    last = len(replayed.states) - 1
    screen.heading(_("Step {n}/{last} · {move}", n=n, last=last, move=step.moved))
    screen.lines([*step.events, ""])
    screen.lines(step.table)


def step_through(replayed: exports.Replayed, screen: Screen, ask: Ask | None) -> None:
    """Show a replayed game step by step: waiting for ``ask`` after each (Enter, ``b``,
    ``q``), or, without one, every step one after the other."""
    last = len(replayed.states) - 1
    if ask is None:
        for n in range(last + 1):
            _show_step(screen, replayed, n)
        return
    n = 0
    while True:
        _show_step(screen, replayed, n)
        try:
            answer = ask(_("Step {n} of {last} — {keys} ", n=n, last=last,
                           keys=_(STEP_KEYS))).strip().lower()
        except EOFError:
            return
        if answer.startswith("q") or (not answer and n == last):
            return
        n = max(n - 1, 0) if answer.startswith("b") else min(n + 1, last)


def replay(file: Path, out: TextIO, show: int | None = None, ask: Ask | None = None) -> int:
    """Replay every game of an export (exit status 1 if any does not verify); with
    ``show``, step through that match's public table move by move (waiting for ``ask``
    after each step, when given: a person at a terminal)."""
    count = failed = 0
    found = False
    with file.open("rb") as data, progress(file.stat().st_size or None, "B", _("Replaying")) as bar:
        try:
            for game in _games(data, bar.update):
                replayed = exports.replay(game)
                title = (_(games.get(game.game).title) if game.game in games.names()
                         else game.game)
                players = ", ".join(f"{s.name} {number(s.score)}" for s in game.seats)
                verdict = (_("verified") if replayed.verified
                           else _("NOT verified: {problem}", problem=replayed.problem))
                moves = ngettext("{n} move", "{n} moves", len(game.moves or ()))
                bar.write(_("match {match} · {game} · {moves} · {players} · {verdict}",
                            match=game.match, game=title, moves=moves, players=players,
                            verdict=verdict), file=out)
                count += 1
                failed += not replayed.verified
                found = found or show == game.match
                if show == game.match and replayed.states:
                    bar.clear()  # the steps (and their prompt) get the screen to themselves
                    step_through(replayed, Screen(out, use_colour(out), ask is not None), ask)
        except KeyboardInterrupt:
            raise Interrupted(ngettext(
                "Stopped after {n} game, {verified} verified.",
                "Stopped after {n} games, {verified} verified.", count, verified=count - failed,
            )) from None
    if show is not None and not found:
        out.write(_("There is no match {match} in {file}.", match=show, file=file) + "\n")
        return 1
    out.write(ngettext("{n} game, {verified} verified.", "{n} games, {verified} verified.",
                       count, verified=count - failed) + "\n")
    return 1 if failed else 0
