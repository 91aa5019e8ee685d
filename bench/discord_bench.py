"""Discord costs, measured through the project's fake Discord (``tests/e2e``).

Two people (plus computer seats where the game needs them) play each game to the end with
the real bot, exactly as the end-to-end tests do; every REST call the bot makes during a
human move is counted (all of them, and those counting toward Discord's global 50/s limit:
everything but interaction responses), and every interaction's dispatch→callback time.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.play import WINDOW_SCALE, Harness, Seat, cost_summary, play_out
from tests.e2e.test_games_e2e import GAMES, open_table


async def _play(name: str, harness: Harness, games_per: int) -> None:
    fake = harness.fake
    options, computers = GAMES[name]
    for n in range(games_per):
        channel = fake.add_channel(f"{name}-{n}")
        humans = [fake.user("alice"), fake.user("bob")]
        await open_table(harness, name, options, humans, computers, channel)
        final = await play_out([Seat(p, harness, channel) for p in humans], channel)
        assert final.status == "finished", final.status


async def _measure(quick: bool) -> str:
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            harness = Harness(fake, runner, Path(tmp), seed=2000)
            fake.settle_time = 0.05
            fake.limits.window_scale = WINDOW_SCALE
            await harness.start()
            for name in sorted(GAMES):
                await _play(name, harness, 1 if quick else 3)
            await runner.stop_all()
    finally:
        await fake.stop()
    seconds = time.perf_counter() - started
    head = (
        f"Two humans per game ({'1 game' if quick else '3 games'} each, seeded, short options"
        f" {', '.join(f'{g} `{o}`' for g, (o, _) in sorted(GAMES.items()) if o)}),"
        f" the real bot against `tests/e2e`'s fake Discord (Discord's rate-limit counts, windows"
        f" shortened {1 / WINDOW_SCALE:.0f}×); {seconds:.1f} s in all."
        " A move's calls include the computer moves it triggers, the other player's hand DM,"
        " their turn ping, and deleting the previous ping."
    )
    return head + "\n\n" + cost_summary(harness.costs, fake.latencies())


def run(quick: bool) -> str:
    """Markdown: REST calls per human move by game, interaction→callback p50/p99."""
    return asyncio.run(_measure(quick))


if __name__ == "__main__":
    print(run(quick=True))
