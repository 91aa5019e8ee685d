"""Craits: a shedding game like Crazy Eights in which most cards have a power; 2 to 5 players.

The deck is 52 cards. There are 15 rounds, dealt 8, 7, 6, ... down to 1 card each and
back up to 8 (the "short" option plays only the first 8 rounds, 8 cards down to 1). The
first seat deals the first round; the deal passes clockwise. The lowest total score after
the last round wins.

Starting a round. After the deal the rest is the draw pile, and the dealer turns its top
card face up to start the discard pile. That card counts as the dealer's first play: its
power applies (a turned-up 2 starts the crank, a 4 skips the player left of the dealer, a
5 makes everyone but the dealer draw, a 6 gives the dealer the first turn, a 7 makes the
player left of the dealer draw, a 10 reverses the direction). A turned-up 8 or 9 keeps
its printed suit. Play then starts left of the dealer, clockwise.

Your turn. Play one card that matches the top card's suit (or the suit named for an 8 or
chosen with a 9) or its rank; an 8 may always be played. If you cannot play, draw one card
and your turn ends. You may not draw while you can play. When the draw pile is empty, the
discard pile except its top card is shuffled into a new draw pile; if there is nothing to
draw, the turn simply passes.

Powers:
* Ace: counts 1 in the crank.
* 2: starts the crank at 2.
* 4: the next player is skipped.
* 5: every other player draws a card.
* 6: you play again; if you then cannot play, you draw one card.
* 7: the next player draws a card, then takes their turn normally.
* 8: wild; name the suit to follow.
* 9: you may switch to the other suit of the same colour (hearts and diamonds, spades
  and clubs).
* 10: play changes direction (with two players the order stays the same).
* 3, J, Q, K: no power.

The crank. A 2 starts it at 2. While it runs, each player in turn must play an ace or a 2
of any suit if they can, adding 1 or 2 to the count. The first player who cannot draws as
many cards as the count; play passes to the next player and goes on, matching the top
card.

Last card. When you are down to one card you must announce it, either on its own or
together with the play that leaves you one card. Until you do, any other player may call
you out: you then draw two cards and lose your next turn. Being dealt a single card needs
no announcement; only coming down to one does. Calling out a player who announced, was
already caught or does not hold exactly one card is not allowed. A lost turn is passed
over when play next reaches that player (a turn already under way, after a 6, goes on);
lost turns still owed when the round ends are forgiven.

End of a round. The round ends when a player plays their last card, but that card's power
still applies (a 7 still makes the next player draw, a crank still runs to its end,
passing over players with no cards). The player who went out scores 0; everyone else
scores the cards left in their hand: ace 1, 2 20, 4 15, 5 30, 6 30, 7 20, 8 50, 9 30,
10 25, jack, queen and king 10. Each 3 cancels the highest-scoring other card left (not
another 3) and then scores nothing; a 3 with nothing left to cancel scores minus 50. So
3, 2, 8 scores 20 and 3, 3 scores minus 100.

Moves: 'play 7H' (or 'play #2' / 'play 2' for the second card in your hand), 'play 8H as
S' (an 8, naming the suit), 'play 9H as D' (a 9, switching to its colour-mate), add
'last' to announce your last card as you play ('play 7H last'), 'draw', 'announce',
and 'callout' with the seat number of the player you catch (the move list offers it).

Where the printed rules leave a choice, Deckhand plays it this way: you match the top card
by suit or by rank (the printed rule says "suit or colour" in one place and "suit or
ability" in another; rank is the Crazy Eights reading); a turned-up 8 or 9 keeps its suit;
you may not draw while you can play; the discard pile is reshuffled when the draw pile
runs out; a 7 makes the next player draw and then play normally; a 3 with nothing to
cancel scores minus 50.
"""

from games.craits.engine import Craits

GAME = Craits()

__all__ = ["GAME", "Craits"]
