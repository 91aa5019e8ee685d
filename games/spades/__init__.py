"""Two-player Spades (RULES.md §2; seed ``003``, from The Spruce Crafts).

Standard 52 cards, ace high, spades trump; first to ``target`` (500) wins. Actions:
``look``, ``keep``, ``discard``, ``blindnil``, ``exchange [<card> …]``, ``bid <0-13>``
(``bid nil`` = ``bid 0``), ``play <card>``.

Rule decisions:
* **First player** is seat 0 in hand 1; the role alternates each hand. The second
  player bids first and leads the first trick.
* **Draft.** Players alternate, first player first, two cards per turn until the 52-card
  stock is gone. The top card is shown to the drafting player only (view ``drawn``);
  ``keep`` sends the next card face down to the discard pile, seen by nobody;
  ``discard`` puts the top card face up (public, ``face_up_discards``) and the player
  takes the next card, seen only by them. 13 cards each, 26 discards out of play.
* **Blind Nil first turn (decision).** While a player may still declare Blind Nil (their
  first pick of the hand, option ``blind_nil`` on) the top card is *not* shown to them:
  they choose ``blindnil`` (declare, then see the card and draft on), ``look`` (decline
  and see the card) or answer ``keep``/``discard`` straight away — which declines Blind
  Nil and takes that decision on the card unseen. So no card is ever seen before the
  decision. With the option off the top card is shown at once.
* **Exchange (decision).** After the draft and before bidding, each Blind Nil player,
  the second player first, exchanges 0–3 cards: ``exchange`` names them (none is fine).
  The replacements are drawn at random (seeded) from the 26-card discard pile *before*
  the player's own cards join it, so they never draw their own cards back. Exchanges are
  public by count only. ``face_up_discards`` stays the record of what was discarded face
  up in the draft: after an exchange some of those cards may be back in a hand.
* **Bidding.** One round, second player first, 0–13, 0 is Nil; no passing. A Blind Nil
  bid is fixed (the player does not bid). Bids are shown as numbers, ``"blind nil"``.
* **Play.** Follow suit if able; spades may not be led until broken (a spade played to a
  trick whose led suit the player could not follow), unless the leader holds only
  spades — leading one then breaks them.
* **Score per hand.** Bid N ≥ 1 made: 10 × N + 1 per extra trick (bags); missed:
  −10 × N. Nil ±100, Blind Nil ±200; tricks won by a Nil or Blind Nil bidder are not bags
  (decision). Bags accumulate over the game; every 10 bags cost 100 points and 10 bags
  are removed (so 9 + 12 bags cost 200 and leave 1).
* **Game end.** After a hand, if someone has ≥ ``target`` the single highest score wins;
  a tie for the highest score (at or above the target) plays another hand.
"""

from games.spades.engine import Spades

GAME = Spades()

__all__ = ["GAME", "Spades"]
