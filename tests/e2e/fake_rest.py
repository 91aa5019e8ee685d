"""The fake REST API under ``/api/v10``: routes named like discord.py's ``Route`` paths.

Bodies are checked against Discord's documented limits, so a bot that would be refused by
Discord is refused here too (400, code 50035 or 50006).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.e2e.fake_emojis import (
    MAX_EMOJIS,
    TOO_MANY,
    UNKNOWN_EMOJI,
    AppEmoji,
    check_name,
    decode_image,
)
from tests.e2e.fake_limits import (
    blank,
    check_flags,
    check_layout_edit,
    invalid,
    validate_choices,
    validate_commands,
    validate_message,
)
from tests.e2e.fake_state import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EPHEMERAL,
    LOADING,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    ApiError,
    Channel,
    Command,
    Guild,
    Interaction,
    Message,
    snowflake_time,
)

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord

#: Edits of messages older than an hour are rate limited (30046, "Maximum number of edits
#: to messages older than 1 hour reached", opcodes-and-status-codes.mdx); Discord does not
#: say how hard ("We dont put rate limit details in our documentation", Discord staff on
#: discord/discord-api-docs#4413), so the fake allows few: this many per channel in any
#: hour. The code names no token type: edits through an interaction's token (its
#: callback's UPDATE_MESSAGE, or Edit Original/Followup Message) count as the bot token's
#: do. Ephemeral messages are not counted (no report of 30046 on one: they are shown to
#: one user and cannot be fetched).
OLD_MESSAGE = 3600.0
OLD_EDITS_PER_HOUR = 3
ARCHIVED = ApiError(400, 50083, "Operation cannot be performed on an archived thread")
#: "Apps are limited to 5 followup messages per interaction if it was initiated from a
#: user-installed app and isn't installed in the server" (receiving-and-responding.mdx,
#: Create Followup Message); JSON error 40094 "This interaction has hit the maximum number
#: of follow up messages" (developers/topics/opcodes-and-status-codes.mdx).
FOLLOWUPS_USER_INSTALLED = 5
TOO_MANY_FOLLOWUPS = ApiError(
    400, 40094, "This interaction has hit the maximum number of follow up messages"
)
#: 50278 "Cannot send messages to this user due to having no mutual guilds"
#: (opcodes-and-status-codes.mdx): a bot DMs only users it shares a server with.
NO_MUTUAL_GUILD = ApiError(
    403, 50278, "Cannot send messages to this user due to having no mutual guilds"
)
MISSING_ACCESS = ApiError(403, 50001, "Missing Access")
UNKNOWN_WEBHOOK = ApiError(404, 10015, "Unknown Webhook")
# Which callback types each interaction type accepts (ping=1 never reaches a gateway bot).
CALLBACKS_ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


@dataclass
class Req:
    """A parsed request: path parameters, JSON body (or ``payload_json``), uploaded files."""

    params: dict[str, str]
    json: Any
    query: dict[str, str]
    files: list[tuple[str, str, bytes]] = field(default_factory=list)


@dataclass
class Created:
    """A handler's answer that made a resource: served as 201 Created, as the spec says."""

    body: Any


def truthy(query: dict[str, str], key: str) -> bool:
    """A boolean query parameter as Discord reads it."""
    return query.get(key, "").lower() in ("1", "true")


Handler = Callable[["Rest", Req], Awaitable[Any]]
ROUTES: list[tuple[str, str, re.Pattern[str], Handler]] = []


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    pattern = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")

    def register(handler: Handler) -> Handler:
        ROUTES.append((method, template, pattern, handler))
        return handler

    return register


