"""What the bot needs on a server, and why: the one list the invite, the README's table
and the checks before opening a table or an event are made from
(``tests/discord/test_permissions.py`` holds the README to it).

Each need names the uses that cannot go without it; a check names the uses it is about
(``missing(granted, THREAD)``) and says which permissions are missing, in Discord's words.
Editing and deleting its own messages, DMs, and everything done through an interaction's
token need no permission.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from i18n import N_, ngettext

#: The uses a check can be about.
TABLE = "a table in a channel"
#: ``/table new`` run in a thread: posting there takes Send Messages in Threads, not Send
#: Messages (developers/topics/permissions.mdx, Bitwise Permission Flags).
IN_THREAD = "a table in the thread it is opened in"
THREAD = "a table in a thread of its own"
EVENT = "an event (tables in public threads)"
DUPLICATE = "a duplicate event (tables in private threads)"


@dataclass(frozen=True)
class Need:
    """A permission (discord.py's flag name and Discord's own), why Deckhand asks for it,
    and the uses that are refused without it (none: used where granted)."""

    flag: str
    name: str
    #: Why, in English (the README's table); ``_(why)`` in the reader's language.
    why: str
    uses: frozenset[str] = frozenset()


_ALL = frozenset({TABLE, THREAD, EVENT, DUPLICATE})
NEEDS = (
    Need("view_channel", "View Channels", N_("see the channels of tables and events"),
         _ALL | {IN_THREAD}),
    Need("send_messages", "Send Messages",
         N_("post table messages, notices and event announcements"), _ALL),
    Need("embed_links", "Embed Links",
         N_("an event's sign-up message is an embed the bot edits itself"),
         frozenset({EVENT, DUPLICATE})),
    Need("attach_files", "Attach Files",
         N_("the picture of each hand that ends; `/stats`' rating chart")),
    Need("manage_threads", "Manage Threads",
         N_("delete a table's thread again when its lobby closes before a game was dealt"),
         frozenset({THREAD})),
    Need("create_public_threads", "Create Public Threads",
         N_("tables opened with `thread:true` (or the server's default); Swiss and"
            " round-robin events' tables"), frozenset({THREAD, EVENT})),
    Need("create_private_threads", "Create Private Threads",
         N_("duplicate events: each table plays in a thread only its players see"),
         frozenset({DUPLICATE})),
    Need("send_messages_in_threads", "Send Messages in Threads", N_("play at tables in threads"),
         frozenset({IN_THREAD, THREAD, EVENT, DUPLICATE})),
)


#: Every permission the invite asks for.
INVITE = discord.Permissions(**{n.flag: True for n in NEEDS})


def missing(granted: discord.Permissions, *uses: str) -> str:
    """The permissions those uses need that ``granted`` lacks, in words ("" when none)."""
    names = [n.name for n in NEEDS if n.uses & set(uses) and not getattr(granted, n.flag)]
    if not names:
        return ""
    return ngettext("the {names} permission", "the {names} permissions", len(names),
                    names=", ".join(names))


def invite_link(application_id: str = "<APPLICATION_ID>") -> str:
    """The link that adds the bot to a server with ``INVITE``'s permissions."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot%20applications.commands&permissions={INVITE.value}"
    )


def user_install_link(application_id: str = "<APPLICATION_ID>") -> str:
    """The link that installs Deckhand to a person's account (``integration_type=1``,
    developers/topics/oauth2.mdx): commands only, no bot, so no permissions."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        "&integration_type=1&scope=applications.commands"
    )


def readme_table() -> str:
    """The README's table of permissions (Markdown)."""
    rows = [f"| {n.name} | {n.why} |" for n in NEEDS]
    return "\n".join(["| Permission | Why |", "|---|---|", *rows])
