"""Every surface Deckhand renders outside the Discord edge, in one language: the table
message (lobby, every move, finished), every seat's hand with its move components, the
rules, a hint, an event's messages, a replay, the rules document and each hand-end
picture's words. The tests render them in each catalog (Discord's limits) and in the
pseudo-language (nothing left in plain English)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

import games
from bot.art import draw, hand_end
from bot.docs import rules_markdown
from bot.render.events import round_announcement, signup_message, standings_text
from bot.render.hand import hand_message
from bot.render.hint import hint_text
from bot.render.messages import Button, MessageSpec
from bot.render.replay import replay_message
from bot.render.rules import rules_message, rules_pages
from bot.render.table import lobby_message, table_message
from bot.services.events.pairing import Standing
from bot.services.events.service import COMPUTER, EventStandings
from bot.services.tables import TableStatus
from games.rng import rng_for
from games.search import Advice, Ranking
from i18n import Message, lazy_gettext
from tests.discord.test_event_messages import MEMBERS, event, tables
from tests.discord.test_messages import GAMES, NAMES, play
from tests.discord.test_replay_message import _replay, names_of

#: The edge's league line (``bot.ui``: not rendered here), as a translation would be.
LEAGUE_LINE = "Ŕåţîñğš: Alice 1000 (+3)"
#: A hint's reason as the engine gives it (``Game.explain``, in the language spoken).
REASON = "å ŕéåšöñ"
#: Names as players chose them (data, never translated).
EVENT_NAMES = {1: "Ann", 2: "Ben", 3: "Cy", COMPUTER: "Computer (normal)"}


def messages() -> Iterator[tuple[str, MessageSpec]]:
    """``(where, message)`` for every Discord message rendered outside the edge, in the
    language spoken while iterating."""
    for name, players, seed, options in GAMES:
        first = True
        for m in play(name, players, seed, options):
            if first:
                lobby = replace(m.result, status=TableStatus.LOBBY, seats=m.result.seats[:1])
                note = lazy_gettext("{name} opened a {game} table.", name="Alice",
                                    game=Message(games.get(name).title))
                yield f"{name} lobby", lobby_message(lobby, note=note)
                first = False
            yield f"{name} table", table_message(
                m.result, m.events, league_line=LEAGUE_LINE,
                note=lazy_gettext("{name} ran out of time; the computer played for them.",
                                  name="Bob"),
            )
            for mine in m.result.private.values():
                yield f"{name} hand", hand_message(m.result, mine, "#lobby")
        for page in range(len(rules_pages(name))):
            yield f"{name} rules", rules_message(name, page)
        for rep in _replay(name, players, seed, options)[::9]:
            yield f"{name} replay", replay_message(rep, names_of(rep))
    yield "events", signup_message(event(status="signup", round=0), [])
    yield "events", signup_message(event(), [])


def texts() -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every text rendered outside a message spec."""
    moves = {"gin_rummy": ("discard 9D", "knock 9D"), "spades": ("bid 3", "bid 0"),
             "back_alley": ("board", "pass"), "craits": ("play 8H as S", "draw"),
             "ono99": ("play 7", "swap")}
    for name, (best, other) in moves.items():
        for ranking in (Ranking(best, ((best, 3.25), (other, 1.0)), 24),
                        Ranking(best, ((other, 0.62), (best, 0.55)), 48, chance=True)):
            yield f"{name} hint", hint_text(name, Advice(best, ranking, REASON))
        yield f"{name} hint", hint_text(name, Advice(best, None))
    rows = tuple(
        Standing(rank=i + 1, entrant=e, names=tuple(EVENT_NAMES[u] for u in MEMBERS[e]),
                 points=p, buchholz=0.0, sonneborn_berger=0.0, seed=e, played=1, byes=0)
        for i, (e, p) in enumerate(((1, 1.0), (2, 0.0)))
    )
    order = lazy_gettext("points, then Buchholz, then Sonneborn-Berger, then seed")
    yield "events", standings_text(EventStandings(event(), order, rows), tables(1.0), MEMBERS,
                                   EVENT_NAMES)
    yield "events", round_announcement(event(), tables(None), MEMBERS, EVENT_NAMES)
    yield "rules.md", rules_markdown()


