"""The ``deckhand`` command (also ``python -m bot``).

``run`` starts the Discord bot, ``play`` a game in the terminal against computer players,
``simulate`` plays computer-only games and reports results and speed, ``standings`` prints
the offline league, and ``db`` looks after the database.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import games
from bot.services.errors import ServiceError
from bot.settings import Settings
from storage.db import StorageUnavailable

NO_TOKEN = """\
Deckhand needs a Discord bot token to run, and none is set.

  1. Open https://discord.com/developers/applications, create an application,
     open "Bot", press "Reset Token" and copy the token.
  2. Put it in a file named .env in this folder:   DISCORD_TOKEN=your-token-here
     (cp .env.example .env gives you a file with every setting explained.)
  3. Run this command again.

No token? You can play offline right now, in this terminal, against computer players:
  .venv/bin/deckhand play gin_rummy        (games: {games})
"""


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"Options look like name=value, not {pair!r}.")
        out[key.strip()] = value.strip()
    return out


def cmd_run(args: argparse.Namespace) -> int:
    """Start the Discord bot, or explain how to get a token."""
    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(NO_TOKEN.format(games=", ".join(games.names())), file=sys.stderr)
        return 2
    from bot.app import run_bot

    return run_bot(settings)


def cmd_play(args: argparse.Namespace) -> int:
    """Play a game in this terminal against computer players (resumes an unfinished one)."""
    from bot.terminal.app import PlayConfig, play

    game = games.get(args.game).name
    resume = f"deckhand play {game}" + (f" --db {shlex.quote(args.db)}" if args.db else "")
    config = PlayConfig(
        game=game, db=Path(args.db or Settings().db), players=args.players,
        ai=args.ai, seed=args.seed, options=_options(args.option), delay=args.delay,
        resume=resume,
    )
    return play(config)


def cmd_standings(args: argparse.Namespace) -> int:
    """Print the local (offline) league standings."""
    from bot.terminal.standings import show

    return show(Path(args.db or Settings().db), args.game)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play computer-only games and print the results."""
    from bot.simulate import simulate

    levels = [s.strip() for s in args.ai.split(",") if s.strip()]
    game = games.get(args.game)
    counts = (
        [args.players] if args.players
        else list(range(game.min_players, game.max_players + 1)) if args.all_counts
        else [game.min_players]
    )
    for count in counts:
        report = simulate(game.name, args.n, count, levels, args.seed, _options(args.option))
        print("\n".join(report.lines()))
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    """Database maintenance."""
    from bot.services import dbcli

    path = str(args.db or Settings().db)
    if args.db_command == "migrate":
        print(dbcli.migrate(path).text())
    elif args.db_command == "backup":
        print(dbcli.backup(path, args.file))
    elif args.db_command == "tables":
        print(dbcli.list_tables(path).text())
    elif args.db_command == "purge":
        print(dbcli.purge(path, idle_days=args.idle_days, dry_run=args.dry_run).text())
    elif args.db_command == "check":
        report = dbcli.check(path)
        print(report.text())
        return 0 if report.ok else 1
    elif args.db_command == "copy":
        copied = dbcli.copy(args.source, args.target)
        print(copied.text())
        return 0 if copied.ok else 1
    return 0


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(prog="deckhand", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)").set_defaults(
        func=cmd_run
    )

    play = sub.add_parser("play", help="play in this terminal against computer players")
    play.add_argument("game", help=", ".join(games.names()))
    play.add_argument("--players", type=int, help="players, you included (default: the minimum)")
    play.add_argument("--ai", choices=("normal", "random"), default="normal",
                      help="computer players' level (normal)")
    play.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    play.add_argument("--db", help="SQLite file (default: DECKHAND_DB or data/deckhand.db)")
    play.add_argument("-o", "--option", action="append", default=[],
                      help="game option name=value, e.g. target=50 (repeatable)")
    play.add_argument("--delay", type=float, default=0.0,
                      help="seconds to pause before each computer move (0)")
    play.set_defaults(func=cmd_play)

    standings = sub.add_parser("standings", help="the local league standings")
    standings.add_argument("--game", help="one game only (default: every game played)")
    standings.add_argument("--db", help="SQLite file (default: DECKHAND_DB or data/deckhand.db)")
    standings.set_defaults(func=cmd_standings)

    sim = sub.add_parser("simulate", help="play games between computer players")
    sim.add_argument("game", help=", ".join(games.names()))
    sim.add_argument("-n", type=int, default=100, help="number of games (100)")
    sim.add_argument("--players", type=int, help="players per game (default: the minimum)")
    sim.add_argument("--all-counts", action="store_true", help="every allowed player count")
    sim.add_argument("--ai", default="normal,random", help="levels by seat, e.g. normal,random")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
    sim.add_argument("-o", "--option", action="append", default=[], help="name=value")
    sim.set_defaults(func=cmd_simulate)

    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("--db", help="SQLite file or postgresql:// URL"
                    " (default: DECKHAND_DB or data/deckhand.db)")
    dbs = db.add_subparsers(dest="db_command", required=True)
    dbs.add_parser("migrate", help="apply pending migrations")
    backup = dbs.add_parser("backup", help="online backup to a file (pg_dump on PostgreSQL)")
    backup.add_argument("file")
    dbs.add_parser("tables", help="list open tables")
    purge = dbs.add_parser("purge", help="delete stale lobbies (>1 day) and idle games")
    purge.add_argument("--idle-days", type=float, default=7.0, help="idle game limit (7)")
    purge.add_argument("--dry-run", action="store_true", help="only list what would go")
    dbs.add_parser("check", help="replay every game's log against its snapshot")
    copy = dbs.add_parser("copy", help="copy a SQLite database into an empty (PostgreSQL)"
                          " database, then replay every table there")
    copy.add_argument("source", help="the SQLite file (it may be in use)")
    copy.add_argument("target", help="e.g. postgresql://user@host/deckhand")
    db.set_defaults(func=cmd_db)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except (ValueError, KeyError, ServiceError, StorageUnavailable) as exc:
        print(f"deckhand: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `deckhand play … | head`: the reader left; leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
