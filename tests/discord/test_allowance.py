"""What an interaction's token may still do (``bot.ui.allowance``): follow-ups left, the
requests per window, and which refusals mean its install is gone."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import discord
import pytest

from bot.ui import allowance
from bot.ui.allowance import PER, REQUESTS, Exhausted, _Window


class Interaction:
    """The two things the allowance reads of an interaction."""

    def __init__(self, server_installed: bool) -> None:
        self.extras: dict[str, Any] = {}
        self.server_installed = server_installed

    def is_guild_integration(self) -> bool:
        return self.server_installed


def test_five_follow_ups_where_only_a_user_install_authorised() -> None:
    user = cast(discord.Interaction, Interaction(server_installed=False))
    for n in range(allowance.LIMIT):
        assert allowance.left(user) == allowance.LIMIT - n
        allowance.spend(user)
    assert allowance.left(user) == 0
    with pytest.raises(Exhausted):
        allowance.spend(user)
    server = cast(discord.Interaction, Interaction(server_installed=True))
    for _ in range(allowance.LIMIT + 3):
        allowance.spend(server)
    assert allowance.left(server) is None


def test_a_slot_frees_a_window_after_its_request_came_back() -> None:
    window = _Window()
    for n in range(REQUESTS):
        assert window.wait(100.0) == 0.0
        window.done.append(100.0 + n * 0.1)
    assert window.wait(100.5) == pytest.approx(PER - 0.5)
    assert window.wait(100.0 + PER) == 0.0  # the first came back 2 s ago
    busy = _Window(busy=REQUESTS)  # all in flight: wait, however long it has been
    assert busy.wait(0.0) > 0


async def test_paced_requests_never_pass_five_in_a_window() -> None:
    """Seven requests at once through one token: five go, the others wait for a slot."""
    inter = cast(discord.Interaction, Interaction(server_installed=False))
    started: list[float] = []

    async def request() -> None:
        async with allowance.paced(inter):
            started.append(time.monotonic())
            await asyncio.sleep(0.01)

    began = time.monotonic()
    await asyncio.gather(*(request() for _ in range(REQUESTS + 2)))
    late = [t - began for t in sorted(started)[REQUESTS:]]
    assert all(t >= PER for t in late), late


class Refusal(discord.HTTPException):
    def __init__(self, status: int, code: int) -> None:  # no response object to parse
        self.status, self.code = status, code


@pytest.mark.parametrize(("status", "code", "lost"), [
    (401, 0, True), (404, 10015, True), (404, 10005, True), (401, 50027, True),
    (404, 10008, False), (429, 0, False), (400, 40094, False), (403, 50001, False),
])
def test_which_refusals_mean_the_install_is_gone(status: int, code: int, lost: bool) -> None:
    assert allowance.lost(Refusal(status, code)) is lost
