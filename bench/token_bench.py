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

``python -m bench.token_bench`` (``--moves N`` caps the human moves per game).
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
from tests.e2e.play import WINDOW_SCALE, Harness, PanelSeat
from tests.e2e.test_anywhere_e2e import PLAYING, group_dm, seating
from tests.e2e.test_games_e2e import GAMES, open_table


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


def main(argv: Sequence[str] | None = None) -> None:
    """Print the table (Markdown)."""
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--delay", type=float, default=0.8, help="computer delay, s (0.8)")
    args.add_argument("--moves", type=int, default=40, help="human moves per game at most")
    args.add_argument("--games", default=",".join(sorted(GAMES)), help="games, comma-separated")
    given = args.parse_args(argv)
    names = [g.strip() for g in given.games.split(",") if g.strip()]
    print(asyncio.run(_measure(names, given.delay, given.moves)))


if __name__ == "__main__":
    main()
