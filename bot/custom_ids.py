"""Custom ids of Deckhand's buttons and select menus: pure parsing and formatting.

A table component's id is ``dh:<table_id>:<version>:<kind>[:<arg>]`` (at most 100
characters, Discord's limit). ``version`` is the table's version when the component was
drawn, so an old click is refused; ``kind`` says what the component does:

* buttons — ``act`` (play the move in ``arg``), ``hand`` (show my hand), ``page`` (show
  page ``arg`` of my moves), and the lobby/table controls ``join``, ``leave``, ``bot``
  (add a computer player of level ``arg``), ``start``, ``cancel`` and ``rematch``, and
  ``refresh`` (show the table as it is now, at a table only interaction tokens reach);
* select menus — ``sel`` (each value is a whole move) and ``multi`` (the values are the
  cards of one move, the verb is ``arg``: "exchange" + the cards picked).

Rules pages are ``dh:rules:<game>:<page>``; an event's sign-up buttons are
``dh:event:<event_id>:<kind>`` (``join``, ``leave``, ``start``); a replay's buttons are
``dh:replay:<match>:<step>:<h|p>:<button>`` (``h``: the hands are shown, ``p``: only the
public table; ``button`` keeps the ids of one message apart, as Discord wants). Buttons
and selects have disjoint patterns because discord.py tries every registered pattern on
every click.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "dh"
MAX_LENGTH = 100
#: The largest row id a database keeps (a signed 64-bit integer).
MAX_ROW_ID = 2**63 - 1

BUTTON_KINDS = (
    "act", "hand", "page", "join", "leave", "bot", "start", "cancel", "rematch", "refresh"
)
SELECT_KINDS = ("sel", "multi")

BUTTON_TEMPLATE = (
    rf"{PREFIX}:(?P<table>[0-9]{{1,19}}):(?P<version>[0-9]{{1,9}}):"
    rf"(?P<kind>{'|'.join(BUTTON_KINDS)})(?::(?P<arg>.+))?"
)
SELECT_TEMPLATE = (
    rf"{PREFIX}:(?P<table>[0-9]{{1,19}}):(?P<version>[0-9]{{1,9}}):"
    rf"(?P<kind>{'|'.join(SELECT_KINDS)})(?::(?P<arg>.+))?"
)
RULES_TEMPLATE = rf"{PREFIX}:rules:(?P<game>[a-z0-9_]{{1,30}}):(?P<page>[0-9]{{1,3}})"
EVENT_KINDS = ("join", "leave", "start")
EVENT_TEMPLATE = rf"{PREFIX}:event:(?P<event>[0-9]{{1,19}}):(?P<kind>{'|'.join(EVENT_KINDS)})"
#: The largest integer a slash command's option takes (Discord's, 2**53 - 1): the largest
#: match id that can be asked for, and so the largest on a replay's buttons.
MAX_OPTION_INT = 2**53 - 1
REPLAY_BUTTONS = ("first", "back", "next", "last", "hands")
REPLAY_TEMPLATE = (
    rf"{PREFIX}:replay:(?P<match>[0-9]{{1,16}}):(?P<step>[0-9]{{1,6}}):(?P<mode>[hp]):"
    rf"(?P<button>{'|'.join(REPLAY_BUTTONS)})"
)
#: Every template, one per kind of component (``bot.ui.items`` has an item for each).
TEMPLATES = (BUTTON_TEMPLATE, SELECT_TEMPLATE, RULES_TEMPLATE, EVENT_TEMPLATE, REPLAY_TEMPLATE)

_ANY = re.compile(
    rf"{PREFIX}:(?P<table>[0-9]{{1,19}}):(?P<version>[0-9]{{1,9}}):(?P<kind>[a-z]+)"
    r"(?::(?P<arg>.+))?"
)
_KINDS = frozenset(BUTTON_KINDS + SELECT_KINDS)
_NEEDS_ARG = frozenset({"act", "page", "bot", "sel", "multi"})


class BadCustomId(ValueError):
    """Not a Deckhand custom id, or one that cannot be built (too long, bad parts)."""


@dataclass(frozen=True)
class CustomId:
    """A parsed table component id."""

    table_id: int
    version: int
    kind: str
    arg: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise BadCustomId(f"unknown component kind {self.kind!r}")
        if not 0 <= self.table_id <= MAX_ROW_ID or self.version < 0:
            raise BadCustomId("table id out of range or negative version")
        if self.kind == "page" and not re.fullmatch("[0-9]{1,3}", self.arg):
            raise BadCustomId("a page number is 0 to 999")
        if (self.kind in _NEEDS_ARG) != bool(self.arg):
            need = "needs an" if self.kind in _NEEDS_ARG else "takes no"
            raise BadCustomId(f"kind {self.kind!r} {need} argument")
        if "\n" in self.arg or len(self.text) > MAX_LENGTH:
            raise BadCustomId(f"custom id too long or not one line: {self.text[:40]!r}…")

    @property
    def text(self) -> str:
        """The id as sent to Discord."""
        tail = f":{self.arg}" if self.arg else ""
        return f"{PREFIX}:{self.table_id}:{self.version}:{self.kind}{tail}"

    def __str__(self) -> str:
        return self.text

    @property
    def is_select(self) -> bool:
        """Whether this id belongs on a select menu (rather than a button)."""
        return self.kind in SELECT_KINDS


def parse(text: str) -> CustomId:
    """Parse a table component id; ``BadCustomId`` if it is not one."""
    m = _ANY.fullmatch(text) if isinstance(text, str) and len(text) <= MAX_LENGTH else None
    if m is None:
        raise BadCustomId(f"not a Deckhand custom id: {str(text)[:40]!r}")
    return CustomId(int(m["table"]), int(m["version"]), m["kind"], m["arg"] or "")


def fits(table_id: int, version: int, kind: str, arg: str = "") -> bool:
    """Whether such an id can be built (mainly: is it short enough)."""
    try:
        CustomId(table_id, version, kind, arg)
    except BadCustomId:
        return False
    return True


def rules_id(game: str, page: int) -> str:
    """The id of a rules pager button."""
    text = f"{PREFIX}:rules:{game}:{page}"
    if not re.fullmatch(RULES_TEMPLATE, text):
        raise BadCustomId(f"bad rules page id {text!r}")
    return text


def parse_rules(text: str) -> tuple[str, int]:
    """``(game, page)`` of a rules pager id; ``BadCustomId`` if it is not one."""
    m = re.fullmatch(RULES_TEMPLATE, text) if isinstance(text, str) else None
    if m is None:
        raise BadCustomId(f"not a rules page id: {str(text)[:40]!r}")
    return m["game"], int(m["page"])


def event_id(event: int, kind: str) -> str:
    """The id of an event's sign-up button."""
    text = f"{PREFIX}:event:{event}:{kind}"
    if not re.fullmatch(EVENT_TEMPLATE, text) or event > MAX_ROW_ID:
        raise BadCustomId(f"bad event button id {text!r}")
    return text


def parse_event(text: str) -> tuple[int, str]:
    """``(event_id, kind)`` of an event button id; ``BadCustomId`` if it is not one."""
    m = re.fullmatch(EVENT_TEMPLATE, text) if isinstance(text, str) else None
    if m is None or int(m["event"]) > MAX_ROW_ID:
        raise BadCustomId(f"not an event button id: {str(text)[:40]!r}")
    return int(m["event"]), m["kind"]


def replay_id(match_id: int, step: int, hands: bool, button: str) -> str:
    """The id of a replay button: show ``step`` of the match, with every hand or not."""
    text = f"{PREFIX}:replay:{match_id}:{step}:{'h' if hands else 'p'}:{button}"
    if not re.fullmatch(REPLAY_TEMPLATE, text):
        raise BadCustomId(f"bad replay id {text!r}")
    return text


def parse_replay(text: str) -> tuple[int, int, bool]:
    """``(match_id, step, hands)`` of a replay button's id; ``BadCustomId`` if it is not one."""
    m = re.fullmatch(REPLAY_TEMPLATE, text) if isinstance(text, str) else None
    if m is None:
        raise BadCustomId(f"not a replay id: {str(text)[:40]!r}")
    return int(m["match"]), int(m["step"]), m["mode"] == "h"
