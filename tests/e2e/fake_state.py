"""The fake Discord's world: users, guilds, channels, messages, interactions, and their payloads.

Payloads are built the way Discord sends them, so the unmodified discord.py client can parse
them. Nothing here does I/O; ``fake_discord`` serves it over HTTP and the gateway.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MANAGE_CHANNELS = 1 << 4
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
#: "Allows user-installed apps to send public responses. When disabled, users will still
#: be allowed to use their apps but the responses will be ephemeral. This only applies to
#: apps not also installed to the server." (developers/topics/permissions.mdx); "enabled
#: for servers by default" (change-log, User-Installed Apps General Availability).
USE_EXTERNAL_APPS = 1 << 50
EVERYONE_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | EMBED_LINKS
    | ATTACH_FILES
    | (1 << 16)  # read message history
    | (1 << 31)  # use application commands
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_APPS
)
ALL_PERMISSIONS = (1 << 51) - 1
#: ``app_permissions`` in (G)DMs with other users: "ATTACH_FILES | EMBED_LINKS |
#: MENTION_EVERYONE" (developers/interactions/receiving-and-responding.mdx, Interaction
#: Structure); the fake sends the same where only a user installed the app in a server.
EXTERNAL_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE

# Interaction context types (receiving-and-responding.mdx, Interaction Context Types) and
# application integration types (developers/resources/application.mdx).
GUILD_CONTEXT, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Gateway intents that need a switch in the developer portal.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


class ApiError(Exception):
    """A Discord-style error: HTTP status plus a JSON body with ``code`` and ``message``."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class Clock:
    """The fake Discord's time: the real clock plus an offset a test moves forward
    (``advance``) to make an hour pass; snowflakes, deadlines and message ages use it."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Snowflakes:
    """Discord snowflakes: milliseconds since 2015 << 22, then an increment within the
    millisecond. They follow the fake's clock, back in time too (a test that posts
    "an hour ago"); every one ever made is distinct."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._made: set[int] = set()

    def next(self) -> int:
        snowflake = (int(self.clock.now() * 1000) - DISCORD_EPOCH_MS) << 22
        while snowflake in self._made:
            snowflake += 1
        self._made.add(snowflake)
        return snowflake


