"""Publishing results on Discord: each kind of message a module with one job.

* ``router``      — ``Publisher``: a ``TableResult``/``Reminder`` → the messages it changes;
* ``table``       — the table message (token or bot edits, re-posting, refusals);
* ``hands``       — each seat's hand: DM, channel panel or both;
* ``notices``     — welcome, "DMs closed", turn pings, reminders;
* ``pictures``    — the picture of each hand that ends;
* ``league_line`` — the ratings line of a finished game;
* ``delivery``    — how any message reaches Discord: an interaction's token or the bot's,
  per table (``Reach``);
* ``tokens``      — ``Token``, what publishing may use of an answered interaction, and
  the token messages held.
"""

from bot.ui.publish.delivery import Reach
from bot.ui.publish.router import Answered, Publisher
from bot.ui.publish.tokens import Token

__all__ = ["Answered", "Publisher", "Reach", "Token"]
