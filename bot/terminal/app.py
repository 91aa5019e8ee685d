"""The ``deckhand play`` loop: one human seat against computer players, in a terminal.

Decisions:

* Offline tables live in guild ``OFFLINE_GUILD`` (0). The human is user ``LOCAL_USER_ID``
  (1; Discord ids are snowflakes far above it) named after the OS user (or "You").
* Each game has its own channel, ``channel_for(game)`` (a CRC-32 of the game's name, below
  2³², so never a Discord channel id): one unfinished game per game, resumed by running
  the same command again. A lobby left by an interrupted start is aborted and replaced
  (no move was made in it); an unreadable (quarantined) table is aborted — its rows stay
  in the database — and a new game starts.
* Tables have no turn timer. Every move goes through ``TableService.act``, which commits
  before it returns and then plays the computer seats; their steps are printed after
  (``--delay`` paces the printing). Computer moves cut short by an interrupted run are
  played on resume (``TableService.fire_timer``).
* ``hint`` first asks the table service (``TableService.use_hint``, the rule Discord's
  ``/hint`` asks too): the first hint makes the game unrated, which is said before the
  hint is shown. Then it asks the game's ``normal`` computer player (``random`` if it has
  none) with the human seat's own view and legal moves, exactly what ``Game.choose``
  would pass it.
* Finished games are recorded by ``LeagueService.record_match`` in the finishing
  transaction, so they count in the guild-0 default league (``deckhand standings``) —
  unless a hint made them unrated.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import itertools
import random
import secrets
import sys
import time
import zlib
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TextIO, TypeVar

import games
from bot.invocation import typed
from bot.render import GameRenderer, renderer
from bot.render.common import scores, seat_names
from bot.render.markup import Text
from bot.render.steps import event_lines
from bot.services.errors import (
    IllegalMove,
    NoTable,
    ServiceError,
    StaleVersion,
    TableBusy,
    TableQuarantined,
)
from bot.services.leagues import LeagueService
from bot.services.tables import Reminder, SeatPrivate, TableResult, TableService
from bot.services.tables.hints import UNRATED
from bot.terminal import commands
from bot.terminal.screen import Screen, columns, use_colour
from bot.text import MOVE_LENGTH, clip
from bot.wording import option_value
from games.base import Game
from i18n import _, ngettext, number, pgettext
from storage.connect import open_database

OFFLINE_GUILD = 0
LOCAL_USER_ID = 1
HINT_LEVEL = "normal"

T = TypeVar("T")
Ask = Callable[[str], str]


def channel_for(game: str) -> int:
    """The offline channel of a game: stable across runs and versions."""
    return zlib.crc32(f"deckhand-offline:{game}".encode())


def local_name() -> str:
    """The OS user name, or "You"."""
    try:
        name = getpass.getuser().strip()
    except (OSError, KeyError, ImportError):
        return _("You")
    return name or _("You")


@dataclass(frozen=True)
class PlayConfig:
    """What ``deckhand play`` was asked for. ``players``/``options``/``ai``/``seed`` apply to
    new games; ``resume`` is the command that continues the game."""

    game: str
    #: The database: a SQLite path or a ``postgresql://`` URL (``storage.connect``).
    db: str
    players: int | None = None
    ai: str = "normal"
    seed: int | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    resume: str = ""
    #: Set an unfinished game aside (aborted, not counted) and start a new one.
    new: bool = False


def rules_text(game: Game[Any]) -> list[str]:
    """The game's rules (its module docstring) and its table options."""
    lines = game.rules.splitlines()
    if game.options:
        lines += ["", _("Options ({command}):", command=typed("play … -o name=value"))]
        lines += [
            "  " + _("{name}: {help} (default {value})", name=k, help=_(o.help),
                     value=option_value(o.default))
            for k, o in game.options.items()
        ]
    lines += ["", _("Computer players ({command}):", command=typed("play … --ai LEVEL"))]
    lines += [f"  {level}: {game.explain_level(level)}" for level in game.levels]
    return lines


def hint(game: Game[Any], mine: SeatPrivate, version: int) -> str:
    """The move the normal computer player would make, from this seat's view only."""
    bot = game.bot(HINT_LEVEL)
    return bot(dict(mine.view), list(mine.legal), random.Random(version))


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th`` — in English; each language writes its own (``1.``)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("ordinal: 4th, 11th, 12th, 13th, 20th", "{n}th", n=n)
    if n % 10 == 1:
        return pgettext("ordinal: 1st, 21st", "{n}st", n=n)
    if n % 10 == 2:
        return pgettext("ordinal: 2nd, 22nd", "{n}nd", n=n)
    return pgettext("ordinal: 3rd, 23rd", "{n}rd", n=n)


