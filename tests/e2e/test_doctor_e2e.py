"""``deckhand doctor`` against the fake Discord: every line ok on a good set-up, and each
of a dozen planted faults reported on its own line with its fix — never a character of
the token in the output."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from pydantic import SecretStr

from bot.app import declared_commands
from bot.art import faces
from bot.card_emojis import EMOJI_LIMIT
from bot.doctor import Level, diagnose, report, scrubbed
from bot.settings import Settings
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_state import (
    ATTACH_FILES,
    GUILD_INSTALL,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)

ROOT = Path(__file__).resolve().parents[2]


def settings_for(fake: FakeDiscord, **overrides: Any) -> Settings:
    base = Settings(DISCORD_TOKEN=SecretStr(fake.token), DECKHAND_DEV_GUILD=None)
    return base.model_copy(update=overrides)


async def synced(fake: FakeDiscord, settings: Settings) -> None:
    """Register what this Deckhand declares, as ``deckhand run`` would (globally)."""
    data = await declared_commands(settings)
    fake.rest._put_commands(None, data)


def upload_faces(fake: FakeDiscord) -> None:
    for palette in faces.PALETTES:
        for card in faces.CARDS:
            fake.add_app_emoji(faces.emoji_name(card, palette))


async def good(fake: FakeDiscord) -> Settings:
    settings = settings_for(fake)
    await synced(fake, settings)
    upload_faces(fake)
    return settings


def install(fake: FakeDiscord) -> dict[str, Any]:
    """The application's Default Install Settings for servers."""
    params: dict[str, Any] = fake.install_config[str(GUILD_INSTALL)]["oauth2_install_params"]
    return params


def lines(checks: list[Any]) -> dict[str, tuple[Level, str]]:
    return {c.name: (c.level, c.detail) for c in checks}