def picture_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of every line a hand-end picture writes (one seeded game each)."""
    written: list[str] = []
    real: Callable[..., None] = draw.write

    def recording(draw: Any, xy: Any, text: str, size: int, fill: Any) -> None:
        written.append(text)
        real(draw, xy, text, size, fill)

    monkeypatch.setattr(hand_end, "write", recording)
    for name, players, seed, options in GAMES:
        game = games.get(name)
        state = game.new(players, seed=seed, options=options)
        events = list(state.history)
        rng = rng_for(seed, "pictures")
        while not state.is_over:
            seat = state.to_act[0]
            state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
            events += state.events
        for hand in hand_end.hands(name, events)[:2]:
            hand_end.picture(name, hand, NAMES[:players])
            yield from ((f"{name} picture", t) for t in written)
            written.clear()


#: Where a surface shows what is not prose: code, Discord's tags, comments, links, slash commands
#: (their names stay English where Discord has not the language).
_NOT_PROSE = re.compile(
    r"`[^`]*`|<[^<>\s]+>|<!--.*?-->|https?://\S+"
    r"|/(?:table|play|hand|league|rules|game|stats|settings|event|hint)"
    r"(?: (?:new|standings|history|replay|publish|addbot))?(?: [a-z_]+:\S*)*"
)
_WORD = re.compile(r"[A-Za-z]{2,}")
#: Words that are data, not texts: players' names, computer and option names and values
#: as typed.
DATA = (*NAMES, *EVENT_NAMES.values(), "Computer \\(normal\\)", *games.levels(),
        *games.names(), *(c for g in games.names() for o in games.get(g).options.values()
                          for c in o.choices or ()), "Pairs_night",
        "Pairs\\_night",
        "target", "deals", "short", "blind_nil", "lobby", "on", "off")
_DATA = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(re.escape(d) for d in sorted(DATA, key=len, reverse=True))
    + r")(?![A-Za-z])"
)


def leftovers(text: str) -> list[str]:
    """The plain English words of ``text`` (outside code, tags, links and ``DATA``)."""
    return _WORD.findall(_DATA.sub(" ", _NOT_PROSE.sub(" ", text)))


def spec_texts(spec: MessageSpec) -> list[str]:
    """Every text of a message (``MessageSpec.text`` plus what it leaves out)."""
    out = [spec.text()]
    if spec.embed is not None:
        out += [name for name, _value in spec.embed.fields]
    return out


def limit_problems(spec: MessageSpec) -> list[str]:
    """Where a message breaks Discord's documented limits."""
    out = []
    if len(spec.content) > 2000:
        out.append(f"content {len(spec.content)} > 2000")
    e = spec.embed
    if e is not None:
        sizes = {"title": (e.title, 256), "description": (e.description, 4096),
                 "footer": (e.footer, 2048)}
        out += [f"{k} {len(v)} > {n}" for k, (v, n) in sizes.items() if len(v) > n]
        for name, value in e.fields:
            if len(name) > 256 or len(value) > 1024:
                out.append(f"field {name!r}: {len(name)}/{len(value)}")
        total = len(e.title) + len(e.description) + len(e.footer) + sum(
            len(n) + len(v) for n, v in e.fields)
        if total > 6000:
            out.append(f"embed {total} > 6000")
    for row in spec.rows:
        for c in row:
            if isinstance(c, Button):
                if len(c.label) > 80:
                    out.append(f"button {c.label!r} > 80")
            else:
                if len(c.placeholder) > 150:
                    out.append(f"placeholder {c.placeholder!r} > 150")
                out += [f"option {label!r} > 100" for label, _v in c.options if len(label) > 100]
    return out