class Rest:
    """REST handlers over the fake's state."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        #: When old messages were edited, by channel (for 30046).
        self.old_edits: dict[int, list[float]] = {}
        #: Every edit of a message older than an hour: through what ("bot" or "token") and
        #: how old the message was, in seconds (refused ones too).
        self.old_edit_log: list[tuple[str, float]] = []

    @staticmethod
    def match(method: str, path: str) -> tuple[Handler, dict[str, str], str] | None:
        for route_method, template, pattern, handler in ROUTES:
            found = pattern.match(path)
            if found and route_method == method:
                return handler, found.groupdict(), template
        return None

    # -- identity, gateway ------------------------------------------------------------------

    @route("GET", "/users/@me")
    async def me(self, req: Req) -> Any:
        return {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False}

    @route("GET", "/users/{user_id}")
    async def get_user(self, req: Req) -> Any:
        return self.fake.user_by_id(int(req.params["user_id"])).payload()

    @route("GET", "/oauth2/applications/@me")
    async def application(self, req: Req) -> Any:
        fake = self.fake
        return {
            "id": str(fake.application_id),
            "name": fake.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": fake.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": fake.app_flags,
            "integration_types_config": fake.install_config,
            "bot": fake.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
        }

    @route("GET", "/gateway")
    async def gateway(self, req: Req) -> Any:
        return {"url": self.fake.gateway_url}

    @route("GET", "/gateway/bot")
    async def gateway_bot(self, req: Req) -> Any:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return {
            "url": self.fake.gateway_url,
            "shards": self.fake.shards,
            "session_start_limit": limit,
        }

    # -- application commands ---------------------------------------------------------------

    def _put_commands(self, guild_id: int | None, body: list[dict[str, Any]]) -> Any:
        validate_commands(body)
        fake = self.fake
        old = {(c.data["name"], c.data.get("type", 1)): c for c in fake.commands_for(guild_id)}
        fresh = []
        for data in body:
            key = (data["name"], data.get("type", 1))
            cmd_id = old[key].id if key in old else fake.ids.next()
            fresh.append(Command(cmd_id, guild_id, data))
        fake.commands = [c for c in fake.commands if c.guild_id != guild_id] + fresh
        return [c.payload(fake.application_id) for c in fresh]

    def _check_app(self, req: Req) -> int | None:
        """The app's own routes; a server's commands need the app installed there (its bot,
        or ``applications.commands`` alone)."""
        if int(req.params["application_id"]) != self.fake.application_id:
            raise ApiError(403, 50001, "Missing Access")
        if "guild_id" in req.params:
            guild = self.fake.guild_by_id(int(req.params["guild_id"]))
            if not self.fake.installed_in(guild):
                raise MISSING_ACCESS
            return guild.id
        return None

    def _guild(self, req: Req) -> Guild:
        """The server of the path, which the bot must be a member of (a server where only
        users installed the app is closed to its token: 50001)."""
        guild = self.fake.guild_by_id(int(req.params["guild_id"]))
        if not self.fake.in_guild(guild):
            raise MISSING_ACCESS
        return guild

    @route("PUT", "/applications/{application_id}/commands")
    async def put_global_commands(self, req: Req) -> Any:
        return self._put_commands(self._check_app(req), req.json)

    @route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def put_guild_commands(self, req: Req) -> Any:
        return self._put_commands(self._check_app(req), req.json)

    def _listed_commands(self, req: Req) -> Any:
        """A list of commands leaves out their localization dictionaries unless asked
        (``with_localizations``): "some will not by default. This includes GET endpoints
        that return all of an application's guild or global commands"
        (application-commands.mdx, Localization)."""
        guild_id = self._check_app(req)
        listed = [c.payload(self.fake.application_id) for c in self.fake.commands_for(guild_id)]
        return listed if truthy(req.query, "with_localizations") else [
            _without_localizations(c) for c in listed
        ]

    @route("GET", "/applications/{application_id}/commands")
    async def get_global_commands(self, req: Req) -> Any:
        return self._listed_commands(req)

    @route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def get_guild_commands(self, req: Req) -> Any:
        return self._listed_commands(req)

    # -- application emojis -----------------------------------------------------------------

    def _app_emoji(self, req: Req) -> AppEmoji:
        self._check_app(req)
        emoji = self.fake.app_emojis.get(int(req.params["emoji_id"]))
        if emoji is None:
            raise UNKNOWN_EMOJI
        return emoji

    def _emoji_names(self, other_than: AppEmoji | None = None) -> set[str]:
        return {e.name for e in self.fake.app_emojis.values() if e is not other_than}

    @route("GET", "/applications/{application_id}/emojis")
    async def list_app_emojis(self, req: Req) -> Any:
        self._check_app(req)
        return {"items": [e.payload() for e in self.fake.app_emojis.values()]}

    @route("POST", "/applications/{application_id}/emojis")
    async def create_app_emoji(self, req: Req) -> Any:
        self._check_app(req)
        check_name(req.json["name"], self._emoji_names())
        mime, image = decode_image(req.json["image"])
        if len(self.fake.app_emojis) >= MAX_EMOJIS:
            raise TOO_MANY
        emoji = AppEmoji(
            self.fake.ids.next(), req.json["name"], image, self.fake.bot_user,
            animated=mime == "image/gif",
        )
        self.fake.app_emojis[emoji.id] = emoji
        return Created(emoji.payload())

    @route("GET", "/applications/{application_id}/emojis/{emoji_id}")
    async def get_app_emoji(self, req: Req) -> Any:
        return self._app_emoji(req).payload()

    @route("PATCH", "/applications/{application_id}/emojis/{emoji_id}")
    async def edit_app_emoji(self, req: Req) -> Any:
        emoji = self._app_emoji(req)
        if "name" in req.json:
            check_name(req.json["name"], self._emoji_names(other_than=emoji))
            emoji.name = req.json["name"]
        return emoji.payload()

    @route("DELETE", "/applications/{application_id}/emojis/{emoji_id}")
    async def delete_app_emoji(self, req: Req) -> Any:
        del self.fake.app_emojis[self._app_emoji(req).id]
        return None

    # -- interactions -----------------------------------------------------------------------

    @route("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
    async def callback(self, req: Req) -> Any:
        fake = self.fake
        inter = fake.interactions.get(int(req.params["webhook_id"]))
        if inter is None or inter.token != req.params["webhook_token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if inter.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if fake.clock.now() - inter.dispatched_at > fake.callback_deadline:
            inter.expired = True
            inter.answered.set()
            raise ApiError(404, 10062, "Unknown interaction")
        kind = int(req.json.get("type", 0))
        data = req.json.get("data") or {}
        if kind not in CALLBACKS_ALLOWED[inter.type]:
            raise invalid(f"callback type {kind} is not valid for interaction type {inter.type}")
        resource: dict[str, Any] = {"type": kind}
        forced = EPHEMERAL if inter.forced_ephemeral else 0
        if kind == 4:
            validate_message(data, where="reply")
            flags = int(data.get("flags") or 0) | forced
            inter.original = self._reply(inter, data, flags=flags, files=req.files)
        elif kind == 5:
            check_flags(data, "deferred")
            flags = LOADING | int(data.get("flags") or 0) | forced
            inter.original = self._reply(inter, {}, flags=flags, files=[])
        elif kind in (6, 7):
            assert inter.message is not None
            inter.original = fake.live_message(inter.message.id)
            if kind == 7:
                validate_message(data, where="edit")
                self._count_old_edit(inter.original, through="token")
                self._edit(inter.original, data)
        elif kind == 8:
            validate_choices(data.get("choices", []))
            inter.choices = data.get("choices", [])
        elif kind == 9:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise invalid("a modal needs custom_id, title and components")
            inter.modal = data
        if kind in (4, 5, 7) and inter.original is not None:
            resource["message"] = inter.original.payload()
        inter.callback_type = kind
        inter.callback_at = fake.clock.now()
        if kind != 5:
            inter.filled.set()
        inter.answered.set()
        original = inter.original
        if not truthy(req.query, "with_response"):
            return None
        return {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(original.id) if original else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(original and original.ephemeral),
            },
            "resource": resource,
        }

    def _reply(
        self, inter: Interaction, data: dict[str, Any], *, flags: int, files: list[Any]
    ) -> Message:
        return self.fake.create_message(
            inter.channel,
            data,
            flags=flags,
            ephemeral_for=inter.user if flags & EPHEMERAL else None,
            interaction=inter,
            type_=20 if inter.type == 2 else 0,
            files=files,
        )

    def _edit(self, message: Message, data: dict[str, Any], req: Req | None = None) -> None:
        """Apply an edit; one that would leave the message empty is refused (50006)."""
        attachments = message.attachments
        if req is not None and "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"]}
            attachments = [a for a in message.attachments if a["id"] in keep]
            attachments += self.fake.attachments(data, req.files)
        after = {"content": message.content, "embeds": message.embeds,
                 "components": message.components, **data}
        check_layout_edit(message.flags | int(data.get("flags") or 0), after)
        if blank(after["content"]) and not (
            after["embeds"] or after["components"] or attachments
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        message.attachments = attachments
        message.flags &= ~LOADING
        message.apply(data)
        message.edited_at = self.fake.clock.now()

    def _webhook_interaction(self, req: Req) -> Interaction:
        inter = self.fake.by_token.get(req.params["webhook_token"])
        if (
            inter is None
            or int(req.params["webhook_id"]) != self.fake.application_id
            or inter.callback_type is None
        ):
            raise UNKNOWN_WEBHOOK
        if self.fake.clock.now() - snowflake_time(inter.id) > self.fake.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")  # 15 minutes from creation
        if not self.fake.live_owners(inter.owners, inter.channel):
            raise UNKNOWN_WEBHOOK  # the install that authorised it is gone (``live_owners``)
        return inter

    def _webhook_message(self, req: Req) -> tuple[Interaction, Message]:
        inter = self._webhook_interaction(req)
        wanted = req.params.get("message_id", "@original")
        for message in inter.messages:
            if wanted in ("@original", str(message.id)) and not message.deleted:
                if wanted == "@original" and message is not inter.original:
                    continue
                return inter, message
        raise ApiError(404, 10008, "Unknown Message")

    @route("POST", "/webhooks/{webhook_id}/{webhook_token}")
    async def followup(self, req: Req) -> Any:
        inter = self._webhook_interaction(req)
        data = req.json or {}
        validate_message(data, where="reply")
        if inter.user_installed_only and len(inter.followups) >= FOLLOWUPS_USER_INSTALLED:
            raise TOO_MANY_FOLLOWUPS
        original = inter.original
        if original is not None and original.flags & LOADING:
            # Discord still lets this follow-up replace the "thinking…" message, "for
            # backwards compatibility", and documents that as deprecated (Create Followup
            # Message): the fake refuses it, so the bot edits the original instead. Once
            # that loading message is deleted, what a follow-up does is not documented at
            # all: refused too.
            raise invalid(
                "a first follow-up would edit the deferred loading message (deprecated;"
                " undocumented once it is deleted): use Edit Original Interaction Response"
            )
        flags = int(data.get("flags") or 0) | (EPHEMERAL if inter.forced_ephemeral else 0)
        public = not flags & EPHEMERAL
        if public and inter.channel.archived and inter.channel.locked:
            raise ARCHIVED
        if public and inter.channel.archived:
            await self.fake.set_archived(inter.channel, False)
        message = self.fake.create_message(
            inter.channel,
            data,
            flags=flags,
            ephemeral_for=inter.user if flags & EPHEMERAL else None,
            interaction=inter,
            files=req.files,
        )
        inter.followups.append(message)
        inter.filled.set()
        return message.payload() if truthy(req.query, "wait") else None

    @route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    @route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    async def get_webhook_message(self, req: Req) -> Any:
        return self._webhook_message(req)[1].payload()

    @route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    @route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    async def edit_webhook_message(self, req: Req) -> Any:
        inter, message = self._webhook_message(req)
        if message.channel.archived and not message.ephemeral:
            raise ARCHIVED  # an interaction's token edits no more than the bot's own
        validate_message(req.json or {}, where="edit")
        self._count_old_edit(message, through="token")
        self._edit(message, req.json or {}, req)
        inter.filled.set()
        return message.payload()

    @route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    @route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    async def delete_webhook_message(self, req: Req) -> Any:
        message = self._webhook_message(req)[1]
        if message.channel.archived and not message.ephemeral:
            raise ARCHIVED
        await self.fake.delete_message(message)
        return None

    # -- channels and messages --------------------------------------------------------------

    def _channel(self, req: Req) -> Channel:
        channel = self.fake.channels.get(int(req.params["channel_id"]))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        if not channel.bot_permissions(self.fake.bot_user) & VIEW_CHANNEL:
            raise MISSING_ACCESS  # also every DM or group DM between users, and servers
            # the bot is not in: only interaction tokens reach those
        return channel

    def _message(self, req: Req) -> Message:
        channel = self._channel(req)
        message = self.fake.messages.get(int(req.params["message_id"]))
        if (
            message is None
            or message.deleted
            or message.channel is not channel
            or message.ephemeral
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    @route("POST", "/users/@me/channels")
    async def open_dm(self, req: Req) -> Any:
        user = self.fake.user_by_id(int((req.json or {}).get("recipient_id", 0)))
        return self.fake.dm_channel(user).payload()

    @route("GET", "/channels/{channel_id}")
    async def get_channel(self, req: Req) -> Any:
        """Get Channel, with the overwrite that takes the ``deny``-ed bits from the bot."""
        channel = self._channel(req)
        data = channel.payload()
        if channel.bot_denied and channel.guild is not None and not channel.is_thread:
            data["permission_overwrites"] = [{
                "id": str(self.fake.bot_user.id), "type": 1, "allow": "0",
                "deny": str(channel.bot_denied),
            }]
        return data

    @route("DELETE", "/channels/{channel_id}")
    async def delete_channel(self, req: Req) -> Any:
        """Delete Channel: a thread needs Manage Threads, any other channel Manage
        Channels; the bot hears THREAD_DELETE (or CHANNEL_DELETE)."""
        channel = self._channel(req)
        if channel.guild is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
        if not channel.bot_permissions(self.fake.bot_user) & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        await self.fake.delete_channel(channel)
        return channel.payload()

    @route("POST", "/channels/{channel_id}/threads")
    async def start_thread(self, req: Req) -> Any:
        """Start Thread without Message: a public (11) or private (12) thread, each with its
        own permission. Without ``type`` Discord makes a private thread (API v10's
        default), which players would not see unless added — refused here, so the bot
        always says which it means."""
        parent = self._channel(req)
        data = req.json or {}
        if parent.guild is None or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        kind = data.get("type")
        if kind not in (11, 12):
            raise invalid(
                "type: the fake wants a thread's type said (11 public, 12 private); without"
                " it Discord makes a private thread (12)"
            )
        needed = CREATE_PRIVATE_THREADS if kind == 12 else CREATE_PUBLIC_THREADS
        if not parent.bot_permissions(self.fake.bot_user) & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        thread = await self.fake.add_thread(parent, str(data["name"]), private=kind == 12)
        return thread.payload()

    @route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
    async def add_thread_member(self, req: Req) -> Any:
        """Add Thread Member: needs the right to send messages in the thread, an
        unarchived thread and a member of its guild; 204 also when already a member."""
        thread = self._channel(req)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if thread.private and self.fake.bot_user.id not in thread.members:
            raise ApiError(403, 50001, "Missing Access")
        if not thread.bot_permissions(self.fake.bot_user) & SEND_MESSAGES_IN_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        if thread.archived:
            raise ARCHIVED
        user_id = int(req.params["user_id"])
        assert thread.guild is not None
        if user_id not in thread.guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        thread.members.add(user_id)
        return None

    @route("POST", "/channels/{channel_id}/typing")
    async def typing(self, req: Req) -> Any:
        self._channel(req)
        return None

    @route("GET", "/channels/{channel_id}/messages")
    async def history(self, req: Req) -> Any:
        messages = self._channel(req).messages()[::-1]
        return [m.payload() for m in messages[: int(req.query.get("limit", 50))]]

    @route("POST", "/channels/{channel_id}/messages")
    async def send(self, req: Req) -> Any:
        channel = self._channel(req)
        if channel.recipient is not None and not self.fake.shares_a_guild(channel.recipient):
            raise NO_MUTUAL_GUILD
        if channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if not channel.bot_permissions(self.fake.bot_user) & channel.send_permission:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.archived and channel.locked:
            raise ARCHIVED
        data = req.json or {}
        validate_message(data, where="send")
        flags = int(data.get("flags") or 0)
        sent = self.fake.create_message(channel, data, flags=flags, files=req.files).payload()
        if channel.archived:
            await self.fake.set_archived(channel, False)
        return sent

    @route("GET", "/channels/{channel_id}/messages/{message_id}")
    async def get_message(self, req: Req) -> Any:
        return self._message(req).payload()

    @route("PATCH", "/channels/{channel_id}/messages/{message_id}")
    async def edit(self, req: Req) -> Any:
        message = self._message(req)
        if message.author is not self.fake.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if message.channel.archived:
            raise ARCHIVED
        self._count_old_edit(message, through="bot")
        validate_message(req.json or {}, where="edit")
        self._edit(message, req.json or {}, req)
        return message.payload()

    def _count_old_edit(self, message: Message, *, through: str) -> None:
        now = self.fake.clock.now()
        if now - message.created_at < OLD_MESSAGE or message.ephemeral:
            return
        self.old_edit_log.append((through, now - message.created_at))
        recent = [t for t in self.old_edits.get(message.channel.id, []) if now - t < 3600]
        if len(recent) >= OLD_EDITS_PER_HOUR:
            raise ApiError(
                400, 30046,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            )
        self.old_edits[message.channel.id] = [*recent, now]

    @route("DELETE", "/channels/{channel_id}/messages/{message_id}")
    async def delete(self, req: Req) -> Any:
        message = self._message(req)
        if message.channel.archived:
            raise ARCHIVED
        await self.fake.delete_message(message)
        return None

    # -- guilds -----------------------------------------------------------------------------

    @route("GET", "/guilds/{guild_id}")
    async def get_guild(self, req: Req) -> Any:
        data = self._guild(req).payload(member_ids=set())
        for key in ("channels", "members", "threads", "voice_states", "presences", "joined_at"):
            data.pop(key)
        return data

    @route("GET", "/guilds/{guild_id}/channels")
    async def guild_channels(self, req: Req) -> Any:
        guild = self._guild(req)
        return [c.payload() for c in guild.channels if not c.deleted]

    @route("GET", "/guilds/{guild_id}/roles")
    async def guild_roles(self, req: Req) -> Any:
        return [r.payload() for r in self._guild(req).roles]

    @route("GET", "/guilds/{guild_id}/members/{user_id}")
    async def guild_member(self, req: Req) -> Any:
        guild = self._guild(req)
        member = guild.members.get(int(req.params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return member.payload()


def _without_localizations(node: Any) -> Any:
    """A command payload without its ``*_localizations`` dictionaries, at every depth."""
    if isinstance(node, dict):
        return {k: _without_localizations(v) for k, v in node.items()
                if not k.endswith("_localizations")}
    if isinstance(node, list):
        return [_without_localizations(v) for v in node]
    return node