async def test_a_good_set_up_is_all_ok(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    settings = await good(fake)
    lobby = fake.channel("lobby")
    checks = await diagnose(settings, channel_id=lobby.id, post=True)
    text, status = report(checks, fake.token)
    assert status == 0, text
    named = lines(checks)
    for name in ("token", "application", "intents", "server install", "user install",
                 "gateway", "commands", "emojis", "test table", "DM to the owner",
                 "Send Messages in #lobby", "Send Messages in Threads in #lobby (its threads)"):
        assert named[name][0] is Level.OK, (name, text)
    assert fake.token not in text
    assert lobby.messages() == [], "the test table was closed again"


def fill_emoji_slots(fake: FakeDiscord) -> None:
    """The application's emoji slots all taken by other emojis."""
    fake.app_emojis.clear()
    for n in range(EMOJI_LIMIT):
        fake.add_app_emoji(f"e{n}")


#: Each planted fault: what to change on a good set-up, and the lines that report it, each
#: with a word of its fix (``--channel`` #lobby, ``--post``).
FAULTS: dict[str, tuple[Callable[[FakeDiscord], Any], dict[str, str]]] = {
    "commands never synced": (
        lambda fake: fake.commands.clear(), {"commands": "DECKHAND_SYNC_COMMANDS"},
    ),
    "commands out of date": (
        lambda fake: fake.commands[0].data.update(description="an old description"),
        {"commands": "changed"},
    ),
    "no emoji slots": (
        fill_emoji_slots,
        {"emojis": "DECKHAND_CARD_EMOJIS=off"},
    ),
    "a server install without the bot scope": (
        lambda fake: install(fake).update(scopes=["applications.commands"]),
        {"server install": "bot and applications.commands"},
    ),
    "a server install short of permissions": (
        lambda fake: install(fake).update(permissions=str(1 << 10 | 1 << 11)),
        {"server install": "Create Public Threads"},
    ),
    "user installs off": (
        lambda fake: fake.install_config.pop("1"), {"user install": "User Install"},
    ),
    "Attach Files denied in the channel": (
        lambda fake: fake.deny(fake.channel("lobby"), ATTACH_FILES),
        {"Attach Files in #lobby": "grant it"},
    ),
    "Send Messages in Threads denied": (
        lambda fake: fake.deny(fake.channel("lobby"), SEND_MESSAGES_IN_THREADS),
        {"Send Messages in Threads in #lobby (its threads)": "grant it"},
    ),
    "Send Messages denied: the test table is refused": (
        lambda fake: fake.deny(fake.channel("lobby"), SEND_MESSAGES),
        {"Send Messages in #lobby": "grant it", "test table": "refused"},
    ),
    "the owner's DMs closed": (
        lambda fake: fake.refuse_dms(fake.owner), {"DM to the owner": "Privacy Settings"},
    ),
    "more shards recommended": (
        lambda fake: setattr(fake, "shards", 3), {"gateway": "DECKHAND_SHARD_COUNT=3"},
    ),
}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_each_planted_fault_is_reported_with_its_fix(
    fake_discord: FakeDiscord, fault: str
) -> None:
    fake = fake_discord
    settings = await good(fake)
    plant, said = FAULTS[fault]
    plant(fake)
    checks = await diagnose(settings, channel_id=fake.channel("lobby").id, post=True)
    text, status = report(checks, fake.token)
    for name, fix in said.items():
        level, detail = lines(checks)[name]
        assert level is not Level.OK and fix in detail, text
    assert status == int(any(c.level is Level.MISSING for c in checks)), text
    assert {c.name for c in checks if c.level is not Level.OK} == set(said), text


async def test_a_bad_token_is_one_line_without_the_token(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    stolen = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.wrong-token-characters"
    checks = await diagnose(settings_for(fake, discord_token=SecretStr(stolen)))
    text, status = report(checks, stolen)
    assert status == 1 and len(checks) == 1 and "Reset Token" in text
    assert not any(stolen[i:i + 6] in text for i in range(len(stolen) - 5))


async def test_wrong_intents_are_reported(fake_discord: FakeDiscord) -> None:
    """A Deckhand that asked for a privileged intent the application has not switched on
    (members here) is told which switch to turn on; with it on, the line is ok."""
    fake = fake_discord
    settings = await good(fake)
    wanted = discord.Intents.none()
    wanted.guilds = wanted.members = True
    level, detail = lines(await diagnose(settings, intents=wanted))["intents"]
    assert level is Level.MISSING and "Server Members" in detail
    fake.app_flags = 1 << 15  # GATEWAY_GUILD_MEMBERS_LIMITED
    assert lines(await diagnose(settings, intents=wanted))["intents"][0] is Level.OK


async def test_a_channel_the_bot_cannot_reach(fake_discord: FakeDiscord) -> None:
    """A channel of a server that installed only the commands, and an id that names no
    channel: each one line saying what to do."""
    fake = fake_discord
    settings = await good(fake)
    bare = fake.add_guild("commands only", bot=False, commands=True)
    for channel_id, fix in ((bare.channel("lobby").id, "not only its commands"),
                            (1, "Copy Channel ID")):
        checks = await diagnose(settings, channel_id=channel_id)
        level, detail = lines(checks)[f"channel {channel_id}"]
        assert level is Level.MISSING and fix in detail, detail


async def test_commands_in_the_dev_server_alone_are_said_to_miss_user_installs(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    settings = settings_for(fake, dev_guild=fake.guild.id)
    fake.rest._put_commands(fake.guild.id, await declared_commands(settings))
    upload_faces(fake)
    named = lines(await diagnose(settings))
    assert named["commands"][0] is Level.OK, named["commands"]
    assert named["commands for user installs"][0] is Level.WARN


def test_scrubbing_leaves_no_run_of_the_token() -> None:
    token = "abcdef0123456789"
    text = scrubbed(f"before {token} after, and 0123456 alone", token)
    assert not any(token[i:i + 6] in text for i in range(len(token) - 5)), text


def test_the_cli_without_a_token_names_what_to_do(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISCORD_TOKEN": ""}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "doctor"], check=False, cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1 and "DISCORD_TOKEN" in done.stdout, done.stdout + done.stderr
