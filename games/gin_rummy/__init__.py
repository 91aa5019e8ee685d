"""Gin Rummy for two players: form melds, knock, and be first to 100 points.

Melds. A set is 3 or 4 cards of one rank. A run is 3 or more cards in sequence in one
suit; aces are always low (A 2 3 is a run, Q K A is not). A card belongs to one meld at
most. Cards in no meld are deadwood: face cards count 10, aces 1, other cards their
number.

Dealing. The first seat deals the first hand and the deal then alternates every hand, a
drawn hand included. Each player gets 10 cards, dealt one at a time starting with the
non-dealer; the next card is turned up to start the discard pile and the rest is the
stock.

The first turn. The non-dealer may take the upcard or pass; if they pass, the dealer may
take it or pass. If both pass, the non-dealer draws from the stock and play goes on
normally.

Your turn. Draw the top card of the stock or of the discard pile, then discard a card. A
card taken from the discard pile may not be discarded (or knocked with) in the same turn.

Knocking. Instead of an ordinary discard you may knock when your deadwood, after the
discard, is 10 or less: the knock card goes face down and is never shown. Deadwood 0 is
gin. With all 11 cards in melds you may declare big gin without discarding. Deckhand
arranges your melds for you, with the least deadwood (and, among equal arrangements, the
one that leaves your opponent the most). Your opponent then lays down their melds and
lays off deadwood on your melds (extending runs at either end, or adding the fourth card
to a set), arranged by Deckhand to leave them the least deadwood. Nobody lays off
against gin or big gin, and the knocker never lays off.

The wall. If nobody has knocked and a discard leaves only 2 cards in the stock, the hand
is a draw: nobody scores. So is a hand where ten turns in a row began by taking the
discard (nobody drew from the stock in between), when the tenth turn's discard is made:
otherwise two players could pass a card back and forth for ever.

Scoring a hand.
* The knocker scores their opponent's deadwood minus their own; gin adds 25 and big gin
  adds 31.
* Undercut: if the opponent's deadwood is lower than the knocker's, the opponent scores
  25 plus the difference instead, and the knocker nothing. Gin and big gin are never
  undercut.
* Equal deadwood: nobody scores and nobody wins the hand (like a drawn hand, it counts
  against a shutout).

Winning. Hands go on until a player's total reaches the target (100 unless the table set
the "target" option). That player adds a game bonus of 100, and doubles the sum on a
shutout (they won every hand, none drawn or tied). Then each player adds 25 for every
hand they won. The higher final total wins the game, even when it is not the player who
reached the target; equal final totals are a tie.

Moves: 'draw' (from the stock), 'take' (the discard pile's top card), 'pass' (refuse the
upcard on the first turn), 'discard QH', 'knock QH', 'biggin'. You can also name a card by
its place in your hand as shown: 'discard #3' or 'discard 3' is your third card.

Where the printed rules leave a choice, Deckhand plays it this way: the deal alternates
every hand; Deckhand arranges both players' melds and lay-offs as above; equal deadwood
scores nothing and is no undercut; ten take-backs in a row end the hand as a draw.
"""

from __future__ import annotations

from games.gin_rummy.engine import GinRummy

GAME = GinRummy()

__all__ = ["GAME", "GinRummy"]
