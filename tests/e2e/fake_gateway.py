"""The fake gateway: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME, dispatches, drops."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.e2e.fake_state import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_PRESENCES,
    INTENT_MESSAGE_CONTENT,
    dumps,
)

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord

PRIVILEGED = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
#: "Each shard can only support a maximum of 2500 guilds" (developers/events/gateway.mdx).
GUILDS_PER_SHARD = 2500


@dataclass(eq=False)
class Session:
    """A gateway session: survives its websocket so a RESUME can replay what was missed."""

    id: str
    shard: tuple[int, int]
    intents: int
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    valid: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def dispatch(self, event: str, data: Any) -> None:
        async with self.lock:
            self.seq += 1
            message = {"op": 0, "t": event, "s": self.seq, "d": data}
            self.events.append(message)
            if self.connected:
                assert self.ws is not None
                await _send(self.ws, message)


async def _send(ws: web.WebSocketResponse, message: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError):  # the peer went away; a RESUME replays it
        await ws.send_str(dumps(message))


class Gateway:
    """Serves ``ws://127.0.0.1:PORT/`` for the fake; sessions keyed by id."""

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval_ms: int = 41_250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        #: The most guilds one session may hold (a test lowers it to plant 4011).
        self.guilds_per_shard = GUILDS_PER_SHARD
        self.resumes = 0
        self.changed = asyncio.Condition()
        self._dropped: set[web.WebSocketResponse] = set()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await _send(ws, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: Session | None = None
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op, data = payload.get("op"), payload.get("d")
            if op == 1:
                await _send(ws, {"op": 11})
            elif op == 2:
                session = await self._identify(ws, data)
            elif op == 6:
                session = await self._resume(ws, data)
            elif op == 8 and session is not None:
                await self._chunk(session, data)
        dropped = ws in self._dropped
        self._dropped.discard(ws)
        if session is not None and session.ws is ws:
            session.ws = None
            if ws.close_code == 1000 and not dropped:  # the client closed cleanly: session over
                session.valid = False
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED & ~self.fake.allowed_privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard_id, shard_count = data.get("shard", [0, 1])
        if not 0 <= shard_id < shard_count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        guilds = [
            g for g in self.fake.guilds
            if (g.id >> 22) % shard_count == shard_id and self.fake.in_guild(g)
        ]
        if len(guilds) > self.guilds_per_shard:
            # "Each shard can only support a maximum of 2500 guilds" (gateway.mdx, Sharding);
            # 4011 "Sharding required" (opcodes-and-status-codes.mdx).
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        session = Session(secrets.token_hex(16), (shard_id, shard_count), intents, ws=ws)
        self.sessions[session.id] = session
        self.identifies += 1
        bot = self.fake.bot_user
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.fake.gateway_url,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "application": {"id": str(self.fake.application_id), "flags": 0},
                "shard": [shard_id, shard_count],
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "_trace": ["fake-discord"],
            },
        )
        for guild in guilds:
            member_ids = None if intents & INTENT_GUILD_MEMBERS else {bot.id}
            await session.dispatch("GUILD_CREATE", guild.payload(member_ids=member_ids))
        await self._changed()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not session.valid or data.get("token") != self.fake.token:
            await _send(ws, {"op": 9, "d": False})
            return None
        async with session.lock:
            old, session.ws = session.ws, ws
            if old is not None and old is not ws:
                self._dropped.add(old)
                await old.close(code=4000)
            for event in session.events:
                if event["s"] > (data.get("seq") or 0):
                    await _send(ws, event)
        await session.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        self.resumes += 1
        await self._changed()
        return session

    async def _chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.fake.guild_by_id(int(data["guild_id"]))
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
        ]
        limit = data.get("limit") or len(members)
        await session.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": members[:limit],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": data.get("nonce"),
            },
        )

    async def _changed(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest valid session whose shard owns the guild (DMs: shard 0)."""
        for session in reversed(self.sessions.values()):
            shard_id, count = session.shard
            owner = 0 if guild_id is None else (guild_id >> 22) % count
            if session.valid and shard_id == owner:
                return session
        return None

    async def dispatch(self, event: str, data: Any, *, guild_id: int | None) -> bool:
        """Send a dispatch to the owning session (buffered if it is between sockets)."""
        session = self.session_for(guild_id)
        if session is None:
            return False
        await session.dispatch(event, data)
        return True

    async def drop(self, *, code: int = 4000, resumable: bool = True) -> int:
        """Close every live socket; ``resumable=False`` also forgets the sessions."""
        dropped = 0
        for session in list(self.sessions.values()):
            if session.connected:
                assert session.ws is not None
                session.valid = resumable
                self._dropped.add(session.ws)
                await session.ws.close(code=code, message=b"dropped by the fake")
                dropped += 1
        return dropped

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on every live socket (the client resumes)."""
        for session in self.sessions.values():
            if session.connected:
                assert session.ws is not None
                await _send(session.ws, {"op": 7, "d": None})

    async def wait_for(
        self, *, identifies: int = 0, resumes: int = 0, timeout: float = 10.0
    ) -> None:
        """Wait until at least that many IDENTIFYs and RESUMEs were answered in total."""

        def done() -> bool:
            return self.identifies >= identifies and self.resumes >= resumes

        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(done), timeout)
