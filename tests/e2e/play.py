"""Shared helpers for the end-to-end scenarios: a ``Harness`` (the real bot on a temporary
database, against the fake Discord) and ``Seat`` play through DM or ephemeral components.

Moves are picked by the game's ``normal`` computer player from the seat's true view (read
from the running bot's table service), then made by clicking the component that offers
exactly that move; the hand shown in the DM is checked against the same view on the way.

Every answered interaction ends an *epoch* (``LeakCheck.mark``): the new versions of every
fake message are noted with the table versions of that moment, and the ``harness`` fixture
checks them all for hidden cards at teardown (see ``LeakCheck`` for the rule).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
import re
import sqlite3
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

import bot
import games
import i18n
from bot.card_emojis import FaceSet
from bot.render import renderer
from bot.render.markup import markdown
from bot.render.ono99 import pretty_cards
from bot.render.table import LAST_MOVES
from bot.services.tables import SeatPrivate, TableResult, TableStatus
from bot.settings import Settings
from games.cards import pretty
from games.ono99.cards import sort_hand as sort_ono
from i18n import SOURCE, speaking
from storage.models import Human, load_options, load_seats
from tests.e2e.conftest import BotRunner
from tests.e2e.driver import Person, percentile
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_state import Channel, Interaction, Message, version_text, walk_components
from tests.waiting import DEADLINE, until

CARD = re.compile(r"(?:[A2-9TJQK][SHDC]|BJ|LJ)")
#: Discord drops an interaction not answered within 3 s; every one in the suite must be
#: answered with at least 2 s to spare.
CALLBACK_LIMIT = 1.0


# -- the bot under test ---------------------------------------------------------------------
class Harness:
    """The real Deckhand bot on a temporary SQLite file, with seeded tables."""

    def __init__(self, fake: FakeDiscord, runner: BotRunner, tmp_path: Path, seed: int) -> None:
        self.fake = fake
        self.runner = runner
        self.db_path = tmp_path / "deckhand.db"
        self.seeds = itertools.count(seed)
        self.client: Any = None
        self.leaks = LeakCheck(fake, self.db_path)
        self.costs: dict[str, list[tuple[int, int]]] = defaultdict(list)
        #: The card faces the bot keeps as application emojis (none: cards as text).
        self.card_faces: FaceSet | None = None

    def settings(self, **overrides: Any) -> Settings:
        base = Settings(
            DISCORD_TOKEN=SecretStr(self.fake.token),
            DECKHAND_DB=self.db_path,
            DECKHAND_DEV_GUILD=self.fake.guild.id,
            DECKHAND_BOT_MOVE_DELAY=BOT_MOVE_DELAY,
            DECKHAND_USER_RATE=1000,  # test players click faster than people can
            DECKHAND_TURN_TIMER=0,
        )
        return base.model_copy(update=overrides)

    async def start(self, *, clock: FakeTime | None = None, **overrides: Any) -> Any:
        """Start a new bot process (a fresh ``create_bot``) on the harness's database;
        with ``clock``, its timers and tokens run on the fake Discord's time."""
        settings = self.settings(**overrides)
        seeds, faces = self.seeds, self.card_faces
        client: Any = await self.runner.start(
            lambda: bot.create_bot(
                settings, table_seeds=lambda: next(seeds), card_faces=faces,
                guild_ready_timeout=READY_WAIT, clock=clock,
            )
        )
        self.client = client
        return client

    async def stop(self) -> None:
        """Stop the running bot (like a deploy: the process ends, the database stays)."""
        await self.runner.stop(self.client)
        self.client = None

    async def idle(self) -> None:
        """Wait until the computers are done, the bot's queued message updates ran and the
        fake is quiet."""
        await quiet(self.fake, self.client)

    async def outcome(
        self, channel: Channel, before: TableResult, click: Interaction | None = None
    ) -> TableResult:
        """The table once ``click`` (a move on ``before``; or any move) has had its effect:
        it moved the game, or the bot said why not. A deferred click is answered before the
        move is committed, so a quiet moment of the fake alone does not show it is done."""

        async def settled() -> TableResult | None:
            await self.idle()
            after = await self.result(channel)
            moved = after.version > before.version or after.table_id != before.table_id
            refused = click is not None and bool(click.followups)
            return after if moved or refused else None

        return await until(settled, f"a move at table {before.table_id} after {before.version}")

    async def shown(self, channel: Channel, seats: Iterable[Seat]) -> TableResult:
        """The table of ``channel`` as it is, once its message and the hand of each of
        ``seats`` show it (then quiet)."""
        result = await self.result(channel)
        await until(lambda: f"move {result.version} ·" in self.table_message(channel).text,
                    f"the table message to show move {result.version}")
        for seat in seats:
            mine = result.for_user(seat.person.id)
            assert mine is not None, f"{seat.person.name} is not seated"
            await seat.hand(result, mine)
        await self.idle()
        return result

    async def result(self, channel: Channel) -> TableResult:
        """The table of ``channel`` as the running bot has it."""
        result: TableResult = await self.client.tables.status(channel.id)
        return result

    def clicked(self, kind: str) -> int:
        """How many clicks so far were on table components of ``kind`` ("page", "multi"…)."""
        return sum(
            str(i.data.get("custom_id", "")).split(":")[3:4] == [kind]
            for i in self.fake.interactions.values()
        )

    def status_of(self, table_id: int) -> TableStatus:
        """A table's status as stored."""
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
        return TableStatus(row[0])

    def table_message(self, channel: Channel) -> Message:
        """The live table message of ``channel`` (the newest with a table embed, its title
        in any shipped language)."""
        tables = [m for m in channel.messages()
                  if m.rich and any(mark in m.text for mark in _TABLE_TITLES)]
        assert tables, [m.text[:60] for m in channel.messages()]
        return tables[-1]


