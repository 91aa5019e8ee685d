"""The fake Discord refuses what the real one refuses: one planted violation per rule.

Each request goes straight to the fake over HTTP (no bot), with the bot's token, and the
test checks Discord's status and JSON error code — and that nothing was created or
changed. The end-to-end suites then prove the bot never trips any of these.
"""

from __future__ import annotations

import base64
from typing import Any

import aiohttp
import pytest

from tests.e2e.fake_discord import FakeDiscord, NotOffered
from tests.e2e.fake_emojis import MAX_EMOJIS, MAX_IMAGE_BYTES
from tests.e2e.fake_rest import OLD_EDITS_PER_HOUR, OLD_MESSAGE
from tests.e2e.fake_state import (
    EPHEMERAL,
    GUILD_INSTALL,
    LOADING,
    MANAGE_THREADS,
    SEND_MESSAGES,
    USE_EXTERNAL_APPS,
    USER_INSTALL,
    VIEW_CHANNEL,
    Channel,
    Message,
)

Reply = tuple[int, Any, dict[str, str]]

BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(**extra: Any) -> dict[str, Any]:
    options = [{"label": f"Card {i}", "value": str(i)} for i in range(3)]
    return {"type": 3, "custom_id": "pick", "options": options, **extra}


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: str | None = None
) -> Reply:
    headers = {"Authorization": f"Bot {token or fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.base_url + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.content_type == "application/json" else None
        return response.status, data, dict(response.headers)


async def post(fake: FakeDiscord, channel: Channel, body: Any) -> Reply:
    return await call(fake, "POST", f"/channels/{channel.id}/messages", body)


async def existing(fake: FakeDiscord, channel: Channel) -> Message:
    status, data, _ = await post(fake, channel, {"content": "the table"})
    assert status == 200, data
    return fake.messages[int(data["id"])]


MESSAGES_REFUSED: dict[str, tuple[dict[str, Any], int]] = {
    "content of the wrong type (spec)": ({"content": 5}, 50035),
    "an unknown top-level type (spec)": ({"embeds": "not a list"}, 50035),
    "content over 2000 characters": ({"content": "x" * 2001}, 50035),
    "whitespace-only content": ({"content": "  \n "}, 50006),
    "nothing at all": ({}, 50006),
    "more than 10 embeds": ({"embeds": [{"title": "t"}] * 11}, 50035),
    "embeds over 6000 characters": (
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        50035,
    ),
    "an embed title over 256": ({"embeds": [{"title": "t" * 257}]}, 50035),
    "a blank embed field": ({"embeds": [{"fields": [{"name": " ", "value": "v"}]}]}, 50035),
    "an embed footer over 2048": ({"embeds": [{"footer": {"text": "f" * 2049}}]}, 50035),
    "ephemeral on a channel message": ({"content": "hi", "flags": EPHEMERAL}, 50035),
    "parse users and a users list": (
        {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        50035,
    ),
    "six action rows": ({"components": [row(BUTTON | {"custom_id": f"b{i}"}) for i in range(6)]},
                        50035),
    "six buttons in a row": (
        {"components": [row(*(BUTTON | {"custom_id": f"b{i}"} for i in range(6)))]},
        50035,
    ),
    "a button without label or emoji": (
        {"components": [row({"type": 2, "style": 1, "custom_id": "go"})]},
        50035,
    ),
    "a link button with a custom_id": (
        {"components": [row({"type": 2, "style": 5, "label": "Web", "url": "https://x.org",
                             "custom_id": "web"})]},
        50035,
    ),
    "a button with a url and no custom_id": (
        {"components": [row({"type": 2, "style": 1, "label": "Go", "url": "https://x.org"})]},
        50035,
    ),
    "a button label over 80": ({"components": [row(BUTTON | {"label": "L" * 81})]}, 50035),
    "duplicate custom ids": ({"components": [row(BUTTON, BUTTON)]}, 50035),
    "a custom id over 100": ({"components": [row(BUTTON | {"custom_id": "c" * 101})]}, 50035),
    "a select beside a button": ({"components": [row(select(), BUTTON)]}, 50035),
    "a select with max_values above its options": (
        {"components": [row(select(max_values=4))]},
        50035,
    ),
    "more defaults than max_values": (
        {"components": [row(select() | {"options": [
            {"label": "A", "value": "a", "default": True},
            {"label": "B", "value": "b", "default": True},
        ]})]},
        50035,
    ),
    "a select option label over 100": (
        {"components": [row(select() | {"options": [{"label": "L" * 101, "value": "v"}]})]},
        50035,
    ),
}


@pytest.mark.parametrize("case", list(MESSAGES_REFUSED))
async def test_a_message_discord_refuses_is_refused(fake_discord: FakeDiscord, case: str) -> None:
    body, code = MESSAGES_REFUSED[case]
    lobby = fake_discord.channel("lobby")
    status, data, _ = await post(fake_discord, lobby, body)
    assert (status, data["code"]) == (400, code), data
    assert lobby.messages() == []


async def test_edits_are_refused_like_discord(fake_discord: FakeDiscord) -> None:
    lobby = fake_discord.channel("lobby")
    message = await existing(fake_discord, lobby)
    path = f"/channels/{lobby.id}/messages/{message.id}"
    emptied = await call(fake_discord, "PATCH", path, {"content": ""})
    assert (emptied[0], emptied[1]["code"]) == (400, 50006)
    flagged = await call(fake_discord, "PATCH", path, {"flags": EPHEMERAL})
    assert (flagged[0], flagged[1]["code"]) == (400, 50035)
    missing = await call(
        fake_discord, "PATCH", f"/channels/{lobby.id}/messages/1", {"content": "x"}
    )
    assert (missing[0], missing[1]["code"]) == (404, 10008)
    assert message.content == "the table" and message.edited_at is None


async def test_messages_older_than_an_hour_take_few_edits(fake_discord: FakeDiscord) -> None:
    """30046: Discord limits edits to messages older than an hour, per channel."""
    lobby = fake_discord.channel("lobby")
    fake_discord.clock.advance(-OLD_MESSAGE - 60)
    message = await existing(fake_discord, lobby)
    fake_discord.clock.advance(OLD_MESSAGE + 60)
    path = f"/channels/{lobby.id}/messages/{message.id}"
    for n in range(OLD_EDITS_PER_HOUR):
        status, _, _ = await call(fake_discord, "PATCH", path, {"content": f"edit {n}"})
        assert status == 200
    status, data, _ = await call(fake_discord, "PATCH", path, {"content": "one more"})
    assert (status, data["code"]) == (400, 30046)
    assert message.content == f"edit {OLD_EDITS_PER_HOUR - 1}"
    fresh = await existing(fake_discord, lobby)
    status, _, _ = await call(
        fake_discord, "PATCH", f"/channels/{lobby.id}/messages/{fresh.id}", {"content": "new"}
    )
    assert status == 200


async def test_channels_refuse_like_discord(fake_discord: FakeDiscord) -> None:
    hidden, quiet = fake_discord.add_channel("hidden"), fake_discord.add_channel("quiet")
    fake_discord.deny(hidden, VIEW_CHANNEL)
    fake_discord.deny(quiet, SEND_MESSAGES)
    refused = [
        (await post(fake_discord, hidden, {"content": "x"}), 403, 50001),
        (await post(fake_discord, quiet, {"content": "x"}), 403, 50013),
        (await call(fake_discord, "POST", "/channels/1/messages", {"content": "x"}), 404, 10003),
    ]
    for (status, data, _), want_status, want_code in refused:
        assert (status, data["code"]) == (want_status, want_code), data
    closed = fake_discord.user("closed")
    fake_discord.refuse_dms(closed)
    dm = fake_discord.dm_channel(closed.user)
    status, data, _ = await post(fake_discord, dm, {"content": "your hand"})
    assert (status, data["code"]) == (403, 50007)
    status, _, _ = await call(fake_discord, "GET", "/users/@me", token="stolen")
    assert status == 401


async def test_archived_threads_refuse_edits_and_locked_ones_posts(
    fake_discord: FakeDiscord,
) -> None:
    """50083: no edit in an archived thread; a post unarchives it unless it is locked."""
    thread = await fake_discord.add_thread(fake_discord.channel("lobby"), "gin table")
    message = await existing(fake_discord, thread)
    await fake_discord.set_archived(thread, True)
    path = f"/channels/{thread.id}/messages/{message.id}"
    status, data, _ = await call(fake_discord, "PATCH", path, {"content": "moved"})
    assert (status, data["code"]) == (400, 50083) and message.content == "the table"
    assert (await post(fake_discord, thread, {"content": "still here"}))[0] == 200
    assert not thread.archived
    await fake_discord.set_archived(thread, True, locked=True)
    status, data, _ = await post(fake_discord, thread, {"content": "anyone?"})
    assert (status, data["code"]) == (400, 50083) and thread.archived
    fake_discord.deny(fake_discord.channel("lobby"), 1 << 38)
    await fake_discord.set_archived(thread, False)
    status, data, _ = await post(fake_discord, thread, {"content": "no thread rights"})
    assert (status, data["code"]) == (403, 50013)


async def test_interaction_callbacks_refuse_like_discord(fake_discord: FakeDiscord) -> None:
    """A callback after 3 s: 10062; a second one: 40060; a follow-up after 15 minutes:
    401 50027; a callback type the interaction does not take, or flags a deferral does
    not take: 50035."""
    alice, lobby = fake_discord.user("alice").user, fake_discord.channel("lobby")

    def slash() -> Any:
        return fake_discord.open_interaction(alice, lobby, 2, {"name": "status", "type": 1})

    def callback(inter: Any, body: dict[str, Any]) -> Any:
        path = f"/interactions/{inter.id}/{inter.token}/callback?with_response=true"
        return call(fake_discord, "POST", path, body)

    late = slash()
    fake_discord.clock.advance(3.5)
    status, data, _ = await callback(late, {"type": 4, "data": {"content": "late"}})
    assert (status, data["code"]) == (404, 10062) and late.original is None

    twice = slash()
    assert (await callback(twice, {"type": 5}))[0] == 200
    status, data, _ = await callback(twice, {"type": 4, "data": {"content": "again"}})
    assert (status, data["code"]) == (400, 40060)

    fake_discord.clock.advance(15 * 60 + 1)
    url = f"/webhooks/{fake_discord.application_id}/{twice.token}"
    status, data, _ = await call(fake_discord, "POST", url, {"content": "too late"})
    assert (status, data["code"]) == (401, 50027) and twice.followups == []

    for body in ({"type": 7, "data": {"content": "no message to update"}},
                 {"type": 5, "data": {"flags": 1 << 2}}):
        status, data, _ = await callback(slash(), body)
        assert (status, data["code"]) == (400, 50035), body


async def test_a_deferred_answer_is_an_edit_and_tokens_age_from_creation(
    fake_discord: FakeDiscord,
) -> None:
    """After "thinking…", a first follow-up would edit the loading message — deprecated by
    Discord, refused here (50035), and undocumented once that message is deleted (refused
    too): the answer is an edit of the original, and follow-ups come after it. A token's
    15 minutes run from the interaction's creation, not from its (late) acknowledgement."""
    alice, lobby = fake_discord.user("alice").user, fake_discord.channel("lobby")
    inter = fake_discord.open_interaction(alice, lobby, 2, {"name": "hand", "type": 1})
    fake_discord.clock.advance(2.5)
    deferred = {"type": 5, "data": {"flags": EPHEMERAL}}
    path = f"/interactions/{inter.id}/{inter.token}/callback"
    assert (await call(fake_discord, "POST", path, deferred))[0] == 204
    hook = f"/webhooks/{fake_discord.application_id}/{inter.token}"
    status, data, _ = await call(fake_discord, "POST", hook, {"content": "your hand"})
    assert (status, data["code"]) == (400, 50035) and inter.followups == []
    assert inter.original is not None and inter.original.flags & LOADING
    edited = await call(fake_discord, "PATCH", f"{hook}/messages/@original",
                        {"content": "your hand"})
    assert edited[0] == 200 and inter.original.content == "your hand"
    assert not inter.original.flags & LOADING
    status, _, _ = await call(fake_discord, "POST", f"{hook}?wait=true",
                              {"content": "and more", "flags": EPHEMERAL})
    assert status == 200 and [m.content for m in inter.followups] == ["and more"]

    public = fake_discord.open_interaction(alice, lobby, 2, {"name": "table", "type": 1})
    path = f"/interactions/{public.id}/{public.token}/callback"
    assert (await call(fake_discord, "POST", path, {"type": 5}))[0] == 204
    thinking = f"/webhooks/{fake_discord.application_id}/{public.token}"
    assert (await call(fake_discord, "DELETE", f"{thinking}/messages/@original"))[0] == 204
    status, data, _ = await call(fake_discord, "POST", thinking,
                                 {"content": "after the deleted loading message",
                                  "flags": EPHEMERAL})
    assert (status, data["code"]) == (400, 50035) and public.followups == []

    fake_discord.clock.advance(15 * 60 - 2)  # 15 minutes since creation, not since the ack
    status, data, _ = await call(fake_discord, "POST", hook, {"content": "too late"})
    assert (status, data["code"]) == (401, 50027) and len(inter.followups) == 1


async def test_commands_refuse_like_discord(fake_discord: FakeDiscord) -> None:
    path = f"/applications/{fake_discord.application_id}/commands"
    option = {"type": 3, "name": "game", "description": "Which game"}
    bad = {
        "a required option after an optional one": [
            {"name": "table", "description": "Tables", "options": [
                option, option | {"name": "seat", "required": True}]}],
        "an upper-case name": [{"name": "Table", "description": "Tables"}],
        "26 choices": [{"name": "table", "description": "Tables", "options": [
            option | {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]}],
        "over 8000 characters": [{"name": "table", "description": "d" * 100, "options": [
            option | {"name": f"o{i}", "description": "d" * 100,
                      "choices": [{"name": "n" * 100, "value": "v" * 100}] * 2}
            for i in range(25)]}],
    }
    for case, body in bad.items():
        status, data, _ = await call(fake_discord, "PUT", path, body)
        assert (status, data["code"]) == (400, 50035), case
    assert fake_discord.commands == []


async def test_rate_limits_are_announced_and_enforced(fake_discord: FakeDiscord) -> None:
    """Every answer carries the bucket's headers; the sixth message to one channel within
    five seconds gets 429 (scope user) while another channel still takes messages."""
    lobby, general = fake_discord.channel("lobby"), fake_discord.channel("general")
    remaining = []
    for n in range(5):
        status, _, headers = await post(fake_discord, lobby, {"content": f"m{n}"})
        assert status == 200
        remaining.append(int(headers["X-RateLimit-Remaining"]))
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
    assert remaining == [4, 3, 2, 1, 0]
    status, data, headers = await post(fake_discord, lobby, {"content": "too fast"})
    assert status == 429 and data["global"] is False and 0 < data["retry_after"] <= 5
    assert headers["X-RateLimit-Scope"] == "user" and "Retry-After" in headers
    assert len(lobby.messages()) == 5
    assert (await post(fake_discord, general, {"content": "elsewhere"}))[0] == 200
    fake_discord.clock.advance(5)
    assert (await post(fake_discord, lobby, {"content": "later"}))[0] == 200


async def test_the_global_limit_spares_interaction_endpoints(fake_discord: FakeDiscord) -> None:
    """50 requests per second for the bot token across routes; the 51st gets a global
    429, while an interaction callback still goes through."""
    statuses = [(await call(fake_discord, "GET", "/users/@me"))[0] for _ in range(50)]
    assert statuses == [200] * 50
    status, data, headers = await call(fake_discord, "GET", "/gateway/bot")
    assert status == 429 and data["global"] is True and headers["X-RateLimit-Global"] == "true"
    inter = fake_discord.open_interaction(
        fake_discord.user("alice").user, fake_discord.channel("lobby"), 2, {"name": "x", "type": 1}
    )
    path = f"/interactions/{inter.id}/{inter.token}/callback"
    assert (await call(fake_discord, "POST", path, {"type": 5}))[0] == 204


PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def data_uri(image: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(image).decode()}"


#: case -> (body, the field Discord names, its error code); the spec's refusals say SCHEMA.
EMOJIS_REFUSED: dict[str, tuple[dict[str, Any], str, str]] = {
    "a one-letter name (spec)": ({"name": "a", "image": data_uri(PNG)}, "_errors", "SCHEMA"),
    "a 33-letter name (spec)": ({"name": "a" * 33, "image": data_uri(PNG)}, "_errors", "SCHEMA"),
    "no image (spec)": ({"name": "card"}, "_errors", "SCHEMA"),
    "a hyphen in the name": (
        {"name": "ten-of-hearts", "image": data_uri(PNG)}, "name", "STRING_TYPE_REGEX"
    ),
    "a name taken already": (
        {"name": "taken", "image": data_uri(PNG)}, "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    ),
    "raw base64, not a data URI": (
        {"name": "card", "image": base64.b64encode(PNG).decode()},
        "image", "BINARY_TYPE_INVALID_DATA_URI",
    ),
    "a BMP": (
        {"name": "card", "image": data_uri(b"BM" + b"\0" * 64, "image/bmp")},
        "image", "IMAGE_INVALID",
    ),
    "bytes that are no image": (
        {"name": "card", "image": data_uri(b"hello")}, "image", "IMAGE_INVALID"
    ),
    "over 256 KiB": (
        {"name": "card", "image": data_uri(PNG + b"\0" * (MAX_IMAGE_BYTES - len(PNG) + 1))},
        "image", "BINARY_TYPE_MAX_SIZE",
    ),
}


def field_code(data: dict[str, Any], field: str) -> str:
    """The error code Discord's 50035 gives for ``field`` (``_errors``: the whole body)."""
    errors = data["errors"] if field == "_errors" else data["errors"][field]
    return str(errors["_errors"][0]["code"])


@pytest.mark.parametrize("case", list(EMOJIS_REFUSED))
async def test_an_application_emoji_discord_refuses_is_refused(
    fake_discord: FakeDiscord, case: str
) -> None:
    body, field, code = EMOJIS_REFUSED[case]
    taken = fake_discord.add_app_emoji("taken")
    path = f"/applications/{fake_discord.application_id}/emojis"
    status, data, _ = await call(fake_discord, "POST", path, body)
    assert (status, data["code"], field_code(data, field)) == (400, 50035, code), data
    assert list(fake_discord.app_emojis.values()) == [taken]
    fitting = PNG + b"\0" * (MAX_IMAGE_BYTES - len(PNG))
    status, _, _ = await call(fake_discord, "POST", path, {"name": "ok", "image":
                                                           data_uri(fitting)})
    assert status == 201  # exactly 256 KiB, a fresh name: taken


async def test_application_emojis_live_and_die_like_discord(fake_discord: FakeDiscord) -> None:
    """Create (201), list (wrapped in ``items``), get, rename, delete (204); then 404 10014."""
    path = f"/applications/{fake_discord.application_id}/emojis"
    status, made, _ = await call(fake_discord, "POST", path, {"name": "TH_2c", "image":
                                                              data_uri(PNG)})
    assert status == 201 and made["name"] == "TH_2c" and not made["animated"]
    assert made["user"]["id"] == str(fake_discord.bot_user.id)
    gif = b"GIF89a" + b"\0" * 16
    status, moving, _ = await call(fake_discord, "POST", path, {"name": "spinner", "image":
                                                                data_uri(gif, "image/gif")})
    assert status == 201 and moving["animated"]
    status, listed, _ = await call(fake_discord, "GET", path)
    assert status == 200 and [e["name"] for e in listed["items"]] == ["TH_2c", "spinner"]
    one = f"{path}/{made['id']}"
    assert (await call(fake_discord, "GET", one))[1] == made
    status, renamed, _ = await call(fake_discord, "PATCH", one, {"name": "ten_of_hearts"})
    assert status == 200 and renamed["name"] == "ten_of_hearts"
    status, data, _ = await call(fake_discord, "PATCH", one, {"name": "spinner"})
    assert (status, data["code"]) == (400, 50035)
    status, data, _ = await call(fake_discord, "PATCH", one, {"name": "x"})
    assert (status, data["code"]) == (400, 50035)
    assert (await call(fake_discord, "DELETE", one))[0] == 204
    for method in ("GET", "DELETE"):
        status, data, _ = await call(fake_discord, method, one)
        assert (status, data["code"]) == (404, 10014)
    status, data, _ = await call(fake_discord, "PATCH", one, {"name": "gone"})
    assert (status, data["code"]) == (404, 10014)
    status, listed, _ = await call(fake_discord, "GET", path)
    assert [e["name"] for e in listed["items"]] == ["spinner"]


async def test_application_emojis_stop_at_2000_and_belong_to_the_application(
    fake_discord: FakeDiscord,
) -> None:
    """The 2,001st emoji is 400 30008; another application's emojis are 403 50001."""
    for n in range(MAX_EMOJIS - 1):
        fake_discord.add_app_emoji(f"e{n}")
    path = f"/applications/{fake_discord.application_id}/emojis"
    status, _, _ = await call(fake_discord, "POST", path, {"name": "last", "image": data_uri(PNG)})
    assert status == 201
    status, data, _ = await call(fake_discord, "POST", path, {"name": "more", "image":
                                                              data_uri(PNG)})
    assert (status, data["code"]) == (400, 30008)
    assert len(fake_discord.app_emojis) == MAX_EMOJIS
    emoji = next(iter(fake_discord.app_emojis.values()))
    other = f"/applications/{fake_discord.application_id + 1}/emojis"
    for method, url, body in (
        ("GET", other, None),
        ("POST", other, {"name": "mine", "image": data_uri(PNG)}),
        ("GET", f"{other}/{emoji.id}", None),
        ("PATCH", f"{other}/{emoji.id}", {"name": "mine"}),
        ("DELETE", f"{other}/{emoji.id}", None),
    ):
        status, data, _ = await call(fake_discord, method, url, body)
        assert (status, data["code"]) == (403, 50001), (method, url)
    assert emoji.id in fake_discord.app_emojis and emoji.name == "e0"


async def test_deleting_a_thread_needs_manage_threads(fake_discord: FakeDiscord) -> None:
    """Delete Channel on a thread: 403 50013 without Manage Threads; with it the thread is
    gone (and a second delete is 404 10003)."""
    lobby = fake_discord.channel("lobby")
    thread = await fake_discord.add_thread(lobby, "gin table")
    fake_discord.deny(lobby, MANAGE_THREADS)
    status, data, _ = await call(fake_discord, "DELETE", f"/channels/{thread.id}")
    assert (status, data["code"]) == (403, 50013) and not thread.deleted
    lobby.bot_denied &= ~MANAGE_THREADS
    assert (await call(fake_discord, "DELETE", f"/channels/{thread.id}"))[0] == 200
    assert thread.deleted
    status, data, _ = await call(fake_discord, "DELETE", f"/channels/{thread.id}")
    assert (status, data["code"]) == (404, 10003)


# -- user installs (docs cited in docs/user-install.md) -------------------------------------

#: Commands as Deckhand declares them (``bot.cogs``): installs (0 guild, 1 user) and contexts
#: (0 guild, 1 the bot's DM, 2 DMs and group DMs between users).
DECLARED = [
    {"name": "table", "description": "Tables", "integration_types": [0, 1], "contexts": [0, 2]},
    {"name": "event", "description": "Events", "integration_types": [0], "contexts": [0]},
]


async def declare(fake: FakeDiscord) -> None:
    path = f"/applications/{fake.application_id}/commands"
    status, data, _ = await call(fake, "PUT", path, DECLARED)
    assert status == 200, data


async def test_places_without_the_bot_refuse_its_token(fake_discord: FakeDiscord) -> None:
    """A DM or group DM between users and a server that did not add the bot: its token
    reads and posts nothing there (403 50001); the bot DMs only users it shares a server
    with (403 50278)."""
    fake = fake_discord
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    elsewhere = fake.add_guild("no bot", bot=False)
    stranger = fake.member("dave", guild=elsewhere)
    places = [
        fake.private_channel(alice, bob, carol),
        fake.private_channel(alice, bob),
        elsewhere.channel("lobby"),
    ]
    for place in places:
        for method, body in (("POST", {"content": "the table"}), ("GET", None)):
            status, data, _ = await call(fake, method, f"/channels/{place.id}/messages", body)
            assert (status, data["code"]) == (403, 50001), (place.label, method)
        assert place.messages() == []
    status, data, _ = await call(fake, "GET", f"/guilds/{elsewhere.id}/channels")
    assert (status, data["code"]) == (403, 50001)
    status, data, _ = await post(fake, fake.dm_channel(stranger.user), {"content": "your hand"})
    assert (status, data["code"]) == (403, 50278)
    assert (await post(fake, fake.dm_channel(alice.user), {"content": "your hand"}))[0] == 200


async def test_commands_are_offered_only_where_declared(fake_discord: FakeDiscord) -> None:
    """A command is offered where its contexts include the channel's and one of its
    installs is there: a guild-install command nowhere the bot is not; a user-install one
    only to the user who installed the app, authorised by them."""
    fake = fake_discord
    await declare(fake)
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    fake.install(alice)
    group = fake.private_channel(alice, bob, carol)
    elsewhere = fake.add_guild("no bot", bot=False)
    fake.member("alice", guild=elsewhere)
    fake.member("bob", guild=elsewhere)
    for user, channel, name in (
        (alice, group, "event"),  # guild install only
        (bob, group, "table"),  # bob did not install the app
        (alice, fake.dm_channel(alice.user), "table"),  # not declared for the bot's DM
        (alice, elsewhere.channel("lobby"), "event"),
        (bob, elsewhere.channel("lobby"), "table"),
    ):
        with pytest.raises(NotOffered):
            fake.offered(user.user, channel, name)
    assert fake.offered(alice.user, group, "table")[1] == {str(USER_INSTALL): str(alice.id)}
    assert fake.offered(alice.user, elsewhere.channel("lobby"), "table")[1] == {
        str(USER_INSTALL): str(alice.id)
    }
    lobby = fake.channel("lobby")
    assert fake.offered(bob.user, lobby, "table")[1] == {str(GUILD_INSTALL): str(fake.guild.id)}


async def test_a_user_installed_interaction_takes_five_follow_ups(
    fake_discord: FakeDiscord,
) -> None:
    """Where only a user install authorises an interaction, the sixth follow-up is 400
    40094; the app's own install in the server lifts the limit."""
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.install(alice)
    owners = {str(USER_INSTALL): str(alice.id)}
    limited = fake.open_interaction(
        alice.user, fake.private_channel(alice, bob), 2, {"name": "table", "type": 1},
        owners=owners,
    )
    server = fake.open_interaction(alice.user, fake.channel("lobby"), 2,
                                   {"name": "table", "type": 1})
    for inter in (limited, server):
        path = f"/interactions/{inter.id}/{inter.token}/callback"
        assert (await call(fake, "POST", path, {"type": 4, "data": {"content": "lobby"}}))[0] == 204
        hook = f"/webhooks/{fake.application_id}/{inter.token}"
        for n in range(5):
            fake.clock.advance(0.5)  # within the token's 5 requests per 2 s
            assert (await call(fake, "POST", hook, {"content": f"ping {n}"}))[0] == 204
    fake.clock.advance(2.0)
    hook = f"/webhooks/{fake.application_id}/{limited.token}"
    status, data, _ = await call(fake, "POST", hook, {"content": "one more"})
    assert (status, data["code"]) == (400, 40094) and len(limited.followups) == 5
    status, _, _ = await call(fake, "POST", f"/webhooks/{fake.application_id}/{server.token}",
                              {"content": "one more"})
    assert status == 204 and len(server.followups) == 6


async def test_answers_are_forced_private_without_use_external_apps(
    fake_discord: FakeDiscord,
) -> None:
    """In a server that did not add the app and keeps Use External Apps from its members,
    every answer to a user-installed command is ephemeral, whatever the app asked;
    with the permission, or where the server installed the app, it may be public."""
    fake = fake_discord
    strict = fake.add_guild("strict", bot=False)
    strict.everyone.permissions &= ~USE_EXTERNAL_APPS
    open_ = fake.add_guild("open", bot=False)
    alice = fake.member("alice", guild=strict)
    fake.member("alice", guild=open_)
    fake.install(alice)
    owners = {str(USER_INSTALL): str(alice.id)}
    data = {"name": "table", "type": 1}
    cases = [
        (fake.open_interaction(alice.user, strict.channel("lobby"), 2, data, owners=owners),
         True),
        (fake.open_interaction(alice.user, open_.channel("lobby"), 2, data, owners=owners),
         False),
        (fake.open_interaction(alice.user, fake.channel("lobby"), 2, data), False),
    ]
    for inter, forced in cases:
        path = f"/interactions/{inter.id}/{inter.token}/callback"
        assert (await call(fake, "POST", path, {"type": 4, "data": {"content": "lobby"}}))[0] == 204
        hook = f"/webhooks/{fake.application_id}/{inter.token}?wait=true"
        status, _, _ = await call(fake, "POST", hook, {"content": "and everyone sees"})
        assert status == 200
        assert [m.ephemeral for m in inter.messages] == [forced, forced], inter.channel.label


# -- what Discord leaves undocumented, as its users and staff report it ----------------------


def component_click(fake: FakeDiscord, user: Any, message: Message) -> Any:
    """A button click on ``message`` as the fake would dispatch it (owners from the message)."""
    data = {"custom_id": "go", "component_type": 2}
    return fake.open_interaction(user.user, message.channel, 3, data, message)


async def test_an_interaction_token_takes_five_requests_per_two_seconds(
    fake_discord: FakeDiscord,
) -> None:
    """Five requests with one interaction token — callback, edits and follow-ups alike —
    within 2 s; the sixth is 429 with the bucket's headers (discord-api-docs#2701: 5/2s per
    interaction); another interaction's token is not affected, and 2 s later it goes on.
    The window is Discord's own length whatever the route windows' scale."""
    fake = fake_discord
    fake.limits.window_scale = 0.1
    alice, lobby = fake.user("alice"), fake.channel("lobby")
    busy = fake.open_interaction(alice.user, lobby, 2, {"name": "table", "type": 1})
    other = fake.open_interaction(alice.user, lobby, 2, {"name": "table", "type": 1})
    path = f"/interactions/{busy.id}/{busy.token}/callback"
    status, _, headers = await call(fake, "POST", path, {"type": 4, "data": {"content": "hi"}})
    assert status == 204 and headers["X-RateLimit-Limit"] == "5"
    assert headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) <= 2
    hook = f"/webhooks/{fake.application_id}/{busy.token}"
    for n in range(3):
        assert (await call(fake, "POST", hook, {"content": f"follow-up {n}"}))[0] == 204
    edited = await call(fake, "PATCH", f"{hook}/messages/@original", {"content": "edited"})
    assert edited[0] == 200 and edited[2]["X-RateLimit-Remaining"] == "0"
    status, data, headers = await call(fake, "POST", hook, {"content": "the sixth"})
    assert status == 429 and data["global"] is False and 0 < data["retry_after"] <= 2
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert len(busy.followups) == 3
    path = f"/interactions/{other.id}/{other.token}/callback"
    assert (await call(fake, "POST", path, {"type": 5}))[0] == 204
    fake.clock.advance(2.0)
    assert (await call(fake, "POST", hook, {"content": "later"}))[0] == 204


async def test_old_messages_take_few_edits_through_interaction_tokens(
    fake_discord: FakeDiscord,
) -> None:
    """30046 names no token type: a click's token that edits the clicked message when it is
    over an hour old counts toward the channel's few old-message edits, through Edit
    Original Interaction Response and through the callback's UPDATE_MESSAGE alike."""
    fake = fake_discord
    lobby, alice = fake.channel("lobby"), fake.user("alice")
    fake.clock.advance(-2 * OLD_MESSAGE)
    message = await existing(fake, lobby)
    fake.clock.advance(2 * OLD_MESSAGE)
    for n in range(OLD_EDITS_PER_HOUR):
        click = component_click(fake, alice, message)
        if n == 0:
            body: dict[str, Any] = {"type": 7, "data": {"content": "updated"}}
            status, _, _ = await call(fake, "POST", f"/interactions/{click.id}/{click.token}"
                                      "/callback", body)
            assert status == 204
            continue
        await call(fake, "POST", f"/interactions/{click.id}/{click.token}/callback", {"type": 6})
        hook = f"/webhooks/{fake.application_id}/{click.token}/messages/@original"
        assert (await call(fake, "PATCH", hook, {"content": f"edit {n}"}))[0] == 200
    click = component_click(fake, alice, message)
    await call(fake, "POST", f"/interactions/{click.id}/{click.token}/callback", {"type": 6})
    hook = f"/webhooks/{fake.application_id}/{click.token}/messages/@original"
    status, data, _ = await call(fake, "PATCH", hook, {"content": "one more"})
    assert (status, data["code"]) == (400, 30046)
    late = component_click(fake, alice, message)
    body = {"type": 7, "data": {"content": "and through the callback"}}
    status, data, _ = await call(fake, "POST", f"/interactions/{late.id}/{late.token}/callback",
                                 body)
    assert (status, data["code"]) == (400, 30046)
    assert message.content == f"edit {OLD_EDITS_PER_HOUR - 1}"
    assert [through for through, _ in fake.rest.old_edit_log] == ["token"] * 5


async def test_an_installer_who_removes_the_app_takes_its_authorisation(
    fake_discord: FakeDiscord,
) -> None:
    """Alice's install authorised a table message in a group DM; she removes Deckhand.
    Her commands are no longer offered; a token her install authorised is refused (404
    10015) though young; a click on that message arrives without an owner, and its token
    is refused too. Carol's own install still authorises what she starts."""
    fake = fake_discord
    await declare(fake)
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    fake.install(alice, carol)
    group = fake.private_channel(alice, bob, carol)
    owners = fake.offered(alice.user, group, "table")[1]
    opened = fake.open_interaction(alice.user, group, 2, {"name": "table", "type": 1},
                                   owners=owners)
    path = f"/interactions/{opened.id}/{opened.token}/callback"
    assert (await call(fake, "POST", path, {"type": 4, "data": {"content": "the table"}}))[0] == 204
    assert opened.original is not None
    fake.uninstall(alice)
    with pytest.raises(NotOffered):
        fake.offered(alice.user, group, "table")
    hook = f"/webhooks/{fake.application_id}/{opened.token}"
    status, data, _ = await call(fake, "PATCH", f"{hook}/messages/@original", {"content": "x"})
    assert (status, data["code"]) == (404, 10015) and opened.original.content == "the table"
    click = component_click(fake, bob, opened.original)
    assert click.owners == {}
    path = f"/interactions/{click.id}/{click.token}/callback"
    body = {"type": 4, "data": {"content": "told in the callback", "flags": EPHEMERAL}}
    assert (await call(fake, "POST", path, body))[0] == 204  # the callback is still taken
    hook = f"/webhooks/{fake.application_id}/{click.token}"
    status, data, _ = await call(fake, "POST", hook, {"content": "a follow-up"})
    assert (status, data["code"]) == (404, 10015) and click.followups == []
    carols = fake.offered(carol.user, group, "table")[1]
    assert carols == {str(USER_INSTALL): str(carol.id)}
    fake.leave(group, carol)
    assert fake.live_owners(carols, group) == {}


async def test_a_server_that_installed_only_the_commands_has_no_bot(
    fake_discord: FakeDiscord,
) -> None:
    """An admin installed the app with ``applications.commands`` alone: the server's
    install authorises its commands (owners name the guild: no 5-follow-up limit, answers
    may be public), the app may register the server's own commands, and the bot is no
    member: its token reaches nothing there (403 50001) and no GUILD_CREATE names it."""
    fake = fake_discord
    await declare(fake)
    bare = fake.add_guild("commands only", bot=False, commands=True)
    alice = fake.member("alice", guild=bare)
    lobby = bare.channel("lobby")
    assert fake.offered(alice.user, lobby, "table")[1] == {str(GUILD_INSTALL): str(bare.id)}
    assert fake.offered(alice.user, lobby, "event")[1] == {str(GUILD_INSTALL): str(bare.id)}
    path = f"/applications/{fake.application_id}/guilds/{bare.id}/commands"
    assert (await call(fake, "PUT", path, DECLARED))[0] == 200
    assert not fake.in_guild(bare) and fake.installed_in(bare)
    for method, url, body in (
        ("POST", f"/channels/{lobby.id}/messages", {"content": "the table"}),
        ("GET", f"/guilds/{bare.id}/channels", None),
    ):
        status, data, _ = await call(fake, method, url, body)
        assert (status, data["code"]) == (403, 50001), url
    inter = fake.open_interaction(alice.user, lobby, 2, {"name": "table", "type": 1},
                                  owners={str(GUILD_INSTALL): str(bare.id)})
    assert not inter.user_installed_only and not inter.forced_ephemeral


# -- what docs/scale.md relies on ------------------------------------------------------------


async def test_a_shard_holds_at_most_its_guilds_and_dms_go_to_shard_0(
    fake_discord: FakeDiscord,
) -> None:
    """A session that would hold more guilds than a shard may is closed with 4011 (2,500
    on Discord; lowered here to plant it), a shard outside the count with 4010; guild
    events go to ``(guild_id >> 22) % shards``, and events without a guild (DMs, group DMs)
    to shard 0 only (gateway.mdx, Sharding)."""
    fake = fake_discord
    for n in range(3):
        fake.add_guild(f"server {n}")
    gateway = fake.gateway
    gateway.guilds_per_shard = 1

    async def identify(session: aiohttp.ClientSession, shard: list[int]) -> Any:
        ws = await session.ws_connect(fake.gateway_url)
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1,
                                           "shard": shard, "properties": {}}})
        await ws.receive()  # READY, or the close
        return ws

    async with aiohttp.ClientSession() as session:
        assert (await identify(session, [0, 1])).close_code == 4011
        assert (await identify(session, [2, 2])).close_code == 4010
        gateway.guilds_per_shard = 2500
        count = 4
        open_ = [await identify(session, [shard_id, count]) for shard_id in range(count)]
        assert all(ws.close_code is None for ws in open_)
        for guild in fake.guilds:
            owner = gateway.session_for(guild.id)
            assert owner is not None and owner.shard == ((guild.id >> 22) % count, count)
        dms = gateway.session_for(None)
        assert dms is not None and dms.shard == (0, count)
        for ws in open_:
            await ws.close()
