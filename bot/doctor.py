"""``deckhand doctor``: what the admin's real Discord looks like to Deckhand, one line per
check — ok, warn or missing, and how to fix what is not ok.

It asks Discord, with the bot's token, what the tests can only assume: that the token
and application are right, that no privileged gateway intent is needed that the
application lacks, where the commands are registered and whether they are the ones this
Deckhand declares, how the application installs (a server install needs the ``bot`` scope
with the permissions of ``bot.permissions``; user installs need global commands), how
many application-emoji slots are left for the card faces, the shards Discord recommends
and the identifies left today, and — given a channel — every permission of
``bot.permissions`` there (and in its threads), with the reason each is needed. With
``--post`` it opens a test table in that channel (posts, edits and deletes a message, as a
table does) and sends the application's owner a test DM (deleted at once).

Decisions:

* Read-only unless ``--post``; nothing is stored; the commands are compared, never synced
  (``deckhand run`` syncs them).
* The exit status follows every command's convention (``bot.__main__``): 1 when a check
  found something missing, else 0 (a warning is said, and fails nothing).
* Never a character of the token in what it prints: every line is scrubbed
  (``scrubbed``) — a token could only appear in a library's error text, and none of
  Deckhand's lines name it.
* Channel permissions are computed as Discord documents them (developers/topics/
  permissions.mdx, "Permission Overwrites"): the server's @everyone and the bot's roles,
  Administrator for all, then the channel's (a thread: its parent's) overwrites for
  @everyone, the bot's roles and the bot itself.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import Route

from bot import permissions
from bot.card_emojis import EMOJI_LIMIT
from bot.settings import Settings
from i18n import N_, _


class Level(enum.IntEnum):
    """How a check came out, in order of gravity."""

    OK = 0
    WARN = 1
    MISSING = 2


#: Each level as the report's lines begin.
LEVELS = {Level.OK: N_("ok"), Level.WARN: N_("warn"), Level.MISSING: N_("missing")}


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, how it came out, what was found or how
    to fix it."""

    name: str
    level: Level
    detail: str

    def line(self) -> str:
        """The report's line for it."""
        return f"{_(LEVELS[self.level]):<8}{self.name}: {self.detail}"


#: Application flags of the privileged intents (developers/resources/application.mdx,
#: Application Flags): either the intent or its "limited" form lets a bot use it.
PRIVILEGED = {
    "members": ("gateway_guild_members", "gateway_guild_members_limited", "Server Members"),
    "presences": ("gateway_presence", "gateway_presence_limited", "Presence"),
    "message_content": (
        "gateway_message_content", "gateway_message_content_limited", "Message Content",
    ),
}
#: Thread channel types: their permissions come from the parent's overwrites.
THREADS = (10, 11, 12)
#: What a server install needs, and a user install.
SERVER_SCOPES = {"bot", "applications.commands"}
USER_SCOPES = {"applications.commands"}
#: Identifies left today below which a restart of every shard would run out.
IDENTIFIES_LOW = 0.1


def scrubbed(text: str, token: str) -> str:
    """``text`` without the token, or any run of 6 or more of its characters in a row."""
    if not token:
        return text
    for size in range(len(token), 5, -1):
        for start in range(len(token) - size + 1):
            piece = token[start:start + size]
            if piece in text:
                text = text.replace(piece, "…")
    return text


def report(checks: Sequence[Check], token: str) -> tuple[str, int]:
    """The report's text and its exit status."""
    text = "\n".join(scrubbed(c.line(), token) for c in checks)
    return text, int(any(c.level is Level.MISSING for c in checks))


def _error(exc: discord.HTTPException) -> str:
    return f"{exc.status} {exc.code}"


async def diagnose(
    settings: Settings,
    *,
    channel_id: int | None = None,
    post: bool = False,
    intents: discord.Intents | None = None,
    declared: list[dict[str, Any]] | None = None,
) -> list[Check]:
    """Every check, in order (``intents`` and ``declared`` commands: those of this
    Deckhand unless given)."""
    from bot.app import declared_commands
    from bot.app import intents as app_intents

    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        return [Check(_("token"), Level.MISSING, _(
            "DISCORD_TOKEN is not set: put the bot's token in .env (Developer Portal → your"
            " application → Bot → Reset Token)"))]
    client = discord.Client(intents=intents or app_intents())
    try:
        try:
            await client.login(token)
        except discord.LoginFailure:
            return [Check(_("token"), Level.MISSING, _(
                "Discord refused it: reset the token (Developer Portal → your application →"
                " Bot → Reset Token) and put the new one in .env"))]
        assert client.user is not None
        checks = [Check(_("token"), Level.OK, _("the bot {name} ({id})",
                                                name=client.user.name, id=client.user.id))]
        app = await client.application_info()
        checks.append(Check(_("application"), Level.OK, f"{app.name} ({app.id})"))
        checks.append(_intents(intents or app_intents(), app.flags))
        checks.extend(_installs(app))
        checks.append(await _gateway(client, settings))
        wanted = declared if declared is not None else await declared_commands(settings)
        checks.extend(await _commands(client, app, settings, wanted))
        checks.append(await _emojis(client))
        if channel_id is not None:
            checks.extend(await _channel(client, channel_id))
            if post:
                checks.extend(await _post(client, channel_id, app))
        return checks
    finally:
        await client.close()


