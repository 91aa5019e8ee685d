"""What the message of a table that only interaction tokens reach adds (``bot.ui.places``):
Discord lets Deckhand edit a message through an interaction's token for 15 minutes, and
Deckhand's bot is no member there to edit it any other way.

* While the game is played, a **Refresh** button: it works at any age (each click is a
  fresh interaction, with a token of its own) and shows the game as it is now in the
  message clicked.
* The last edit a token allows says that the message stops updating by itself, and how to
  see the game as it is (``stopping``).
"""

from __future__ import annotations

from dataclasses import replace

from bot.custom_ids import CustomId
from bot.render.messages import Button, MessageSpec
from i18n import N_, _

REFRESH = N_("Refresh")
STOPS_UPDATING = N_(
    "⏳ *This message no longer updates by itself: Discord lets me edit it for 15 minutes"
    " after a click, and I am not a member here.* Press **Refresh** to see the game as it"
    " is now, or **Your hand** for your cards."
)
#: Buttons one row holds (Discord's limit).
ROW = 5


def refreshable(spec: MessageSpec, table_id: int, version: int) -> MessageSpec:
    """The table message with a Refresh button after its other buttons."""
    button = Button(_(REFRESH), str(CustomId(table_id, version, "refresh")))
    rows = spec.rows
    last = rows[-1] if rows else ()
    if last and len(last) < ROW and all(isinstance(c, Button) for c in last):
        return replace(spec, rows=(*rows[:-1], (*last, button)))
    return replace(spec, rows=(*rows, (button,)))


def stopping(spec: MessageSpec) -> MessageSpec:
    """The table message's last edit through a token: it says it stops updating."""
    return replace(spec, content=f"{spec.content}\n{_(STOPS_UPDATING)}".strip())
