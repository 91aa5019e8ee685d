"""User-level test driver: people who type slash commands, click buttons and read their DMs.

Each action dispatches an interaction through the fake gateway and returns once the bot has
answered it: the callback, then the answer a deferral promised — the "thinking…" message
replaced, or, after a click deferred without one, the clicked message edited or a
follow-up sent — and the REST calls that came after. What the bot publishes after its
answer (other messages, hands, pings) a test waits for with ``tests.waiting.until``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from tests.e2e.fake_state import (
    Channel,
    Interaction,
    Message,
    RequestRecord,
    Role,
    User,
)
from tests.waiting import DEADLINE, until

if TYPE_CHECKING:
    from types import TracebackType

    from tests.e2e.fake_discord import FakeDiscord


class Person:
    """A Discord user as the tests drive them (``fake.user("alice")``)."""

    def __init__(self, fake: FakeDiscord, user: User) -> None:
        self.fake = fake
        self.user = user

    def __repr__(self) -> str:
        return f"<Person {self.name}>"

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention

    # -- reading ----------------------------------------------------------------------------

    def dm_messages(self) -> list[Message]:
        """The bot's messages in this person's DMs, oldest first."""
        channel = self.fake.existing_dm(self.user)
        return channel.messages() if channel is not None else []

    def ephemerals(self, channel: Channel | None = None) -> list[Message]:
        """Ephemeral replies only this person can see (optionally in one channel)."""
        return [
            m
            for m in self.fake.messages.values()
            if m.ephemeral_for is self.user
            and not m.deleted
            and (channel is None or m.channel is channel)
        ]

    def visible_messages(self) -> list[Message]:
        """Everything this person can see: guild channels they are in, their DMs and group
        DMs, ephemerals."""
        guilds = [g for g in self.fake.guilds if self.id in g.members]
        out = [m for g in guilds for c in g.channels for m in c.messages()]
        private = [c for c in self.fake.channels.values() if self.user in c.recipients]
        out += [m for c in private for m in c.messages()]
        return out + self.dm_messages() + self.ephemerals()

    # -- acting -----------------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        *,
        channel: Channel | None = None,
        timeout: float = DEADLINE,
        **options: Any,
    ) -> Interaction:
        """Run ``/command sub …`` with typed options; returns the answered interaction."""
        channel = channel or self.fake.guild.channel("lobby")
        data = self._command_data(command, channel, options, focused=None)
        inter = await self.fake.interact(self.user, channel, 2, data)
        return await self.fake.answer(inter, timeout)

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *,
        channel: Channel | None = None,
        timeout: float = DEADLINE,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``typed`` is in ``option`` (``name``/``value``)."""
        channel = channel or self.fake.guild.channel("lobby")
        data = self._command_data(command, channel, {**options, option: typed}, focused=option)
        inter = await self.fake.interact(self.user, channel, 4, data)
        await self.fake.answer(inter, timeout)
        assert inter.choices is not None, (
            f"the bot answered autocomplete with {inter.callback_type}"
        )
        return inter.choices

    async def click(
        self, message: Message, label_or_custom_id: str, *, timeout: float = DEADLINE,
        answered: bool = True,
    ) -> Interaction:
        """Click a button on ``message`` (a live message or a ``snapshot()`` of an old one)."""
        self._check_can_see(message)
        buttons = [b for b in message.buttons() if b.get("custom_id")]
        matches = [b for b in buttons if b.get("label") == label_or_custom_id]
        matches = matches or [b for b in buttons if b["custom_id"] == label_or_custom_id]
        shown = [b.get("label") or b["custom_id"] for b in buttons]
        assert len(matches) == 1, (
            f"{label_or_custom_id!r} matches {len(matches)} of buttons {shown}"
        )
        button = matches[0]
        assert not button.get("disabled"), f"button {label_or_custom_id!r} is disabled"
        data = {"custom_id": button["custom_id"], "component_type": 2, "id": button.get("id")}
        return await self.send(message, data, timeout=timeout, answered=answered)

    async def select(
        self,
        message: Message,
        values: list[str],
        custom_id: str | None = None,
        *,
        timeout: float = DEADLINE,
        answered: bool = True,
    ) -> Interaction:
        """Pick ``values`` (option values or labels) in a string select menu on ``message``."""
        self._check_can_see(message)
        menus = [s for s in message.selects() if custom_id in (None, s.get("custom_id"))]
        assert len(menus) == 1, f"{len(menus)} select menus match custom_id={custom_id!r}"
        menu = menus[0]
        assert menu.get("type") == 3, "only string select menus are supported"
        assert not menu.get("disabled"), "the select menu is disabled"
        by_label = {o["label"]: o["value"] for o in menu["options"]}
        valid = {o["value"] for o in menu["options"]}
        picked = [by_label.get(v, v) for v in values]
        assert set(picked) <= valid, f"{values} not among the options {sorted(valid)}"
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        assert low <= len(picked) <= high, f"pick {low}-{high} options, not {len(picked)}"
        data = {
            "custom_id": menu["custom_id"],
            "component_type": 3,
            "values": picked,
            "id": menu.get("id"),
        }
        return await self.send(message, data, timeout=timeout, answered=answered)

    async def send(
        self, message: Message, data: dict[str, Any], *, timeout: float = DEADLINE,
        answered: bool = True,
    ) -> Interaction:
        """Send a component interaction with ``data`` on ``message``, checking nothing (as a
        forging client may: ``click`` and ``select`` check what a real one shows). Discord
        does not promise to refuse a ``custom_id`` that is not on the message: "Custom IDs
        are now validated by the API" (discord-api-docs #3207) was reverted (#3408), and
        the docs tell apps to validate it themselves, so the fake lets it through; returns
        once the bot answered. A click deferred without a message (callback 6) is answered
        later, by an edit of the clicked message or a follow-up (``bot.ui.answers``: a
        deferred answer is always replaced) — unless ``answered`` is False: where Discord
        refuses the click's token after the callback (an installer who removed Deckhand),
        nothing can replace it, and the test waits for what it asserts next instead."""
        live = self.fake.messages[message.id]
        shown = len(live.history)
        inter = await self.fake.interact(self.user, message.channel, 3, data, message=message)
        await self.fake.answer(inter, timeout)
        if inter.callback_type == 6 and answered:
            await until(
                lambda: bool(inter.followups) or live.deleted or len(live.history) > shown,
                f"the answer to {self.name}'s deferred click on {data['custom_id']!r}", timeout,
            )
            await self.fake.settle(timeout)
        return inter

    def close_dms(self) -> None:
        self.fake.refuse_dms(self.user)

    def open_dms(self) -> None:
        self.fake.refuse_dms(self.user, refuse=False)

    # -- helpers ----------------------------------------------------------------------------

    def _check_can_see(self, message: Message) -> None:
        live = self.fake.messages.get(message.id)
        assert live is not None and not live.deleted, "that message was deleted"
        assert live.ephemeral_for in (None, self.user), f"{self.name} cannot see that ephemeral"
        channel = live.channel
        if channel.recipient is not None:
            assert channel.recipient is self.user, f"{self.name} cannot see {channel.label}"
        elif channel.is_private:
            assert self.user in channel.recipients, f"{self.name} is not in {channel.label}"
        else:
            assert channel.guild is not None and self.id in channel.guild.members
            assert channel.can_see(self.id), f"{self.name} is not in the private {channel.label}"

    def _command_data(
        self, command: str, channel: Channel, options: dict[str, Any], *, focused: str | None
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        guild = channel.guild
        cmd, _ = self.fake.offered(self.user, channel, words[0])
        path = _path_schema(cmd.data, words[1:])
        schema: list[dict[str, Any]] = (path[-1] if path else cmd.data).get("options", [])
        assert all(o["type"] not in (1, 2) for o in schema), f"/{command} needs a subcommand"
        resolved: dict[str, dict[str, Any]] = {}
        typed = _typed_options(schema, options, focused, resolved, guild, command)
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.data["name"], "type": 1}
        for level in reversed(path):
            typed = [{"type": level["type"], "name": level["name"], "options": typed}]
        if typed:
            data["options"] = typed
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data