def _intents(wanted: discord.Intents, flags: discord.ApplicationFlags) -> Check:
    needed = [name for name in PRIVILEGED if getattr(wanted, name)]
    lacking = [
        PRIVILEGED[n][2] for n in needed
        if not (getattr(flags, PRIVILEGED[n][0]) or getattr(flags, PRIVILEGED[n][1]))
    ]
    if lacking:
        return Check(_("intents"), Level.MISSING, _(
            "Deckhand asks for {intents} and the application does not allow it: switch it on"
            " (Developer Portal → Bot → Privileged Gateway Intents)", intents=", ".join(lacking)))
    if needed:
        return Check(_("intents"), Level.OK, _("the privileged intents asked for are allowed"))
    return Check(_("intents"), Level.OK, _(
        "only `guilds`, which needs no switch (leave every privileged intent off)"))


def _installs(app: discord.AppInfo) -> list[Check]:
    """The application's Installation page: a server install with the bot and its
    permissions, user installs with commands."""
    out: list[Check] = []
    invite = permissions.invite_link(str(app.id))
    server = app.guild_integration_config
    params = server.oauth2_install_params if server is not None else app.install_params
    server_install = _("server install")
    if params is None:
        out.append(Check(server_install, Level.WARN, _(
            "no default install settings: add servers with {link}", link=invite)))
    elif not set(params.scopes) >= SERVER_SCOPES:
        out.append(Check(server_install, Level.MISSING, _(
            "scopes {scopes}: without `bot` a server gets Deckhand's commands but no bot (its"
            " tables only run through clicks, no events, no DMs): give Guild Install the"
            " scopes bot and applications.commands (Installation page), or use {link}",
            scopes=" ".join(sorted(params.scopes)) or "-", link=invite)))
    elif missing := permissions.missing(params.permissions, *_every_use()):
        out.append(Check(server_install, Level.MISSING, _(
            "the bot would be added without {missing}: set permissions {value} (Installation"
            " page), or use {link}", missing=missing, value=permissions.INVITE.value,
            link=invite)))
    else:
        out.append(Check(server_install, Level.OK, _(
            "the bot with every permission: {link}", link=invite)))
    user = app.user_integration_config
    if user is None:
        out.append(Check(_("user install"), Level.WARN, _(
            "not enabled: tables in DMs and group DMs need it (Installation page →"
            " Installation Contexts → User Install)")))
    else:
        out.append(Check(_("user install"), Level.OK,
                         permissions.user_install_link(str(app.id))))
    return out


def _every_use() -> tuple[str, ...]:
    return (permissions.TABLE, permissions.THREAD, permissions.EVENT, permissions.DUPLICATE)


async def _gateway(client: discord.Client, settings: Settings) -> Check:
    shards, _url, limit = await client.http.get_bot_gateway()
    left = _("{left} of {total} identifies left today", left=limit["remaining"],
             total=limit["total"])
    if limit["remaining"] < max(1, IDENTIFIES_LOW * limit["total"]):
        return Check(_("gateway"), Level.WARN, _(
            "{left}: restarts spend them (at 0 Discord resets the token); wait {hours} h"
            " before restarting every shard", left=left,
            hours=f"{limit['reset_after'] / 3_600_000:.1f}"))
    running = settings.shard_count or 1
    if running < shards:
        return Check(_("gateway"), Level.MISSING, _(
            "Discord recommends {shards} shards and Deckhand runs {running}: set"
            " DECKHAND_SHARD_COUNT={shards} (docs/scale.md)", shards=shards, running=running))
    return Check(_("gateway"), Level.OK, _(
        "shards: {shards} recommended, {running} run; {left}", shards=shards, running=running,
        left=left))


