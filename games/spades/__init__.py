"""Two-player Spades: draft your hand, bid your tricks, and be first to 500.

Standard 52 cards, ace high, spades are always trumps. The game is to 500 points unless
the table set the "target" option.

The draft (there is no deal). The first seat is the first player in the first hand; the
role alternates every hand. Players take turns, the first player first, until the stock
is gone. On your turn you see the top card and either keep it, and the next card goes
face down to the discard pile unseen by anyone, or discard it face up, and you take the
next card, which only you see. Each player ends with 13 cards; the 26 discards are out of
play for the hand. Face-up discards are public.

Blind Nil. On your first pick of a hand, before you see any card, you may declare Blind
Nil (unless the table turned the "blind_nil" option off). You can also look at the card
first, which declines Blind Nil, or keep or discard it unseen. After the draft and before
bidding, each Blind Nil player (the second player first) may exchange up to three cards:
they give them up and draw the same number at random from the 26 discards (never their
own cards back). Only the number of cards exchanged is public.

Bidding. One round; the second player bids first. Bid how many tricks you will take, 0 to
13; 0 is Nil. There is no passing. A Blind Nil player's bid is already made.

Play. The second player leads the first trick; the winner of each trick leads the next.
Follow suit if you can; otherwise play any card. The highest spade wins the trick,
otherwise the highest card of the suit led. Spades may not be led until they are broken,
that is until someone played a spade because they could not follow suit, unless the
leader holds only spades (leading one then breaks them).

Scoring, per hand:
* Bid 1 or more and made it: 10 points per trick bid, plus 1 for each extra trick (a bag).
* Missed your bid: minus 10 points per trick bid.
* Nil: 100 points if you took no tricks, otherwise minus 100. Blind Nil: 200 or minus 200.
  Tricks taken by a Nil or Blind Nil bidder are not bags.
* Bags add up over the game; every time yours reach 10 you lose 100 points and 10 bags
  are taken off.

Winning. After a hand, if anyone has reached the target, the higher score wins; if both
are level at or above it, another hand is played.

Moves: 'look', 'keep', 'discard' (draft), 'blindnil' (before your first pick), 'exchange
QH 3C' (up to three cards, or none: Blind Nil only), 'bid 4' ('bid nil' is 'bid 0'),
'play QH'. You can also name a card by its place in your hand as shown: 'play #2' or
'play 2' is your second card.

Where the printed rules leave a choice, Deckhand plays it this way: the Blind Nil exchange
comes after the draft and before bidding, the second player's first; tricks won by a Nil
bidder are not bags; on the first pick the card stays hidden until you choose.
"""

from games.spades.engine import Spades

GAME = Spades()

__all__ = ["GAME", "Spades"]
