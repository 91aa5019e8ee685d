"""The ``deckhand`` command (also ``python -m bot``).

``run`` starts the Discord bot, ``play`` a game in the terminal against computer players,
``simulate`` plays computer-only games and reports results and speed, ``standings`` prints
the offline league, ``web`` serves the published leagues' standings page, ``db``
looks after the database, ``export`` writes finished games as JSON lines, ``replay``
reads them back and ``art`` draws the sample pictures.

Every command that uses the database takes it from ``--db`` or ``DECKHAND_DB``
(``where``) and opens it through ``storage.connect.open_database``. One convention for
every command (``bot.failures``): a failure goes through one boundary (``main``) and is
one line on standard error, after the command as it was typed (``.venv/bin/deckhand db
purge: …``; argparse's own errors too), with exit status 2 for what cannot be used, 1 for
a check that found problems or a "no", 130 after Ctrl-C. Everything written to a
terminal is cut between words at its edge (``bot.terminal.lines``); argparse's texts are
in the run's language too (``i18n.library``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn

import games
from bot.failures import Declined, explain, output, output_folder
from bot.invocation import command
from bot.progress import Interrupted
from bot.services.errors import ServiceError
from bot.settings import load_settings
from bot.terminal.commands import yes
from bot.terminal.lines import say
from bot.text import clip
from i18n import N_, SOURCE, _, decimal, from_environment, languages, match, ngettext, speaking
from i18n import number as written
from i18n.library import library_texts
from storage.connect import shown

if TYPE_CHECKING:
    from bot.services.dbcli import PurgeReport

SUMMARY = N_("Deckhand: card games on Discord, and in this terminal.")

NO_TOKEN = N_("""\
Deckhand needs a Discord bot token to run, and none is set.

  1. Open https://discord.com/developers/applications, create an application,
     open "Bot", press "Reset Token" and copy the token.
  2. Put it in a file named .env in this folder:   DISCORD_TOKEN=your-token-here
     (cp .env.example .env gives you a file with every setting explained.)
  3. Run this command again.

No token? You can play offline right now, in this terminal, against computer players:
  {command} play gin_rummy        (games: {games})
""")


def option(pair: str) -> tuple[str, str]:
    """An argparse ``type=`` for ``-o name=value``."""
    key, sep, value = pair.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(
            _("options look like name=value, not {pair!r}", pair=clip(pair, 24)))
    return key.strip(), value.strip()


def level_list(text: str) -> list[str]:
    """An argparse ``type=`` for ``simulate --ai``: computer levels, comma-separated."""
    levels = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [level for level in levels if level not in games.levels()]
    if not levels or unknown:
        raise argparse.ArgumentTypeError(_(
            "give computer levels separated by commas, e.g. normal,random (levels: {levels})",
            levels=", ".join(games.levels()),
        ))
    return levels


def where(args: argparse.Namespace) -> str:
    """The database the command was given: ``--db``, else ``DECKHAND_DB`` (or its default)."""
    given = getattr(args, "db", None)
    return str(given) if given else str(load_settings().db)


def cmd_run(args: argparse.Namespace) -> int:
    """Start the Discord bot, or explain how to get a token."""
    settings = load_settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        say(_(NO_TOKEN, command=command(), games=", ".join(games.names())), sys.stderr)
        return 2
    from bot.app import run_bot

    return run_bot(settings)


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check the bot's set-up on the real Discord, one line per check (``bot.doctor``)."""
    from bot.doctor import run

    return run(load_settings(), args.channel, args.post)


def cmd_play(args: argparse.Namespace) -> int:
    """Play a game in this terminal against computer players (resumes an unfinished one)."""
    from bot.terminal.app import PlayConfig, play

    game = games.get(args.game).name
    resume = f"{command()} play {game}" + (f" --db {shlex.quote(args.db)}" if args.db else "")
    config = PlayConfig(
        game=game, db=where(args), players=args.players,
        ai=args.ai, seed=args.seed, options=dict(args.option), delay=args.delay,
        resume=resume, new=args.new, hints=args.hints,
    )
    return play(config)