#: Seconds discord.py waits for more guilds before it is ready (2 s on Discord).
READY_WAIT = 0.1
#: Computers are paced as users run them (shorter than the 0.8 s default, to keep the
#: suite quick, but never 0: answers must not depend on the computers being done).
BOT_MOVE_DELAY = 0.05
#: Discord's per-route windows, shortened tenfold: robots click far faster than people,
#: and a whole game at 5 edits per 5 s per channel would spend minutes waiting.
WINDOW_SCALE = 0.1


async def quiet(fake: FakeDiscord, client: Any) -> None:
    """Wait until the computers moved, their messages went out and nothing more comes (a
    click's handler may still be publishing after its answer arrived). An update queued
    while we waited (a token's last edit, when a test's clock ran it out) may be waiting
    for one of its token's request slots (``allowance.paced``, real time) and have sent
    nothing yet: it is waited for too, before a test moves its clock again."""
    while True:
        seen = len(fake.requests)
        await client.tables.idle()
        await client.publisher.edits.flush()
        await fake.settle()
        await asyncio.sleep(0.05)
        await client.publisher.edits.flush()
        if len(fake.requests) == seen:
            return


@pytest.fixture(name="harness")
async def harness_fixture(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> AsyncIterator[Harness]:
    """A harness whose every interaction is leak-checked at teardown, and answered, within
    ``CALLBACK_LIMIT`` (Discord's 3 s with 2 s to spare)."""
    fake_discord.settle_time = 0.05
    fake_discord.limits.window_scale = WINDOW_SCALE
    harness = Harness(fake_discord, bot_runner, tmp_path, seed=1000)
    answer = fake_discord.answer

    async def answer_and_mark(inter: Interaction, timeout: float = DEADLINE) -> Interaction:
        done = await answer(inter, timeout)
        harness.leaks.mark()
        return done

    fake_discord.answer = answer_and_mark  # type: ignore[method-assign]  # (this fake's only)
    yield harness
    harness.leaks.mark()
    harness.leaks.check()
    late = [x for x in fake_discord.latencies() if x > CALLBACK_LIMIT]
    assert not late, f"interactions answered after {CALLBACK_LIMIT} s: {late}"
    unanswered = [i.data for i in fake_discord.interactions.values() if i.latency is None]
    assert not unanswered, f"interactions never answered: {unanswered}"


def plain(content: str) -> str:
    """Message text without custom emojis (card faces stand before their text labels)."""
    return re.sub(r"<a?:\w+:\d+>", "", content)


# -- playing a seat -------------------------------------------------------------------------
def is_hand(content: str, mention: str) -> bool:
    """Whether a message is a hand ("**Game** in #channel — your hand", in the language
    spoken) of the table in the channel ``mention``."""
    before, after = i18n._("**{game}** in {channel} — your hand", game="\0", channel=mention).split(
        "\0"
    )
    return before in content and after in content


def is_stale(text: str) -> bool:
    """Whether an answer says the clicked move was offered on an earlier turn (in the
    language spoken)."""
    return text in {i18n._("That button is from an earlier turn; use the latest message."),
                    i18n._("That move was offered on an earlier turn; the game has moved on.")}


@dataclass
class Seat:
    """A human at a table: plays from their hand DM, or from the ephemeral *Your hand* view
    when their DMs are closed. ``lang`` is the language they chose (their hand's), and
    ``table_lang`` the table message's (its buttons' labels)."""

    person: Person
    harness: Harness
    channel: Channel
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    moves: int = 0
    lang: str = SOURCE
    table_lang: str = SOURCE

    @property
    def uses_dms(self) -> bool:
        return self.person.user.dms_open

    def your_hand(self) -> str:
        """The label of the table message's *Your hand* button."""
        with speaking(self.table_lang):
            return i18n._("Your hand")

    def newest_hand_dm(self) -> Message | None:
        """This table's hand DM ("… in #channel — your hand"), once one was sent."""
        mention = f"<#{self.channel.id}>"
        with speaking(self.lang):
            hands = [m for m in self.person.dm_messages() if is_hand(m.content, mention)]
        return hands[-1] if hands else None

    def hand_dm(self) -> Message:
        """This table's hand DM (there must be one)."""
        hand = self.newest_hand_dm()
        assert hand is not None, [m.content[:80] for m in self.person.dm_messages()]
        return hand

    def shows(self, message: Message, result: TableResult, mine: SeatPrivate) -> bool:
        """Whether a hand message shows this seat at ``result``: the hand's first line, and
        the moves of that version only (none when the seat has none)."""
        with speaking(self.lang):
            first_line = renderer(result.game).hand(mine.view)[0]
        comps = _components(message)
        return (
            markdown(first_line) in plain(message.content)
            and bool(comps) == bool(mine.legal)
            and all(int(parts[2]) == result.version for _, parts in comps)
        )

    async def hand(self, result: TableResult, mine: SeatPrivate) -> Message:
        """The message with this seat's moves: the DM once it shows ``result`` (the hand
        DM is sent or edited after the click's answer, DM edits are queued), or a fresh
        ephemeral view."""
        if self.uses_dms:

            def current() -> Message | None:
                dm = self.newest_hand_dm()
                return dm if dm is not None and self.shows(dm, result, mine) else None

            return await until(current, f"{self.person.name}'s DM to show version"
                                        f" {result.version}")
        table = self.harness.table_message(self.channel)
        shown = await self.person.click(table, self.your_hand())
        assert shown.ephemeral and shown.response is not None, shown.text
        return shown.response

    async def mine(self) -> tuple[TableResult, SeatPrivate]:
        result = await self.harness.result(self.channel)
        mine = result.for_user(self.person.id)
        assert mine is not None, f"{self.person.name} is not seated"
        return result, mine

    async def choose(self) -> str:
        """The move the normal computer player would make in this seat now."""
        result, mine = await self.mine()
        assert mine.legal, f"not {self.person.name}'s turn"
        game = games.get(result.game)
        return game.bot("normal")(dict(mine.view), list(mine.legal), self.rng)

    async def move(self, action: str | None = None) -> Interaction:
        """Make ``action`` (default: the normal computer player's pick) by clicking it. In
        a game where others may act out of turn (Craits' call-outs), a computer can move
        between the look and the click: the bot then says the button is from an earlier
        turn, and the player looks again and clicks again, as a person would."""
        for attempt in range(3):
            result, mine = await self.mine()
            chosen = action or await self.choose()
            message = await self.hand(result, mine)
            with speaking(self.lang):
                first_line = renderer(result.game).hand(mine.view)[0]
            assert markdown(first_line) in plain(message.content), (first_line, message.content)
            check_offered(message, mine, result.version)
            with self.harness.fake.count() as counter, speaking(self.lang):
                answered = await click_move(self.person, message, chosen)
                after = await self.harness.outcome(self.channel, result, answered)
            said = [m.text for m in answered.followups]
            if after.version > result.version or after.table_id != result.table_id:
                break  # moved (a finished event board may be followed at once by the next)
            with speaking(self.lang):
                stale = any(is_stale(t) for t in said) if self.lang != SOURCE else any(
                    "earlier turn" in t for t in said
                )
            assert attempt < 2 and stale, (chosen, answered.text, said)
        self.harness.costs[result.game].append((counter.total, counter.global_limited))
        self.moves += 1
        return answered


@dataclass
class PanelSeat(Seat):
    """A human who keeps their hand in the channel (``/settings hand:channel``): plays from
    their private panel, which the bot keeps up to date, and presses *Your hand* only when
    they have no panel yet (``opened`` counts those presses)."""

    opened: int = 0

    def panels(self) -> list[Message]:
        """This player's private hand panels in the channel, the one shown last (sent or
        edited) last."""
        mention = f"<#{self.channel.id}>"
        with speaking(self.lang):
            panels = [m for m in self.person.ephemerals(self.channel)
                      if is_hand(m.content, mention)]
        return sorted(panels, key=lambda m: m.edited_at or m.created_at)

    def panel(self) -> Message | None:
        """The panel shown last: the one the bot keeps up to date."""
        panels = self.panels()
        return panels[-1] if panels else None

    async def open(self) -> Message:
        """Press *Your hand* on the table message: a fresh panel."""
        table = self.harness.table_message(self.channel)
        shown = await self.person.click(table, self.your_hand())
        assert shown.ephemeral and shown.response is not None, shown.text
        self.opened += 1
        return shown.response

    async def hand(self, result: TableResult, mine: SeatPrivate) -> Message:
        """A panel showing ``result`` (there can be two: the host's panel, which follows
        the Start click's answer, may come after a *Your hand* pressed meanwhile)."""
        if not self.panels():
            return await self.open()

        def current() -> Message | None:
            return next((p for p in reversed(self.panels()) if self.shows(p, result, mine)),
                        None)

        return await until(current, f"{self.person.name}'s panel to show version"
                                    f" {result.version}")


@dataclass
class ReturningSeat(PanelSeat):
    """A player coming back after a while: the panel they left has stopped updating (its
    token ran out), so they press *Your hand* on the table message before each move."""

    async def hand(self, result: TableResult, mine: SeatPrivate) -> Message:
        return await self.open()


class FakeTime:
    """The bot's clock on the fake Discord's time (``fake.clock``): a test that advances it
    makes hours pass for turn timers and tokens at once (a sleep ends as soon as the fake's
    time is past it)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def now(self) -> float:
        return self.fake.clock.now()

    async def sleep(self, seconds: float) -> None:
        until = self.now() + seconds
        while (left := until - self.now()) > 0:
            await asyncio.sleep(min(left, 0.02))


def _components(message: Message) -> list[tuple[dict[str, Any], list[str]]]:
    """``(component, custom id parts)`` of the Deckhand table components of ``message``."""
    out = []
    for comp in message.buttons() + message.selects():
        parts = str(comp.get("custom_id", "")).split(":", 4)
        if len(parts) >= 4 and parts[0] == "dh" and parts[1] != "rules":
            out.append((comp, parts))
    return out


def private_of(result: TableResult, person: Person) -> SeatPrivate:
    """The private part of ``person``'s seat at ``result`` (they must be seated)."""
    mine = result.for_user(person.id)
    assert mine is not None, (person.name, result.table_id)
    return mine


def offered_moves(message: Message) -> set[str]:
    """The whole moves the components of ``message`` offer (buttons and plain menus)."""
    moves: set[str] = set()
    for comp, parts in _components(message):
        if parts[3] == "act":
            moves.add(parts[4])
        elif parts[3] == "sel":
            moves.update(o["value"] for o in comp["options"])
    return moves


def check_offered(message: Message, mine: SeatPrivate, version: int) -> None:
    """The components offer only legal moves, all of the current version (and exactly the
    legal moves when nothing is paged or picked card by card)."""
    comps = _components(message)
    assert all(int(parts[2]) == version for _, parts in comps), (version, comps)
    offered = offered_moves(message)
    assert offered <= set(mine.legal), offered - set(mine.legal)
    if not any(parts[3] in ("page", "multi") for _, parts in comps):
        missing = set(mine.legal) - offered
        assert not missing, (missing, message.content, [c for c, _ in comps], mine.legal)


async def click_move(
    person: Person, message: Message, action: str, *, answered: bool = True
) -> Interaction:
    """Click the button or pick the menu option of ``action`` on ``message`` (turning pages
    of moves when needed); ``answered`` as ``Person.send`` takes it."""
    verb, _, rest = action.partition(" ")
    for _ in range(12):
        for comp, parts in _components(message):
            kind = parts[3]
            if kind == "act" and parts[4] == action:
                return await person.click(message, comp["custom_id"], answered=answered)
            if kind == "sel" and action in {o["value"] for o in comp["options"]}:
                return await person.select(
                    message, [action], comp["custom_id"], answered=answered)
            if kind == "multi" and parts[4] == verb:
                return await person.select(
                    message, rest.split(), comp["custom_id"], answered=answered)
        pages = [b for b in message.buttons() if b.get("label") == i18n._("Next ▶")]
        assert pages, f"{action!r} is not offered: {offered_moves(message)}"
        await person.click(message, pages[0]["custom_id"])
    raise AssertionError(f"{action!r} not found on any page")


async def play_out(seats: Iterable[Seat], channel: Channel, limit: int = 1500) -> TableResult:
    """Let whichever seat is to move make its move until the game is over (or ``limit``
    moves were made: then the game must still be on). Only the channel's current game is
    played: when a newer one opens there (an event's next board), the result is the older
    game as it last was, with its final status."""
    by_user = {s.person.id: s for s in seats}
    harness = next(iter(by_user.values())).harness
    first: TableResult | None = None
    for _ in range(limit):
        result = await harness.result(channel)
        first = first or result
        if result.table_id != first.table_id:
            return dataclasses.replace(first, status=harness.status_of(first.table_id))
        first = result
        if result.status != "playing":
            return result
        movers = [p.user_id for p in result.private.values() if p.legal]
        if not movers:  # the computers are to move: they do on their own, paced
            await harness.idle()
            continue
        await by_user[movers[0]].move()
    result = await harness.result(channel)
    assert result.status == "playing", f"the game ended within {limit} moves"
    return result


def cost_summary(costs: dict[str, list[tuple[int, int]]], latencies: list[float]) -> str:
    """Markdown: REST calls per human move by game, and interaction→callback p50/p99."""
    lines = [
        "| Game | Human moves | REST calls per move (all) | … counting toward the global limit"
        " (mean / max) |",
        "|---|---:|---:|---:|",
    ]
    for game, rows in sorted(costs.items()):
        n = len(rows)
        every = sum(r[0] for r in rows) / n
        limited = sum(r[1] for r in rows) / n
        lines.append(f"| {game} | {n} | {every:.2f} | {limited:.2f} / {max(r[1] for r in rows)} |")
    if latencies:
        lines += [
            "",
            f"Interaction → callback over {len(latencies)} interactions: p50"
            f" {percentile(latencies, 50) * 1000:.1f} ms, p99"
            f" {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms.",
        ]
    return "\n".join(lines)


# -- hidden cards ----------------------------------------------------------------------------
def _cards_in(value: Any, found: set[str]) -> set[str]:
    """Every card code anywhere in a view or event."""
    if isinstance(value, str):
        if CARD.fullmatch(value):
            found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_in(v, found)
    elif isinstance(value, list | tuple):
        for v in value:
            _cards_in(v, found)
    return found


@dataclass
class _Version:
    """What was secret at one table version."""

    secret: list[set[str]]  # per seat: held or seen by that seat, not public in this deal
    known: list[set[str]]  # per seat: every card that seat could see
    hands: list[str]  # ONO 99: each seat's hand as rendered ("7 · −10 · …"), "" if public
    public_hands: set[str]  # ONO 99: hands shown to everyone in this deal so far
    earlier: set[str]  # public in the previous deal (its moves may still be listed)


@dataclass
class _Table:
    id: int
    channel_id: int
    game: str
    versions: list[_Version]


class LeakCheck:
    """No hidden card in a message someone may not see it in.

    The rule, per table version ``v`` (replayed from the table's seed, options and action
    log): a card is *secret for seat s* if it appears in s's view (its hand, a drafted
    card…) but not in the spectator view or the public events of any version of the
    current deal (hand/deal/round) up to ``v`` — so discards, played cards, upcards, trumps
    and hands revealed at the end of a deal are public from then on, and a card dealt
    again in a later deal is secret again. A message version first seen in epoch k (between
    two answered interactions) may show a card only if it was not secret for some other
    seat at *every* version the table passed through in that epoch; one whose table
    components name the version it was drawn from (a queued edit may land epochs later) is
    checked at that version. Messages everyone in a channel sees (a server's, a DM's or a
    group DM's) are checked against every seat, a user's DMs with the bot and ephemerals
    against every other seat.
    ONO 99's cards are bare numbers (several copies each), so there the check is that no
    other seat's whole hand, as its DM renders it, appears.
    """

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.epochs: list[dict[int, int]] = []  # table id -> version, per epoch
        self.seen: dict[int, int] = {}  # message id -> history entries already noted
        self.noted: list[tuple[Message, int, int]] = []  # (message, history index, epoch)
        self.born: dict[int, int] = {}  # message id -> the epoch it was first noted in
        self.seatings: list[dict[int, dict[int, int]]] = []  # table -> user -> seat, per epoch

    def _versions(self) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
        """Each table's version, and who sits where (user id → seat), now."""
        if not self.db_path.exists():
            return {}, {}
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True) as conn:
            rows = conn.execute("SELECT id, version, seats FROM tables").fetchall()
        seatings = {
            table_id: {o.user_id: n for n, o in enumerate(load_seats(seats))
                       if isinstance(o, Human)}
            for table_id, _, seats in rows
        }
        return {table_id: version for table_id, version, _ in rows}, seatings

    def mark(self) -> None:
        """End an epoch: note the new message versions and the table versions now."""
        epoch = len(self.epochs)
        versions, seatings = self._versions()
        self.epochs.append(versions)
        self.seatings.append(seatings)
        for message in list(self.fake.messages.values()):
            start = self.seen.get(message.id, 0)
            self.born.setdefault(message.id, epoch)
            self.noted += [(message, i, epoch) for i in range(start, len(message.history))]
            self.seen[message.id] = len(message.history)

    def _seat_of(self, table: _Table, user_id: int, epoch: int) -> int | None:
        """The user's seat at the table during ``epoch`` (seated at its start or its end:
        a player who left in it may still be shown their own hand)."""
        for k in (epoch, epoch - 1):
            if k >= 0 and (seat := self.seatings[k].get(table.id, {}).get(user_id)) is not None:
                return seat
        return None

    def _load(self) -> list[_Table]:
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True) as conn:
            rows = conn.execute(
                "SELECT id, channel_id, game, options, seed, seats FROM tables"
            ).fetchall()
            tables = []
            for table_id, channel_id, name, options, seed, seats_json in rows:
                actions = conn.execute(
                    "SELECT seat, action FROM table_actions WHERE table_id = ? ORDER BY version",
                    (table_id,),
                ).fetchall()
                seats = load_seats(seats_json)
                versions = _replay(name, len(seats), seed, load_options(options), actions)
                tables.append(_Table(table_id, channel_id, name, versions))
        return tables

    def check(self) -> None:
        """Check every noted message version; fail with the first leaks found."""
        if not self.db_path.exists():
            return
        tables = self._load()
        leaks: list[str] = []
        for message, index, epoch in self.noted:
            text = _version_text(message.history[index])
            rest = _version_text(_without_moves(message.history[index]))
            viewer = message.ephemeral_for or message.channel.recipient
            for table in tables:
                if viewer is None:  # everyone in the channel (a server's, a DM, a group DM)
                    if message.channel.id != table.channel_id:
                        continue
                elif f"<#{table.channel_id}>" not in text:
                    continue
                window = self._window(table, epoch)
                if not window or table.id not in self.epochs[self.born[message.id]]:
                    continue
                drawn = _drawn_at(message.history[index], table.id)
                if drawn is not None and drawn < len(table.versions):
                    window = [table.versions[drawn]]  # a late edit, drawn from this version
                own = self._seat_of(table, viewer.id, epoch) if viewer is not None else None
                for shown, line in _shown_secrets(table, window, own, text, rest):
                    where = message.channel.label + (" (ephemeral)" if message.ephemeral else "")
                    leaks.append(f"table {table.id} epoch {epoch}: {shown} in {where}: {line!r}")
        assert not leaks, "hidden cards shown:\n" + "\n".join(leaks[:10])

    def _window(self, table: _Table, epoch: int) -> list[_Version]:
        end = self.epochs[epoch].get(table.id)
        if end is None:
            return []
        start = self.epochs[epoch - 1].get(table.id, 0) if epoch > 0 else 0
        return table.versions[start : end + 1]


