"""A real SQLite database filled by real games through the table and league services, for
the site's tests: a published league with finished games of every kind, an unpublished
league, a game still running whose hands the site must never show, and events (Swiss,
round robin, duplicate; running, finished, taking sign-ups) of the published league, of
the unpublished one and of no league."""

from __future__ import annotations

import asyncio
import html
import itertools
import random
from dataclasses import dataclass
from pathlib import Path

import games
from bot.render.common import cards as text_cards
from bot.services import publication
from bot.services.events.duplicate import DUPLICATE_GAMES
from bot.services.events.service import EventService, EventStandings
from bot.services.leagues import LeagueService
from bot.services.publication import Slugs
from bot.services.tables import TableService
from bot.web import paths
from bot.web.pages import cards
from storage.connect import open_database
from storage.db import Database

GUILD = 5_550_001
#: Discord-like ids (none of them may ever appear on a page).
ANN, BEN, CY, DEE = 398475029384756101, 398475029384756102, 398475029384756103, 398475029384756104
EVE = 398475029384756105  # plays in events only
USERS = (ANN, BEN, CY, DEE, EVE)
NAMES = {ANN: "Ann", BEN: "Ben", CY: "Cy", DEE: "Dee", EVE: "Eve"}
#: The names of the escaping test's world: Dee's is markup, which no page may render (the
#: screenshots come from a world of plain names).
HOSTILE_NAMES = {**NAMES, DEE: 'Dee <b>&"'}
#: (game, options, players) of the published league's finished games.
FINISHED: list[tuple[str, dict[str, object], list[int | str]]] = [
    ("gin_rummy", {"target": 10}, [ANN, BEN]),
    ("gin_rummy", {"target": 10}, [BEN, CY]),
    ("gin_rummy", {"target": 10}, [ANN, CY]),
    ("gin_rummy", {"target": 10}, [CY, DEE]),
    ("spades", {"target": 100}, [ANN, DEE]),
    ("back_alley", {"deals": 2}, [ANN, BEN, CY, DEE]),
    ("ono99", {}, [BEN, "normal"]),
    ("craits", {"short": True}, [DEE, ANN]),
]
#: The secret league's finished game (a match id, but not of the published league).
SECRET_MATCH = len(FINISHED) + 1
#: name -> (game, format, rounds, players, league ("club", "secret" or None), tables
#: recorded (None: not started), match ids given to the first recorded tables).
EVENTS: dict[str, tuple[str, str, int, list[int], str | None, int | None, list[int]]] = {
    "Autumn Swiss": ("gin_rummy", "swiss", 3, [ANN, BEN, CY, DEE, EVE], "club", 5,
                     [1, SECRET_MATCH]),
    "Spades Round Robin": ("spades", "round_robin", 3, [ANN, BEN, CY, DEE], "club", 6, [5]),
    "Duplicate Night": ("gin_rummy", "duplicate", 2, [ANN, BEN, CY, DEE, EVE], "club", 8,
                        [2]),
    "Duplicate Half": ("gin_rummy", "duplicate", 1, [ANN, BEN, CY, DEE], "club", 1, [3]),
    "Back Alley Pairs": ("back_alley", "swiss", 2, [ANN, BEN, CY, DEE], "club", 1, [6]),
    "Winter Swiss": ("gin_rummy", "swiss", 3, [BEN, CY], "club", None, []),
    "Hidden Cup": ("gin_rummy", "swiss", 1, [ANN, DEE], "secret", 1, [SECRET_MATCH]),
    "Loose Event": ("spades", "swiss", 1, [BEN, CY], None, 1, []),
}


@dataclass(frozen=True)
class World:
    """What the tests need to know about the database they got."""

    path: Path
    slugs: Slugs
    club: int
    secret: int
    default: int
    running_hands: tuple[tuple[str, ...], ...]
    running_names: tuple[str, ...]
    events: dict[str, int]

    def running_markup(self) -> list[str]:
        """How the site would draw the running game's hands, if it ever did: as card
        chips, or in a renderer's words (escaped as a page has them)."""
        return [
            shown for hand in self.running_hands if hand
            for shown in (str(cards(hand)), html.escape(text_cards(hand), quote=False))
        ]


async def play(service: TableService, channel: int, rng: random.Random, moves: int) -> None:
    """Humans play the ``normal`` computer's move from their own view, ``moves`` times
    (or to the end); computers move on their own in between."""
    for _ in range(moves):
        await service.settled(channel)
        r = await service.status(channel)
        if r.status != "playing":
            return
        seat = r.to_act[0]
        mine = r.private[seat]
        action = games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)
        await service.act(channel, mine.user_id, action, r.version)


