"""The rules of two-player Spades: draft, Blind Nil exchange, bidding, play, scoring.

The rules and decisions are in the package docstring (the players' rules text). Engine
notes: the drafting player's top card is the view's ``drawn`` (None while Blind Nil may
still be declared); ``face_up_discards`` stays the record of the draft's face-up discards
even after an exchange takes some back into a hand; bids are numbers or ``"blind nil"``;
bags are settled 10 at a time (9 + 12 bags cost 200 and leave 1).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, ClassVar

from games import actions, cards
from games.base import Bot, Game, IllegalAction, Option, View, Why
from games.cards import HIGH_RANK, SUIT, SUIT_NAMES
from games.rng import rng_for, shuffled
from games.spades import expert
from games.spades.bots import decide, normal_bot
from games.spades.scoring import score_hand
from games.spades.state import BID, DRAFT, EXCHANGE, OVER, PLAY, SpadesState
from games.tricks import follow_options, trick_winner
from i18n import N_, Message, lazy_gettext

HAND_SIZE = 13
MAX_EXCHANGE = 3
TRUMP = "S"
ACTION_WORDS = "keep, discard, look, blindnil, exchange, bid, play"


def second(state: SpadesState) -> int:
    """The second player of the current hand (bids first and leads the first trick)."""
    return 1 - state.first_player


def drafter(state: SpadesState) -> int:
    """Whose draft turn it is: two cards go per turn, the first player first."""
    turn = (len(cards.STANDARD_DECK) - len(state.stock)) // 2
    return state.first_player if turn % 2 == 0 else second(state)


def sort_cards(codes: list[str]) -> list[str]:
    """Spades first, then hearts, diamonds, clubs; ace high."""
    return cards.sort_hand(codes, ace_high=True)


def playable(state: SpadesState, seat: int) -> list[str]:
    """Cards ``seat`` may play now: follow suit; no spade lead before spades are broken
    unless the hand holds only spades."""
    hand = state.hands[seat]
    if state.trick:
        return follow_options(hand, SUIT[state.trick[0][1]], SUIT.__getitem__)
    if state.spades_broken:
        return list(hand)
    return [c for c in hand if SUIT[c] != TRUMP] or list(hand)


class Spades(Game[SpadesState]):
    """Two-player Spades with a draft instead of a deal (RULES.md §2)."""

    name = "spades"
    title = N_("Spades (two players)")
    min_players = 2
    max_players = 2
    options: ClassVar[dict[str, Option]] = {
        "target": Option(500, N_("Points that end the game."), minimum=1, maximum=10_000),
        "blind_nil": Option(True, N_("Allow Blind (Double) Nil.")),
    }
    state_type = SpadesState
    bots: ClassVar[dict[str, Bot]] = {"normal": normal_bot, "expert": expert.expert_bot}
    card_verbs: ClassVar[tuple[str, ...]] = ("play", "exchange")

    # -- set-up -------------------------------------------------------------------------
    def _new(
        self, players: int, seed: int, options: dict[str, Any], deck: list[str] | None
    ) -> SpadesState:
        state = SpadesState(players=players, seed=seed, options=options)
        self._start_hand(state, deck)
        return state

    def _start_hand(self, state: SpadesState, deck: list[str] | None = None) -> None:
        """Shuffle (or take the stacked deck) and open the draft; the first player
        alternates, seat 0 in hand 1."""
        state.hand_no += 1
        state.first_player = (state.hand_no - 1) % 2
        state.stock = deck if deck is not None else shuffled(
            cards.STANDARD_DECK, state.seed, state.shuffles
        )
        state.shuffles += 1
        state.phase = DRAFT
        state.hands = [[], []]
        state.discards = []
        state.face_up = []
        state.may_blind = [bool(state.options["blind_nil"])] * 2
        state.blind = [False, False]
        state.exchanged = [None, None]
        state.bids = [None, None]
        state.tricks = [0, 0]
        state.trick = []
        state.last_trick = None
        state.spades_broken = False
        state.played = []
        state.to_act = (state.first_player,)
        state.begin("hand_start", hand_no=state.hand_no, first_player=state.first_player)

    # -- parsing ------------------------------------------------------------------------
    def _parse_action(self, text: str) -> str:
        verb, words = actions.split(text)
        if verb in ("keep", "discard", "look", "blindnil"):
            return actions.no_args(verb, words)
        if verb == "blind" and [w.lower() for w in words] == ["nil"]:
            return "blindnil"
        if verb == "exchange":
            chosen = actions.take_cards(words, cards.parse_code)
            if len(chosen) > MAX_EXCHANGE:
                raise IllegalAction(lazy_gettext("You may exchange at most three cards."))
            if len(set(chosen)) != len(chosen):
                raise IllegalAction(lazy_gettext("Name each card to exchange only once."))
            return " ".join(["exchange", *sort_cards(chosen)])
        if verb == "bid":
            if len(words) != 1:
                raise IllegalAction(lazy_gettext(
                    "Say how many tricks you will take, e.g. 'bid 4' (0 is Nil)."
                ))
            n = 0 if words[0].lower() == "nil" else actions.number(
                words[0], N_("A bid must be a number, not {word!r}.")
            )
            if not 0 <= n <= HAND_SIZE:
                raise IllegalAction(lazy_gettext("A bid is 0 (Nil) to 13 tricks, not {n}.", n=n))
            return f"bid {n}"
        if verb == "play":
            return "play " + actions.one_card("play", words, cards.parse_code)
        raise IllegalAction(lazy_gettext(
            "Unknown action {verb!r}; actions are: {actions}.", verb=verb, actions=ACTION_WORDS
        ))

    # -- legality -----------------------------------------------------------------------
    def _legal(self, state: SpadesState, seat: int) -> list[str]:
        if state.phase == DRAFT:
            if state.may_blind[seat]:
                return ["look", "keep", "discard", "blindnil"]
            return ["keep", "discard"]
        if state.phase == EXCHANGE:
            hand = sort_cards(state.hands[seat])
            return [
                " ".join(["exchange", *combo])
                for k in range(MAX_EXCHANGE + 1)
                for combo in combinations(hand, k)
            ]
        if state.phase == BID:
            return [f"bid {n}" for n in range(HAND_SIZE + 1)]
        return ["play " + c for c in sort_cards(playable(state, seat))]

    def apply(self, state: SpadesState, seat: int, action: str) -> SpadesState:
        """As ``Game.apply``, with a reason when a seat repeats a bid or acts too late."""
        verb = action.split()[:1] if isinstance(action, str) else []
        if (
            verb
            and verb[0].lower() == "bid"
            and not state.is_over
            and isinstance(seat, int)
            and 0 <= seat < state.players
            and seat not in state.to_act
        ):
            raise IllegalAction(self._bid_refusal(state, seat))
        return super().apply(state, seat, action)

    def _bid_refusal(self, state: SpadesState, seat: int) -> Message:
        if state.blind[seat]:
            return lazy_gettext("You declared Blind Nil: your bid is fixed.")
        if state.phase in (DRAFT, EXCHANGE):
            return lazy_gettext("Bidding starts after the draft.")
        if state.phase == PLAY:
            return lazy_gettext("Bidding is closed: the hand is being played.")
        bid = state.bids[seat]
        if bid is not None:
            return lazy_gettext("You already bid {bid}; a bid cannot be changed.", bid=bid)
        return lazy_gettext("It is not your turn to bid: the second player bids first.")

    # -- moves --------------------------------------------------------------------------
    def _apply(self, state: SpadesState, seat: int, action: str) -> None:
        verb, _, rest = action.partition(" ")
        if verb in ("look", "blindnil", "keep", "discard"):
            self._draft(state, seat, verb)
        elif verb == "exchange":
            self._exchange(state, seat, rest.split())
        elif verb == "bid":
            self._bid(state, seat, int(rest))
        else:
            self._play(state, seat, rest)

    def _draft(self, state: SpadesState, seat: int, verb: str) -> None:
        if state.phase != DRAFT:
            raise IllegalAction(lazy_gettext(
                "The draft is over; {state}",
                state=self._phase_hint(state),
            ))
        if verb == "look":
            if not state.may_blind[seat]:
                raise IllegalAction(lazy_gettext(
                    "You already see the top card: keep it or discard it."
                ))
            state.may_blind[seat] = False
            return
        if verb == "blindnil":
            if not state.options["blind_nil"]:
                raise IllegalAction(lazy_gettext("Blind Nil is not played at this table."))
            if not state.may_blind[seat]:
                raise IllegalAction(
                    lazy_gettext("Too late: Blind Nil is declared before you take your first card.")
                )
            state.may_blind[seat] = False
            state.blind[seat] = True
            state.bids[seat] = 0
            state.event("blind_nil", seat=seat)
            return
        state.may_blind[seat] = False
        top, nxt = state.stock[0], state.stock[1]
        del state.stock[:2]
        state.hands[seat].append(top if verb == "keep" else nxt)
        if verb == "keep":
            state.discards.append(nxt)
            state.event("keep", seat=seat)
        else:
            state.discards.append(top)
            state.face_up.append(top)
            state.event("discard", seat=seat, card=top)
        if state.stock:
            state.to_act = (drafter(state),)
        else:
            self._after_draft(state)

    def _after_draft(self, state: SpadesState) -> None:
        """Blind Nil exchanges (second player first), else straight to bidding."""
        for s in (second(state), state.first_player):
            if state.blind[s] and state.exchanged[s] is None:
                state.phase = EXCHANGE
                state.to_act = (s,)
                return
        self._next_bidder(state)

    def _exchange(self, state: SpadesState, seat: int, chosen: list[str]) -> None:
        if state.phase != EXCHANGE:
            raise IllegalAction(lazy_gettext(
                "Exchanges are only for Blind Nil, after the draft; {state}",
                state=self._phase_hint(state),
            ))
        hand = state.hands[seat]
        for c in chosen:
            if c not in hand:
                raise IllegalAction(lazy_gettext("You do not hold {card}.", card=c))
        rng = rng_for(state.seed, state.shuffles)
        state.shuffles += 1
        drawn = rng.sample(state.discards, len(chosen))
        for c in drawn:
            state.discards.remove(c)
        for c in chosen:
            hand.remove(c)
        hand.extend(drawn)
        state.discards.extend(chosen)
        state.exchanged[seat] = len(chosen)
        state.event("exchange", seat=seat, count=len(chosen))
        self._after_draft(state)

    def _next_bidder(self, state: SpadesState) -> None:
        """The next seat to bid (second player first; Blind Nil bids are fixed), or play."""
        for s in (second(state), state.first_player):
            if state.bids[s] is None:
                state.phase = BID
                state.to_act = (s,)
                return
        state.phase = PLAY
        state.to_act = (second(state),)

    def _bid(self, state: SpadesState, seat: int, n: int) -> None:
        if state.phase != BID:
            raise IllegalAction(self._bid_refusal(state, seat))
        state.bids[seat] = n
        state.event("bid", seat=seat, bid=n)
        self._next_bidder(state)

    def _play(self, state: SpadesState, seat: int, card: str) -> None:
        if state.phase != PLAY:
            raise IllegalAction(lazy_gettext(
                "Cards are played after the bidding; {state}",
                state=self._phase_hint(state),
            ))
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(lazy_gettext("You do not hold {card}.", card=card))
        if card not in playable(state, seat):
            if state.trick:
                led = SUIT[state.trick[0][1]]
                raise IllegalAction(
                    lazy_gettext("You must follow {suit}.", suit=Message(SUIT_NAMES[led]))
                )
            raise IllegalAction(lazy_gettext("Spades are not broken yet: lead another suit."))
        if SUIT[card] == TRUMP and not state.spades_broken and (
            state.trick or all(SUIT[c] == TRUMP for c in hand)
        ):
            state.spades_broken = True
            state.event("spades_broken", seat=seat)
        hand.remove(card)
        state.trick.append([seat, card])
        state.played.append(card)
        state.event("play", seat=seat, card=card)
        if len(state.trick) < state.players:
            state.to_act = (1 - seat,)
            return
        winner = trick_winner(state.trick, SUIT.__getitem__, HIGH_RANK.__getitem__, TRUMP)
        state.tricks[winner] += 1
        state.last_trick = {"plays": state.trick, "winner": winner}
        state.event("trick", seat=winner, plays=[list(p) for p in state.trick])
        state.trick = []
        if state.hands[winner]:
            state.to_act = (winner,)
        else:
            self._score(state)

    def _score(self, state: SpadesState) -> None:
        lines = []
        for s in range(state.players):
            bid = state.bids[s]
            assert bid is not None
            line = score_hand(bid, state.blind[s], state.tricks[s], state.bags[s])
            state.scores[s] += line["points"]
            state.bags[s] = line["bags_total"]
            lines.append({"seat": s, **line, "score": state.scores[s]})
        state.last_hand = lines
        state.event("hand_scored", hand_no=state.hand_no, lines=lines)
        top = max(state.scores)
        if top >= state.options["target"] and state.scores.count(top) == 1:
            state.winner = state.scores.index(top)
            state.phase = OVER
            state.to_act = ()
            state.event("game_over", seat=state.winner, scores=list(state.scores))
        else:
            self._start_hand(state)

    def _phase_hint(self, state: SpadesState) -> Message:
        return {
            DRAFT: lazy_gettext("the draft is on: keep or discard."),
            EXCHANGE: lazy_gettext("Blind Nil players are exchanging cards."),
            BID: lazy_gettext("it is time to bid."),
            PLAY: lazy_gettext("play a card."),
        }[state.phase]

    # -- observing ----------------------------------------------------------------------
    def _view(self, state: SpadesState, seat: int | None) -> View:
        bids: list[int | str | None] = [
            "blind nil" if state.blind[s] else state.bids[s] for s in range(state.players)
        ]
        last = state.last_trick
        v: View = {
            "hand_no": state.hand_no,
            "phase": state.phase,
            "target": state.options["target"],
            "first_player": state.first_player,
            "scores": list(state.scores),
            "bags": list(state.bags),
            "bids": bids,
            "tricks": list(state.tricks),
            "trick": [list(p) for p in state.trick],
            "last_trick": last and {"plays": [list(p) for p in last["plays"]],
                                    "winner": last["winner"]},
            "spades_broken": state.spades_broken,
            "face_up_discards": list(state.face_up),
            "played": list(state.played),
            "stock": len(state.stock),
            "discards": len(state.discards),
            "hand_counts": [len(h) for h in state.hands],
            "exchanged": list(state.exchanged),
            "last_hand": state.last_hand and [dict(line) for line in state.last_hand],
            "winner": state.winner,
        }
        if seat is not None:
            v["hand"] = sort_cards(state.hands[seat])
            sees_top = (
                state.phase == DRAFT and state.to_act == (seat,) and not state.may_blind[seat]
            )
            v["drawn"] = state.stock[0] if sees_top else None
        return v

    def _decide(self, view: View, legal: list[str]) -> tuple[str, Why]:
        return decide(view, legal)

    def _world(self, view: View, rng: random.Random) -> SpadesState:
        return expert.world(view, rng)

    def _scores(self, state: SpadesState) -> list[int]:
        return list(state.scores)
