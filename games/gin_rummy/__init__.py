"""Gin Rummy for two players (RULES.md §1).

Rule decisions:

* **Deal**: seat 0 deals hand 1 and the deal then alternates every hand, a drawn (wall)
  hand included. 10 cards each, dealt one at a time from the non-dealer; the next card is
  the upcard; the rest is the stock.
* **First turn**: the non-dealer may ``take`` the upcard or ``pass``; then the dealer
  may; if both pass the non-dealer must ``draw`` from the stock.
* **No discarding the taken card**: a card taken from the discard pile may be neither
  discarded nor knocked with in the same turn (the knock card is a discard, face down).
* **Knock**: ``knock <card>`` leaves deadwood ≤ 10 after that card; 0 is gin. The knock
  card stays face down (it is never shown nor added to the pile). ``biggin`` with all 11
  cards melded, no discard.
* **Arrangements are computed by the engine**: the knocker's least-deadwood arrangement
  is used; when several exist, the one that leaves the defender the most deadwood after
  lay-offs (best for the knocker). The defender's melds and lay-offs (run extensions at
  either end, chains included, and the fourth card of a 3-set) are chosen to minimise
  the defender's deadwood. No lay-offs against gin or big gin; the knocker never lays off.
* **Wall**: a discard (not a knock) that leaves 2 cards in the stock ends the hand as a
  draw; nobody scores.
* **Hand score**: knocker scores defender − knocker deadwood; gin +25, big gin +31 on top.
  Undercut only when the defender's deadwood is strictly lower: defender scores 25 + the
  difference. Equal deadwood: nobody scores and nobody wins the hand (no line bonus, and
  it spoils a shutout like a drawn hand). Gin and big gin are never undercut.
* **Game**: ends when a total reaches ``target`` (option, default 100, 10–1000). The
  winner adds 100, and the sum is doubled on a shutout (won every hand, none drawn or
  tied); then each player adds 25 per hand won. ``outcome().scores`` are these final
  totals once the game is over; the highest wins.
"""

from __future__ import annotations

from games.gin_rummy.engine import GinRummy

GAME = GinRummy()

__all__ = ["GAME", "GinRummy"]
