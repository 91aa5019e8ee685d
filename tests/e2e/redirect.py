"""Pointing an unmodified discord.py at a fake Discord: its REST base URL and gateway
address are public class attributes, set here (in the test process for in-process bots,
or in a bot subprocess by ``tests.e2e.bot_process``)."""

from __future__ import annotations

import discord
import yarl

Saved = tuple[str, yarl.URL]


def point_discord_py(base_url: str, gateway_url: str) -> Saved:
    """Send discord.py's requests and gateway connections to the fake; what to restore."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return saved


def restore(saved: Saved) -> None:
    """Undo ``point_discord_py``."""
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
