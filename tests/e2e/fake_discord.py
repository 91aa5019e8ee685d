"""A fake Discord on 127.0.0.1 for end-to-end tests of the unmodified discord.py client.

``FakeDiscord`` owns the world (``fake_state``), serves REST (``fake_rest``) and the gateway
(``fake_gateway``) from one aiohttp server, logs every request, injects faults on demand, and
dispatches interactions for the user-level driver (``driver``).

It is only worth what it refuses. Every request body is checked against Discord's OpenAPI
schemas (``fake_spec``), then against the limits only the docs state (``fake_limits``);
each route's rate-limit bucket and the global 50/s are announced and enforced
(``fake_ratelimit``); channel permissions (50001/50013; deleting a thread needs Manage
Threads), closed DMs (50007), archived and locked threads (50083), the 3-second callback
window (10062), a second acknowledgement (40060), 15-minute interaction tokens counted
from the interaction's creation (401 50027) and edits of messages older than an hour
(30046) run on the fake's clock (``fake.clock``); a first follow-up that would edit a
deferred "thinking…" message, which Discord documents as deprecated, is refused (50035);
application emojis keep Discord's names, image formats, 256 KiB and 2,000 limits
(``fake_emojis``).

User installs (``install``) are modelled as Discord documents them: DMs and group DMs
between users (``private_channel``) and servers without the bot (``add_guild(bot=False)``)
are closed to the bot's token (403 50001) and a DM needs a server in common (50278); a
command is offered only in the contexts and to the installs it declares (``offered``:
anything else cannot be invoked, ``NotOffered``), with ``authorizing_integration_owners``,
``context`` and ``app_permissions`` as Discord sends them; an interaction authorised only
by a user install takes at most 5 follow-ups (40094), and in a server that took Use
External Apps from the member every answer is ephemeral. A server can also install the
app with its commands alone (``add_guild(bot=False, commands=True)``).

Where Discord's docs are silent, the fake takes what Discord's users and staff reported,
each cited where it is enforced: an interaction token takes 5 requests per 2 s across its
routes (``fake_ratelimit``, with the headers Discord sends); 30046 counts old-message
edits through a token as through the bot's (``fake_rest``); and an installer who removes
the app (``uninstall``) or leaves a group DM (``leave``) takes its authorisation with
them (``live_owners``). ``test_fake_refuses.py`` plants one violation of each rule.
"""

from __future__ import annotations

import asyncio
import fnmatch
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from bot.permissions import INVITE
from tests.e2e.driver import Person, RequestCounter
from tests.e2e.fake_emojis import AppEmoji
from tests.e2e.fake_gateway import Gateway
from tests.e2e.fake_ratelimit import RateLimits, too_many_body
from tests.e2e.fake_rest import Created, Req, Rest
from tests.e2e.fake_spec import check_body
from tests.e2e.fake_state import (
    ADMINISTRATOR,
    BOT_DM,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    MANAGE_GUILD,
    PRIVATE_CHANNEL,
    SEND_MESSAGES,
    USE_EXTERNAL_APPS,
    USER_INSTALL,
    ApiError,
    Channel,
    Clock,
    Command,
    Guild,
    Interaction,
    Member,
    Message,
    RequestRecord,
    Role,
    Snowflakes,
    User,
    dumps,
    pinged_by,
)
from tests.e2e.redirect import Saved, point_discord_py, restore

API_PREFIX = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json"}


class NotOffered(AssertionError):
    """A command Discord would not show to that user in that channel, so no one can run
    it there: its ``contexts`` or ``integration_types`` leave it out, the app is not
    installed where it would need to be, or the member lacks its default permissions."""


@dataclass
class Fault:
    """An injected failure for requests whose method and path match (``*`` wildcards)."""

    method: str
    path: str
    kind: str  # "429", "5xx" or "delay"
    times: int | None
    status: int = 500
    seconds: float = 0.0
    is_global: bool = False
    served: int = 0

    def matches(self, record: RequestRecord) -> bool:
        if self.times is not None and self.served >= self.times:
            return False
        method_ok = self.method in ("*", record.method)
        return method_ok and (
            fnmatch.fnmatchcase(record.path, self.path) or self.path == record.route
        )


