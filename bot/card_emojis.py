"""Card faces as the application's own emojis, and the text fallback when they are missing.

Decisions:

* Discord lets an application own 2,000 emojis that it may use anywhere without the Use
  External Emojis permission; Deckhand keeps its card faces there, named by the art
  (``FaceSet.name_of``: card code and palette → emoji name).
* Start-up lists the application's emojis once and uploads only the faces whose name is
  not there: starting again uploads nothing, and a face deleted by hand is uploaded again
  at the next start. A face is matched by name only (Discord does not give the image
  back): a redrawn face keeps its old emoji until that emoji is deleted. Emojis that are
  no card face (added by hand) are left alone.
* Uploads go one at a time; discord.py waits out Discord's 429s. An application owns at
  most ``EMOJI_LIMIT`` emojis: the bot counts its emojis (listed and uploaded) and sends
  no upload past the limit — it stops with a warning instead of asking for a refusal
  (30008) at every start. When an upload is refused, the list is read once more (another
  process sharing the application may have uploaded the same faces: Discord refuses a
  name twice); a refusal the list does not explain (an HTTP error) stops the upload with
  a warning — it would not pass on a retry within this start; the next start tries
  again.
* Whatever is missing reads as text: ``CardEmojis`` answers ``None`` for a card without
  an emoji, and callers show the card's text label alone (they always show the label).
* The upload runs in the background (``App.emoji_upload``): the bot plays, in text, from
  its first moment, and each emoji is usable as soon as it is known.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

log = logging.getLogger(__name__)

#: How many emojis Discord lets an application own.
EMOJI_LIMIT = 2000
#: Emoji name → PNG image (128×128) of every face to keep as an application emoji.
Faces = Mapping[str, bytes]
#: (card code, palette) → the name of the emoji showing that card.
NameOf = Callable[[str, str], str]


class OwnedEmoji(Protocol):
    """What Deckhand reads of an application emoji (``discord.Emoji`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def animated(self) -> bool: ...


class EmojiOwner(Protocol):
    """The two calls start-up makes (``discord.Client`` has them)."""

    async def fetch_application_emojis(self) -> Sequence[OwnedEmoji]: ...
    async def create_application_emoji(self, *, name: str, image: bytes) -> OwnedEmoji: ...


@dataclass(frozen=True)
class FaceSet:
    """What the art provides: every face (all palettes), drawn on demand, and which face
    shows a card."""

    draw: Callable[[], Faces]
    name_of: NameOf


class CardEmojis:
    """Card code and palette → the application emoji showing it, or ``None`` (text only)."""

    def __init__(self, name_of: NameOf | None = None) -> None:
        self.name_of = name_of
        self.by_name: dict[str, discord.PartialEmoji] = {}

    def add(self, emoji: OwnedEmoji) -> None:
        self.by_name[emoji.name] = discord.PartialEmoji(
            name=emoji.name, id=emoji.id, animated=emoji.animated
        )

    def emoji(self, card: str, palette: str) -> discord.PartialEmoji | None:
        """The emoji for a button or select option, or ``None``."""
        if self.name_of is None:
            return None
        return self.by_name.get(self.name_of(card, palette))

    def markdown(self, card: str, palette: str) -> str | None:
        """``<:name:id>`` for message text, or ``None``."""
        emoji = self.emoji(card, palette)
        return None if emoji is None else str(emoji)

    def __len__(self) -> int:
        return len(self.by_name)


@dataclass(frozen=True)
class EmojiReport:
    """What start-up found and did: faces already there, uploaded now, still missing."""

    present: int
    uploaded: int
    missing: int = 0

    def line(self) -> str:
        text = f"card emojis: {self.present} present, {self.uploaded} uploaded"
        return text + (f", {self.missing} missing (shown as text)" if self.missing else "")


def _refusal(exc: discord.HTTPException) -> str:
    return f"HTTP {exc.status}, code {exc.code}: {exc.text or exc.response.reason}"


async def ensure_card_emojis(
    client: EmojiOwner, faces: Faces, emojis: CardEmojis, *, limit: int = EMOJI_LIMIT
) -> EmojiReport:
    """Make sure every face is an application emoji, filling ``emojis`` as they are known;
    log one line with the counts, and a warning naming the reason if some are missing."""
    try:
        owned = {e.name: e for e in await client.fetch_application_emojis()}
    except discord.HTTPException as exc:
        log.warning("card emojis: cannot list the application's emojis (%s); cards show as"
                    " text", _refusal(exc))
        return EmojiReport(0, 0, len(faces))
    for name in faces.keys() & owned.keys():
        emojis.add(owned[name])
    uploaded, listed_again = 0, False
    for name in sorted(faces.keys() - owned.keys()):
        if name in owned:  # found when the list was read again
            continue
        if len(owned) >= limit:
            log.warning("card emojis: the application owns %d emojis, Discord's limit; no"
                        " more are uploaded, cards without an emoji show as text",
                        len(owned))
            break
        try:
            owned[name] = await client.create_application_emoji(name=name, image=faces[name])
            emojis.add(owned[name])
            uploaded += 1
            continue
        except discord.HTTPException as exc:
            refusal = _refusal(exc)
        if not listed_again:
            listed_again = True
            try:
                owned.update((e.name, e) for e in await client.fetch_application_emojis())
            except discord.HTTPException as exc:
                refusal += f"; listing again: {_refusal(exc)}"
            for found in faces.keys() & owned.keys():
                emojis.add(owned[found])
            if name in owned:
                continue
        log.warning("card emojis: Discord refused to upload %s (%s); stopped, cards without"
                    " an emoji show as text", name, refusal)
        break
    known = len(faces.keys() & emojis.by_name.keys())
    report = EmojiReport(known - uploaded, uploaded, len(faces) - known)
    log.info(report.line())
    return report