def _drawn_at(version: dict[str, Any], table_id: int) -> int | None:
    """The table version a message version was drawn from, as its table components name it
    (``dh:<table>:<version>:…``); ``None`` if it has none."""
    drawn = {
        int(parts[2])
        for comp in walk_components(version["components"])
        if len(parts := str(comp.get("custom_id", "")).split(":")) >= 4
        and parts[0] == "dh" and parts[1] == str(table_id)
    }
    return max(drawn) if drawn else None


#: What a table message's title says between the game and the table's number ("— table"),
#: as every shipped language says it.
_TABLE_TITLES = frozenset(
    i18n.translations(lang).gettext("{game} — table {table}").split("{game}")[1]
    .split("{table}")[0]
    for lang in i18n.languages()
)
#: *Last moves* as every shipped language labels it.
_LAST_MOVES = frozenset(i18n.translations(lang).gettext(LAST_MOVES) for lang in i18n.languages())


def _without_moves(version: dict[str, Any]) -> dict[str, Any]:
    """A message version without its table's *Last moves* (event lines, which may still
    list the previous deal's moves after a new deal), in whichever language it speaks."""
    def strip(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for comp in components:
            if any(str(comp.get("content", "")).startswith(f"**{label}**")
                   for label in _LAST_MOVES):
                continue
            out.append({**comp, "components": strip(comp.get("components", []))})
        return out

    embeds = [
        {**e, "fields": [f for f in e.get("fields", []) if f.get("name") not in _LAST_MOVES]}
        for e in version["embeds"]
    ]
    return {**version, "embeds": embeds, "components": strip(version["components"])}


def _version_text(version: dict[str, Any]) -> str:
    return version_text(version) + "\n" + repr(version["components"])


def _replay(
    name: str, players: int, seed: int, options: dict[str, Any], actions: list[tuple[int, str]]
) -> list[_Version]:
    game = games.get(name)
    if not actions and players < game.min_players:
        return []
    try:
        state = game.new(players, seed=seed, options=options)
    except ValueError:
        return []
    out: list[_Version] = []
    public: set[str] = set()
    earlier: set[str] = set()
    public_hands: set[str] = set()
    deal: Any = None
    for step in [None, *actions]:
        if step is not None:
            state = game.apply(state, step[0], step[1])
        spectator = game.view(state, None)
        keys = ("hand_no", "deal_no", "round_no")
        key = next((spectator[k] for k in keys if k in spectator), None)
        if key != deal:
            deal, earlier, public, public_hands = key, public, set(), set()
        public |= _cards_in(spectator, set()) | _cards_in(state.events, set())
        shown = [*(spectator.get("revealed") or []), *(e.get("hand") for e in state.events)]
        public_hands |= {pretty_cards(sort_ono(h)) for h in shown if h}
        views = [game.view(state, s) for s in range(players)]
        known = [_cards_in(v, set()) for v in views]
        hands = [pretty_cards(v.get("hand") or []) for v in views]
        hands = [
            h if len(v.get("hand") or ()) >= 2 and h not in public_hands else ""
            for h, v in zip(hands, views, strict=True)
        ]
        out.append(
            _Version([k - public for k in known], known, hands, set(public_hands), earlier)
        )
    return out


def _line_of(text: str, needle: str) -> str:
    return next((line for line in text.splitlines() if needle in line), needle)


def _shown_secrets(
    table: _Table, window: list[_Version], own: int | None, text: str, rest: str
) -> list[tuple[str, str]]:
    """The secrets of seats other than ``own`` (secret throughout ``window``) in ``text``;
    a card public in the previous deal only in ``rest`` (``text`` without its last moves)."""
    seats = range(len(window[0].secret))
    if table.game == "ono99":
        mine = {v.hands[own] for v in window} if own is not None else set()
        mine |= set().union(*(v.public_hands for v in window))
        return [
            (f"seat {s}'s hand {v.hands[s]!r}", _line_of(text, v.hands[s]))
            for v in window
            for s in seats
            if s != own and v.hands[s] and v.hands[s] not in mine and v.hands[s] in text
        ]
    secret: set[str] | None = None
    for v in window:
        now = set().union(*(v.secret[s] for s in seats if s != own))
        if own is not None:
            now -= v.known[own]
        secret = now if secret is None else secret & now
    found = []
    for card in sorted(secret or ()):
        symbol = re.escape(pretty(card))
        shown = rest if any(card in v.earlier for v in window) else text
        hit = re.search(rf"(?<![0-9A-Za-z]){symbol}", shown) or re.search(rf"\b{card}\b", shown)
        if hit:
            found.append((pretty(card), _line_of(text, hit.group(0))))
    return found