def _path_schema(command: dict[str, Any], words: list[str]) -> list[dict[str, Any]]:
    """All option dicts along the group/subcommand path (for looking up their types)."""
    out: list[dict[str, Any]] = []
    level = command.get("options", [])
    for word in words:
        found = next((o for o in level if o["name"] == word and o["type"] in (1, 2)), None)
        assert found is not None, f"no subcommand {word!r} under /{command['name']}"
        out.append(found)
        level = found.get("options", [])
    return out


def _typed_options(
    schema: list[dict[str, Any]],
    given: dict[str, Any],
    focused: str | None,
    resolved: dict[str, dict[str, Any]],
    guild: Any,
    command: str,
) -> list[dict[str, Any]]:
    """Options as Discord sends them, checked against the registered schema."""
    by_name = {o["name"]: o for o in schema}
    out = []
    for key, value in given.items():
        name = key if key in by_name else key.replace("_", "-")
        assert name in by_name, f"/{command} has no option {key!r}; it has {list(by_name)}"
        spec = by_name[name]
        option: dict[str, Any] = {"name": name, "type": spec["type"]}
        if name == focused:
            option.update(value=str(value), focused=True)
        else:
            option["value"] = _convert(spec, value, resolved, guild)
        out.append(option)
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
    missing = [m for m in missing if m.replace("-", "_") not in given]
    assert focused is not None or not missing, f"/{command} needs {missing}"
    return out


