"""The fake Discord works end to end with the unmodified discord.py client.

A small demo bot, defined here, exercises what Deckhand's bot will use: a slash command in a
group with typed options, autocomplete, a restart-proof DynamicItem button, a select menu,
ephemeral replies, deferral with follow-up and edit, DMs, channel sends and edits.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.conftest import BotRunner
from tests.e2e.driver import percentile
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_state import SEND_MESSAGES, VIEW_CHANNEL, pinged_by
from tests.waiting import until

MOVES = ["draw stock", "draw discard", "discard QH", "discard 7C", "knock"]


class Join(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"demo:(?P<table>[0-9]+):(?P<version>[0-9]+):join",
):
    """A versioned button that works without any in-memory view (after a restart too)."""

    def __init__(self, table: int, version: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"demo:{table}:{version}:join"))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Join:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        version = self.version + 1
        await interaction.response.edit_message(
            content=f"Table {self.table} v{version}: {interaction.user.name} joined",
            view=table_view(self.table, version),
        )


class Refresh(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:(?P<table>[0-9]+):refresh"
):
    """Deferred update, then an edit through the channel endpoint."""

    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Refresh", custom_id=f"demo:{table}:refresh"))
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Refresh:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content=f"Table {self.table} refreshed")


class Pick(discord.ui.Select[Any]):
    def __init__(self) -> None:
        options = [discord.SelectOption(label=m.title(), value=m) for m in MOVES]
        super().__init__(custom_id="demo:pick", options=options, max_values=2)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} picked {', '.join(self.values)}", ephemeral=True
        )


def table_view(table: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Join(table, version))
    view.add_item(Refresh(table))
    view.add_item(Pick())
    return view


def make_demo_bot(guild_id: int) -> commands.Bot:
    """The demo bot; commands are synced to the fake guild in ``setup_hook``."""
    bot = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        guild_ready_timeout=0.05,
    )
    table = app_commands.Group(name="table", description="Tables")

    @table.command(name="new", description="Open a table")
    async def table_new(
        interaction: discord.Interaction,
        game: Literal["gin_rummy", "spades"],
        seats: int = 2,
    ) -> None:
        await interaction.response.send_message(
            f"New {game} table for {seats}", view=table_view(1, 0)
        )

    @app_commands.command(description="A reply only you see")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"only for {interaction.user.name}", ephemeral=True)

    @app_commands.command(description="Slow work: defer, edit, follow up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.1)
        await interaction.edit_original_response(content="slow work done")
        await interaction.followup.send("and one more thing", ephemeral=True)

    @app_commands.command(description="Play a move")
    async def play(interaction: discord.Interaction, move: str) -> None:
        await interaction.response.send_message(f"{interaction.user.name} played {move}")

    @play.autocomplete("move")
    async def play_moves(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MOVES if current.lower() in m.lower()]

    @app_commands.command(description="DM me")
    async def dm(interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.user.send(text, view=table_view(2, 0))
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent you a DM", ephemeral=True)

    @app_commands.command(description="Post in the channel")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(text)

    @app_commands.command(description="Managers only")
    @app_commands.default_permissions(manage_guild=True)
    async def manage(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"manage_guild={interaction.permissions.manage_guild}", ephemeral=True
        )

    @app_commands.command(description="Answers too late")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("too late")

    slash_commands: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
        *(table, secret, slow, play, dm, announce, manage, late)
    ]
    for command in slash_commands:
        bot.tree.add_command(command)

    async def setup_hook() -> None:
        bot.add_dynamic_items(Join, Refresh)
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]  # (this one client's hook)
    return bot


async def start(runner: BotRunner, fake: FakeDiscord) -> discord.Client:
    return await runner.start(lambda: make_demo_bot(fake.guild.id))


async def test_login_and_command_sync(fake_discord: FakeDiscord, bot_runner: BotRunner) -> None:
    client = await start(bot_runner, fake_discord)
    routes = [r.key for r in fake_discord.requests]
    assert routes[:2] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert "PUT /applications/{application_id}/guilds/{guild_id}/commands" in routes
    names = sorted(c.data["name"] for c in fake_discord.commands_for(fake_discord.guild.id))
    assert names == ["announce", "dm", "late", "manage", "play", "secret", "slow", "table"]
    assert client.user is not None and client.user.id == fake_discord.bot_user.id
    guild = client.get_guild(fake_discord.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"lobby", "general"}
    assert fake_discord.gateway.identifies == 1


async def test_slash_reply_button_update_and_select(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = fake_discord.channel("lobby")

    reply = await alice.slash("table new", game="spades", seats=4)
    assert reply.callback_type == 4 and not reply.ephemeral
    table = reply.response
    assert table is not None and table.content == "New spades table for 4"
    assert lobby.messages() == [table]
    assert [b["label"] for b in table.buttons()] == ["Join", "Refresh"]

    joined = await bob.click(table, "Join")
    assert joined.callback_type == 7 and joined.response is table
    assert table.content == "Table 1 v1: bob joined"
    assert table.buttons()[0]["custom_id"] == "demo:1:1:join"

    picked = await bob.select(table, ["knock", "Draw Stock"])
    assert picked.ephemeral and picked.text == "bob picked knock, draw stock"
    assert bob.ephemerals() == picked.messages and alice.ephemerals() == []
    assert len(lobby.messages()) == 1


async def test_ephemeral_reply_only_for_its_user(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    answer = await alice.slash("secret")
    assert answer.ephemeral and answer.text == "only for alice"
    assert [m.content for m in alice.ephemerals()] == ["only for alice"]
    assert bob.ephemerals() == [] and fake_discord.channel("lobby").messages() == []
    assert "only for alice" not in "\n".join(m.all_text() for m in bob.visible_messages())


async def test_dynamic_button_survives_restart(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    first = await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    table = (await alice.slash("table new", game="gin_rummy")).response
    assert table is not None
    await bot_runner.stop(first)

    await start(bot_runner, fake_discord)
    assert fake_discord.gateway.identifies == 2
    clicked = await alice.click(table, "Join")
    assert clicked.callback_type == 7 and table.content == "Table 1 v1: alice joined"
    refreshed = await alice.click(table, "Refresh")
    assert refreshed.callback_type == 6 and table.content == "Table 1 refreshed"
    assert fake_discord.requests[-1].key == "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_stale_snapshot_click_carries_old_custom_id(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    table = (await alice.slash("table new", game="spades")).response
    assert table is not None
    old = table.snapshot()
    await alice.click(table, "Join")
    stale = await alice.click(old, "Join")
    assert stale.data["custom_id"] == "demo:1:0:join"
    assert table.content == "Table 1 v1: alice joined"


async def test_deferral_then_edit_original_and_followup(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    with fake_discord.count() as counter:
        slow = await alice.slash("slow")  # answered: "thinking…" replaced
        await until(lambda: len(slow.messages) == 2, "the follow-up after the answer")
    assert slow.callback_type == 5
    assert [m.content for m in slow.messages] == ["slow work done", "and one more thing"]
    assert all(m.ephemeral_for is alice.user for m in slow.messages)
    assert slow.original is not None and slow.original.history[-1]["content"] == "slow work done"
    assert counter.by_route == {
        "POST /interactions/{webhook_id}/{webhook_token}/callback": 1,
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": 1,
        "POST /webhooks/{webhook_id}/{webhook_token}": 1,
    }
    assert counter.global_limited == 0 and counter.interaction_responses == 3


async def test_autocomplete_offers_matching_choices(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    choices = await alice.autocomplete("play", "move", "disc")
    assert [c["value"] for c in choices] == ["draw discard", "discard QH", "discard 7C"]
    played = await alice.slash("play", move="discard QH")
    assert played.text == "alice played discard QH"


async def test_dm_sent_and_dm_refused(fake_discord: FakeDiscord, bot_runner: BotRunner) -> None:
    client = await start(bot_runner, fake_discord)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    assert (await alice.slash("dm", text="your hand: QH 7C")).text == "sent you a DM"
    assert [m.content for m in alice.dm_messages()] == ["your hand: QH 7C"]
    assert bob.dm_messages() == []
    clicked = await alice.click(alice.dm_messages()[0], "Join")
    assert clicked.channel.is_dm and "user" in clicked.payload(fake_discord.bot_user, None)
    assert alice.dm_messages()[0].content == "Table 2 v1: alice joined"

    bob.close_dms()
    assert (await bob.slash("dm", text="hand")).text == "cannot DM you (50007)"
    user = await client.fetch_user(bob.id)
    with pytest.raises(AssertionError, match="cannot see"):
        await bob.click(alice.dm_messages()[0], "Join")
    with pytest.raises(discord.Forbidden) as refused:
        await user.send("hello")
    assert refused.value.code == 50007 and refused.value.status == 403
    assert bob.dm_messages() == []


async def test_429_is_waited_out(fake_discord: FakeDiscord, bot_runner: BotRunner) -> None:
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    fake_discord.rate_limit("POST", "/channels/*/messages", retry_after=0.3)
    lobby = fake_discord.channel("lobby")
    with fake_discord.count() as counter:
        await alice.slash("announce", text="hello lobby")  # answered, then posted
        await until(lobby.messages, "the post, once the 429 is waited out")
    assert [m.content for m in lobby.messages()] == ["hello lobby"]
    posts = [r for r in counter.requests if r.route == "/channels/{channel_id}/messages"]
    assert [r.status for r in posts] == [429, 200]
    assert posts[1].at - posts[0].at >= 0.29  # the client slept retry_after
    assert counter.global_limited == 2


async def test_server_error_once_then_retry(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    table = (await alice.slash("table new", game="spades")).response
    assert table is not None
    fake_discord.server_error("PATCH", "/channels/*/messages/*")
    await alice.click(table, "Refresh")
    edits = [r.status for r in fake_discord.requests if r.method == "PATCH"]
    assert edits == [500, 200] and table.content == "Table 1 refreshed"


async def test_gateway_drop_resume_and_reidentify(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    await fake_discord.drop_gateway()
    answer = await alice.slash("secret")  # dispatched while reconnecting: replayed on RESUME
    assert answer.text == "only for alice"
    await fake_discord.gateway.wait_for(resumes=1)

    await fake_discord.drop_gateway(resumable=False)
    await fake_discord.gateway.wait_for(identifies=2)
    assert (await alice.slash("secret")).text == "only for alice"


async def test_permissions_hide_and_report_manage_server(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    plain, manager = fake_discord.user("plain"), fake_discord.member("mia", manage_guild=True)
    with pytest.raises(AssertionError, match="does not see /manage"):
        await plain.slash("manage")
    assert (await manager.slash("manage")).text == "manage_guild=True"


async def test_bad_input_is_refused_like_discord(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    client = await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    with pytest.raises(AssertionError, match="not one of"):
        await alice.slash("table new", game="poker")
    channel = client.get_channel(fake_discord.channel("lobby").id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.status == 400 and too_long.value.code == 50035
    assert fake_discord.channel("lobby").messages() == []
    url = f"{fake_discord.base_url}/no/such/route"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 404
        assert response.headers["Content-Type"] == "application/json"
        assert await response.json() == {"message": "404: Not Found", "code": 0}


async def test_late_callback_fails_the_interaction(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    fake_discord.callback_deadline = 0.2
    with pytest.raises(AssertionError, match=r"after 0\.2 s"):
        await fake_discord.user("alice").slash("late")
    assert fake_discord.requests[-1].status == 404


async def test_concurrent_clicks_and_latency(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start(bot_runner, fake_discord)
    people = [fake_discord.user(name) for name in ("ann", "ben", "cat", "dan")]
    answers = await asyncio.gather(*(p.slash("secret") for p in people * 5))
    assert all(a.text == f"only for {a.user.name}" for a in answers)
    latencies = fake_discord.latencies()
    assert len(latencies) == 20 and percentile(latencies, 99) < 3.0


async def test_deleted_channel_and_message_and_uploads(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    client = await start(bot_runner, fake_discord)
    lobby = fake_discord.channel("lobby")
    channel = client.get_channel(lobby.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("with a file", file=discord.File(io.BytesIO(b"QH 7C"), "hand.txt"))
    assert sent.attachments[0].filename == "hand.txt" and sent.attachments[0].size == 5
    await fake_discord.delete_message(lobby.last_message())
    with pytest.raises(discord.NotFound) as gone:
        await sent.edit(content="edited")
    assert gone.value.code == 10008 and lobby.messages() == []

    await fake_discord.delete_channel(lobby)
    await fake_discord.settle()
    assert client.get_channel(lobby.id) is None
    with pytest.raises(discord.NotFound) as unknown:
        await channel.send("anyone?")
    assert unknown.value.code == 10003


async def test_channel_overwrites_refuse_like_discord(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    """A channel the bot may see but not write to: 403 50013; one it may not see: 403
    50001 (the interaction's app_permissions are checked in test_edge_e2e)."""
    client = await start(bot_runner, fake_discord)
    quiet_room, hidden = fake_discord.add_channel("quiet"), fake_discord.add_channel("hidden")
    fake_discord.deny(quiet_room, SEND_MESSAGES)
    fake_discord.deny(hidden, VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as refused:
        await client.get_partial_messageable(quiet_room.id).send("hello")
    assert (refused.value.status, refused.value.code) == (403, 50013)
    with pytest.raises(discord.Forbidden) as refused:
        await client.get_partial_messageable(hidden.id).send("hello")
    assert (refused.value.status, refused.value.code) == (403, 50001)


def test_mentions_ping_as_discord_decides() -> None:
    assert pinged_by("<@5> and <@!6> @everyone", None) == {5, 6, "everyone"}
    assert pinged_by("<@5> @everyone", {"parse": []}) == set()
    assert pinged_by("<@5> <@6>", {"parse": [], "users": ["6"]}) == {6}
    assert pinged_by("<@5> @here", {"parse": ["users"]}) == {5}


async def test_an_interaction_token_expires_after_fifteen_minutes(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    """Follow-ups and edits of the original work for 15 minutes (here: shortened), then
    401 50027 — as Discord's interaction tokens do."""
    await start(bot_runner, fake_discord)
    alice = fake_discord.user("alice")
    slow = await alice.slash("slow")
    assert slow.original is not None
    fake_discord.token_lifetime = 0.0
    url = f"{fake_discord.base_url}/webhooks/{fake_discord.application_id}/{slow.token}"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"content": "too late"}) as reply,
    ):
        body = await reply.json()
    assert (reply.status, body["code"]) == (401, 50027)