def cmd_standings(args: argparse.Namespace) -> int:
    """Print the local (offline) league standings."""
    from bot.terminal.standings import show

    return show(where(args), args.game)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play computer-only games and print the results."""
    from bot.simulate import simulate

    game = games.get(args.game)
    counts = (
        [args.players] if args.players
        else list(range(game.min_players, game.max_players + 1)) if args.all_counts
        else [game.min_players]
    )
    for count in counts:
        report = simulate(game.name, args.n, count, args.ai, args.seed, dict(args.option))
        say("\n".join(report.lines()))
        if report.stopped:
            return 130
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    """Serve the read-only standings site of the published leagues."""
    from bot.web.limits import Proxies
    from bot.web.server import serve

    settings = load_settings()
    return serve(where(args), args.host, args.port, settings.log_level,
                 Proxies(settings.web_proxies))


def cmd_db(args: argparse.Namespace) -> int:
    """Database maintenance."""
    from bot.services import dbcli

    if args.db_command == "copy":
        copied = dbcli.copy(args.source, args.target)
        say(copied.text())
        return 0 if copied.ok else 1
    path = where(args)
    if args.db_command == "migrate":
        say(dbcli.migrate(path).text())
    elif args.db_command == "backup":
        say(dbcli.backup(path, args.file, confirm=_replace(args.yes)))
    elif args.db_command == "tables":
        say(dbcli.list_tables(path).text())
    elif args.db_command == "purge":
        purged = dbcli.purge(path, idle_days=args.idle_days, dry_run=args.dry_run,
                             confirm=None if args.yes else _confirm_purge)
        say("\n".join([*(purged.listing() if args.dry_run else []), purged.text()]))
    elif args.db_command == "check":
        report = dbcli.check(path)
        say(report.text())
        return 0 if report.ok else 1
    return 0


def _asked(question: str, refusal: str, declined: str) -> None:
    """Ask ``question`` on a terminal (``Declined`` with ``declined`` for anything but
    yes); with nobody to ask (standard input is not a terminal), refuse with ``refusal``
    — a script says ``--yes``."""
    if not sys.stdin.isatty():
        raise ServiceError(refusal)
    if not yes(input, question):
        raise Declined(declined)


def _confirm_purge(plan: PurgeReport) -> None:
    """Show what ``db purge`` would delete, then ask."""
    what = ngettext("{n} table", "{n} tables", len(plan.tables))
    if sys.stdin.isatty():
        say("\n".join(plan.listing()))
    _asked(
        _("Delete these {what} for good? [y/N] ", what=what),
        _("db purge would delete {what} for good, and there is no terminal to ask: add"
          " --yes to delete them, or --dry-run to list them.", what=what),
        _("Nothing was deleted."),
    )


def _replace(given: bool) -> Callable[[Path], None] | None:
    """``db backup``'s question before it replaces an existing file (none with --yes)."""

    def confirm(target: Path) -> None:
        _asked(
            _("{file} exists: replace it with this backup? [y/N] ", file=target),
            _("{file} exists, and there is no terminal to ask: add --yes to replace it, or"
              " give another name.", file=target),
            _("Nothing was written; {file} is as it was.", file=target),
        )

    return None if given else confirm


def cmd_export(args: argparse.Namespace) -> int:
    """Write finished games as JSON lines."""
    from bot.terminal.replay import export

    db = where(args)
    if args.out in (None, "-"):
        count = export(db, sys.stdout, args.guild, args.league)
    else:
        with output(Path(args.out)).open("w", encoding="utf-8") as out:
            count = export(db, out, args.guild, args.league)
    say(ngettext("{n} game exported from {database}.", "{n} games exported from {database}.",
                 count, database=shown(db)), sys.stderr)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay an export and check every game (``--show`` waits after each step when a
    person is at a terminal)."""
    from bot.terminal.replay import replay

    person = sys.stdin.isatty() and sys.stdout.isatty()
    return replay(Path(args.file), sys.stdout, args.show, input if person else None)


def cmd_art(args: argparse.Namespace) -> int:
    """Write the card sheets and each game's hand-end picture (seeded games)."""
    from bot.art.samples import write

    for path in write(output_folder(Path(args.folder))):
        say(str(path))
    return 0


