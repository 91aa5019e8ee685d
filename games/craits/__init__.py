"""Craits (RULES.md §4): a shedding game like Crazy Eights where most cards have a power.

2–5 players, 52 cards, 15 rounds dealt 8, 7, …, 1, …, 8 cards (option ``short``: the first
8 rounds). The dealer (seat 0, then clockwise) turns up the first discard; it counts as the
dealer's first play and its power applies. Play a card matching the suit to follow or the
top card's rank (an 8 always), or draw one when you cannot play. A player going out ends
the round; the others score their cards; the lowest total wins.

Rule decisions (RULES.md, marked *decision* there, and ours where the rules are silent):

* An 8 or 9 turned up keeps its printed suit. A turned 2 starts the crank, a 4 skips the
  player left of the dealer, a 5 makes everyone but the dealer draw, a 6 gives the dealer
  the first turn, a 7 makes the player left of the dealer draw, a 10 reverses the
  direction (the dealer's right-hand player starts).
* You may draw only when you cannot play; drawing ends the turn. When the draw pile is
  empty the discard pile but its top card is shuffled (seeded) into a new draw pile; with
  nothing to draw the turn simply passes.
* A 7 makes the next player draw one card, then they take their turn normally. A 6: the
  same player plays again within the same turn (drawing one if they then cannot play).
  A 10 with two players still flips ``direction`` but the order is unchanged. A 9 may
  stay in its suit (``play 9H``) or switch to its colour-mate (``play 9H as D``).
* The crank: a 2 starts it at 2; while it runs the player on turn must play an ace or a
  2 of any suit if they can (adding 1 or 2); the first who cannot ``draw``s the count (as
  many as there are), play passes to the next player and continues matching the top card.
* Last card: a player left with one card must announce it (``announce`` or a play ending
  in `` last``). Until then any opponent may ``callout <seat>``: the caught player draws
  two and loses their next turn start (a turn in progress — e.g. after a 6 — goes on).
  Calling out a player who announced, was already caught, or holds ≠ 1 card is illegal.
  A single card dealt (round 8) needs no announcement: only coming down to one does.
  A lost turn is passed over when play next reaches that seat (during the crank too);
  lost turns still owed at the end of a round are forgiven. The last-card rule holds
  until the round is scored, so also during a closing crank (see below).
* ``to_act`` and out-of-turn moves: ``to_act[0]`` is always the seat on turn. While some
  player holds one unannounced card, every other seat follows in ``to_act`` (clockwise
  from the seat on turn): that player may ``announce`` and the others may ``callout``.
  The seat on turn may also announce or call out without using up its turn, so callers
  that only ever let ``to_act[0]`` act (the simulator) still see call-outs happen.
* End of round: the last card's power still applies — a 7 or 5 still makes players draw,
  and a 2 (or an ace/2 fed into a running crank) runs the crank to its end before the
  round is scored. During that closing crank players with no cards are passed over; if
  nobody but the player who just fed it holds cards, it ends with nobody drawing.
* Scoring: the player who went out (and anyone else left with no cards) scores 0; the
  others score A 1, 2 20, 4 15, 5 30, 6 30, 7 20, 8 50, 9 30, 10 25, J/Q/K 10. Each 3
  cancels the highest-scoring other non-3 card left (and scores 0); a 3 with nothing to
  cancel scores −50 (``3 2 8`` → 20, ``3 3`` → −100). The next round is dealt at once,
  and play always starts clockwise.

Actions: ``play <card>`` (``play 8H as S``, ``play 9H as D``, `` last`` appended to
announce), ``draw``, ``announce``, ``callout <seat>``.
"""

from games.craits.engine import Craits

GAME = Craits()

__all__ = ["GAME", "Craits"]
