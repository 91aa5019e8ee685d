"""The per-user cooldown: a burst, then a refill; one user's flood never slows another."""

from __future__ import annotations

from bot.ui.cooldown import Cooldown


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
