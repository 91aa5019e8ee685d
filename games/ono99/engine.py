"""The ONO 99 rules engine; the rules and decisions are in the package docstring (the
players' rules text).

Engine notes: events are public and never name a drawn card; eliminations show the laid
down hand and a points round's ``round_over`` shows the scored hands. In the points game a
player out of the round played no card, so the seed's "they draw back up to four" is moot
(hands are always full). Ranks follow placement (``scoring.placements``): a later exit from
the game places higher, then more tokens or fewer points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from games import cards as std_cards
from games.actions import no_args, split
from games.base import LEVEL_NOTES, Bot, Game, IllegalAction, Option, Outcome, View, Why, win_rates
from games.ono99 import expert, scoring
from games.ono99.bots import decide, normal_bot
from games.ono99.cards import (
    FULL_DECK,
    LIMIT,
    MINUS,
    NAME,
    NUMBERS,
    ONO,
    ORDER,
    P2,
    REV,
    VALUE,
    parse_card,
)
from games.ono99.cards import sort_hand as sort_cards
from games.ono99.state import OnoState
from games.rng import shuffled
from i18n import N_, Message, lazy_gettext

HAND_SIZE = scoring.HAND_SIZE
#: More automatic steps (passes, eliminations, deals) than any game can need in a row.
MAX_AUTOMATIC_STEPS = 10_000


class Ono99(Game[OnoState]):
    """ONO 99: keep the running total below 99; the last player left wins."""

    name: ClassVar[str] = "ono99"
    title: ClassVar[str] = N_("ONO 99")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options: ClassVar[Mapping[str, Option]] = {
        "scoring": Option(
            "elimination",
            N_("elimination (2022: last player left wins), tokens or points (1980 classics)"),
            choices=("elimination", "tokens", "points"),
        ),
        "target": Option(100, N_("points that end the game (points scoring)"), 25, 1000),
        "points_end": Option(
            "last_standing",
            N_("points scoring: last_standing (reaching the target knocks you out) or lowest"
               " (the first to reach it ends the game; lowest total wins)"),
            choices=("last_standing", "lowest"),
        ),
        "negative_totals": Option(False, N_("Minus 10 may take the total below 0 (1980)")),
        "ono_on_tens": Option(
            False, N_("an ONO 99 may be played, adding 0, when the total ends in zero (1980)")
        ),
    }
    state_type: ClassVar[type[OnoState]] = OnoState
    full_deck: ClassVar[tuple[str, ...]] = FULL_DECK
    bots: ClassVar[Mapping[str, Bot]] = {"normal": normal_bot, "expert": expert.expert_bot}
    level_notes: ClassVar[Mapping[str, str]] = {
        **LEVEL_NOTES,
        "expert": N_(
            "weighs every card it may play with a value learned from thousands of games played"
            " out, and plays the most valuable, but ONO 99 is mostly luck: against three normal"
            " players it won {expert} per cent of four-player games, and a search shown every"
            " hand {bound} per cent (an even share is 25)."
        ),
    }
    level_numbers: ClassVar[Mapping[str, int]] = win_rates(expert.MEASURED)

    def parse_card(self, text: str) -> str:
        """Canonical code of an ONO 99 card (``reverse`` → ``REV``, ``10`` → ``10``)."""
        return parse_card(text)

    def example_action(self) -> str:
        """An example action for help texts."""
        return "play 7"

    # -- setting up ---------------------------------------------------------------------
    def _new(
        self, players: int, seed: int, options: dict[str, Any], deck: list[str] | None
    ) -> OnoState:
        state = OnoState(
            players=players,
            seed=seed,
            options=options,
            hands=[[] for _ in range(players)],
            draw=[],
            discard=[],
            in_round=[True] * players,
            left_at=[None] * players,
            tokens=[3] * players,
            points=[0] * players,
        )
        self._deal(state, deck if deck is not None else shuffled(FULL_DECK, seed, 0))
        self._settle(state)
        return state

    def _deal(self, state: OnoState, deck: list[str]) -> None:
        """Deal four cards to each seat still in the game, one at a time from the dealer's
        left; the rest is the draw pile and the player left of the dealer starts."""
        n = state.players
        seats = [
            s for s in ((state.dealer + k) % n for k in range(1, n + 1))
            if state.left_at[s] is None
        ]
        hands, rest = std_cards.deal(deck, len(seats), HAND_SIZE, len(seats) - 1)
        state.hands = [[] for _ in range(n)]
        for seat, hand in zip(seats, hands, strict=True):
            state.hands[seat] = sort_cards(hand)
        state.draw = rest[::-1]
        state.discard = []
        state.in_round = [left is None for left in state.left_at]
        state.total = 0
        state.direction = 1
        state.last_played = None
        state.begin("deal", round=state.round_no, dealer=state.dealer)
        self._start_turn(state, seats[0], 1)

    # -- parsing ------------------------------------------------------------------------
    def _parse_action(self, text: str) -> str:
        verb, words = split(text)
        if verb == "swap":
            return no_args("swap", words)
        if verb == "play":
            if not words:
                raise IllegalAction(
                    lazy_gettext("Which card? Say e.g. 'play 7', 'play -10' or 'play REV'.")
                )
            return "play " + parse_card("".join(words))
        try:
            return "play " + parse_card(text)
        except ValueError:
            raise IllegalAction(lazy_gettext(
                "Unknown move {move!r}: say 'play <card>' (e.g. 'play 7') or 'swap'.",
                move=text.strip(),
            )) from None

    # -- rules --------------------------------------------------------------------------
    def _after(self, state: OnoState, card: str) -> int:
        """The total after ``card``."""
        total = state.total + VALUE[card]
        if card == MINUS and not state.options["negative_totals"]:
            return max(0, total)
        return total

    def _why_not(self, state: OnoState, seat: int, card: str) -> Message | None:
        """Why ``seat`` may not play ``card`` now, or ``None`` when it may."""
        hand = state.hands[seat]
        if card not in hand:
            place = int(card) if card in NUMBERS else 0
            if 1 <= place <= len(hand):
                return lazy_gettext(
                    "You have no {card} card in your hand (to play the card in place {place}"
                    " of your hand, say 'play #{place}').",
                    card=Message(NAME[card]), place=place,
                )
            return lazy_gettext("You have no {card} card in your hand.", card=Message(NAME[card]))
        if card == ONO:
            if not state.options["ono_on_tens"]:
                return lazy_gettext("ONO 99 cards can never be played.")
            if state.total % 10:
                return lazy_gettext(
                    "An ONO 99 may only be played when the total ends in zero (it is {total}).",
                    total=state.total,
                )
            if state.ono_played:
                return lazy_gettext("Only one ONO 99 may be played a turn.")
        total = self._after(state, card)
        if total > LIMIT:
            return lazy_gettext(
                "That would make the total {total}; it must stay below 99.", total=total
            )
        return None

    def _can_swap(self, state: OnoState, seat: int) -> bool:
        return (
            state.options["scoring"] != "points"
            and state.hands[seat].count(ONO) == HAND_SIZE
        )

    def _legal(self, state: OnoState, seat: int) -> list[str]:
        hand = state.hands[seat]
        plays = [
            "play " + c for c in ORDER if c in hand and self._why_not(state, seat, c) is None
        ]
        return [*plays, "swap"] if self._can_swap(state, seat) else plays

    def _apply(self, state: OnoState, seat: int, action: str) -> None:
        if action == "swap":
            self._swap(state, seat)
        else:
            self._play(state, seat, action.split()[1])
        self._settle(state)

    def _swap(self, state: OnoState, seat: int) -> None:
        if state.options["scoring"] == "points":
            raise IllegalAction(lazy_gettext(
                "There is no swap in the points game: four ONO 99 end your turn instead."
            ))
        held = state.hands[seat].count(ONO)
        if held < HAND_SIZE:
            raise IllegalAction(lazy_gettext(
                "You may only swap when you hold four ONO 99 cards (you hold {held}).", held=held
            ))
        state.hands[seat] = []
        state.discard.extend([ONO] * HAND_SIZE)
        state.event("swap", seat=seat)
        self._draw(state, seat, HAND_SIZE)

    def _play(self, state: OnoState, seat: int, card: str) -> None:
        reason = self._why_not(state, seat, card)
        if reason is not None:
            raise IllegalAction(reason)
        state.hands[seat].remove(card)
        state.discard.append(card)
        state.total = self._after(state, card)
        state.last_played = seat
        state.ono_played = state.ono_played or card == ONO
        state.event("play", seat=seat, card=card, total=state.total)
        self._draw(state, seat, 1)
        if card == REV and state.players > 2:
            state.direction = -state.direction
            state.event("reverse", seat=seat, direction=state.direction)
        if card == P2 or (card == REV and state.owed == 2):
            passed = state.owed == 2
            nxt = self._next(state, seat)
            state.event("play_two", seat=nxt, by=seat, passed_on=passed)
            self._start_turn(state, nxt, 2)
        elif state.owed == 2:
            state.owed = 1
        else:
            self._start_turn(state, self._next(state, seat), 1)

    def _draw(self, state: OnoState, seat: int, count: int) -> None:
        """Draw from the top of the draw pile, reshuffling the discard pile when it runs out."""
        hand = state.hands[seat]
        for _ in range(count):
            if not state.draw:
                state.draw = shuffled(state.discard, state.seed, state.shuffles)
                state.shuffles += 1
                state.discard = []
                state.event("reshuffle", cards=len(state.draw))
            hand.append(state.draw.pop())
        state.hands[seat] = sort_cards(hand)
        state.event("draw", seat=seat, source="stock", count=count)

    def _next(self, state: OnoState, seat: int) -> int:
        """The next seat still in the round, in the direction of play."""
        n = state.players
        nxt = seat
        for _ in range(n):
            nxt = (nxt + state.direction) % n
            if state.in_round[nxt]:
                return nxt
        return seat

    def _start_turn(self, state: OnoState, seat: int, owed: int) -> None:
        state.turn = seat
        state.owed = owed
        state.ono_played = False

    # -- automatic play -----------------------------------------------------------------
    def _settle(self, state: OnoState) -> None:
        """Resolve everything nobody chooses: players who cannot play, round ends, deals.
        Bounded: a rule that let this run on would freeze every table of the process, so
        that is an error instead."""
        for _ in range(MAX_AUTOMATIC_STEPS):
            seat = state.turn
            if self._legal(state, seat):
                state.to_act = (seat,)
                return
            if not self._stuck(state, seat):
                state.to_act = ()
                return
        raise RuntimeError(f"ONO 99: no move after {MAX_AUTOMATIC_STEPS} automatic steps")

    def _stuck(self, state: OnoState, seat: int) -> bool:
        """Handle ``seat`` having no legal move; False when that ends the game."""
        mode = state.options["scoring"]
        hand = state.hands[seat]
        if mode == "points" and hand.count(ONO) == HAND_SIZE:
            state.event("pass", seat=seat)
            if self._nobody_can_play(state):
                return self._round_stuck(state)
            self._start_turn(state, self._next(state, seat), 1)
            return True
        state.event("eliminated", seat=seat, hand=list(hand), total=state.total)
        if mode == "tokens":
            if state.tokens[seat] == 0:
                self._leave(state, [seat])
            else:
                state.tokens[seat] -= 1
                state.event("token_lost", seat=seat, tokens=state.tokens[seat])
            state.event("round_over", round=state.round_no)
            return self._next_round(state)
        state.in_round[seat] = False
        if mode == "elimination":
            self._leave(state, [seat])
        if state.in_round.count(True) > 1:
            self._start_turn(state, self._next(state, seat), 1)
            return True
        if mode == "elimination":
            return self._game_over(state)
        return self._score_round(state)

    @staticmethod
    def _nobody_can_play(state: OnoState) -> bool:
        """Points game: every seat still in the round holds four ONO 99 (nobody can ever
        play a card again this round)."""
        return all(
            state.hands[s].count(ONO) == HAND_SIZE
            for s in range(state.players)
            if state.in_round[s]
        )

    def _round_stuck(self, state: OnoState) -> bool:
        """Points game, nobody can play: the last player to have played a card survives
        the round, everyone else in it is out of it; then the round is scored."""
        survivor = state.last_played
        out = [
            s for s in range(state.players)
            if state.in_round[s] and survivor is not None and s != survivor
        ]
        for s in out:
            state.in_round[s] = False
        state.event("stuck", survivor=survivor, out=out)
        return self._score_round(state)

    def _leave(self, state: OnoState, seats: list[int]) -> None:
        """``seats`` leave the game together (they share a placement)."""
        for seat in seats:
            state.left_at[seat] = state.exits
            state.event("out", seat=seat)
        state.exits += 1

    def _score_round(self, state: OnoState) -> bool:
        """Points game: everyone still in the game scores the round; False if it ends."""
        playing = [left is None for left in state.left_at]
        gained = [
            scoring.round_points(state.hands[s], state.in_round[s]) if playing[s] else 0
            for s in range(state.players)
        ]
        state.points = [p + g for p, g in zip(state.points, gained, strict=True)]
        state.event(
            "round_over",
            round=state.round_no,
            hands=[list(h) if playing[s] else None for s, h in enumerate(state.hands)],
            gained=gained,
            points=list(state.points),
        )
        target = state.options["target"]
        reached = [s for s in range(state.players) if playing[s] and state.points[s] >= target]
        if reached and state.options["points_end"] == "lowest":
            return self._game_over(state)
        if reached:
            self._leave(state, reached)
        return self._next_round(state)

    def _next_round(self, state: OnoState) -> bool:
        """Deal the next round to the seats still in the game; False if fewer than two are."""
        if state.left_at.count(None) < 2:
            return self._game_over(state)
        n = state.players
        state.dealer = next(
            s for s in ((state.dealer + k) % n for k in range(1, n + 1))
            if state.left_at[s] is None
        )
        state.round_no += 1
        deck = shuffled(FULL_DECK, state.seed, state.shuffles)
        state.shuffles += 1
        self._deal(state, deck)
        return True

    def _game_over(self, state: OnoState) -> bool:
        ranks = scoring.placements(state)
        state.event("game_over", winners=[s for s, r in enumerate(ranks) if r == 1], ranks=ranks)
        return False

    # -- observing ----------------------------------------------------------------------
    def _view(self, state: OnoState, seat: int | None) -> View:
        mode = state.options["scoring"]
        over = state.is_over
        v: View = {
            "phase": "over" if over else "play two" if state.owed == 2 else "play",
            "scores": scoring.scores(state),
            "ranks": scoring.placements(state),
            "scoring": mode,
            "target": state.options["target"] if mode == "points" else None,
            "options": dict(state.options),
            "round_no": state.round_no,
            "dealer": state.dealer,
            "total": state.total,
            "direction": state.direction,
            "must_play": 0 if over else state.owed,
            "eliminated": [not x for x in state.in_round],
            "out": [left is not None for left in state.left_at],
            "hand_counts": [len(h) for h in state.hands],
            "revealed": [
                None if state.in_round[s] or not h else sort_cards(h)
                for s, h in enumerate(state.hands)
            ],
            "draw_pile": len(state.draw),
            "discard_top": state.discard[-1] if state.discard else None,
            "discard_pile": len(state.discard),
            "discards": list(state.discard),
            "left_at": list(state.left_at),
            "ono_played": state.ono_played,
            "last_played": state.last_played,
            "tokens": list(state.tokens) if mode == "tokens" else None,
            "points": list(state.points) if mode == "points" else None,
        }
        if seat is not None:
            v["hand"] = sort_cards(state.hands[seat])
        return v

    def _decide(self, view: View, legal: list[str]) -> tuple[str, Why]:
        return decide(view, legal)

    def _card_name(self, code: str) -> str:
        return NAME[code]

    def _world(self, view: View, rng: random.Random) -> OnoState:
        return expert.world(view, rng)

    def _scores(self, state: OnoState) -> list[int]:
        return scoring.scores(state)

    def higher_scores_win(self, options: Mapping[str, Any]) -> bool:
        """False for points scoring (points are bad); elimination and tokens count up."""
        return bool(options.get("scoring", "elimination") != "points")

    def outcome(self, state: OnoState) -> Outcome:
        """Scores as in the views; ranks by placement (see ``scoring.placements``)."""
        return Outcome(tuple(scoring.scores(state)), tuple(scoring.placements(state)))


GAME = Ono99()
