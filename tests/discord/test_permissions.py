"""The bot's permissions are one list (``bot.permissions``): the README's table, integer
and invite link (and docs/user-install.md's link) are that list, and the checks before a
table or an event ask it."""

from __future__ import annotations

from pathlib import Path

import discord

from bot import permissions
from bot.permissions import DUPLICATE, EVENT, INVITE, NEEDS, TABLE, THREAD

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
USER_INSTALL = ROOT / "docs" / "user-install.md"


def test_the_readme_shows_the_list_its_integer_and_its_link() -> None:
    text = README.read_text(encoding="utf-8")
    table = "\n".join("   " + line for line in permissions.readme_table().splitlines())
    assert table in text, "README's permission table is not bot/permissions.py's"
    assert f"permissions integer **{INVITE.value}**" in text
    assert permissions.invite_link() in text
    assert permissions.user_install_link() in USER_INSTALL.read_text(encoding="utf-8")
    named = {n.name for n in NEEDS}
    assert len(named) == len(NEEDS) and "Read Message History" not in named


def test_every_need_is_a_discord_permission_and_the_invite_holds_them_all() -> None:
    for need in NEEDS:
        assert getattr(INVITE, need.flag) is True, need.flag
    assert INVITE.value == sum(discord.Permissions(**{n.flag: True}).value for n in NEEDS)


def test_a_check_names_what_its_use_lacks_in_discord_s_words() -> None:
    granted = discord.Permissions(view_channel=True, send_messages=True)
    assert permissions.missing(granted, TABLE) == ""
    assert permissions.missing(granted, THREAD) == (
        "the Manage Threads, Create Public Threads, Send Messages in Threads permissions"
    )
    assert "Create Private Threads" in permissions.missing(granted, DUPLICATE)
    assert "Create Private Threads" not in permissions.missing(granted, EVENT)
    assert permissions.missing(discord.Permissions.none(), TABLE) == (
        "the View Channels, Send Messages permissions"
    )
    assert permissions.missing(INVITE, TABLE, THREAD, EVENT, DUPLICATE) == ""