class Session:
    """One terminal player at one offline table, until they quit or stop playing."""

    def __init__(
        self,
        config: PlayConfig,
        service: TableService,
        runner: asyncio.Runner,
        screen: Screen,
        ask: Ask,
    ) -> None:
        self.config = config
        self.game = games.get(config.game)
        self.render: GameRenderer = renderer(self.game.name)
        self.service = service
        self.runner = runner
        self.screen = screen
        self.ask = ask
        self.channel = channel_for(self.game.name)
        self.name = local_name()
        self._heard: list[TableResult] = []
        #: Whether a game is under way (so Ctrl-C leaves a saved game to come back to).
        self.unfinished = False
        service.subscribe(self._hear)

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.runner.run(coro)

    async def _hear(self, event: TableResult | Reminder) -> None:
        """The runtime's listener: the computers' moves, in order."""
        if isinstance(event, TableResult) and event.channel_id == self.channel:
            self._heard.append(event)

    @staticmethod
    async def _unchanged(result: TableResult) -> TableResult:
        return replace(result, steps=())

    async def _with_computers(self, change: Awaitable[TableResult]) -> TableResult:
        """Make ``change``, wait for the computer players to move after it, and return the
        table with every step since (the player's own first, then the computers')."""
        first = await change
        await self.service.settled(self.channel)
        steps = [*first.steps, *(step for r in self._heard for step in r.steps)]
        self._heard.clear()
        now = await self.service.status(self.channel)
        return replace(now, steps=tuple(steps), message=first.message)

    # -- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the player quits or declines another game; the exit status."""
        result = self._call(self._open())
        while True:
            self.unfinished = result.status != "finished"
            self._show_steps(result)
            if result.status == "finished":
                self._show_final(result)
                if not self._again():
                    self.screen.note(_(
                        "Thanks for playing! Your results: {command}",
                        command=typed("standings"),
                    ))
                    return 0
                self.unfinished = True
                result = self._call(
                    self._with_computers(self.service.rematch(self.channel, LOCAL_USER_ID))
                )
                self.screen.note(str(result.message))
                continue
            mine = result.for_user(LOCAL_USER_ID)
            if mine is None:
                self.screen.note(_("You have no seat at this table; it cannot be played here."))
                return 1
            if not mine.legal:
                later = self._call(self._with_computers(self._unchanged(result)))
                if later.version == result.version:
                    self.screen.note(_("The table is waiting for nobody; it cannot go on."))
                    return 1
                result = later
                continue
            self._show_turn(result, mine)
            after = self._prompt(result, mine)
            if after is None:
                self.screen.note(self.saved_message())
                return 0
            result = after

    def saved_message(self) -> str:
        """How to come back to the game."""
        return _(
            "Your game is saved. Run `{resume}` again to continue it.",
            resume=self.config.resume,
        )

    async def _open(self) -> TableResult:
        """The unfinished game of this channel, or a new one."""
        s, ch = self.service, self.channel
        try:
            current: TableResult | None = await s.status(ch)
        except NoTable:
            current = None
        except TableQuarantined:
            self.screen.note(
                _(
                    "Your saved game could not be read. It is set aside (it stays in the "
                    "database) and a new game starts."
                )
            )
            await s.abort(ch, LOCAL_USER_ID, is_admin=True)
            current = None
        if current is not None and current.status == "playing" and self.config.new:
            # Refuse what would refuse the new game before the saved one is set aside.
            s.check_new(OFFLINE_GUILD, LOCAL_USER_ID, self.game.name,
                        dict(self.config.options), turn_timer=0)
            await s.abort(ch, LOCAL_USER_ID, is_admin=True)
            self.screen.note(_(
                "Your unfinished {game} game is set aside (not counted).",
                game=_(current.title),
            ))
            current = None
        if current is not None and current.status == "playing":
            options = " ".join(
                f"{k}={option_value(v)}"
                for k, v in current.options.items()
            )
            self.screen.note(
                _(
                    "Resuming your {game} game at move {move} ({seats} players; {options}).",
                    game=_(current.title),
                    move=current.version + 1,
                    seats=len(current.seats),
                    options=options or _("standard rules"),
                )
            )
            c = self.config
            if c.players is not None or c.options or c.seed is not None:
                self.screen.note(
                    _(
                        "The players, options and seed you gave apply to new games: add --new to "
                        "set this game aside and start one with them."
                    )
                )
            return current
        if current is not None and current.status == "lobby":
            await s.abort(ch, LOCAL_USER_ID, is_admin=True)
        g = self.game
        players = self.config.players or g.min_players
        await s.create(
            ch, OFFLINE_GUILD, LOCAL_USER_ID, self.name, g.name, dict(self.config.options),
            turn_timer=0,
        )
        for _seat in range(players - 1):
            await s.add_bot(ch, LOCAL_USER_ID, self.config.ai)
        started = await self._with_computers(s.start(ch, LOCAL_USER_ID))
        self.screen.note(ngettext(
            "A new {game} game: you ({name}) against {n} computer player ({level})."
            " Type help for help.",
            "A new {game} game: you ({name}) against {n} computer players ({level})."
            " Type help for help.",
            players - 1, game=_(g.title), name=self.name, level=self.config.ai,
        ))
        return started

    # -- showing ------------------------------------------------------------------------
    def _names(self, result: TableResult) -> list[str]:
        return seat_names(result.seats)

    def _show_steps(self, result: TableResult) -> None:
        names = self._names(result)
        for step in result.steps:
            if self.config.delay > 0 and step.by != "player":
                time.sleep(self.config.delay)
            self.screen.lines(event_lines(self.game.name, step.events, names))

    def _table(self, result: TableResult) -> list[Text]:
        assert result.public is not None
        names = self._names(result)
        lines = self.render.table(result.public, names)
        shown = scores(result.public["scores"], names)  # in no table line yet: add one
        if not any(shown in str(line) for line in lines):
            lines.append(_("Scores: {scores}", scores=shown))
        return lines

    def _show_turn(self, result: TableResult, mine: SeatPrivate) -> None:
        self.screen.line()
        self.screen.heading(_(
            "{game} · move {move} · you are {name}",
            game=_(result.title), move=result.version + 1, name=self.name,
        ))
        self.screen.lines(self._table(result))
        self.screen.line()
        self.screen.lines(self.render.hand(mine.view))
        labels = [
            f"{i}) {self.render.action_label(a)}" for i, a in enumerate(mine.legal, start=1)
        ]
        self.screen.lines(columns(labels, min(self.screen.width, 100)))
        if any(a.startswith("bid ") for a in mine.legal):
            self.screen.note(_("A number picks from this list; to bid three, type: bid 3"))

    def _show_final(self, result: TableResult) -> None:
        self.screen.line()
        self.screen.heading(_("{game} · game over", game=_(result.title)))
        self.screen.lines(self._table(result))
        assert result.outcome is not None
        out = result.outcome
        order = sorted(range(len(result.seats)), key=lambda s: (out.ranks[s], s))
        names = seat_names(result.seats)
        width = max(len(name) for name in names)
        self.screen.line(_("Final placings:"))
        self.screen.lines([
            f"  {_ordinal(out.ranks[s]):>4}  {names[s]:<{width}}"
            f"  {number(out.scores[s]):>5}"
            for s in order
        ])
        self.screen.note(
            _(UNRATED) if result.unrated
            else _("The game counts in the local league: {command}",
                   command=typed("standings"))
        )

    # -- asking -------------------------------------------------------------------------
    def _again(self) -> bool:
        try:
            answer = self.ask(_("Play again? [y/N] "))
        except EOFError:
            self.screen.line()
            return False
        return answer.strip().lower() in ("y", "yes")

    def _hint(self, result: TableResult, mine: SeatPrivate) -> None:
        """The normal computer's move and why, once the service allowed a hint (the first
        one makes the game unrated, and says so first)."""
        try:
            unrated_now = self._call(self.service.use_hint(self.channel, LOCAL_USER_ID))
        except ServiceError as exc:
            self.screen.note(clip(str(exc), 200))
            return
        if unrated_now:
            self.screen.note(_(UNRATED))
        best = hint(self.game, mine, result.version)
        number = mine.legal.index(best) + 1
        why = self.game.explain(dict(mine.view), list(mine.legal), best)
        args = {"level": HINT_LEVEL, "number": number, "move": self.render.action_label(best)}
        self.screen.note(
            _("Hint: the {level} computer would pick {number}) {move}: {why}.", why=why, **args)
            if why else _("Hint: the {level} computer would pick {number}) {move}.", **args)
        )

    def _prompt(self, result: TableResult, mine: SeatPrivate) -> TableResult | None:
        """Read until a move is accepted (the new result) or the player quits (None)."""
        n = len(mine.legal)
        example = self.render.action_label(mine.legal[0])
        while True:
            try:
                line = self.ask(_("Your move [1-{n}, or help]: ", n=n))
            except EOFError:
                self.screen.line()
                return None
            typed = commands.parse(line)
            action: str | None = None
            if isinstance(typed, commands.Empty):
                self.screen.note(
                    _(
                        "Type a number from 1 to {n} (1 is {example}), a move as text, or help.",
                        n=n, example=example,
                    )
                )
            elif isinstance(typed, commands.Pick):
                index = commands.pick(typed.number, n)
                if index is None:
                    shown = typed.number or clip(line.strip(), 12)
                    self.screen.note(
                        _("There is no move {shown}: pick 1 to {n}.", shown=shown, n=n))
                else:
                    action = mine.legal[index]
            elif isinstance(typed, commands.Move) and len(typed.text) > MOVE_LENGTH:
                self.screen.note(_("{text} is too long to be a move.", text=clip(typed.text, 24)))
            elif isinstance(typed, commands.Move):
                action = typed.text
            elif typed.word == "quit":
                return None
            elif typed.word == "help":
                self.screen.note(_(commands.HELP))
            elif typed.word == "rules":
                self.screen.page(rules_text(self.game), self.ask)
            else:
                self._hint(result, mine)
            if action is None:
                continue
            try:
                return self._call(self._with_computers(self.service.act(
                    self.channel, LOCAL_USER_ID, action, expected_version=result.version
                )))
            except (TableBusy, StaleVersion):
                self.screen.note(
                    _("This game moved on in another terminal meanwhile; here it is as it is now.")
                )
                return self._call(self.service.status(self.channel))
            except IllegalMove as exc:
                # The engine's reason may quote what was typed: never echo it whole.
                took = (_("{move}: ", move=self.render.action_label(exc.tried)) if exc.tried
                        else "")
                self.screen.note(
                    took + _("{refusal} Type help for how to enter moves.",
                             refusal=clip(str(exc), 200))
                )
            except ServiceError as exc:
                self.screen.note(_("{refusal} Type help for how to enter moves.",
                                   refusal=clip(str(exc), 200)))


