"""Requests per interaction token, measured through the project's fake Discord
(``tests/e2e``): how close the busiest tables come to the 5 requests per 2 s per token
that Discord's users measured (discord/discord-api-docs#2701; ``fake_ratelimit``).

Three friends play in a group DM where Deckhand is installed to the first one's account
only (no bot member: every message goes through interaction tokens), each game at the
size the suite plays it (computers fill the other seats), with the computer delay users
run (``--delay``, 0.8 s by default). Each human plays from their private panel, as at any
such table. Reported per game: the interaction tokens used, the most requests one token
made in any 2 s (a sliding window on the fake's clock), the tokens that went over 5, the
429s the fake answered, and the edits of messages older than an hour made through a
token (30046 territory).

``python -m bench.token_bench`` (``--moves N`` caps the human moves per game);
``--over-days`` plays instead one ONO 99 game in a group DM over two days of the fake's
clock (a day per turn): the table message refreshed at 2 hours and at 2 days old, ten
human moves after each — counting the edits of hour-old messages through a token.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_ratelimit import TOKEN_LIMIT, busiest, token_of
from tests.e2e.play import WINDOW_SCALE, FakeTime, Harness, PanelSeat
from tests.e2e.test_anywhere_e2e import HOUR, PLAYING, away, group_dm, seating
from tests.e2e.test_games_e2e import GAMES, open_table
from tests.e2e.test_unknowns_e2e import Returning, human_turn


async def _game(harness: Harness, name: str, moves: int) -> str:
    """One game (at most ``moves`` human moves) in a fresh group DM: its table row."""
    fake = harness.fake
    friends, _ = group_dm(harness)
    channel = fake.private_channel(*friends, name=f"{name} night")
    humans, computers = seating(name, len(friends))
    players = friends[:humans]
    old_edits = len(fake.rest.old_edit_log)
    made, stopped = 0, ""
    with fake.count() as counter:
        try:
            await open_table(harness, name, GAMES[name][0], players, computers, channel,
                             playing=PLAYING)
            seats = {p.id: PanelSeat(p, harness, channel) for p in players}
            while made < moves:
                result = await harness.result(channel)
                if result.status != "playing":
                    break
                movers = [p.user_id for p in result.private.values() if p.legal]
                if not movers:
                    await harness.idle()
                    continue
                await seats[movers[0]].move()
                made += 1
        except AssertionError as exc:  # a harness wait ran out: count what was made
            stopped = f" (stopped: {(str(exc).splitlines() or ['a wait ran out'])[0][:60]})"
        await harness.idle()
    requests = [r for r in counter.requests if token_of(r) is not None]
    peaks = busiest(requests)
    limit = TOKEN_LIMIT[0]
    over = sum(1 for p in peaks.values() if p > limit)
    refused = sum(1 for r in requests if r.status == 429)
    token_old = sum(1 for through, _ in fake.rest.old_edit_log[old_edits:] if through == "token")
    return (
        f"| {name} | {humans} + {computers} | {made}{stopped} | {len(requests)} | {len(peaks)} |"
        f" {max(peaks.values(), default=0)} | {over} | {refused} | {token_old} |"
    )


async def _measure(names: Sequence[str], delay: float, moves: int) -> str:
    started = time.perf_counter()
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            harness = Harness(fake, runner, Path(tmp), seed=3000)
            fake.settle_time = 0.05
            fake.limits.window_scale = WINDOW_SCALE
            fake.install(fake.user("alice"))
            await harness.start(dev_guild=None, bot_move_delay=delay)
            for name in names:
                rows.append(await _game(harness, name, moves))
            await runner.stop_all()
    finally:
        await fake.stop()
    head = (
        f"A group DM of three friends, Deckhand installed to one of them (no bot member),"
        f" computers at {delay} s, at most {moves} human moves per game;"
        f" {time.perf_counter() - started:.0f} s in all."
    )
    table = [
        "| Game | Humans + computers | Human moves | Token requests | Tokens |"
        f" Most requests per token in {TOKEN_LIMIT[1]:g} s | Tokens over {TOKEN_LIMIT[0]} |"
        " 429s | Old-message edits through a token |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    return "\n".join([head, "", *table])


async def _over_days(delay: float) -> str:
    """One game over two days with Refreshes on old messages: the edits of hour-old
    messages through a token, and the busiest token."""
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            harness = Harness(fake, runner, Path(tmp), seed=3000)
            fake.settle_time = 0.05
            fake.limits.window_scale = WINDOW_SCALE
            await harness.start(dev_guild=None, bot_move_delay=delay, clock=FakeTime(fake))
            friends, gdm = group_dm(harness)
            seats = {p.id: Returning(p, harness, gdm) for p in friends}
            with fake.count() as counter:
                await open_table(harness, "ono99", "scoring=points target=50", friends, 1, gdm,
                                 playing=PLAYING, timer="1d")
                for hours in (0, 2, 48):
                    if hours:
                        await away(harness, hours * HOUR)
                        await asyncio.sleep(0.1)
                        await harness.idle()
                        mover = await human_turn(harness, gdm)
                        person = next(p for p in friends if p.id == mover)
                        await person.click(harness.table_message(gdm), "Refresh")
                    for _ in range(10):
                        if (await harness.result(gdm)).status != "playing":
                            break
                        await seats[await human_turn(harness, gdm)].move()
                await harness.idle()
            await runner.stop_all()
    finally:
        await fake.stop()
    old = [age for through, age in fake.rest.old_edit_log if through == "token"]
    peaks = busiest(counter.requests)
    return (
        f"A group-DM ONO 99 game over two days (a day per turn, computers at {delay} s):"
        f" {len(old)} edits of messages older than an hour through a token"
        + (f" (the oldest {max(old) / HOUR:.0f} h)" if old else "")
        + f"; {len(peaks)} tokens, the busiest {max(peaks.values(), default=0)} requests in"
        f" {TOKEN_LIMIT[1]:g} s; {sum(1 for r in counter.requests if r.status == 429)} 429s."
    )



def main(argv: Sequence[str] | None = None) -> None:
    """Print the table (Markdown)."""
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--delay", type=float, default=0.8, help="computer delay, s (0.8)")
    args.add_argument("--moves", type=int, default=40, help="human moves per game at most")
    args.add_argument("--games", default=",".join(sorted(GAMES)), help="games, comma-separated")
    args.add_argument("--over-days", action="store_true",
                      help="one game over two days with Refreshes on old messages")
    given = args.parse_args(argv)
    if given.over_days:
        print(asyncio.run(_over_days(given.delay)))
        return
    names = [g.strip() for g in given.games.split(",") if g.strip()]
    print(asyncio.run(_measure(names, given.delay, given.moves)))


if __name__ == "__main__":
    main()