class FakeDiscord:
    """The fake server. ``await start()`` redirects discord.py to it; ``await stop()`` undoes it.

    A default guild (``self.guild``) has ``#lobby`` and ``#general``, an ``@everyone`` role
    with ordinary member permissions and a ``Manager`` role with Manage Server.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        callback_deadline: float = 3.0,
        settle: float = 0.1,
        shards: int = 1,
    ) -> None:
        self.clock = Clock()
        self.ids = Snowflakes(self.clock)
        self.token = token
        self.callback_deadline = callback_deadline
        #: An interaction token (follow-ups, edits of the original) works for 15 minutes.
        self.token_lifetime = 15 * 60.0
        #: What each uploaded attachment held, by attachment id.
        self.uploads: dict[str, bytes] = {}
        self.settle_time = settle
        self.shards = shards
        self.allowed_privileged_intents = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES
        #: The application's flags (its privileged intents switched on, application.mdx
        #: Application Flags) and its Installation page's Default Install Settings.
        self.app_flags = 0
        self.install_config: dict[str, Any] = {
            str(GUILD_INSTALL): {"oauth2_install_params": {
                "scopes": ["applications.commands", "bot"], "permissions": str(INVITE.value),
            }},
            str(USER_INSTALL): {"oauth2_install_params": {
                "scopes": ["applications.commands"], "permissions": "0",
            }},
        }
        self.application_id = self.ids.next()
        self.bot_user = User(self.application_id, "deckhand", bot=True)
        self.owner = User(self.ids.next(), "owner")
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.commands: list[Command] = []
        #: The application's own emojis, by id.
        self.app_emojis: dict[int, AppEmoji] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.requests: list[RequestRecord] = []
        self.faults: list[Fault] = []
        self.counters: list[RequestCounter] = []
        self.gateway = Gateway(self)
        self.rest = Rest(self)
        self.limits = RateLimits(self.clock)
        self._people: dict[int, Person] = {}
        self._dms: dict[int, Channel] = {}
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._quiet_until = 0.0
        self._runner: web.AppRunner | None = None
        self._saved: Saved | None = None
        self.port = 0
        self.guild = self.add_guild("Deckhand Test", channels=("lobby", "general"))

    # -- lifecycle --------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_http)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._saved = point_discord_py(self.base_url, self.gateway_url)

    async def stop(self) -> None:
        if self._saved is not None:
            restore(self._saved)
            self._saved = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    # -- the world --------------------------------------------------------------------------

    def add_guild(
        self,
        name: str,
        *,
        channels: Iterable[str] = ("lobby",),
        bot: bool = True,
        commands: bool = False,
    ) -> Guild:
        """A server; without ``bot`` the application's bot is no member of it, hears nothing
        of it and its token reaches nothing there (403 50001) — the app is not installed
        to it (its members may still use their own user installs), or, with ``commands``,
        an admin installed it with the ``applications.commands`` scope alone: then the
        server's own install authorises its commands (``authorizing_integration_owners``
        names the guild) while the bot still reaches nothing (discord/discord-api-docs#3085
        describes such installs: "With only `applications.commands`", no GUILD_CREATE)."""
        guild = Guild(self.ids.next(), name, self.owner, commands_only=commands and not bot)
        guild.roles.append(Role(guild.id, "@everyone", EVERYONE_PERMISSIONS))
        guild.roles.append(Role(self.ids.next(), "Manager", MANAGE_GUILD, position=1))
        guild.roles.append(Role(self.ids.next(), "Admin", ADMINISTRATOR, position=2))
        guild.members[self.owner.id] = Member(self.owner, [])
        if bot:
            # The bot's role holds what its invite asks for (``bot.permissions``), as when
            # an admin authorises the README's link.
            bot_role = Role(self.ids.next(), "Deckhand", INVITE.value, position=1)
            guild.roles.append(bot_role)
            guild.members[self.bot_user.id] = Member(self.bot_user, [bot_role])
        self.guilds.append(guild)
        for channel_name in channels:
            self.add_channel(channel_name, guild)
        return guild

    def add_channel(self, name: str, guild: Guild | None = None) -> Channel:
        guild = guild or self.guild
        channel = Channel(self.ids.next(), name, guild=guild)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    async def add_thread(self, parent: Channel, name: str, *, private: bool = False) -> Channel:
        """A public (or private: only the bot is in it) thread in ``parent`` (THREAD_CREATE
        goes to the bot)."""
        assert parent.guild is not None and not parent.is_thread
        thread = Channel(self.ids.next(), name, guild=parent.guild, parent=parent,
                         private=private, members={self.bot_user.id})
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        await self.gateway.dispatch(
            "THREAD_CREATE", {**thread.payload(), "newly_created": True}, guild_id=parent.guild.id
        )
        return thread

    async def set_archived(self, thread: Channel, archived: bool, *, locked: bool = False) -> None:
        """Archive (optionally lock) or unarchive a thread, as inactivity or a moderator
        would; the bot hears THREAD_UPDATE."""
        assert thread.guild is not None and thread.is_thread
        thread.archived, thread.locked = archived, locked and archived
        await self.gateway.dispatch("THREAD_UPDATE", thread.payload(), guild_id=thread.guild.id)

    def channel(self, name: str, guild: Guild | None = None) -> Channel:
        return (guild or self.guild).channel(name)

    def guild_by_id(self, guild_id: int) -> Guild:
        for guild in self.guilds:
            if guild.id == guild_id:
                return guild
        raise ApiError(404, 10004, "Unknown Guild")

    def user_by_id(self, user_id: int) -> User:
        if user_id not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        return self.users[user_id]

    def user(self, name: str) -> Person:
        """The person called ``name`` (created on first use as a plain member of the guild)."""
        for person in self._people.values():
            if person.name == name:
                return person
        return self.member(name)

    def member(
        self,
        name: str,
        *,
        guild: Guild | None = None,
        manage_guild: bool = False,
        admin: bool = False,
        roles: Iterable[str] = (),
    ) -> Person:
        """Make ``name`` a member of ``guild`` with the given roles; returns the person."""
        guild = guild or self.guild
        person = next((p for p in self._people.values() if p.name == name), None)
        if person is None:
            user = User(self.ids.next(), name)
            self.users[user.id] = user
            person = self._people[user.id] = Person(self, user)
        names = [*roles, *(["Manager"] if manage_guild else []), *(["Admin"] if admin else [])]
        member = guild.members.setdefault(person.id, Member(person.user, []))
        member.roles = [guild.role(n) for n in dict.fromkeys(names)]
        return person

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        if user.id not in self._dms:
            channel = Channel(self.ids.next(), f"dm-{user.name}", recipient=user)
            self._dms[user.id] = self.channels[channel.id] = channel
        return self._dms[user.id]

    def existing_dm(self, user: User) -> Channel | None:
        return self._dms.get(user.id)

    def private_channel(self, *people: Person, name: str = "") -> Channel:
        """A DM between two users, or (three or more) a group DM, the first person its
        owner; the bot is no member of either."""
        assert len(people) >= 2, "a DM needs two people"
        group = len(people) > 2
        channel = Channel(
            self.ids.next(), name or "+".join(p.name for p in people),
            recipients=[p.user for p in people], group=group,
        )
        self.channels[channel.id] = channel
        return channel

    def install(self, *people: Person) -> None:
        """Each person adds the application to their account (USER_INSTALL)."""
        for person in people:
            person.user.installed = True

    def shares_a_guild(self, user: User) -> bool:
        """Whether the bot and ``user`` are members of one server (a DM needs it: 50278)."""
        return any(user.id in g.members and self.bot_user.id in g.members for g in self.guilds)

    def in_guild(self, guild: Guild) -> bool:
        """Whether the application's bot is a member of ``guild`` (GUILD_INSTALL)."""
        return self.bot_user.id in guild.members

    def installed_in(self, guild: Guild) -> bool:
        """Whether the app is installed to ``guild`` at all (its bot, or its commands)."""
        return self.in_guild(guild) or guild.commands_only

    def uninstall(self, *people: Person) -> None:
        """Each person removes the application from their account: their commands are no
        longer offered, and what their install authorised loses it — clicks on the
        messages its interactions made arrive without that owner, and every call with
        the token of an interaction it alone authorised is refused (``live_owners``)."""
        for person in people:
            person.user.installed = False

    def leave(self, channel: Channel, person: Person) -> None:
        """``person`` leaves a group DM: their install authorises nothing there any more."""
        channel.recipients.remove(person.user)

    def live_owners(self, owners: dict[str, str], channel: Channel) -> dict[str, str]:
        """The installs of ``owners`` that still authorise the app in ``channel``: the
        server's while the app is installed there (the bot's DM: while it shares a server
        with its user), a user's while they keep the app and (in a DM or group DM) stay in
        the conversation.

        Discord documents none of this. What is modelled is what its tracker reports: an
        app whose installing user removed it answers "Unknown Integration" (10005,
        opcodes-and-status-codes.mdx; seen by users on discord/discord-api-docs#6699),
        clicks carry no owner for it, and its interactions' webhooks are gone (10015
        Unknown Webhook) — the strictest reading."""
        live: dict[str, str] = {}
        guild_owner = owners.get(str(GUILD_INSTALL))
        guild, recipient = channel.guild, channel.recipient
        server = guild is not None and self.installed_in(guild)
        bot_dm = recipient is not None and self.shares_a_guild(recipient)
        if guild_owner is not None and (server or bot_dm):
            live[str(GUILD_INSTALL)] = guild_owner
        user_owner = owners.get(str(USER_INSTALL))
        if user_owner is not None:
            user = self.users.get(int(user_owner))
            present = not channel.is_private or user in channel.recipients
            if user is not None and user.installed and present:
                live[str(USER_INSTALL)] = user_owner
        return live

    def commands_for(self, guild_id: int | None) -> list[Command]:
        return [c for c in self.commands if c.guild_id == guild_id]

    def offered(self, user: User, channel: Channel, name: str) -> tuple[Command, dict[str, str]]:
        """The chat command ``name`` as Discord offers it to ``user`` in ``channel``, and the
        installs that authorise it (``authorizing_integration_owners``); ``NotOffered``
        when Discord would not show it there.

        A guild command exists only in its server, where the app is installed. A global
        command is offered where its ``contexts`` include the channel's (created without
        them: every context, application-commands.mdx) and one of its ``integration_types``
        (created without them: the app's configured installation contexts) is installed
        there — the app in the server
        (or, in the bot's DM, a server the bot shares with the user: "available in DMs if
        that app has a bot that shares a mutual guild with the user"), or the app on the
        user's account. PRIVATE_CHANNEL is "only meaningful for commands installed to a
        user". In a server the member also needs the command's default permissions."""
        guild = channel.guild
        for cmd in self.commands:
            if cmd.data["name"] != name or cmd.data.get("type", 1) != 1:
                continue
            if cmd.guild_id is not None:
                if guild is not None and cmd.guild_id == guild.id and self.installed_in(guild):
                    owners = {str(GUILD_INSTALL): str(guild.id)}
                    return self._permitted(cmd, user, channel), owners
                continue
            owners = self._owners(cmd.data, user, channel)
            if owners:
                return self._permitted(cmd, user, channel), owners
        raise NotOffered(f"/{name} is not offered to {user.name} in {channel.label}")

    def _owners(self, data: dict[str, Any], user: User, channel: Channel) -> dict[str, str]:
        contexts = data.get("contexts")
        if contexts is None:
            contexts = [GUILD_CONTEXT, PRIVATE_CHANNEL] + (
                [BOT_DM] if data.get("dm_permission") is not False else []
            )
        # Without them: the app's configured installation contexts (application-commands.mdx,
        # Application Command Structure: "Defaults to your app's configured contexts").
        installs = data.get("integration_types") or [int(k) for k in self.install_config]
        context = channel.context
        if context not in contexts:
            return {}
        owners: dict[str, str] = {}
        if GUILD_INSTALL in installs:
            if channel.guild is not None and self.installed_in(channel.guild):
                owners[str(GUILD_INSTALL)] = str(channel.guild.id)
            elif context == BOT_DM and self.shares_a_guild(user):
                owners[str(GUILD_INSTALL)] = "0"
        if USER_INSTALL in installs and user.installed:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    @staticmethod
    def _permitted(cmd: Command, user: User, channel: Channel) -> Command:
        guild = channel.guild
        if guild is not None:
            needed = int(cmd.data.get("default_member_permissions") or 0)
            perms = guild.permissions_of(user)
            if not (perms & ADMINISTRATOR or perms & needed == needed):
                raise NotOffered(f"{user.name} does not see /{cmd.data['name']} (needs {needed})")
        return cmd

    def add_app_emoji(self, name: str, image: bytes = b"\x89PNG\r\n\x1a\n") -> AppEmoji:
        """An emoji the application already owns (uploaded earlier, or by hand in the
        Developer Portal, whose ``user`` is then the owner)."""
        emoji = AppEmoji(self.ids.next(), name, image, self.owner)
        self.app_emojis[emoji.id] = emoji
        return emoji

    def live_message(self, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def create_message(
        self,
        channel: Channel,
        data: dict[str, Any],
        *,
        flags: int = 0,
        ephemeral_for: User | None = None,
        interaction: Interaction | None = None,
        type_: int = 0,
        files: Sequence[tuple[str, str, bytes]] = (),
    ) -> Message:
        message = Message(
            self.ids.next(),
            channel,
            self.bot_user,
            flags=flags | (EPHEMERAL if ephemeral_for else 0),
            type=type_,
            ephemeral_for=ephemeral_for,
            interaction=interaction,
            attachments=self.attachments(data, files),
        )
        message.apply({k: v for k, v in data.items() if k != "flags"})
        message.history.pop(0)  # the empty version before the first apply was never shown
        message.pinged = pinged_by(message.content, data.get("allowed_mentions"))
        channel.all_messages.append(message)
        self.messages[message.id] = message
        return message

    def attachments(
        self, data: dict[str, Any], files: Iterable[tuple[str, str, bytes]]
    ) -> list[Any]:
        """Attachment objects for uploaded ``files[n]`` parts."""
        out = []
        for _name, filename, content in files:
            attachment_id = str(self.ids.next())
            self.uploads[attachment_id] = content
            out.append(
                {
                    "id": attachment_id,
                    "filename": filename,
                    "size": len(content),
                    "url": f"{self.base_url}/attachments/{attachment_id}/{filename}",
                    "proxy_url": f"{self.base_url}/attachments/{attachment_id}/{filename}",
                    "content_type": "application/octet-stream",
                }
            )
        return out

    # -- faults -----------------------------------------------------------------------------

    def refuse_dms(self, who: Person | User, refuse: bool = True) -> None:
        """Make DMs to ``who`` fail with 403 / 50007 (or accept them again)."""
        (who.user if isinstance(who, Person) else who).dms_open = not refuse

    def rate_limit(
        self,
        method: str,
        path: str,
        *,
        times: int = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
    ) -> Fault:
        """Answer the next ``times`` matching requests with 429 and ``retry_after``."""
        return self._add_fault(Fault(method, path, "429", times, 429, retry_after, is_global))

    def server_error(self, method: str, path: str, *, times: int = 1, status: int = 500) -> Fault:
        """Answer the next ``times`` matching requests with a 5xx."""
        return self._add_fault(Fault(method, path, "5xx", times, status))

    def delay(self, method: str, path: str, seconds: float, *, times: int | None = None) -> Fault:
        """Hold matching requests for ``seconds`` before answering them."""
        return self._add_fault(Fault(method, path, "delay", times, seconds=seconds))

    def _add_fault(self, fault: Fault) -> Fault:
        self.faults.append(fault)
        return fault

    async def drop_gateway(self, *, code: int = 4000, resumable: bool = True) -> None:
        """Close the bot's websocket(s); the client must RESUME (or IDENTIFY again)."""
        assert await self.gateway.drop(code=code, resumable=resumable), "no gateway connected"

    def deny(self, channel: Channel, *permissions: int) -> None:
        """A channel overwrite taking ``permissions`` (bits) from the bot in ``channel``."""
        for bit in permissions:
            channel.bot_denied |= bit

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel as a moderator would: CHANNEL_DELETE, or THREAD_DELETE (id,
        type, guild and parent only) for a thread; a channel's threads go with it."""
        channel.deleted = True
        guild_id = channel.guild.id if channel.guild else None
        if channel.parent is not None:
            data = {key: channel.payload()[key] for key in ("id", "type", "guild_id", "parent_id")}
            await self.gateway.dispatch("THREAD_DELETE", data, guild_id=guild_id)
            return
        for thread in [c for c in self.channels.values() if c.parent is channel]:
            thread.deleted = True
        await self.gateway.dispatch("CHANNEL_DELETE", channel.payload(), guild_id=guild_id)

    async def delete_message(self, message: Message) -> None:
        """Delete a message (MESSAGE_DELETE goes to bots with the message intents)."""
        message.deleted = True
        guild = message.channel.guild
        if message.ephemeral:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel.id)}
        if guild is not None:
            data["guild_id"] = str(guild.id)
        intent = INTENT_GUILD_MESSAGES if guild else INTENT_DIRECT_MESSAGES
        session = self.gateway.session_for(guild.id if guild else None)
        if session is not None and session.intents & intent:
            await session.dispatch("MESSAGE_DELETE", data)

    # -- interactions -----------------------------------------------------------------------

    def open_interaction(
        self,
        user: User,
        channel: Channel,
        type_: int,
        data: dict[str, Any],
        message: Message | None = None,
        *,
        owners: dict[str, str] | None = None,
    ) -> Interaction:
        """An interaction the bot may answer from now on (its token and deadline run),
        authorised by ``owners`` (by default the install behind ``message``, or the app's
        own there). Where only a user install authorises it in a server, the member's
        permissions decide whether its answers may be public: "forced to respect the
        user's permissions in the surface" (application.mdx) — Send Messages, and Use
        External Apps for an app the server did not install (permissions.mdx)."""
        if owners is None:
            owners = self._interaction_owners_of_message(channel, message)
        inter = Interaction(
            self.ids.next(),
            "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type_,
            self.application_id,
            user,
            channel,
            data,
            message=message,
            dispatched_at=self.clock.now(),
            owners=owners,
        )
        guild = channel.guild
        if guild is not None and str(GUILD_INSTALL) not in owners:
            perms = guild.permissions_of(user)
            inter.forced_ephemeral = not (perms & USE_EXTERNAL_APPS and perms & SEND_MESSAGES)
        self.interactions[inter.id] = inter
        self.by_token[inter.token] = inter
        return inter

    async def interact(
        self,
        user: User,
        channel: Channel,
        type_: int,
        data: dict[str, Any],
        message: Message | None = None,
    ) -> Interaction:
        """Dispatch INTERACTION_CREATE as ``user`` in ``channel``; returns the record. A
        command Discord does not offer there is refused (``NotOffered``)."""
        if channel.is_private:
            assert user in channel.recipients, f"{user.name} is not in {channel.label}"
        owners = self._interaction_owners(user, channel, type_, data, message)
        inter = self.open_interaction(user, channel, type_, data, message, owners=owners)
        guild = channel.guild
        member = guild.members[user.id] if guild is not None else None
        payload = inter.payload(self.bot_user, member)
        delivered = await self.gateway.dispatch(
            "INTERACTION_CREATE", payload, guild_id=guild.id if guild else None
        )
        assert delivered, "no gateway session: start the bot before interacting"
        return inter

    def _interaction_owners(
        self,
        user: User,
        channel: Channel,
        type_: int,
        data: dict[str, Any],
        message: Message | None,
    ) -> dict[str, str]:
        """``authorizing_integration_owners``: a command's from the installs that offer it
        (``offered``); a component's from the interaction that made its message ("it can
        be used to tell the difference between the authorizing user and the user that
        triggered an interaction (like a message component)", receiving-and-responding.mdx),
        or — a message the bot posted itself — the app's install there."""
        if type_ in (2, 4):
            return self.offered(user, channel, str(data.get("name", "")))[1]
        return self._interaction_owners_of_message(channel, message)

    def _interaction_owners_of_message(
        self, channel: Channel, message: Message | None
    ) -> dict[str, str]:
        if message is not None and message.interaction is not None:
            return self.live_owners(message.interaction.integration_owners(), channel)
        guild = channel.guild
        return {str(GUILD_INSTALL): str(guild.id) if guild is not None else "0"}

    async def answer(self, inter: Interaction, timeout: float = 5.0) -> Interaction:
        """Wait for the callback (and, after a deferral, the real reply), then for quiet."""
        what = f"interaction {inter.type} {inter.data.get('name') or inter.data.get('custom_id')}"
        try:
            await asyncio.wait_for(inter.answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not answer {what} within {timeout} s") from None
        assert not inter.expired, f"the bot answered {what} after {self.callback_deadline} s"
        try:
            await asyncio.wait_for(inter.filled.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot deferred {what} but never followed up") from None
        await self.settle(timeout)
        return inter

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until no request is in flight, none is due after a 429/5xx, and
        ``settle`` seconds passed since the last one."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            due = max(self._quiet_until, self._last_activity + self.settle_time) - now
            if self._inflight == 0 and due <= 0:
                return
            if now > deadline:
                raise AssertionError("the bot kept making requests; it never went quiet")
            await asyncio.sleep(min(max(due, 0.01), 0.05))

    # -- measurements -----------------------------------------------------------------------

    def count(self) -> RequestCounter:
        """``with fake.count() as c: ...`` counts the requests made inside the block."""
        return RequestCounter(self)

    def latencies(self) -> list[float]:
        """Dispatch-to-callback seconds of every answered interaction so far."""
        return [i.latency for i in self.interactions.values() if i.latency is not None]

    # -- HTTP -------------------------------------------------------------------------------

    async def _handle_http(self, request: web.Request) -> web.Response:
        self._inflight += 1
        path = "/" + request.match_info["tail"]
        record = RequestRecord(
            request.method, path, path, dict(request.query), None, self.clock.now()
        )
        try:
            response = await self._serve(request, record)
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
        record.status = response.status
        return response

    async def _serve(self, request: web.Request, record: RequestRecord) -> web.Response:
        try:
            req = await self._read(request)
        except ValueError:
            return _error(ApiError(400, 50109, "The request body contains invalid JSON."))
        record.json = req.json
        matched = self.rest.match(request.method, record.path)
        if matched is not None:
            record.route = matched[2]
        self.requests.append(record)
        for counter in self.counters:
            counter.requests.append(record)
        if matched is None:
            return _error(ApiError(404, 0, "404: Not Found"))
        handler, req.params, template = matched
        authorized = request.headers.get("Authorization") == f"Bot {self.token}"
        if not record.interaction_response and not authorized:
            return _error(ApiError(401, 0, "401: Unauthorized"))
        fault = next((f for f in self.faults if f.matches(record)), None)
        if fault is not None:
            fault.served += 1
            if fault.kind == "delay":
                await asyncio.sleep(fault.seconds)
            elif fault.kind == "429":
                scope = "global" if fault.is_global else "user"
                headers = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                           "X-RateLimit-Reset-After": f"{fault.seconds:.3f}"}
                return self._too_many(fault.seconds, scope, headers)
            else:
                self._quiet_until = time.monotonic() + 1 + 2 * (fault.served - 1) + self.settle_time
                return _error(ApiError(fault.status, 0, f"{fault.status}: Server Error"))
        verdict = self.limits.check(
            request.method, template, req.params,
            global_limited=record.counts_toward_global_limit,
        )
        if verdict.refused:
            return self._too_many(verdict.retry_after, verdict.scope, verdict.headers)
        try:
            check_body(request.method, template, req.json)
            result = await handler(self.rest, req)
        except ApiError as exc:
            return _error(exc, verdict.headers)
        if result is None:
            return web.Response(status=204, headers=verdict.headers)
        status = 201 if isinstance(result, Created) else 200
        body = result.body if isinstance(result, Created) else result
        return web.Response(
            status=status, body=dumps(body).encode(), headers={**JSON_HEADERS, **verdict.headers}
        )

    def _too_many(self, retry_after: float, scope: str, headers: dict[str, str]) -> web.Response:
        self._quiet_until = time.monotonic() + retry_after + self.settle_time
        body, extra = too_many_body(retry_after, scope)
        return web.Response(
            status=429, body=dumps(body).encode(), headers={**JSON_HEADERS, **headers, **extra}
        )

    @staticmethod
    async def _read(request: web.Request) -> Req:
        req = Req(params={}, json=None, query=dict(request.query))
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader), "a multipart nested in a part"
                if part.name == "payload_json":
                    req.json = await part.json()
                else:
                    content = await part.read()
                    req.files.append((part.name or "", part.filename or "file", bytes(content)))
        elif request.can_read_body:
            req.json = await request.json()
        return req


def _error(exc: ApiError, headers: dict[str, str] | None = None) -> web.Response:
    body = dumps(exc.body()).encode()
    return web.Response(status=exc.status, body=body, headers={**JSON_HEADERS, **(headers or {})})
