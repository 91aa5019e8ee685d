"""Gin Rummy against a player nobody here wrote: OpenSpiel's ``SimpleGinRummyBot``.

The bot is the baseline of the EAAI Gin Rummy challenge (``pyspiel.make_simple_gin_rummy_bot``,
``open-spiel`` 2.x, the ``bench`` extra): it takes the upcard only when it joins one of its
best melds or lets it knock at once, knocks as soon as it can and otherwise throws its
highest-ranked unmatched card. It plays one seat of a Deckhand game, by Deckhand's rules:
every move is played on Deckhand's engine and scored by it, and an OpenSpiel state mirrors the
hand (the same deal, each side's moves fed in) so the bot decides from its own observation.

Where the two rule books differ, the bot is only ever given a move legal by ours:

* OpenSpiel lets a player discard or knock with the card just taken from the discard pile;
  Deckhand does not. The bot takes a card only to meld it or to knock at once, so its take
  is kept only when that holds by our rules (the card joins one of its best melds, or some
  *other* card can be thrown leaving 10 or less); otherwise it draws (or passes the upcard).
  A knock or discard with the card just taken becomes, by the bot's own rules with that
  card left out, the knock leaving the least deadwood, else the highest-ranked unmatched
  card.
* OpenSpiel has no big gin: a bot knocking with all eleven cards melded declares big gin
  (scored 31 rather than gin's 25; it is what the bot's knock-at-once means here).
* The wall: OpenSpiel lets the player facing the last discard with 2 stock cards left take
  it and knock; by our rules that discard has already ended the hand in a draw, so the bot
  never sees that choice. Deckhand's ten take-backs in a row also end a hand as a draw.
* Lay-offs: the bot never lays off; here Deckhand lays down and lays off for both players
  (the defender's best lay-offs), as it does for people.

``Bridge.translations`` counts each of these substitutions, so a run says how often the
rules apart mattered.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import games
from games import melds
from games.gin_rummy.state import DISCARD, GinState
from games.rng import rng_for

#: The target of the games the bench plays against the bot (Deckhand's default).
TARGET = 100
#: OpenSpiel's Gin Rummy actions (``pyspiel.gin_rummy``): cards are 0–51.
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55


def available() -> str | None:
    """``None`` if OpenSpiel imports here, else why not."""
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


class Bridge:
    """One hand of Deckhand's Gin Rummy mirrored in OpenSpiel, with the bot in ``seat``.

    OpenSpiel's player 0 acts first, so it is Deckhand's non-dealer. Every move of the hand
    (the bot's and the other player's) must go through ``played`` in order.
    """

    def __init__(self, state: GinState, seat: int, translations: Counter[str]) -> None:
        import pyspiel

        self.game = pyspiel.load_game("gin_rummy")
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.seat = seat
        self.hand_no = state.hand_no
        self.translations = translations
        first = 1 - state.dealer
        self.player = 0 if seat == first else 1
        self.bot = pyspiel.make_simple_gin_rummy_bot(self.game.get_parameters(), self.player)
        self.os = self.game.new_initial_state()
        for card in [*state.hands[first], *state.hands[state.dealer], state.discards[-1]]:
            self.os.apply_action(self.card(card))

    def card(self, code: str) -> int:
        """OpenSpiel's number for a Deckhand card code (``QH`` → ``Qh``)."""
        return int(self.utils.card_int(code[0] + code[1].lower()))

    def code(self, card: int) -> str:
        """Deckhand's code for an OpenSpiel card number."""
        text: str = self.utils.card_string(card)
        return text[0] + text[1].upper()

    def played(self, before: GinState, seat: int, action: str) -> None:
        """Feed the move ``seat`` made from ``before`` into the mirror (a knock or big gin
        ends the hand in Deckhand, so the mirror stops there)."""
        verb, _, arg = action.partition(" ")
        if verb == "take":
            self.os.apply_action(DRAW_UPCARD)
        elif verb == "pass":
            self.os.apply_action(PASS)
        elif verb == "draw":
            self.os.apply_action(DRAW_STOCK)
            self.os.apply_action(self.card(before.stock[0]))
        elif verb == "discard":
            self.os.apply_action(self.card(arg))
        if self.os.is_terminal() and verb in ("take", "draw", "pass", "discard"):
            raise RuntimeError("OpenSpiel ended the hand before Deckhand did")

    def choose(self, state: GinState, legal: list[str]) -> str:
        """The bot's move in ``state`` (its seat to act), legal by Deckhand's rules."""
        if len(legal) == 1:
            return legal[0]
        self.bot.restart()
        action = self.bot.step(self.os)
        if state.phase != DISCARD:
            return self._draw(state, legal, action)
        hand = state.hands[self.seat]
        if action != KNOCK:
            move = f"discard {self.code(action)}"
            if move in legal:
                return move
            self.translations["discard of the card just taken"] += 1
            return self._discard(hand, state.taken, legal)
        if "biggin" in legal:
            self.translations["knock with 11 melded cards: big gin"] += 1
            return "biggin"
        knocked = self.os.clone()
        knocked.apply_action(KNOCK)
        move = f"knock {self.code(self.bot.step(knocked))}"
        if move in legal:
            return move
        self.translations["knock with the card just taken"] += 1
        after = melds.deadwood_by_discard(hand)
        knocks = [a for a in legal if a.startswith("knock ")]
        if knocks:
            return min(knocks, key=lambda a: (after[a.split()[1]], -self.card(a.split()[1])))
        return self._discard(hand, state.taken, legal)

    def _draw(self, state: GinState, legal: list[str], action: int) -> str:
        """``take`` only when it melds the card or lets the bot knock by our rules."""
        refuse = "pass" if "pass" in legal else "draw"
        if action != DRAW_UPCARD:
            return refuse
        hand = state.hands[self.seat]
        top = state.discards[-1]
        after = melds.deadwood_by_discard([*hand, top])
        del after[top]
        melded = [self.card(c) for m in self._best_melds([*hand, top]) for c in m]
        if self.card(top) in melded or min(after.values()) <= 10:
            return "take"
        self.translations["take to knock with the card just taken"] += 1
        return refuse

    def _best_melds(self, hand: list[str]) -> list[list[str]]:
        """The bot's best meld group (OpenSpiel's ``BestMeldGroup``) of ``hand``."""
        group: list[list[int]] = self.utils.best_meld_group([self.card(c) for c in hand])
        return [[self.code(c) for c in m] for m in group]

    def _discard(self, hand: list[str], taken: str | None, legal: list[str]) -> str:
        """The bot's discard rule without ``taken``: its highest-ranked card outside its
        best melds (OpenSpiel's rank order, ties by card number), else the discard that
        leaves the least deadwood."""
        melded = {c for m in self._best_melds(hand) for c in m}
        loose = [c for c in hand if c not in melded and c != taken]
        if loose:
            card = max(loose, key=lambda c: (self.card(c) % 13, self.card(c)))
            return f"discard {card}"
        after = melds.deadwood_by_discard(hand)
        options = [a for a in legal if a.startswith("discard ")]
        return min(options, key=lambda a: (after[a.split()[1]], a))


