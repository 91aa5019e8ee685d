"""``deckhand export`` and ``deckhand replay FILE``: finished games out as JSON lines, and
back in — each replayed by the engine and checked, one game stepped through on request.

``replay`` reads its file one line at a time (a game is replayed and forgotten before the
next is read), refuses a line over ``LINE_LIMIT`` (no export line is longer than the
8 MiB a Discord export may be; ``/dev/zero`` is refused at once) and a line that is not
UTF-8 text. It checks every field of each game the engines can vouch for
(``exports.replay``) and prints each one that differs on a line of its own, naming the
match and where (the seat, the move). A file with no game in it (an empty one) is
refused, and so is a named pipe that nothing writes to within ``WRITER_WAIT`` seconds
(opening it would wait for a writer for ever).

``--show`` shows each step as the table message showed it (``bot.render.steps``: the
move under a heading, what it made happen, the public table), in the terminal's own
emphasis (bold and red suits on a terminal, plain words when piped). On a terminal it
waits after each step — Enter for the next, ``b`` to go back, ``q`` to stop; piped (or
without a terminal to answer) it prints every step, one heading each, for reading or
grepping.
"""

from __future__ import annotations

import io
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import games
from bot.progress import Interrupted, progress
from bot.render.steps import Shown, shown
from bot.services import exports
from bot.services.dbcli import run_on
from bot.services.errors import ServiceError
from bot.terminal.lines import fitted, say
from bot.terminal.screen import Screen, use_colour
from bot.text import clip
from i18n import N_, _, ngettext, number
from storage import leagues as league_repo
from storage.db import Database

#: The longest line ``replay`` reads.
LINE_LIMIT = 8 * 1024 * 1024
#: Seconds ``replay`` waits for something to write to a named pipe it was given.
WRITER_WAIT = 1.0


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


class _Prefixed(io.RawIOBase):
    """``first``, then the rest of the file ``fd`` (a pipe's first bytes, read to learn
    whether anyone writes to it)."""

    def __init__(self, first: bytes, fd: int) -> None:
        self.first, self.fd = first, fd

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.first:
            n = min(len(buffer), len(self.first))
            buffer[:n], self.first = self.first[:n], self.first[n:]
            return n
        return os.readv(self.fd, [buffer])

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def _pipe(file: Path) -> BinaryIO:
    """A named pipe, once something writes to it (``WRITER_WAIT`` seconds at most: a pipe
    nobody writes to would make ``open`` wait for ever)."""
    fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
    end = time.monotonic() + WRITER_WAIT
    first = b""
    while True:
        try:
            first = os.read(fd, 65536)
        except BlockingIOError:  # a writer is there, with nothing written yet
            break
        if first:
            break
        if time.monotonic() > end:  # no writer (or one that wrote nothing and left)
            os.close(fd)
            raise ServiceError(_(
                "{file} is a pipe that nothing writes to: start the program that writes the"
                " export into it first.", file=file,
            ))
        time.sleep(0.05)
    os.set_blocking(fd, True)
    return io.BufferedReader(_Prefixed(first, fd))


def _export_file(file: Path) -> tuple[BinaryIO, int | None]:
    """The export at ``file``, opened, and its size when known."""
    kind = file.stat().st_mode
    if stat.S_ISFIFO(kind):
        return _pipe(file), None
    data = file.open("rb")
    return data, (file.stat().st_size or None) if stat.S_ISREG(kind) else None


def _summary(game: exports.ExportedGame) -> str:
    """A game's line: its number, game, moves, and the seats by rank with their scores."""
    title = _(games.get(game.game).title) if game.game in games.names() else game.game
    by_rank = sorted(game.seats, key=lambda s: (s.rank, s.seat))
    players = " · ".join(f"{s.rank}. {s.name} {number(s.score)}" for s in by_rank)
    moves = ngettext("{n} move", "{n} moves", len(game.moves or ()))
    return _("match {match} · {game} · {moves} · {players}", match=game.match, game=title,
             moves=moves, players=players)


def replay(file: Path, out: TextIO, show: int | None = None, ask: Ask | None = None) -> int:
    """Replay every game of an export (exit status 1 if any does not verify: each field
    that differs is named, with where); with ``show``, step through that match's public
    table move by move (waiting for ``ask`` after each step, when given: a person at a
    terminal). A file with no game in it, or a pipe nothing writes to, is refused."""
    count = failed = 0
    found = False
    data, size = _export_file(file)
    with data, progress(size, "B", _("Replaying")) as bar:
        try:
            for game in _games(data, bar.update):
                replayed = exports.replay(game)
                verdict = _("verified") if replayed.verified else _("NOT verified:")
                bar.write(fitted(f"{_summary(game)} · {verdict}", out), file=out)
                for problem in replayed.problems:
                    bar.write(fitted("  " + _("match {match}, {problem}", match=game.match,
                                             problem=problem), out), file=out)
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
    if not count:
        raise ServiceError(_("{file} holds no game: it is empty, not an export.", file=file))
    if show is not None and not found:
        raise ServiceError(_("There is no match {match} in {file}.", match=show, file=file))
    say(ngettext("{n} game, {verified} verified.", "{n} games, {verified} verified.",
                 count, verified=count - failed), out)
    return 1 if failed else 0
