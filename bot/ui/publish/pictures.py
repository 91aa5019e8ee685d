"""The picture of each hand that ends (``bot/art/hand_end.py``), posted once in the table's
channel.

Decisions:

* It is drawn from the table's public events only, replayed from its log: the cards every
  seat showed, never a hand it kept.
* Once per hand: a notice in the database keeps a restart or another process from posting
  it again.
* It goes through the freshest interaction that may still post in the channel
  (``TableMessages.speaker``: no global-limit cost), else with the bot's token where the
  table allows it.
"""

from __future__ import annotations

import asyncio
import time

from bot.art.hand_end import closes_hand, hands, picture
from bot.discord_io import Coalescer
from bot.render.common import seat_names
from bot.render.messages import MessageSpec
from bot.services.tables import TableResult, replay
from bot.ui.publish.delivery import Delivery
from bot.ui.publish.table import TableMessages
from i18n import _, number, speaking
from storage import messages as refs
from storage.db import Database


def ends_a_hand(result: TableResult) -> bool:
    """Whether one of the result's steps closed a hand."""
    return any(closes_hand(result.game, e) for step in result.steps for e in step.events)


class Pictures:
    """Hand-end pictures."""

    def __init__(
        self, db: Database, delivery: Delivery, edits: Coalescer, table: TableMessages
    ) -> None:
        self.db, self.delivery, self.edits, self.table = db, delivery, edits, table

    def submit(self, result: TableResult, language: str) -> None:
        """Post the picture of the hand the result ended (in the background), in the
        table's ``language``."""
        version = max(s.version for s in result.steps)

        async def job() -> None:
            events = await replay.public_events(self.db, result.table_id)
            scored = hands(result.game, events)
            if not scored:
                return
            with speaking(language):  # the thread draws in a copy of this context
                names = seat_names(result.seats)
                png = await asyncio.to_thread(picture, result.game, scored[-1], names)
                content = _("**{title}** — what hand {n} showed:", title=result.title,
                            n=number(len(scored)))
            notice = f"picture {version} {len(scored)}"
            if not await self.db.write(refs.note, result.table_id, 0, notice, time.time()):
                return
            spec = MessageSpec(
                content=content,
                files=((f"{result.game}-hand-{len(scored)}.png", png),),
            )
            await self.delivery.post(
                result.table_id, result.channel_id, spec, via=self.table.speaker(result.table_id)
            )

        self.edits.submit(("picture", result.table_id, version), job)