#: What stands for each option's value in ``--help`` and argparse's errors, by the option's
#: ``dest``: option names are typed and stay English, these are read, in the run's language.
PLACEHOLDERS: Final = {
    "lang": N_("LANG"), "channel": N_("ID"), "guild": N_("ID"), "game": N_("GAME"),
    "players": N_("N"), "n": N_("N"), "seed": N_("SEED"), "db": N_("DATABASE"),
    "option": N_("NAME=VALUE"), "delay": N_("SECONDS"), "ai": N_("LEVELS"),
    "host": N_("ADDRESS"), "port": N_("PORT"), "file": N_("FILE"), "out": N_("FILE"),
    "idle_days": N_("DAYS"), "source": N_("SOURCE"), "target": N_("TARGET"),
    "league": N_("NAME"), "folder": N_("FOLDER"), "show": N_("MATCH"),
}


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line on standard error, after the
    command as typed (exit status 2), and shows each value's placeholder in the run's
    language (``PLACEHOLDERS``; a list of choices is shown as typed)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if action.dest in PLACEHOLDERS and action.metavar is None and action.choices is None:
            action.metavar = _(PLACEHOLDERS[action.dest])
        return action

    def error(self, message: str) -> NoReturn:
        say(f"{self.prog}: " + _("{message} (see {command} --help)", message=message,
                                 command=self.prog), sys.stderr)
        self.exit(2)


def _shown(x: float) -> str:
    """A bound as the run's language writes it (``65,535``; ``65.535`` in Icelandic)."""
    return written(int(x)) if float(x).is_integer() else decimal(x)


def number(kind: type[int] | type[float], low: float, high: float) -> Callable[[str], Any]:
    """An argparse ``type=`` accepting ``kind`` values from ``low`` to ``high``."""

    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text!r} is not a number", text=text[:20])
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _(
                    "{text} is out of range ({low} to {high})",
                    text=clip(text.strip(), 24), low=_shown(low), high=_shown(high),
                )
            )
        return value

    read.__name__ = kind.__name__
    return read


def _command(
    sub: Any, name: str, summary: str, example: str, **kwargs: Any
) -> argparse.ArgumentParser:
    parents = [*kwargs.pop("parents", []), _language_option()]
    made: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=summary[0].upper() + summary[1:] + ".",
        epilog=_("example:") + f"\n  {command()} {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=parents, **kwargs,
    )
    made.set_defaults(prog=made.prog)  # the deepest subcommand's is the one kept
    return made


def _language_option() -> argparse.ArgumentParser:
    """``--lang``, before or after the command's name (read before anything else is, so
    every message of the run — help included — is in that language: ``language``)."""
    lang = Parser(add_help=False)
    lang.add_argument(
        "--lang", default=argparse.SUPPRESS,
        help=_("the language of every message: {languages} (default: LANGUAGE, LC_ALL,"
               " LC_MESSAGES or LANG, else English)", languages=", ".join(languages())),
    )
    return lang


