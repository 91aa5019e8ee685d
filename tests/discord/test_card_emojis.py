"""Card emojis' start-up logic on a stand-in application (the end-to-end suite runs it
against the fake Discord): races with another process, refusals, and the lookup."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace

import discord
import pytest

from bot.card_emojis import CardEmojis, EmojiReport, ensure_card_emojis


@dataclass
class Emoji:
    name: str
    id: int
    animated: bool = False


def refused(code: int, message: str) -> discord.HTTPException:
    response = SimpleNamespace(status=400, reason="Bad Request")
    return discord.HTTPException(response, {"code": code, "message": message})


@dataclass
class Application:
    """The application's emojis; ``rival`` names are uploaded by another process just
    before this one asks for the first of them; listing fails ``list_failures`` times."""

    limit: int = 2000
    rival: tuple[str, ...] = ()
    list_failures: int = 0
    emojis: dict[str, Emoji] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    lists: int = 0
    refusals: int = 0

    def add(self, name: str) -> Emoji:
        self.emojis[name] = Emoji(name, 1000 + len(self.emojis))
        return self.emojis[name]

    async def fetch_application_emojis(self) -> list[Emoji]:
        self.lists += 1
        if self.list_failures:
            self.list_failures -= 1
            raise refused(0, "503: Service Unavailable")
        return list(self.emojis.values())

    async def create_application_emoji(self, *, name: str, image: bytes) -> Emoji:
        if name in self.rival:
            for other in self.rival:
                self.emojis.setdefault(other, Emoji(other, 5000 + len(self.emojis)))
        if name in self.emojis:
            self.refusals += 1
            raise refused(50035, "Invalid Form Body")
        if len(self.emojis) >= self.limit:
            self.refusals += 1
            raise refused(30008, "Maximum number of emojis reached (2000)")
        self.created.append(name)
        return self.add(name)


FACES = {f"{c}_2c": c.encode() for c in ("AS", "TH", "QD", "7C", "BJ")}


def name_of(card: str, palette: str) -> str:
    return f"{card}_{'4' if palette == 'four-colour' else '2'}c"


async def test_faces_another_process_uploaded_meanwhile_are_taken_not_duplicated() -> None:
    app = Application(rival=("AS_2c", "BJ_2c", "QD_2c"))
    emojis = CardEmojis(name_of)
    report = await ensure_card_emojis(app, FACES, emojis)
    assert report == EmojiReport(present=3, uploaded=2, missing=0)
    assert sorted(app.created) == ["7C_2c", "TH_2c"] and app.lists == 2
    assert emojis.markdown("QD", "two-colour") == f"<:QD_2c:{app.emojis['QD_2c'].id}>"
    assert len(emojis) == 5


async def test_the_limit_stops_the_upload_with_a_warning_and_text_for_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At the limit the bot counts its emojis and asks for no upload Discord would refuse."""
    app = Application(limit=3)
    app.add("someone_elses")
    emojis = CardEmojis(name_of)
    with caplog.at_level(logging.INFO, "bot.card_emojis"):
        report = await ensure_card_emojis(app, FACES, emojis, limit=3)
    assert report == EmojiReport(present=0, uploaded=2, missing=3)
    assert app.created == ["7C_2c", "AS_2c"]  # in name order, up to the limit
    assert app.refusals == 0 and app.lists == 1
    warning = next(r for r in caplog.records if r.levelno == logging.WARNING)
    assert "owns 3 emojis, Discord's limit" in warning.message
    assert caplog.records[-1].message == "card emojis: 0 present, 2 uploaded, 3 missing" \
        " (shown as text)"
    assert emojis.emoji("BJ", "two-colour") is None and emojis.emoji("AS", "two-colour")
    assert "someone_elses" in app.emojis


async def test_a_list_that_fails_leaves_every_card_as_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = Application(list_failures=1)
    emojis = CardEmojis(name_of)
    with caplog.at_level(logging.WARNING, "bot.card_emojis"):
        report = await ensure_card_emojis(app, FACES, emojis)
    assert report == EmojiReport(present=0, uploaded=0, missing=5) and app.created == []
    assert "cannot list" in caplog.text and emojis.markdown("AS", "two-colour") is None


async def test_a_second_start_uploads_nothing() -> None:
    app = Application()
    await ensure_card_emojis(app, FACES, CardEmojis(name_of))
    again = CardEmojis(name_of)
    assert await ensure_card_emojis(app, FACES, again) == EmojiReport(5, 0, 0)
    assert len(app.created) == 5 and len(again) == 5


def test_without_faces_every_card_is_text() -> None:
    emojis = CardEmojis()
    emojis.add(Emoji("AS_2c", 1))
    assert emojis.emoji("AS", "two-colour") is None and emojis.markdown("AS", "x") is None
