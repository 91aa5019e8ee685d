"""ONO 99 for 2 to 6 players: keep the running total below 99; the last player left wins.

The deck (2022 edition, 112 cards): number cards 0 (8 of them), 1 to 9 (6 each) and 10
(10 of them), and ten each of four special cards: ONO 99, Reverse, Minus 10 and Play 2.

Set-up. Everyone gets 4 cards; the rest is the draw pile. The first seat deals; the player
on the dealer's left starts and play goes clockwise. The running total starts at 0.

Your turn. Play one card; it changes the total, and Deckhand then draws the top card of
the draw pile for you, so you always hold 4 cards. When the draw pile runs out, the
discard pile is shuffled into a new one (the total stays). A card may only be played if
the total stays at 98 or less.
* Number cards add their value.
* Reverse adds nothing and turns the direction of play round; with two players it simply
  adds nothing.
* Minus 10 takes 10 off the total, which never goes below 0.
* Play 2: the next player must play two cards, one after the other. Instead, they may
  answer with a Reverse or a Play 2 as their first card, which passes the two cards on to
  the next player in the direction of play (after a Reverse, the direction has turned).
  However many are played, the obligation is always two cards. A Reverse or Play 2 played
  as the second card works as usual. A player who plays the first card but cannot play
  the second is eliminated, and the next player owes just one card.
* ONO 99 cards can never be played. If you hold four of them, on your turn you may swap:
  discard all four and draw four new cards (also before either card you owe after a Play
  2). If you then cannot play, you are out.

Elimination. When your turn comes and none of your cards keeps the total at 98 or less,
you are eliminated: your hand is shown and your turns are skipped. The last player left
wins. Scores count the players you outlasted.

Classic options (from the 1980 game; all off unless the table sets them):
* "negative_totals": Minus 10 may take the total below 0.
* "ono_on_tens": an ONO 99 may be played, adding nothing, when the total ends in zero
  (minus 10 included); at most one a turn.
* "scoring" set to tokens: everyone starts with 3 tokens. The first player who cannot play
  loses a token, their hand is shown and the round ends; losing a round with no tokens
  left puts you out of the game. The next round is dealt by the next player still in, to
  the players still in. The last player left wins. Swapping four ONO 99 is allowed.
* "scoring" set to points, with a "target" (100 unless set): there is no swap; a player
  holding four ONO 99 ends their turn without playing (and a Play 2 they owed lapses). A
  player who cannot keep the total at 98 or less is out of the round: they play no card,
  the total stays and their hand is shown. The round ends when one player is left in it,
  or when nobody left in it can play a card (every one of them holds four ONO 99): then
  the last player to have played a card in the round survives it and the others are out
  of it (if nobody has played a card yet, nobody is put out). Then every player still in
  the game scores the cards in their hand: number cards their value, ONO 99 20, every
  other special card 15, 15 for each card short of four, and a player out of the round
  adds 25 to that. Fewer points are better. How the game ends is the "points_end" option:
  last_standing (the default): everyone who has reached the target after a round leaves
  the game together, and the last player left wins (players leaving together are placed
  by their points); lowest: the round in which someone reaches the target ends the game,
  and the lowest total wins.

Moves: 'play 7', 'play -10', 'play REV' (Reverse), 'play P2' (Play 2), 'play ONO', and
'swap'. Cards may also be named in words ('play reverse', 'play minus 10'). In ONO 99 a
number after 'play' is the card of that value ('play 2' plays your 2), so to name a card
by its place in your hand say 'play #2' (your second card).

Where the printed rules leave a choice, Deckhand plays it this way: the deck's split of
special cards is the best reading of the rules (they do not print it); one limit, 98,
holds in every mode; elimination happens by itself when your turn comes and you cannot
play, which also covers "if nobody can play, the last player to have played wins"; with
two players a Reverse still passes on a Play 2; in the points game, when nobody can play,
the last player to have played a card survives the round, and a player out of the round
adds 25 to the points of their hand.
"""

from games.ono99.engine import GAME, Ono99

__all__ = ["GAME", "Ono99"]