async def _commands(
    client: discord.Client, app: discord.AppInfo, settings: Settings,
    wanted: list[dict[str, Any]],
) -> list[Check]:
    guild = settings.dev_guild
    where = _("server {id}", id=guild) if guild is not None else _("global")
    name = _("commands")
    route = (
        Route("GET", "/applications/{application_id}/guilds/{guild_id}/commands",
              application_id=app.id, guild_id=guild) if guild is not None
        else Route("GET", "/applications/{application_id}/commands", application_id=app.id)
    )
    try:
        # Lists leave the localizations out unless asked (application-commands.mdx).
        registered = await client.http.request(route, params={"with_localizations": "true"})
    except discord.HTTPException as exc:
        return [Check(name, Level.MISSING, _(
            "cannot read the commands of {where} ({error}): is the application installed"
            " there?", where=where, error=_error(exc)))]
    differ = _differences(wanted, registered)
    out: list[Check] = []
    if not registered:
        out.append(Check(name, Level.MISSING, _(
            "none registered ({where}): run `deckhand run` with DECKHAND_SYNC_COMMANDS=true"
            " once", where=where)))
    elif differ:
        out.append(Check(name, Level.MISSING, _(
            "the commands of {where} differ from this Deckhand's ({differ}): run `deckhand"
            " run` with DECKHAND_SYNC_COMMANDS=true", where=where, differ=", ".join(differ))))
    else:
        out.append(Check(name, Level.OK, _(
            "{count} registered ({where}), as declared", count=len(registered), where=where)))
    if guild is not None and app.user_integration_config is not None:
        out.append(Check(_("commands for user installs"), Level.WARN, _(
            "DECKHAND_DEV_GUILD is set: only global commands reach user installs (a server's"
            " exist in that server only); leave it empty")))
    return out


def _differences(wanted: list[dict[str, Any]], registered: list[Any]) -> list[str]:
    """The commands whose registration is missing, extra or not as declared."""
    theirs = {c["name"]: c for c in registered}
    ours = {c["name"]: c for c in wanted}
    out = [_("/{name} not registered", name=n) for n in ours if n not in theirs]
    out += [_("/{name} not declared", name=n) for n in theirs if n not in ours]
    out += [_("/{name} changed", name=n) for n in ours
            if n in theirs and not _same(ours[n], theirs[n])]
    return out


def _same(ours: Any, theirs: Any) -> bool:
    """Whether Discord holds what we declared: every field we send, as we send it (what
    Discord adds — ids, versions — and what is empty on either side do not count)."""
    if isinstance(ours, dict):
        if not isinstance(theirs, dict):
            return False
        keys = {k for k, v in ours.items() if _meant(v)} | {
            k for k, v in theirs.items() if k in ours and _meant(v)
        }
        return all(_same(ours.get(k), theirs.get(k)) for k in keys)
    if isinstance(ours, list):
        return isinstance(theirs, list) and len(ours) == len(theirs) and all(
            _same(a, b) for a, b in zip(ours, theirs, strict=True)
        )
    if not _meant(ours) and not _meant(theirs):
        return True
    return bool(str(ours) == str(theirs))


def _meant(value: Any) -> bool:
    return value not in (None, False, [], {}, "")


async def _emojis(client: discord.Client) -> Check:
    from bot.art import faces

    names = {faces.emoji_name(c, p) for p in faces.PALETTES for c in faces.CARDS}
    owned = {e.name for e in await client.fetch_application_emojis()}
    missing = len(names - owned)
    free = EMOJI_LIMIT - len(owned)
    if missing > free:
        return Check(_("emojis"), Level.MISSING, _(
            "{used} of {limit} application emojis used: no room for {short} of the {missing}"
            " card faces missing — delete some (Developer Portal → Emojis), or set"
            " DECKHAND_CARD_EMOJIS=off (cards as text)", used=len(owned), limit=EMOJI_LIMIT,
            short=missing - free, missing=missing))
    return Check(_("emojis"), Level.OK, _(
        "{used} of {limit} used; card faces: {present} of {faces} present, {missing} to upload"
        " at start", used=len(owned), limit=EMOJI_LIMIT, present=len(names) - missing,
        faces=len(names), missing=missing))