def language(argv: Sequence[str] | None, environ: Mapping[str, str] = os.environ) -> str:
    """The language a run speaks: ``--lang``, else the terminal's locale variables (as
    gettext reads them) when Deckhand has that language, else English. ``ValueError``
    for a ``--lang`` Deckhand does not speak."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang")
    given = pre.parse_known_args(argv)[0].lang
    if given is None:
        return from_environment(environ) or SOURCE
    found = match(given)
    if found is None:
        raise ValueError(_("Deckhand speaks {languages}, not {given!r}.",
                           languages=", ".join(languages()), given=clip(given)))
    return found


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = Parser(prog=command(), description=_(SUMMARY), parents=[_language_option()])
    p.set_defaults(prog=p.prog)
    sub = p.add_subparsers(dest="command", required=True)
    game_names = ", ".join(games.names())
    db_help = (
        _(
            "SQLite file or postgresql:// URL (default: DECKHAND_DB, else data/deckhand.db in "
            "the current folder)"
        )
    )

    _command(
        sub, "run", _("run the Discord bot (needs DISCORD_TOKEN in .env)"),
        "run",
    ).set_defaults(func=cmd_run)

    doctor = _command(
        sub, "doctor", _("check the bot's set-up on Discord: token, intents, commands, install,"
                         " emoji slots, a channel's permissions"),
        "doctor --channel 123456789012345678 --post",
    )
    doctor.add_argument("--channel", type=number(int, 1, 2**63 - 1),
                        help=_("a channel id: check every permission Deckhand needs there"))
    doctor.add_argument("--post", action="store_true",
                        help=_("open and close a test table in --channel, and DM the owner"))
    doctor.set_defaults(func=cmd_doctor)

    play = _command(
        sub, "play", _("play in this terminal against computer players"),
        "play spades -o target=200",
    )
    play.add_argument("game", help=game_names)
    play.add_argument("--players", type=number(int, 2, 6),
                      help=_("players, you included (default: the minimum)"))
    play.add_argument("--ai", choices=games.levels(),
                      help=_("computer players' level (normal; expert searches)"))
    play.add_argument("--seed", type=number(int, 0, 2**62),
                      help=_("seed of the deal (default: random)"))
    play.add_argument("--db", help=db_help)
    play.add_argument("-o", "--option", action="append", default=[], type=option,
                      help=_("game option name=value, e.g. target=50 (repeatable)"))
    play.add_argument("--delay", type=number(float, 0, 10), default=0.0,
                      help=_("seconds to pause before each computer move (0)"))
    play.add_argument("--new", action="store_true",
                      help=_("abandon an unfinished game and start a new one"))
    play.add_argument("--hints", action="store_true",
                      help=_("a practice game: hint works, and the game counts toward no"
                             " standings"))
    play.set_defaults(func=cmd_play)

    standings = _command(
        sub, "standings", _("the local (offline) league standings"),
        "standings --game ono99",
    )
    standings.add_argument("--game", help=_("one game only (default: every game played)"))
    standings.add_argument("--db", help=db_help)
    standings.set_defaults(func=cmd_standings)

    sim = _command(
        sub, "simulate", _("play games between computer players and report results and speed"),
        "simulate craits -n 200 --all-counts",
    )
    sim.add_argument("game", help=game_names)
    sim.add_argument("-n", type=number(int, 1, 1_000_000), default=100,
                     help=_("number of games, 1 to 1,000,000 (100)"))
    sim.add_argument("--players", type=number(int, 2, 6),
                     help=_("players per game (default: the minimum)"))
    sim.add_argument("--all-counts", action="store_true", help=_("every allowed player count"))
    sim.add_argument("--ai", default=["normal", "random"], type=level_list,
                     help=_("levels by seat, e.g. normal,random"))
    sim.add_argument("--seed", type=number(int, 0, 2**62), default=0,
                     help=_("seed of the first game (0)"))
    sim.add_argument("-o", "--option", action="append", default=[], type=option,
                     help=_("game option name=value, e.g. target=50 (repeatable)"))
    sim.set_defaults(func=cmd_simulate)

    web = _command(
        sub, "web", _("serve the standings web page of the leagues an admin published (read-only)"),
        "web --port 8080",
    )
    web.add_argument("--host", default="127.0.0.1",
                     help=_("address to listen on (127.0.0.1; 0.0.0.0 behind a proxy)"))
    web.add_argument("--port", type=number(int, 1, 65535), default=8080,
                     help=_("port, 1 to 65,535 (8080)"))
    web.add_argument("--db", help=db_help)
    web.set_defaults(func=cmd_web)

    # --db is accepted before or after the db subcommand.
    where = Parser(add_help=False)
    where.add_argument("--db", default=argparse.SUPPRESS, help=db_help)
    db = _command(
        sub, "db", _("database upkeep: migrate, backup, tables, check, purge, copy"),
        "db check --db data/deckhand.db", parents=[where],
    )
    dbs = db.add_subparsers(dest="db_command", required=True)
    _command(dbs, "migrate", _("apply pending migrations"), "db migrate",
             parents=[where])
    backup = _command(
        dbs, "backup", _("online backup to a file (pg_dump on PostgreSQL)"),
        "db backup backups/deckhand-monday.db", parents=[where],
    )
    backup.add_argument("file", help=_("the file to write, in a folder that exists"))
    backup.add_argument("--yes", action="store_true",
                        help=_("replace an existing file without asking (for scripts)"))
    _command(dbs, "tables", _("list open tables"), "db tables", parents=[where])
    purge = _command(
        dbs, "purge", _("delete stale lobbies (over a day old) and idle games, after asking"),
        "db purge --idle-days 14 --dry-run", parents=[where],
    )
    purge.add_argument("--idle-days", type=number(float, 1, 36500), default=7.0,
                       help=_("delete games nobody has moved for this many days, whose turn"
                              " timer has run out (7; at least 1)"))
    purge.add_argument("--dry-run", action="store_true", help=_("only list what would go"))
    purge.add_argument("--yes", action="store_true",
                       help=_("delete without asking (for scripts; piped, it asks nobody and"
                              " refuses without it)"))
    _command(
        dbs, "check", _("check the database's integrity and replay every game's log"),
        "db check", parents=[where],
    )
    copy = _command(
        dbs, "copy", _(
            "copy a SQLite database into an empty (PostgreSQL) database, then replay every table "
            "there"
        ),
        "db copy data/deckhand.db postgresql://deckhand@localhost/deckhand",
    )
    copy.add_argument("source", help=_("the SQLite file (it may be in use)"))
    copy.add_argument("target", help=_("e.g. postgresql://user@host/deckhand"))
    db.set_defaults(func=cmd_db)

    exp = _command(
        sub, "export", _("write finished games as JSON lines (schema: docs/export.md)"),
        "export --guild 123456789012345678 --league Friday --out friday.jsonl",
    )
    exp.add_argument("--guild", type=number(int, 0, 2**63 - 1), default=0,
                     help=_("the Discord server's id (default 0: games played offline)"))
    exp.add_argument("--league", help=_("only the games that counted toward this league"))
    exp.add_argument("--out", help=_("the file to write, in a folder that exists (default:"
                                     " standard output)"))
    exp.add_argument("--db", help=db_help)
    exp.set_defaults(func=cmd_export)

    rep = _command(
        sub, "replay", _("replay an export with the engines and check every game's moves,"
                         " scores and ranks"),
        "replay friday.jsonl --show 42",
    )
    rep.add_argument("file", help=_("a file written by export (or /league export)"))
    rep.add_argument("--show", type=number(int, 1, 2**63 - 1),
                     help=_("step through this match's public table, move by move"))
    rep.set_defaults(func=cmd_replay)

    art = _command(
        sub, "art", _(
            "draw sample pictures: the card faces in both palettes and each game's hand-end "
            "picture from a seeded game"
        ),
        "art --out docs/images",
    )
    art.add_argument("--out", dest="folder", default="docs/images",
                     help=_("the folder to write into, which must exist (docs/images)"))
    art.set_defaults(func=cmd_art)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run the command, and say any failure in one line (``fail``),
    all in the run's language (``language``), argparse's texts included."""
    try:
        lang = language(argv)
    except ValueError as exc:
        return fail(command(), exc)
    with speaking(lang), library_texts(lang):
        return _run(argv)


def fail(prefix: str, exc: BaseException) -> int:
    """Say why the command ``prefix`` (as typed) stopped, in one line on standard error;
    the exit status (``bot.failures``)."""
    status, line = explain(exc)
    say(f"{prefix}: {line}", sys.stderr)
    return status


def _run(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return fail(args.prog, Interrupted(_("Stopped.")))
    except BrokenPipeError:  # e.g. `deckhand play … | head`: the reader left; leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        return fail(args.prog, exc)
    return code


if __name__ == "__main__":
    sys.exit(main())