def _reader(stdin: TextIO, out: TextIO) -> Ask:
    """``input`` on a terminal (with line editing); otherwise read lines and echo them, so
    a piped session reads like a typed one."""
    if stdin.isatty() and out.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())
        return input

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if not line:
            raise EOFError
        line = line.rstrip("\r\n")
        out.write(line + "\n")
        return line

    return read


def check(config: PlayConfig) -> None:
    """Check the game, the player count, the computer level and the delay (``ValueError``)."""
    g = games.get(config.game)
    if config.players is not None and not g.min_players <= config.players <= g.max_players:
        span = (
            str(g.min_players) if g.min_players == g.max_players
            else f"{g.min_players} to {g.max_players}"
        )
        raise ValueError(_(
            "{title} is for {span} players, not {players}.",
            title=_(g.title), span=span, players=config.players,
        ))
    if config.ai not in g.levels:
        raise ValueError(_(
            "Unknown computer level {ai!r}; levels: {levels}.",
            ai=config.ai, levels=', '.join(g.levels),
        ))
    if config.delay < 0:
        raise ValueError(_("The delay is a number of seconds, 0 or more."))


def play(config: PlayConfig, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run ``deckhand play``; the exit status (0 after quit or a finished game, 130 after
    Ctrl-C, 2 for a request the service refuses)."""
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    check(config)
    screen = Screen(out, use_colour(out), stdin.isatty() and out.isatty())
    seeds: Callable[[], int] = (
        (lambda: secrets.randbits(62)) if config.seed is None
        else itertools.count(config.seed).__next__
    )
    with asyncio.Runner() as runner:
        db = runner.run(open_database(config.db))
        service = TableService(db, new_seed=seeds)
        service.add_match_recorder(LeagueService(db).record_match)
        session = Session(config, service, runner, screen, _reader(stdin, out))
        try:
            return session.run()
        except ServiceError as exc:
            screen.note(f"deckhand: {exc}")
            return 2
        except KeyboardInterrupt:
            screen.line()
            screen.note(_("Stopped.")
                        + (f" {session.saved_message()}" if session.unfinished else ""))
            return 130
        finally:
            runner.run(service.close())
            runner.run(db.close())