async def open_table(
    service: TableService, channel: int, game: str, options: dict[str, object],
    players: list[int | str], league_id: int, names: dict[int, str],
) -> None:
    host = players[0]
    assert isinstance(host, int)
    await service.create(channel, GUILD, host, names[host], game, options, turn_timer=0,
                         league_id=league_id)
    for p in players[1:]:
        if isinstance(p, str):
            await service.add_bot(channel, host, p)
        else:
            await service.join(channel, p, names[p])
    await service.start(channel, host)


async def hold_events(
    db: Database, leagues: dict[str, int], names: dict[int, str]
) -> dict[str, int]:
    """``EVENTS`` through the real event service, with made-up table scores; their ids."""
    service = EventService(db, clock=lambda: 1_700_000_000.0, new_secret=lambda: bytes(range(16)))
    rng = random.Random(5)
    ids = {}
    for name, (game, format, rounds, players, league, recorded, matches) in EVENTS.items():
        event = await service.create(
            GUILD, 900, ANN, is_admin=True, name=name, game=game, format=format,
            rounds=rounds, league_id=leagues[league] if league else None,
        )
        ids[name] = event.id
        for user in players:
            await service.join(GUILD, event.id, user, names[user])
        if recorded is None:
            continue
        await service.start(GUILD, event.id, ANN, is_admin=True)
        teams = games.get(game).teams(DUPLICATE_GAMES[game])  # partners share a score
        for n in range(recorded):
            t = next(t for t in await service.tables(event.id) if not t.played)
            team_scores = [rng.randrange(0, 40) for _ in range(2)]
            await service.record(
                event.id, (t.round, t.table_no, t.board), [team_scores[x] for x in teams],
                match_id=matches[n] if n < len(matches) else None,
            )
    return ids


async def fill(path: Path, names: dict[int, str] = NAMES) -> World:
    """Fill a new database at ``path`` with real games between players called ``names``
    (within a running event loop)."""
    db = await open_database(path)
    seeds = itertools.count(11)
    service = TableService(db, new_seed=lambda: next(seeds))
    leagues = LeagueService(db)
    service.add_match_recorder(leagues.record_match)
    rng = random.Random(3)
    try:
        club = await leagues.create_league(GUILD, "Friday Club", is_admin=True,
                                           provisional_games=2)
        secret = await leagues.create_league(GUILD, "Secret", is_admin=True)
        channels = itertools.count(100)
        for game, options, players in FINISHED:
            channel = next(channels)
            await open_table(service, channel, game, options, players, club.id, names)
            await play(service, channel, rng, 100_000)
            assert (await service.status(channel)).status == "finished"
        channel = next(channels)
        await open_table(service, channel, "gin_rummy", {"target": 10}, [ANN, DEE], secret.id,
                         names)
        await play(service, channel, rng, 100_000)
        running = next(channels)
        await open_table(service, running, "gin_rummy", {}, [BEN, DEE], club.id, names)
        await play(service, running, rng, 5)
        r = await service.status(running)
        assert r.status == "playing"
        hands = tuple(tuple(p.view["hand"]) for p in sorted(r.private.values(),
                                                             key=lambda p: p.seat))
        default = await leagues.league(GUILD)
        await publication.set_published(db, club, True, is_admin=True)
        await publication.set_published(db, secret, True, is_admin=True)
        await publication.set_published(db, secret, False, is_admin=True)
        slugs = await publication.slugs(db)
        assert slugs is not None
        events = await hold_events(db, {"club": club.id, "secret": secret.id}, names)
        return World(path, slugs, club.id, secret.id, default.id, hands,
                     tuple(str(s.name) for s in r.seats), events)
    finally:
        await service.close()
        await db.close()


def build(path: Path, names: dict[int, str] = NAMES) -> World:
    """Fill a new database at ``path`` (a few seconds of real games)."""
    return asyncio.run(fill(path, names))


def standing_cells(st: EventStandings) -> list[list[str]]:
    """The cells an event page's standings table should hold, row by row."""
    dup = st.event.format == "duplicate"
    return [
        [str(r.rank), " & ".join(str(n) for n in r.names),
         *(f"{x:g}" for x in ((r.points,) if dup else (r.points, r.buchholz, r.sonneborn_berger))),
         str(r.played), str(r.byes)]
        for r in st.rows
    ]


def start_links(w: World) -> list[str]:
    """Where a crawl of the site starts."""
    return ["/", paths.guild(w.slugs, GUILD), paths.league(w.slugs, w.club)]
