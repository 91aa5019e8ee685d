"""The Craits rules engine (RULES.md §4); the rules and decisions are in the package
docstring, which is also the players' rules text.

Engine notes:

* ``to_act[0]`` is always the seat on turn. While some player holds one unannounced card,
  every other seat follows in ``to_act`` (clockwise from the seat on turn): that player may
  ``announce`` and the others may ``callout``. The seat on turn may also announce or call
  out without using up its turn, so callers that only ever let ``to_act[0]`` act (the
  simulator) still see call-outs happen.
* A 10 with two players still flips ``direction``; the order is unchanged.
* The last-card rule holds until the round is scored, so also during a closing crank; if
  nobody but the player who just fed that crank holds cards, it ends with nobody drawing.
  Anyone left with no cards scores 0. The next round is dealt at once, play clockwise.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from games import cards
from games.base import LEVEL_NOTES, Game, IllegalAction, Option, View, Why, win_rates
from games.craits import bots, expert, moves, scoring
from games.craits.state import CraitsState
from games.rng import shuffled
from i18n import N_, Message, lazy_gettext, lazy_ngettext

#: Cards dealt to each player, round by round; ``short`` plays the first eight rounds.
ROUND_SIZES: Final = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
SHORT_ROUNDS: Final = 8
#: A card of each rank, as messages name it.
_RANK_WORDS: Final = {
    "A": N_("an ace"), "2": N_("a 2"), "3": N_("a 3"), "4": N_("a 4"), "5": N_("a 5"),
    "6": N_("a 6"), "7": N_("a 7"), "8": N_("an 8"), "9": N_("a 9"), "T": N_("a 10"),
    "J": N_("a jack"), "Q": N_("a queen"), "K": N_("a king"),
}


def rounds(options: dict[str, Any]) -> int:
    """How many rounds a game with these options has."""
    return SHORT_ROUNDS if options["short"] else len(ROUND_SIZES)


def rank_words(rank: str) -> Message:
    """``a 7``, ``an ace``, ``an 8`` — for messages."""
    return Message(_RANK_WORDS[rank])


class Craits(Game[CraitsState]):
    """Craits for 2–5 players: shed your cards; the lowest total after all rounds wins."""

    name = "craits"
    title = N_("Craits")
    min_players = 2
    max_players = 5
    higher_is_better = False
    state_type = CraitsState
    options: ClassVar = {
        "short": Option(False, N_("Play only the first 8 rounds (8 cards down to 1).")),
    }
    bots: ClassVar = {"normal": bots.normal, "expert": expert.expert_bot}
    level_notes: ClassVar[Mapping[str, str]] = {
        **LEVEL_NOTES,
        "expert": N_(
            "weighs every card it may play with a value learned from thousands of rounds"
            " played out, and plays the most valuable (the rest it plays like the normal"
            " player); against three normal players it won {expert} per cent of four-player"
            " games (an even share is 25)."
        ),
    }
    level_numbers: ClassVar[Mapping[str, int]] = win_rates(expert.MEASURED)

    def example_action(self) -> str:
        return "play 7H"

    # -- setting up -------------------------------------------------------------------
    def _new(
        self, players: int, seed: int, options: dict[str, Any], deck: list[str] | None
    ) -> CraitsState:
        s = CraitsState(
            players=players, seed=seed, options=options,
            scores=[0] * players,
        )
        self._deal(s, deck)
        self._refresh(s)
        return s

    def _deal(self, s: CraitsState, deck: list[str] | None = None) -> None:
        """Deal a round, turn up the first discard and apply it as the dealer's play."""
        if deck is None:
            deck = shuffled(cards.STANDARD_DECK, s.seed, "deal", s.shuffles)
            s.shuffles += 1
        size = ROUND_SIZES[s.round_no - 1]
        s.hands, rest = cards.deal(deck, s.players, size, s.dealer)
        top = rest[0]
        s.draw_pile = rest[1:]
        s.discard = [top]
        s.suit = cards.SUIT[top]
        s.crank = 0
        s.direction = 1
        s.out = None
        s.announced = [size == 1] * s.players
        s.skipped = [0] * s.players
        s.begin("deal", round_no=s.round_no, dealer=s.dealer, size=size)
        s.event("turn_up", seat=s.dealer, card=top)
        self._after_play(s, s.dealer, top)

    # -- parsing and legality -----------------------------------------------------------
    def _parse_action(self, text: str) -> str:
        return moves.parse(text)

    def _vulnerable(self, s: CraitsState) -> list[int]:
        """Seats holding one card that has been neither announced nor called out."""
        return [t for t in range(s.players) if len(s.hands[t]) == 1 and not s.announced[t]]

    def _refresh(self, s: CraitsState) -> None:
        """Set ``to_act``: the seat on turn first, then seats that may act out of turn."""
        if len(s.round_scores) == rounds(s.options):
            s.to_act = ()
            return
        exposed = self._vulnerable(s)
        others = [(s.current + k) % s.players for k in range(1, s.players)]
        s.to_act = (s.current, *(others if exposed else ()))

    def _playable(self, s: CraitsState, card: str) -> bool:
        return moves.playable(card, s.discard[-1], s.suit, s.crank)

    def _legal(self, s: CraitsState, seat: int) -> list[str]:
        out: list[str] = []
        if seat == s.current:
            hand = cards.sort_hand(s.hands[seat])
            for c in hand:
                if not self._playable(s, c):
                    continue
                if s.crank:
                    names: list[str | None] = [None]
                elif c[0] == "8":
                    names = list(cards.SUITS)
                elif c[0] == "9":
                    names = [None, moves.PARTNER_SUIT[c[1]]]
                else:
                    names = [None]
                for named in names:
                    out.append(moves.play_text(c, named))
                    if len(hand) == 2:
                        out.append(moves.play_text(c, named, last=True))
            if not out:
                out.append("draw")
        exposed = self._vulnerable(s)
        if seat in exposed:
            out.append("announce")
        out.extend(f"callout {t}" for t in exposed if t != seat)
        return out

    # -- applying -----------------------------------------------------------------------
    def _apply(self, s: CraitsState, seat: int, action: str) -> None:
        verb, _, arg = action.partition(" ")
        if verb == "announce":
            self._announce(s, seat)
        elif verb == "callout":
            self._callout(s, seat, int(arg))
        elif seat != s.current:
            raise IllegalAction(lazy_gettext(
                "It is not your turn: you may only announce your last card or call someone out."
            ))
        elif verb == "draw":
            self._draw_turn(s, seat)
        else:
            self._play(s, seat, moves.read_play(action))
        self._refresh(s)

    def _announce(self, s: CraitsState, seat: int) -> None:
        if len(s.hands[seat]) != 1:
            raise IllegalAction(
                lazy_gettext("You can announce only when you hold exactly one card.")
            )
        if s.announced[seat]:
            raise IllegalAction(lazy_gettext("Your last card is already announced."))
        s.announced[seat] = True
        s.event("announce", seat=seat)

    def _callout(self, s: CraitsState, seat: int, target: int) -> None:
        if not 0 <= target < s.players:
            raise IllegalAction(
                lazy_gettext("There is no seat {seat} at this table.", seat=target)
            )
        if target == seat:
            raise IllegalAction(
                lazy_gettext("You cannot call yourself out; say 'announce' instead.")
            )
        held = len(s.hands[target])
        if held != 1:
            raise IllegalAction(lazy_ngettext(
                "Seat {seat} holds {n} card; only a player with one card can be called out.",
                "Seat {seat} holds {n} cards; only a player with one card can be called out.",
                held, seat=target,
            ))
        if s.announced[target]:
            raise IllegalAction(lazy_gettext(
                "Seat {seat} has already announced their last card.", seat=target
            ))
        s.event("callout", seat=seat, target=target)
        self._give(s, target, 2, "callout")
        s.announced[target] = True
        s.skipped[target] += 1

    def _draw_turn(self, s: CraitsState, seat: int) -> None:
        playable = [c for c in cards.sort_hand(s.hands[seat]) if self._playable(s, c)]
        if playable:
            raise IllegalAction(lazy_gettext(
                "You can play (e.g. {move}); you may only draw when you cannot play.",
                move=self._legal(s, seat)[0],
            ))
        if s.crank:
            count = s.crank
            drew = self._give(s, seat, count, "crank")
            s.crank = 0
            s.event("crank_end", seat=seat, count=count, drew=drew)
            if s.out is not None:
                self._end_round(s)
                return
        else:
            self._give(s, seat, 1, "turn")
        self._pass(s, self._next(s, seat))

    def _play(self, s: CraitsState, seat: int, play: moves.Play) -> None:
        hand = s.hands[seat]
        card = play.card
        if card not in hand:
            raise IllegalAction(lazy_gettext("You do not hold {card}.", card=card))
        if not self._playable(s, card):
            raise IllegalAction(self._mismatch(s))
        if play.last and len(hand) != 2:
            raise IllegalAction(
                lazy_gettext("Say 'last' only with a play that leaves you one card.")
            )
        hand.remove(card)
        s.discard.append(card)
        s.suit = play.named or card[1]
        s.announced[seat] = play.last
        s.event("play", seat=seat, card=card, suit=s.suit, last=play.last)
        self._after_play(s, seat, card)

    def _mismatch(self, s: CraitsState) -> Message:
        if s.crank:
            return lazy_gettext(
                "The crank is on (count {count}): play an ace or a 2, or draw {count}.",
                count=s.crank,
            )
        top = s.discard[-1][0]
        suit = Message(cards.SUIT_SINGULAR[s.suit])
        if top == "8":
            return lazy_gettext("Play a {suit}, or an 8.", suit=suit)
        return lazy_gettext("Play a {suit} or {rank}, or an 8.", suit=suit, rank=rank_words(top))

    # -- powers and turn order ----------------------------------------------------------
    def _next(self, s: CraitsState, seat: int) -> int:
        return (seat + s.direction) % s.players

    def _after_play(self, s: CraitsState, seat: int, card: str) -> None:
        """Apply the power of ``card`` just played (or turned up) by ``seat``."""
        nxt = self._next(s, seat)
        rank = card[0]
        gone = not s.hands[seat]
        if gone and s.out is None:
            s.out = seat
            s.event("out", seat=seat)
        if s.crank or rank == "2":
            s.crank += moves.CRANK_VALUE[rank]
            s.event("crank", seat=seat, count=s.crank)
            if s.out is not None and not any(h for t, h in enumerate(s.hands) if t != seat):
                s.event("crank_end", seat=None, count=s.crank, drew=0)
                s.crank = 0
                self._end_round(s)
            else:
                self._pass(s, nxt)
            return
        if rank == "7":
            self._give(s, nxt, 1, "seven")
        elif rank == "5":
            for k in range(1, s.players):
                self._give(s, (seat + k * s.direction) % s.players, 1, "five")
        if gone:
            self._end_round(s)
        elif rank == "4":
            s.event("skip", seat=nxt, reason="four")
            self._pass(s, self._next(s, nxt))
        elif rank == "6":
            s.event("again", seat=seat)
            s.current = seat
        elif rank == "T":
            s.direction = -s.direction
            s.event("reverse", direction=s.direction)
            self._pass(s, self._next(s, seat))
        else:
            self._pass(s, nxt)

    def _pass(self, s: CraitsState, seat: int) -> None:
        """Start ``seat``'s turn, passing over lost turns (and, while a crank runs on after
        someone went out, over players with no cards)."""
        while True:
            if s.out is not None and not s.hands[seat]:
                seat = self._next(s, seat)
            elif s.skipped[seat]:
                s.skipped[seat] -= 1
                s.event("skip", seat=seat, reason="callout")
                seat = self._next(s, seat)
            else:
                s.current = seat
                return

    def _give(self, s: CraitsState, seat: int, count: int, reason: str) -> int:
        """``seat`` draws up to ``count`` cards, reshuffling the discards when needed."""
        drew = 0
        while drew < count:
            if not s.draw_pile:
                if len(s.discard) < 2:
                    break
                s.draw_pile = shuffled(s.discard[:-1], s.seed, "reshuffle", s.shuffles)
                s.shuffles += 1
                s.discard = s.discard[-1:]
                s.event("reshuffle", cards=len(s.draw_pile))
            s.hands[seat].append(s.draw_pile.pop(0))
            drew += 1
        if drew:
            s.announced[seat] = False
        s.event("draw", seat=seat, count=drew, reason=reason)
        return drew

    # -- ending -------------------------------------------------------------------------
    def _end_round(self, s: CraitsState) -> None:
        points: list[int] = []
        detail: list[dict[str, Any]] = []
        for hand in s.hands:
            pts, cancelled = scoring.hand_score(hand)
            points.append(pts)
            detail.append({"cards": cards.sort_hand(hand), "cancelled": cancelled,
                           "points": pts})
        s.round_scores.append(points)
        s.scores = [a + b for a, b in zip(s.scores, points, strict=True)]
        s.event("round", round_no=s.round_no, out=s.out, points=points, hands=detail,
                scores=list(s.scores))
        if len(s.round_scores) == rounds(s.options):
            s.event("game_over", scores=list(s.scores), ranks=list(self.outcome(s).ranks))
            return
        s.round_no += 1
        s.dealer = (s.dealer + 1) % s.players
        self._deal(s)

    # -- observing ----------------------------------------------------------------------
    def _view(self, s: CraitsState, seat: int | None) -> View:
        over = len(s.round_scores) == rounds(s.options)
        v: View = {
            "phase": "over" if over else ("crank" if s.crank else "play"),
            "round_no": s.round_no,
            "rounds": rounds(s.options),
            "deal_size": ROUND_SIZES[s.round_no - 1],
            "dealer": s.dealer,
            "current": None if over else s.current,
            "top": s.discard[-1],
            "suit": s.suit,
            "crank": s.crank,
            "direction": s.direction,
            "draw_pile": len(s.draw_pile),
            "discard_pile": len(s.discard),
            "discards": list(s.discard),
            "hand_counts": [len(h) for h in s.hands],
            "announced": list(s.announced),
            "skipped": list(s.skipped),
            "out": s.out,
            "scores": list(s.scores),
            "round_scores": [list(r) for r in s.round_scores],
        }
        if seat is not None:
            v["hand"] = cards.sort_hand(s.hands[seat])
        return v

    def _decide(self, view: View, legal: list[str]) -> tuple[str, Why]:
        return bots.decide(view, legal)

    def _world(self, view: View, rng: random.Random) -> CraitsState:
        return expert.world(view, rng)

    def _scores(self, s: CraitsState) -> list[int]:
        return list(s.scores)
