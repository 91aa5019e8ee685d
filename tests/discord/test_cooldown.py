"""The per-user cooldown: a burst, then a refill; one user's flood never slows another."""

from __future__ import annotations

from pathlib import Path

from bot.cogs.stats import StatsCommands
from bot.ui.cooldown import HEAVY, Cooldown, cost, cost_of


def test_a_burst_then_one_per_refill_and_users_apart() -> None:
    now = [0.0]
    cd = Cooldown(burst=3, per_second=1.0, clock=lambda: now[0])
    assert [cd.allow(1) for _ in range(4)] == [True, True, True, False]
    assert cd.allow(2)  # another user is not slowed
    now[0] += 1.0
    assert cd.allow(1) and not cd.allow(1)
    now[0] += 10.0
    assert [cd.allow(1) for _ in range(4)] == [True, True, True, False]  # never above burst


def test_rested_users_are_forgotten() -> None:
    now = [0.0]
    cd = Cooldown(burst=2, per_second=1.0, clock=lambda: now[0])
    for user in range(1001):
        cd.allow(user)
    now[0] += 5.0
    cd.allow(5000)
    cd.allow(5001)
    assert cd.tracked() <= 3


def test_a_heavy_command_costs_more_than_a_click() -> None:
    now = [0.0]
    cd = Cooldown(burst=8, per_second=2.0, clock=lambda: now[0])
    heavy = cost_of(cost(HEAVY))
    assert heavy == HEAVY and cost_of({}) == 1.0
    assert [cd.allow(1, heavy) for _ in range(3)] == [True, True, False]
    assert not cd.allow(1)  # the refused one took nothing, but nothing is left
    now[0] += 0.5
    assert cd.allow(1) and not cd.allow(1, heavy)  # one second's worth: a click, not /stats
    now[0] += 2.0
    assert cd.allow(1, heavy)


def test_a_cost_above_the_burst_takes_the_whole_burst() -> None:
    now = [0.0]
    cd = Cooldown(burst=2, per_second=0.5, clock=lambda: now[0])
    assert cd.allow(1, HEAVY) and not cd.allow(1)
    now[0] += 4.0
    assert cd.allow(1, HEAVY)


def test_stats_costs_what_the_docs_say() -> None:
    assert cost_of(StatsCommands.stats.extras) == HEAVY
    said = "counts as " + {2: "two", 3: "three", 4: "four", 5: "five"}[int(HEAVY)]
    root = Path(__file__).resolve().parents[2]
    for doc in ("docs/settings.md", ".env.example"):
        assert said in (root / doc).read_text(encoding="utf-8"), doc
