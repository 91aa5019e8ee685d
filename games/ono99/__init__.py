"""ONO 99 (2–6 players): keep the running total below 99; the last player left wins.

Rules as in RULES.md §5 (2022 edition, 112 cards: 0 ×8, 1–9 ×6, 10 ×10 and ten each of
ONO 99, Reverse, −10 and Play 2 — **decision**: the split of the specials is not printed in
the seed). Four cards each, dealer seat 0, the player on the dealer's left starts and play
goes clockwise. A turn is ``play <card>``; the engine then draws the top card for you,
reshuffling the whole discard pile into a new draw pile when it runs out (the total stays).

Decisions:

* One limit in every mode: a card may be played only if the total stays at 98 or less.
* Elimination is automatic: when a player's turn comes and no card keeps the total below
  99, they are eliminated (hand laid face up, turns skipped). A player holding four
  ONO 99 is never eliminated before acting: ``swap`` is offered (and may be made before
  either card of a Play 2 turn); if the four new cards cannot be played, they are out.
* The game ends as soon as one player is left, who wins even if they could not play.
  This covers "if nobody can play, the last player to have played wins": stuck players
  are eliminated in turn order, and the one left is normally the last to have played.
* Reverse with two players at the table adds 0 and keeps the direction, but still
  answers a Play 2 (the obligation goes back to the other player, as it would with more).
* Play 2: the next player owes two cards; answering with Reverse or Play 2 as the first
  card passes two on (Reverse turns play first). A Reverse or Play 2 played as the second
  card acts normally (a second-card Play 2 puts a new obligation on the next player). A
  player who owes cards and cannot play is eliminated and the obligation lapses.
* ``ono_on_tens``: an ONO 99 adds 0 and may be played when the total ends in zero
  (negative totals such as −10 too), at most one per turn.
* ``negative_totals``: −10 may take the total below 0 (otherwise it stops at 0).
* ``scoring = elimination`` (default): scores are the number of players a seat
  outlasted (the winner has players − 1); the later a seat is eliminated, the higher it
  places.
* ``scoring = tokens``: three tokens each; the first player who cannot play loses a
  token (hand shown) and the round ends; losing a round with no tokens left puts you
  out. The next round is dealt by the next seat still in the game (clockwise), to the
  seats still in. Scores are tokens left; placement by the order of going out.
  Swapping four ONO 99 is allowed as in the 2022 game.
* ``scoring = points``: no swap; a player holding four ONO 99 ends their turn without
  playing (a Play 2 they owed lapses). A player who cannot keep the total below 99 is out
  of the round: no card is played, the total stays, their hand is shown and they score
  25 on top of their hand's points (the seed's "draw back up to four" is then moot: they
  played no card). When nobody left in the round can play (every one of them holds four
  ONO 99), the round ends: the last player to have played a card survives it and the
  others are out of it (if nobody played a card yet, nobody is put out). When one player
  is left in the round, or the round ended so, every seat still in the game scores:
  numbers face value, ONO 99 20, each special 15, each card short of four 15 (the
  engine always draws, so hands are full).
  ``points_end = last_standing``: everyone at or over ``target`` after a round leaves the
  game together; the last player left wins (those leaving together are placed by
  points). ``lowest``: the round in which someone reaches the target ends the game and
  the lowest total wins. Scores are points (lower is better); ranks follow placement.
* Events are public and never name a drawn card; eliminations show the laid-down hand,
  and a points round's scoring shows the scored hands.
"""

from games.ono99.engine import GAME, Ono99

__all__ = ["GAME", "Ono99"]