@dataclass
class Tally:
    """What one side (``A``, a Deckhand level) did against the bot: per deal, the hands
    played from it (one per seating) as (A's points minus the bot's, A won, bot won, A
    knocked, bot knocked); games to the target won by A (a tie counts ½); A's decision
    times; the rule translations the bot needed."""

    deals: dict[int, list[tuple[int, bool, bool, bool, bool]]] = field(default_factory=dict)
    games: int = 0
    game_wins: float = 0.0
    times: list[float] = field(default_factory=list)
    translations: Counter[str] = field(default_factory=Counter)


def play(
    state: GinState, level: str, bot_seat: int, rng: random.Random, tally: Tally,
    one_hand: bool,
) -> GinState:
    """Play ``state`` on, ``level`` against the bot in ``bot_seat``, to the end of the game
    (or of the hand in play, ``one_hand``); A's decision times go to ``tally``."""
    game = games.get("gin_rummy")
    first = state.hand_no
    bridge: Bridge | None = None
    while not state.is_over and not (one_hand and state.hand_no != first):
        if bridge is None or bridge.hand_no != state.hand_no:
            bridge = Bridge(state, bot_seat, tally.translations)
        seat = state.to_act[0]
        if seat == bot_seat:
            action = bridge.choose(state, game.legal_actions(state, seat))
        else:
            start = time.perf_counter()
            action = game.choose(state, seat, level, rng)
            tally.times.append(time.perf_counter() - start)
        after = game.apply(state, seat, action)
        if after.hand_no == state.hand_no and not after.is_over:
            bridge.played(state, seat, action)
        state = after
    return state


