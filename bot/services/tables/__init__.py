"""The table runtime: one durable table per channel, Discord-free.

Adapters (the Discord edge, the terminal) call ``TableService`` with ids and strings and
render the ``TableResult``s they get back — from their own calls, and from ``subscribe``
for what happens on its own. The modules, one job each:

* ``records``  — the in-memory ``Table``, its ``TableStatus`` and allowed transitions;
* ``lobby``    — who may sit, leave, add computers, kick and start (pure rules);
* ``turns``    — move checks, turn timers, what is due next, match records (pure rules);
* ``results``  — what adapters get: ``TableResult`` (public + per-seat private parts);
* ``store``    — the cache of open tables, per-channel locks, quarantine, loading;
* ``autoplay`` — one task per table for computer moves (paced), reminders, time-outs;
* ``service``  — the facade: each change is lock → check → apply → commit → result;
* ``replay``   — re-applying a table's log, and checking it against the snapshot.
"""

from bot.services.tables.autoplay import Clock, SystemClock
from bot.services.tables.lobby import MANAGED
from bot.services.tables.records import QuarantinedTable, TableStatus
from bot.services.tables.results import Reminder, SeatInfo, SeatPrivate, Step, TableResult
from bot.services.tables.service import DEFAULT_TURN_TIMER, MatchRecorder, TableService
from bot.services.tables.store import LoadReport

__all__ = [
    "DEFAULT_TURN_TIMER",
    "MANAGED",
    "Clock",
    "LoadReport",
    "MatchRecorder",
    "QuarantinedTable",
    "Reminder",
    "SeatInfo",
    "SeatPrivate",
    "Step",
    "SystemClock",
    "TableResult",
    "TableService",
    "TableStatus",
]
