"""Discord costs, measured through the project's fake Discord (``tests/e2e``).

Two people (plus computer seats where the game needs them) play each game to the end with
the real bot, exactly as the end-to-end tests do; every REST call the bot makes during a
human move is counted (all of them, and those counting toward Discord's global 50/s limit:
everything but interaction responses), and every interaction's dispatch→callback time.
Mode ``user`` plays in a DM between the two, Deckhand installed to the first one's account
only (no bot member there: every message goes through interaction tokens).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.play import WINDOW_SCALE, Harness, PanelSeat, Seat, cost_summary, play_out
from tests.e2e.test_anywhere_e2e import PLAYING
from tests.e2e.test_games_e2e import GAMES, open_table

#: How each human keeps their hand (``/settings hand:``), and the seat that plays so;
#: ``USER``: a user-installed table in a DM, hands in panels (no other way there).
MODES = {"dm": Seat, "channel": PanelSeat, "both": Seat, "user": PanelSeat}
USER = "user"


async def _play(name: str, harness: Harness, games_per: int, mode: str) -> None:
    fake = harness.fake
    options, computers = GAMES[name]
    seat = MODES[mode]
    for n in range(games_per):
        humans = [fake.user("alice"), fake.user("bob")]
        if mode == USER:
            channel = fake.private_channel(*humans, name=f"{name}-{n}")
            await open_table(
                harness, name, options, humans, computers, channel, playing=PLAYING
            )
        else:
            channel = fake.add_channel(f"{name}-{mode}-{n}")
            await open_table(harness, name, options, humans, computers, channel)
        final = await play_out([seat(p, harness, channel) for p in humans], channel)
        assert final.status == "finished", final.status


async def _measure_mode(mode: str, quick: bool, names: Sequence[str]) -> tuple[str, float]:
    """The cost table of one hand mode, and its mean global-limited calls per move."""
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            harness = Harness(fake, runner, Path(tmp), seed=2000)
            fake.settle_time = 0.05
            fake.limits.window_scale = WINDOW_SCALE
            alice, bob = fake.user("alice"), fake.user("bob")
            if mode == USER:
                fake.install(alice)
                await harness.start(dev_guild=None)  # global commands reach user installs
            else:
                await harness.start()
                for person in (alice, bob):
                    await person.slash("settings", hand=mode)
            for name in names:
                await _play(name, harness, 1 if quick else 3, mode)
            await runner.stop_all()
    finally:
        await fake.stop()
    rows = [r for moves in harness.costs.values() for r in moves]
    mean = sum(r[1] for r in rows) / len(rows)
    return cost_summary(harness.costs, fake.latencies()), mean


async def _measure(quick: bool, modes: Sequence[str], names: Sequence[str]) -> str:
    started = time.perf_counter()
    parts, means = [], {}
    for mode in modes:
        table, means[mode] = await _measure_mode(mode, quick, names)
        title = (
            "**A user-installed table** (a DM between the two, no bot member)"
            if mode == USER else f"**Hands `{mode}`** (`/settings hand:{mode}`)"
        )
        parts.append(f"{title}\n\n{table}")
    seconds = time.perf_counter() - started
    short = ", ".join(f"{g} `{GAMES[g][0]}`" for g in names if GAMES[g][0])
    head = (
        f"Two humans per game ({'1 game' if quick else '3 games'} each per hand mode, seeded,"
        f" short options {short}),"
        f" the real bot against `tests/e2e`'s fake Discord (Discord's rate-limit counts, windows"
        f" shortened {1 / WINDOW_SCALE:.0f}×); {seconds:.1f} s in all."
        " A move's calls include the computer moves it triggers, the other player's hand,"
        " their turn ping, and deleting the previous ping."
    )
    carry = " · ".join(
        f"`{mode}` {mean:.2f} calls → "
        + (f"{50 / mean:,.0f} human moves/s" if mean else "no limit from it")
        for mode, mean in means.items()
    )
    summary = (
        "Global-limited calls per human move, and the human moves per second one bot carries"
        f" under Discord's 50 requests/s: {carry}."
    )
    return "\n\n".join([head, summary, *parts])


def run(
    quick: bool, modes: Sequence[str] = tuple(MODES), names: Sequence[str] = tuple(sorted(GAMES))
) -> str:
    """Markdown: REST calls per human move by hand mode and game (``names``, every game
    unless given), interaction→callback p50/p99."""
    return asyncio.run(_measure(quick, modes, names))


if __name__ == "__main__":
    print(run(quick=True))