def deal_and_seat(number: int) -> tuple[int, int]:
    """Duplicate deals: hand or game ``number`` deals seed ``number // 2``, with the bot
    in seat ``number % 2`` (so every deal is played from both seats)."""
    return divmod(number, 2)


def hands(level: str, first: int, count: int, tally: Tally) -> None:
    """Play single hands ``first`` … ``first + count - 1`` (the first hand of each deal's
    game, scored by Deckhand's rules) and add them to ``tally``."""
    for number in range(first, first + count):
        deal, bot = deal_and_seat(number)
        state = games.get("gin_rummy").new(2, seed=deal)
        end = play(state, level, bot, rng_for(number, "openspiel"), tally, one_hand=True)
        result = end.last_hand
        assert result is not None
        me = 1 - bot
        points = result["points"][me] - result["points"][bot]
        row = (points, result["winner"] == me, result["winner"] == bot,
               result["knocker"] == me, result["knocker"] == bot)
        tally.deals.setdefault(deal, []).append(row)


def whole_games(level: str, first: int, count: int, target: int, tally: Tally) -> None:
    """Play games ``first`` … to ``target`` points and add A's wins to ``tally``."""
    for number in range(first, first + count):
        deal, bot = deal_and_seat(number)
        state = games.get("gin_rummy").new(2, seed=deal, options={"target": target})
        end = play(state, level, bot, rng_for(number, "openspiel"), tally, one_hand=False)
        assert end.final is not None
        winner = end.final["winner"]
        tally.games += 1
        tally.game_wins += 0.5 if winner is None else float(winner != bot)


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95 % normal interval."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(var / n)


@dataclass(frozen=True)
class Summary:
    """A tally's numbers, each deal's hands averaged first (the two seatings of a deal are
    not independent, the deals are): (mean, 95 % half-width) of A's points per hand minus
    the bot's, of hands A won and the bot won, and of knocks by each."""

    hands: int
    points: tuple[float, float]
    a_won: tuple[float, float]
    bot_won: tuple[float, float]
    a_knocked: tuple[float, float]
    bot_knocked: tuple[float, float]


def paired(a: Tally, b: Tally) -> tuple[float, float]:
    """A's points per hand in ``a`` minus those in ``b`` on the deals both played (each
    deal's seatings averaged first), with the half-width of its 95 % interval over deals:
    the cards' luck cancels deal by deal."""
    diffs = [
        sum(h[0] for h in a.deals[d]) / len(a.deals[d])
        - sum(h[0] for h in b.deals[d]) / len(b.deals[d])
        for d in a.deals if d in b.deals
    ]
    return mean_interval(diffs)


def summary(tally: Tally) -> Summary:
    """The numbers of ``tally``'s hands."""
    per_deal = [
        [sum(float(h[k]) for h in played) / len(played) for k in range(5)]
        for played in tally.deals.values()
    ]
    column = [mean_interval([d[k] for d in per_deal]) for k in range(5)]
    hands_played = sum(len(p) for p in tally.deals.values())
    return Summary(hands_played, *column)