async def _channel(client: discord.Client, channel_id: int) -> list[Check]:
    name = _("channel {id}", id=channel_id)
    try:
        channel: dict[str, Any] = dict(await client.http.get_channel(channel_id))
    except discord.NotFound:
        return [Check(name, Level.MISSING, _(
            "no such channel: check the id (right-click the channel → Copy Channel ID)"))]
    except discord.HTTPException as exc:
        return [Check(name, Level.MISSING, _(
            "the bot cannot see it ({error}): is the bot in that server (not only its"
            " commands), with View Channels there?", error=_error(exc)))]
    guild_id = channel.get("guild_id")
    if guild_id is None:
        return [Check(name, Level.MISSING, _(
            "a DM: give a server's channel (DMs need no permission)"))]
    name = f"#{channel.get('name', channel_id)}"
    assert client.user is not None
    bot_id = client.user.id
    try:
        member = await client.http.get_member(guild_id, bot_id)
    except discord.HTTPException:
        return [Check(name, Level.MISSING, _(
            "the bot is not a member of that server (it installed Deckhand's commands only,"
            " or removed the bot): add it with the invite link"))]
    roles = await client.http.get_roles(guild_id)
    threaded = channel.get("type") in THREADS
    overwrites = channel.get("permission_overwrites") or []
    if threaded and channel.get("parent_id"):
        parent: dict[str, Any] = dict(await client.http.get_channel(int(channel["parent_id"])))
        overwrites = parent.get("permission_overwrites") or []
    granted = discord.Permissions(
        _permissions(int(guild_id), bot_id, [int(r) for r in member.get("roles", [])],
                     roles, overwrites)
    )
    return [
        _permission(name, need, granted, threaded) for need in permissions.NEEDS
        if not (threaded and need.flag == "send_messages")
    ]


def _permission(
    where: str, need: permissions.Need, granted: discord.Permissions, threaded: bool
) -> Check:
    name = (
        _("{permission} in {channel} (its threads)", permission=need.name, channel=where)
        if "thread" in need.flag
        else _("{permission} in {channel}", permission=need.name, channel=where)
    )
    if getattr(granted, need.flag):
        return Check(name, Level.OK, _(need.why))
    level = Level.MISSING if need.uses or threaded else Level.WARN
    return Check(name, level, _(
        "{why} — grant it to Deckhand's role, or in the channel's permissions",
        why=_(need.why)))


def _permissions(
    guild_id: int,
    bot_id: int,
    role_ids: Iterable[int],
    roles: list[Any],
    overwrites: list[Any],
) -> int:
    """The bot's permissions in a channel (permissions.mdx, Permission Overwrites)."""
    by_id = {int(r["id"]): int(r["permissions"]) for r in roles}
    mine = set(role_ids)
    base = by_id.get(guild_id, 0)
    for role in mine:
        base |= by_id.get(role, 0)
    if base & discord.Permissions.administrator.flag:
        return discord.Permissions.all().value
    ows = {int(o["id"]): (int(o["allow"]), int(o["deny"])) for o in overwrites}
    allow, deny = ows.get(guild_id, (0, 0))
    base = (base & ~deny) | allow
    role_allow = role_deny = 0
    for role in mine:
        a, d = ows.get(role, (0, 0))
        role_allow, role_deny = role_allow | a, role_deny | d
    base = (base & ~role_deny) | role_allow
    allow, deny = ows.get(bot_id, (0, 0))
    return (base & ~deny) | allow


async def _post(client: discord.Client, channel_id: int, app: discord.AppInfo) -> list[Check]:
    """A test table (posted, edited, deleted, as a table message is) and a test DM."""
    out: list[Check] = []
    where = client.get_partial_messageable(channel_id)
    try:
        message = await where.send(_("🃏 Deckhand doctor: a test table (it closes at once)."))
        await message.edit(content=_("🃏 Deckhand doctor: a test table — edited, as after a"
                                     " move."))
        await message.delete()
        out.append(Check(_("test table"), Level.OK, _("posted, edited and deleted")))
    except discord.HTTPException as exc:
        out.append(Check(_("test table"), Level.MISSING, _(
            "refused ({error}): see the permission lines above", error=_error(exc))))
    owner_id = app.team.owner_id if app.team is not None and app.team.owner_id else app.owner.id
    try:
        owner = await client.fetch_user(owner_id)
        dm = await owner.create_dm()
        sent = await dm.send(_("🃏 Deckhand doctor: DMs from Deckhand reach you."))
        await sent.delete()
        out.append(Check(_("DM to the owner"), Level.OK, _(
            "{name}: sent and deleted", name=owner.name)))
    except discord.HTTPException as exc:
        fix = (
            _("Deckhand shares no server with you: add the bot to one")
            if exc.code == 50278 else
            _("your DMs are closed to the server's members: players like you get their hand"
              " in a private panel instead (server name → Privacy Settings → Direct Messages)")
        )
        out.append(Check(_("DM to the owner"), Level.MISSING, _(
            "refused ({error}): {fix}", error=_error(exc), fix=fix)))
    return out


def run(settings: Settings, channel_id: int | None, post: bool) -> int:
    """Print the report; the exit status."""
    checks = asyncio.run(diagnose(settings, channel_id=channel_id, post=post))
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    text, status = report(checks, token)
    print(text)
    return status
