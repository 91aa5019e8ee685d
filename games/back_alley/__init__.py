"""Back Alley: four players in two partnerships, 25 deals of 13 down to 1 and back to 13.

Rules per RULES.md §3 (seed ``000_…``). Decisions:

* **(decision)** Trumps (jokers included) may be led once a trump has been played to an
  earlier trick of the deal, or by a leader who claimed board, or by a leader who holds
  only trumps.
* **(decision)** A team whose contract is 0 (both partners passed) scores 1 point per
  trick taken.
* A team's contract is its highest board claim if it has one (its numbers then do not
  count), else the sum of its partners' numeric bids. Board claims are multiplied by
  their order of claiming in the deal (×1, ×2, ×3, ×4), whoever makes them.
* If the turned card is a joker there are no trumps; the holder of the other joker
  discards it (a public event) and takes the next card of the undealt rest (unnamed).
* If all four pass, the next dealer redeals the same hand size with a new shuffle; the
  deal number does not advance.
* The first leader is the last board claimant, else the highest numeric bidder (ties: the
  earliest bidder, bidding starting left of the dealer).
* When the Big Blooper leads every player with a trump must play their highest trump;
  when the Little Blooper leads, their lowest. Players without trumps play anything.
* ``bid 0`` is read as ``pass``; a bare number is a bid and a bare card a play.
* After the last deal the team with more points wins; equal points is a draw.
"""

from games.back_alley.engine import BackAlley

GAME = BackAlley()

__all__ = ["GAME", "BackAlley"]