def snowflake_time(snowflake: int) -> float:
    """The Unix time a snowflake was made."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def iso(ts: float | None) -> str | None:
    """A Unix time as Discord's ISO-8601 timestamp."""
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: The user installed the application to their account (USER_INSTALL): its commands
    #: that allow it follow them into every server, DM and group DM.
    installed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    roles: list[Role]
    joined_at: float = field(default_factory=time.time)

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "roles": [str(r.id) for r in self.roles],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel (type 0), a public or private thread in one (type 11 or 12,
    with ``parent``), the bot's DM with a user (type 1, ``recipient``), or a DM or group
    DM between users that the bot is no member of (type 1 or 3, ``recipients``: "Bots
    cannot … be added to or join Group DMs", developers/topics/oauth2.mdx); holds its
    messages. A private thread is seen only by its ``members`` (user ids; its creator and
    whoever was added)."""

    id: int
    name: str
    guild: Guild | None = None
    recipient: User | None = None
    #: The people of a DM or group DM between users (no bot among them).
    recipients: list[User] = field(default_factory=list)
    group: bool = False
    deleted: bool = False
    all_messages: list[Message] = field(default_factory=list)
    #: Permission bits a channel overwrite takes from the bot here (``FakeDiscord.deny``).
    bot_denied: int = 0
    parent: Channel | None = None
    #: An archived thread takes no edits; a message sent to it unarchives it unless it is
    #: also locked (then only Manage Threads may unarchive it).
    archived: bool = False
    locked: bool = False
    private: bool = False
    members: set[int] = field(default_factory=set)

    def can_see(self, user_id: int) -> bool:
        """Whether a member of the guild sees this channel (private threads: members)."""
        return not self.private or user_id in self.members

    @property
    def is_dm(self) -> bool:
        return self.guild is None

    @property
    def is_private(self) -> bool:
        """A DM or group DM between users (the bot is not in it)."""
        return self.guild is None and self.recipient is None

    @property
    def context(self) -> int:
        """The interaction context of this channel: a server, the bot's DM, or a private
        channel (receiving-and-responding.mdx, Interaction Context Types)."""
        if self.guild is not None:
            return GUILD_CONTEXT
        return BOT_DM if self.recipient is not None else PRIVATE_CHANNEL

    def people(self) -> list[User]:
        """Who is in a DM or group DM (the bot's DM: its one user)."""
        return [self.recipient] if self.recipient is not None else list(self.recipients)

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    @property
    def send_permission(self) -> int:
        """The bit that lets the bot post here (threads have their own)."""
        return SEND_MESSAGES_IN_THREADS if self.is_thread else SEND_MESSAGES

    def bot_permissions(self, bot: User) -> int:
        """What the bot may do here: its roles' permissions less this channel's denials
        (a thread's are its parent's; Administrator overrides every overwrite, as on
        Discord)."""
        if self.parent is not None:
            return self.parent.bot_permissions(bot)
        if self.guild is None:
            return EVERYONE_PERMISSIONS if self.recipient is not None else 0
        if bot.id not in self.guild.members:
            return 0  # a server that only users installed the app in: the bot is not there
        perms = self.guild.permissions_of(bot)
        return perms if perms & ADMINISTRATOR else perms & ~self.bot_denied

    def messages(self, *, include_ephemeral: bool = False) -> list[Message]:
        """The messages still visible here, oldest first (ephemeral replies excluded)."""
        return [
            m
            for m in self.all_messages
            if not m.deleted and (include_ephemeral or m.ephemeral_for is None)
        ]

    def last_message(self) -> Message:
        messages = self.messages()
        assert messages, f"no messages in {self.label}"
        return messages[-1]

    @property
    def label(self) -> str:
        if self.is_private:
            return f"{'group ' if self.group else ''}DM {self.name}"
        return f"DM with {self.recipient.name}" if self.recipient else f"#{self.name}"

    def payload(self) -> dict[str, Any]:
        last = self.all_messages[-1].id if self.all_messages else None
        if self.is_private:
            data: dict[str, Any] = {
                "id": str(self.id),
                "type": 3 if self.group else 1,
                "last_message_id": str(last) if last else None,
                "flags": 0,
                "recipients": [u.payload() for u in self.recipients],
            }
            if self.group:
                data.update(name=self.name, icon=None, owner_id=str(self.recipients[0].id))
            return data
        if self.guild is None:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": str(last) if last else None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        if self.parent is not None:
            return {
                "id": str(self.id),
                "type": 12 if self.private else 11,
                "guild_id": str(self.guild.id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.guild.owner.id),
                "name": self.name,
                "last_message_id": str(last) if last else None,
                "rate_limit_per_user": 0,
                "message_count": len(self.all_messages),
                "member_count": 1,
                "total_message_sent": len(self.all_messages),
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(time.time()),
                },
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.guild.channels.index(self) if self in self.guild.channels else 0,
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "parent_id": None,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner: User
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    #: An admin installed the app here with ``applications.commands`` alone: its commands
    #: are the server's ("allows your app to add commands to a guild", oauth2.mdx, OAuth2
    #: Scopes), but no bot user joined.
    commands_only: bool = False

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    def permissions_of(self, user: User) -> int:
        """Guild-level permissions (no channel overwrites in the fake): OR of the roles."""
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        member = self.members[user.id]
        perms = self.everyone.permissions
        for role in member.roles:
            perms |= role.permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def role(self, name: str) -> Role:
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(f"no role {name!r} in {self.name}")

    def channel(self, name: str) -> Channel:
        for channel in self.channels:
            if channel.name == name and not channel.deleted:
                return channel
        raise KeyError(f"no channel #{name} in {self.name}")

    def payload(self, *, member_ids: set[int] | None = None) -> dict[str, Any]:
        """GUILD_CREATE data; ``member_ids`` limits the members sent (no members intent)."""
        members = [
            m.payload()
            for m in self.members.values()
            if member_ids is None or m.user.id in member_ids
        ]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "nsfw_level": 0,
            "joined_at": iso(time.time()),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in self.channels if not (c.deleted or c.is_thread)],
            "threads": [
                c.payload() for c in self.channels if c.is_thread and not (c.deleted or c.archived)
            ],
            "members": members,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def _component_texts(components: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for comp in components:
        for key in ("label", "placeholder", "content"):
            if comp.get(key):
                out.append(str(comp[key]))
        for option in comp.get("options", []):
            out.extend(str(option[k]) for k in ("label", "description") if option.get(k))
        out.extend(_component_texts(comp.get("components", [])))
        if isinstance(comp.get("accessory"), dict):
            out.extend(_component_texts([comp["accessory"]]))
    return out


def embed_texts(embed: dict[str, Any]) -> list[str]:
    """Every piece of human-readable text in an embed."""
    out = [str(embed[k]) for k in ("title", "description") if embed.get(k)]
    for sub in ("author", "footer"):
        if embed.get(sub, {}).get("name") or embed.get(sub, {}).get("text"):
            out.append(str(embed[sub].get("name") or embed[sub].get("text")))
    for fld in embed.get("fields", []):
        out.extend((str(fld.get("name", "")), str(fld.get("value", ""))))
    return out


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first (rows, their children, section accessories)."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(walk_components(comp.get("components", [])))
        if isinstance(comp.get("accessory"), dict):
            out.extend(walk_components([comp["accessory"]]))
    return out


@dataclass(eq=False)
class Message:
    """A message and every version of it that was ever shown (``history``)."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_for: User | None = None
    interaction: Interaction | None = None
    edited_at: float | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    #: Who this message pinged when it was sent (user ids, "everyone"), as Discord decides
    #: from its content and ``allowed_mentions`` (edits never ping).
    pinged: set[int | str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.history.append(self._version())

    def _version(self) -> dict[str, Any]:
        return copy.deepcopy(
            {"content": self.content, "embeds": self.embeds, "components": self.components}
        )

    def apply(self, data: dict[str, Any]) -> None:
        """Apply a create or edit body (absent keys stay, ``None`` clears) and record it."""
        if "content" in data:
            self.content = data["content"] or ""
        if "embeds" in data:
            self.embeds = copy.deepcopy(data["embeds"] or [])
        if "components" in data:
            self.components = number_components(copy.deepcopy(data["components"] or []))
        if data.get("flags") is not None:
            kept = self.flags & (EPHEMERAL | COMPONENTS_V2)
            self.flags = kept | (data["flags"] & ~(EPHEMERAL | LOADING))
        self.history.append(self._version())

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def rich(self) -> bool:
        """Shown with an embed or with layout components (not plain text)."""
        return bool(self.embeds) or bool(self.flags & COMPONENTS_V2)

    @property
    def created_at(self) -> float:
        return snowflake_time(self.id)

    @property
    def text(self) -> str:
        """Content, embed text and component labels, one piece per line."""
        return version_text(self.history[-1])

    def all_text(self) -> str:
        """The text of every version this message ever had (for leak checks)."""
        return "\n".join(version_text(v) for v in self.history)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def snapshot(self) -> Message:
        """A frozen copy, as a user whose screen has not refreshed still sees it."""
        return _frozen_copy(self)

    def payload(self) -> dict[str, Any]:
        guild = self.channel.guild
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "reactions": [],
        }
        if guild is not None:
            data["guild_id"] = str(guild.id)
        if self.interaction is not None:
            inter = self.interaction
            data["webhook_id"] = str(inter.application_id)
            data["application_id"] = str(inter.application_id)
            data["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.payload(),
                "authorizing_integration_owners": inter.integration_owners(),
            }
        return data


def _frozen_copy(message: Message) -> Message:
    clone = copy.copy(message)
    clone.components = copy.deepcopy(message.components)
    clone.embeds = copy.deepcopy(message.embeds)
    return clone


def version_text(version: dict[str, Any]) -> str:
    parts = [version["content"]] if version["content"] else []
    for embed in version["embeds"]:
        parts.extend(embed_texts(embed))
    parts.extend(_component_texts(version["components"]))
    return "\n".join(parts)


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every component a numeric ``id`` if it has none, as Discord does."""
    for number, comp in enumerate(walk_components(components), start=1):
        comp.setdefault("id", number)
    return components


@dataclass(eq=False)
class Interaction:
    """One interaction the fake dispatched, and what the bot answered."""

    id: int
    token: str
    type: int
    application_id: int
    user: User
    channel: Channel
    data: dict[str, Any]
    message: Message | None = None
    dispatched_at: float = 0.0
    callback_type: int | None = None
    callback_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    expired: bool = False
    #: ``authorizing_integration_owners``: "0" → the guild id (or "0" in the bot's DM) when
    #: the app is installed there, "1" → the id of the user whose install authorised it.
    owners: dict[str, str] = field(default_factory=dict)
    #: Discord makes every answer to this interaction ephemeral: a user-installed app in a
    #: server that took Use External Apps from the user (permissions.mdx).
    forced_ephemeral: bool = False
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    filled: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the bot's callback (``None`` if it never answered)."""
        return None if self.callback_at is None else self.callback_at - self.dispatched_at

    @property
    def messages(self) -> list[Message]:
        """The messages this interaction's answer created or updated, original first."""
        out = [self.original] if self.original is not None else []
        return out + [m for m in self.followups if m is not self.original]

    @property
    def response(self) -> Message | None:
        """The reply the user sees first: the original, else the first follow-up (after a
        deferred update the original is the clicked message, so a follow-up comes first)."""
        if self.callback_type == 6 and self.followups:
            return self.followups[0]
        messages = [m for m in self.messages if not m.deleted]
        return messages[0] if messages else None

    @property
    def ephemeral(self) -> bool:
        return self.response is not None and self.response.ephemeral

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    def integration_owners(self) -> dict[str, str]:
        """``authorizing_integration_owners`` as the fake decided it when dispatching."""
        return dict(self.owners)

    @property
    def user_installed_only(self) -> bool:
        """"initiated from a user-installed app and isn't installed in the server (meaning
        the authorizing integration owners object only contains USER_INSTALL)": at most 5
        follow-ups (receiving-and-responding.mdx, Create Followup Message)."""
        return str(GUILD_INSTALL) not in self.owners

    def payload(self, bot: User, guild_member: Member | None) -> dict[str, Any]:
        guild = self.channel.guild
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(self.application_id),
            "type": self.type,
            "data": self.data,
            "channel": self._channel_payload(),
            "channel_id": str(self.channel.id),
            "token": self.token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": self.integration_owners(),
            "attachment_size_limit": 10 * 1024 * 1024,
            "context": self.channel.context,
        }
        if guild is not None:
            assert guild_member is not None
            data["guild_id"] = str(guild.id)
            data["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            data["guild_locale"] = "en-US"
            data["member"] = guild_member.payload(permissions=guild.permissions_of(self.user))
            in_guild = bot.id in guild.members
            data["app_permissions"] = str(
                self.channel.bot_permissions(bot) if in_guild else EXTERNAL_APP_PERMISSIONS
            )
        else:
            data["user"] = self.user.payload()
            data["app_permissions"] = str(
                EVERYONE_PERMISSIONS | USE_EXTERNAL_EMOJIS if self.channel.recipient is not None
                else EXTERNAL_APP_PERMISSIONS
            )
        if self.message is not None:
            data["message"] = self.message.payload()
        return data

    def _channel_payload(self) -> dict[str, Any]:
        """The interaction's channel: "Partial Channel objects only have id, name, type,
        permissions, …" (receiving-and-responding.mdx) — a private channel's people and
        owner are not told."""
        full = self.channel.payload()
        if not self.channel.is_private:
            return full
        return {k: full[k] for k in ("id", "type", "last_message_id", "flags", "name")
                if k in full}


@dataclass
class RequestRecord:
    """One HTTP request the bot made, and how the fake answered it."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    json: Any
    at: float
    status: int = 0

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}"

    @property
    def interaction_response(self) -> bool:
        """Interaction callbacks and webhook calls with an interaction token."""
        return self.route.startswith(("/interactions/", "/webhooks/"))

    @property
    def counts_toward_global_limit(self) -> bool:
        """Discord's global 50/s limit skips interaction endpoints."""
        return not self.interaction_response


@dataclass
class Command:
    """An application command as registered by the bot (ids and version added)."""

    id: int
    guild_id: int | None
    data: dict[str, Any]

    def payload(self, application_id: int) -> dict[str, Any]:
        out = copy.deepcopy(self.data)
        out.update(
            id=str(self.id),
            application_id=str(application_id),
            version=str(self.id),
            type=self.data.get("type", 1),
        )
        out.setdefault("default_member_permissions", None)
        out.setdefault("nsfw", False)
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


_USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinged_by(content: str, allowed: dict[str, Any] | None) -> set[int | str]:
    """Whom a new message pings. Without ``allowed_mentions`` every mention in the content
    pings; with it, only the kinds in ``parse`` and the ids in ``users``."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    listed = {int(u) for u in (allowed or {}).get("users", [])}
    out: set[int | str] = {
        uid for uid in map(int, _USER_MENTION.findall(content))
        if "users" in parse or uid in listed
    }
    if "everyone" in parse and ("@everyone" in content or "@here" in content):
        out.add("everyone")
    return out