def _convert(
    spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], guild: Any
) -> Any:
    kind = spec["type"]
    if spec.get("choices"):
        by_name = {c["name"]: c["value"] for c in spec["choices"]}
        value = by_name.get(value, value)
        allowed = [c["value"] for c in spec["choices"]]
        assert value in allowed, f"option {spec['name']}: {value!r} is not one of {allowed}"
    if kind == 3:
        return str(value)
    if kind == 4:
        assert isinstance(value, int) and not isinstance(value, bool), f"{spec['name']}: integer"
        return value
    if kind == 5:
        assert isinstance(value, bool), f"{spec['name']}: boolean"
        return value
    if kind == 10:
        return float(value)
    if kind in (6, 9):
        user: User = value.user if isinstance(value, Person) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(permissions=guild.permissions_of(user))
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if kind == 7:
        assert isinstance(value, Channel), f"{spec['name']}: a channel"
        payload = value.payload()
        payload["permissions"] = str(guild.permissions_of(guild.owner) if guild else 0)
        resolved.setdefault("channels", {})[str(value.id)] = payload
        return str(value.id)
    if kind == 8:
        assert isinstance(value, Role), f"{spec['name']}: a role"
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    raise AssertionError(f"option type {kind} is not supported by the driver")


class RequestCounter:
    """Requests made while active: ``by_route``, and which count toward the global limit."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.requests: list[RequestRecord] = []

    def __enter__(self) -> RequestCounter:
        self.fake.counters.append(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.fake.counters.remove(self)

    @property
    def by_route(self) -> Counter[str]:
        return Counter(r.key for r in self.requests)

    @property
    def total(self) -> int:
        return len(self.requests)

    @property
    def interaction_responses(self) -> int:
        """Callbacks and interaction webhooks: free of the global limit."""
        return sum(r.interaction_response for r in self.requests)

    @property
    def global_limited(self) -> int:
        """Channel, DM and other bot calls that count toward the global 50/s limit."""
        return sum(r.counts_toward_global_limit for r in self.requests)


def percentile(values: list[float], pct: float) -> float:
    """The nearest-rank percentile (``pct`` in 0-100) of ``values``."""
    assert values, "no values"
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(rank) - 1]
