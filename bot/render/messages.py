"""Whole Discord messages as plain data: the layout every message shares.

Nothing here imports discord: a message is a ``MessageSpec`` (content, one embed, rows of
buttons and select menus) that ``bot.ui.views`` turns into discord.py objects, so the
rendering rules — above all "the public message only ever sees public data" — are unit
tested without Discord. Each kind of message is written by its own module:

* ``bot.render.table`` — the table message, in every state (lobby, playing, finished,
  closed), from a ``TableResult``'s public part only;
* ``bot.render.hand`` — a seat's hand (``TableResult.private[seat]``) and its legal moves
  as components;
* ``bot.render.rules`` (``/rules``), ``bot.render.hint`` (``/hint``),
  ``bot.render.events`` (events), ``bot.render.replay`` (``/game replay``).
"""

from __future__ import annotations

from dataclasses import dataclass

LOBBY_COLOUR = 0x5865F2
PLAYING_COLOUR = 0x2ECC71
FINISHED_COLOUR = 0xF1C40F
CLOSED_COLOUR = 0x95A5A6


@dataclass(frozen=True)
class Button:
    """A button: ``style`` is primary, secondary, success or danger."""

    label: str
    custom_id: str
    style: str = "secondary"
    disabled: bool = False
    #: A custom emoji shown before the label (``<:name:id>``), or "" for none.
    emoji: str = ""


@dataclass(frozen=True)
class Select:
    """A string select menu; ``options`` are ``(label, value)`` pairs."""

    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]
    min_values: int = 1
    max_values: int = 1
    #: Per option, a custom emoji (``<:name:id>``) or "" (empty: none at all).
    emojis: tuple[str, ...] = ()


Component = Button | Select


@dataclass(frozen=True)
class EmbedSpec:
    """One embed: title, description, ``(name, value)`` fields and a footer."""

    title: str
    description: str
    colour: int
    fields: tuple[tuple[str, str], ...] = ()
    footer: str = ""


@dataclass(frozen=True)
class MessageSpec:
    """A whole message: text, an optional embed, and up to five rows of components."""

    content: str = ""
    embed: EmbedSpec | None = None
    rows: tuple[tuple[Component, ...], ...] = ()
    #: Shown with Discord's layout components (a container in the embed's colour, text
    #: displays and separators) instead of content and an embed; a message sent so stays so.
    layout: bool = False
    #: Files to attach when the message is sent: ``(filename, bytes)``.
    files: tuple[tuple[str, bytes], ...] = ()

    def text(self) -> str:
        """Every human-readable string of the message (for tests and logs of shape)."""
        parts = [self.content]
        if self.embed is not None:
            e = self.embed
            parts += [e.title, e.description, e.footer]
            parts += [f"{n}\n{v}" for n, v in e.fields]
        for row in self.rows:
            for c in row:
                if isinstance(c, Button):
                    parts.append(c.label)
                else:
                    parts.append(c.placeholder)
                    parts += [label for label, _ in c.options]
        return "\n".join(p for p in parts if p)
