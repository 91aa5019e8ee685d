"""Back Alley: four players in two partnerships, 25 deals of 13 cards down to 1 and back to 13.

Partners sit opposite each other: the first and third seats play against the second and
fourth. The deck is 52 cards and two jokers, the Big Blooper and the Little Blooper.

Dealing. The first seat deals the first deal; the deal then passes to the left. The hand
sizes go 13, 12, ... down to 1, then 2, 3, ... back up to 13: 25 deals in all (the
"deals" option plays only the first few of them). After the deal the top card of the rest
is turned up: its suit is trumps for this deal. If it is a joker, there are no trumps this
deal, and whoever holds the other joker discards it and takes the next undealt card
instead, so no joker is in play.

Card order. Trumps rank Big Blooper, Little Blooper, then A K Q J 10 9 ... 2 of the trump
suit; the jokers count as trumps. Other suits rank A high down to 2.

Bidding. Starting with the player left of the dealer, each player bids once: pass (no
tricks), a number from 1 to one less than the hand size, or board (your team will take
every trick). Bids need not go up. The first board claim counts once, the second (by
anyone) double, the third triple, the fourth quadruple. A team's contract is its highest
board claim if it made one, otherwise the two partners' numbers added together. If all
four players pass, the next dealer deals the same number of cards again.

Play. The highest bidder leads the first trick: any board beats any number; between
boards the last to claim leads; between equal numbers the earlier bidder leads. Follow
suit if you can (the jokers belong to the trump suit); otherwise play any card. You may
not lead a trump until a trump has been played to an earlier trick of this deal, unless
you claimed board or hold nothing but trumps. When the Big Blooper is led, every player
must play their highest trump; when the Little Blooper is led, their lowest trump
(players with no trump play anything). The highest trump wins the trick, otherwise the
highest card of the suit led; the winner leads the next trick.

Scoring, per team and deal:
* A contract of C tricks (C at least 1): made, 5 points per trick bid plus 1 for each
  extra trick; missed, minus 5 points per trick bid.
* Both partners passed (a contract of 0): 1 point per trick taken.
* Board: taking every trick scores 10 points times the hand size, times the board's
  multiplier; missing a single trick loses as much.

Winning. After the last deal the team with more points wins; equal points is a draw.

Moves: 'bid 3', 'pass', 'board', 'play QH' (or just QH). You can also name a card by its
place in your hand as shown: 'play #2' or 'play 2' is your second card.

Where the printed rules leave a choice, Deckhand plays it this way: a trump may also be
led by a player holding nothing but trumps; a team whose partners both passed scores 1 a
trick; a turned-up joker means no trumps, as above.
"""

from games.back_alley.engine import BackAlley

GAME = BackAlley()

__all__ = ["GAME", "BackAlley"]
