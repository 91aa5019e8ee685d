"""The Back Alley engine: dealing, bidding, trick play and scoring (RULES.md §3).

The rules and decisions are in the package docstring (the players' rules text). Engine
notes: ``bid 0`` is read as ``pass``, a bare number is a bid and a bare card a play; a
joker discarded because a joker was turned up is a public event, the card taken for it is
not named; an all-pass redeal keeps the deal number.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games import actions
from games.back_alley import bots, expert, rules
from games.back_alley.rules import PATTERN, PLAYERS, STRENGTH, SUIT_OF, is_trump
from games.back_alley.state import BackAlleyState
from games.base import Bot, Game, IllegalAction, Option, View, Why, read_number
from games.cards import (
    BIG_JOKER,
    DECK_WITH_JOKERS,
    JOKERS,
    LITTLE_JOKER,
    SUIT_NAMES,
    deal,
    shown,
    sort_hand,
)
from games.rng import shuffled
from games.tricks import follow_options, trick_winner
from i18n import N_, Message, lazy_gettext

_BIDDING, _PLAYING, _OVER = "bidding", "playing", "over"


class BackAlley(Game[BackAlleyState]):
    """Back Alley for four players in two partnerships (seats 0 & 2 against 1 & 3)."""

    name: ClassVar[str] = "back_alley"
    title: ClassVar[str] = N_("Back Alley")
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    options: ClassVar[dict[str, Option]] = {
        "deals": Option(25, N_("Deals to play: the first N of 13, 12, …, 1, …, 13 cards."), 1, 25),
    }
    state_type: ClassVar[type[BackAlleyState]] = BackAlleyState
    full_deck: ClassVar[tuple[str, ...]] = DECK_WITH_JOKERS
    bots: ClassVar[dict[str, Bot]] = {"normal": bots.normal_bot, "expert": expert.expert_bot}

    def teams(self, players: int) -> list[int]:
        """Partners sit opposite: team 0 is seats 0 and 2, team 1 is seats 1 and 3."""
        return [s % 2 for s in range(players)]

    def example_action(self) -> str:
        return "bid 3"

    # -- setting up ---------------------------------------------------------------------
    def _new(
        self, players: int, seed: int, options: dict[str, Any], deck: list[str] | None
    ) -> BackAlleyState:
        state = BackAlleyState(
            players=players, seed=seed, options=options,
            deal_no=1, dealer=0, hand_size=PATTERN[0], shuffles=0, phase=_BIDDING,
            hands=[], stock=[], turned="", discarded=None, trump=None,
            bids=[], boards=[], leader=None, trick=[], last_trick=[], tricks=[], played=[],
            trump_played=False, team_scores=[0, 0],
        )
        self._deal(state, deck)
        return state

    def _deal(self, s: BackAlleyState, deck: list[str] | None = None) -> None:
        """Shuffle (unless stacked), deal, turn the trump card and open the bidding."""
        if deck is None:
            deck = shuffled(DECK_WITH_JOKERS, s.seed, "deal", s.shuffles)
        s.shuffles += 1
        s.hand_size = PATTERN[s.deal_no - 1]
        hands, rest = deal(deck, PLAYERS, s.hand_size, s.dealer)
        s.turned, s.stock = rest[0], rest[1:]
        s.trump = None if s.turned in JOKERS else s.turned[1]
        s.discarded = None
        s.begin("deal", deal_no=s.deal_no, dealer=s.dealer, hand_size=s.hand_size,
                turned=s.turned, trump=s.trump)
        if s.turned in JOKERS:
            other = LITTLE_JOKER if s.turned == BIG_JOKER else BIG_JOKER
            for seat, hand in enumerate(hands):
                if other in hand:
                    hand.remove(other)
                    hand.append(s.stock.pop(0))
                    s.discarded = other
                    s.event("joker_swap", seat=seat, card=other)
        # Trumps first (jokers leading), then the other suits; high to low in each suit.
        s.hands = [sort_hand(h, ace_high=True, first=s.trump, descending=True) for h in hands]
        s.bids = [None] * PLAYERS
        s.boards = [0] * PLAYERS
        s.leader = None
        s.trick, s.last_trick, s.played = [], [], []
        s.tricks = [0] * PLAYERS
        s.trump_played = False
        s.phase = _BIDDING
        s.to_act = ((s.dealer + 1) % PLAYERS,)

    # -- parsing ------------------------------------------------------------------------
    def _parse_action(self, text: str) -> str:
        verb, words = actions.split(text)
        if verb in ("pass", "board"):
            return actions.no_args(verb, words)
        if verb == "bid":
            if len(words) == 1 and words[0].lower() in ("pass", "board"):
                return words[0].lower()
            if len(words) != 1:
                raise IllegalAction(lazy_gettext("Say 'bid <number>', 'pass' or 'board'."))
            n = actions.number(words[0], N_("A bid must be a number, not {word!r}."))
            return "pass" if n == 0 else f"bid {n}"
        if verb == "play":
            return "play " + actions.one_card("play", words, self.parse_card)
        if read_number(verb) is not None and not words:
            return self._parse_action("bid " + verb)
        try:
            return "play " + actions.one_card("play", [verb, *words], self.parse_card)
        except ValueError:
            raise IllegalAction(
                lazy_gettext(
                    "Unknown move {move!r}: say 'bid <n>', 'pass', 'board' or 'play <card>'.",
                    move=text.strip(),
                )
            ) from None

    # -- legal moves --------------------------------------------------------------------
    def _legal(self, state: BackAlleyState, seat: int) -> list[str]:
        if state.phase == _BIDDING:
            numbers = [f"bid {n}" for n in range(1, state.hand_size)]
            return ["pass", *numbers, "board"]
        return ["play " + c for c in self.playable(state, seat)]

    def playable(self, s: BackAlleyState, seat: int) -> list[str]:
        """The cards ``seat`` may play now, in hand order."""
        hand, trump = s.hands[seat], s.trump
        if not s.trick:
            if trump is None or s.trump_played or s.boards[seat]:
                return list(hand)
            side = [c for c in hand if not is_trump(c, trump)]
            return side or list(hand)
        led = str(s.trick[0][1])
        if led in JOKERS:
            trumps = [c for c in hand if is_trump(c, trump)]
            if not trumps:
                return list(hand)
            pick = max if led == BIG_JOKER else min
            return [pick(trumps, key=STRENGTH.__getitem__)]
        table = SUIT_OF[trump]
        return follow_options(hand, table[led], table.__getitem__)

    def _why_not(self, s: BackAlleyState, seat: int, card: str) -> Message:
        """Why ``card`` may not be played now (it is in the hand but not playable)."""
        if not s.trick:
            return lazy_gettext(
                "Trumps cannot be led yet: no trump has been played this deal (lead another "
                "suit)."
            )
        led = str(s.trick[0][1])
        must = self.playable(s, seat)
        if led == BIG_JOKER:
            return lazy_gettext(
                "Big Blooper was led: you must play your highest trump, the {card}.",
                card=shown(must[0]),
            )
        if led == LITTLE_JOKER:
            return lazy_gettext(
                "Little Blooper was led: you must play your lowest trump, the {card}.",
                card=shown(must[0]),
            )
        suit = SUIT_OF[s.trump][led]
        if suit == s.trump:
            return lazy_gettext("You must follow trumps ({suit}).", suit=Message(SUIT_NAMES[suit]))
        return lazy_gettext("You must follow {suit}.", suit=Message(SUIT_NAMES[suit]))

    # -- applying -----------------------------------------------------------------------
    def _apply(self, s: BackAlleyState, seat: int, action: str) -> None:
        verb, _, arg = action.partition(" ")
        if s.phase == _BIDDING:
            if verb == "play":
                raise IllegalAction(lazy_gettext(
                    "It is time to bid: say 'bid <n>', 'pass' or 'board'."
                ))
            self._bid(s, seat, verb, arg)
        else:
            if verb != "play":
                raise IllegalAction(
                    lazy_gettext(
                        "Bidding is over: play a card, e.g. 'play {card}'.",
                        card=self.playable(s, seat)[0],
                    )
                )
            self._play(s, seat, arg)

    def _bid(self, s: BackAlleyState, seat: int, verb: str, arg: str) -> None:
        if verb == "board":
            mult = max(s.boards) + 1
            s.boards[seat] = mult
            s.bids[seat] = 0
            s.event("bid", seat=seat, bid="board", multiplier=mult)
        elif verb == "pass":
            s.bids[seat] = 0
            s.event("bid", seat=seat, bid="pass")
        else:
            n = int(arg)
            if not 1 <= n < s.hand_size:
                if s.hand_size == 1:
                    raise IllegalAction(lazy_gettext(
                        "With one card you can only pass or claim board."
                    ))
                raise IllegalAction(
                    lazy_gettext(
                        "With {size} cards a bid is 1 to {most}; or pass, or claim board.",
                        size=s.hand_size, most=s.hand_size - 1,
                    )
                )
            s.bids[seat] = n
            s.event("bid", seat=seat, bid=n)
        if any(b is None for b in s.bids):
            s.to_act = ((seat + 1) % PLAYERS,)
            return
        if not any(s.bids) and not any(s.boards):
            s.dealer = (s.dealer + 1) % PLAYERS
            s.event("redeal", dealer=s.dealer, hand_size=s.hand_size)
            self._deal(s)
            return
        s.leader = rules.leader_of(s.bids, s.boards, s.dealer)
        s.phase = _PLAYING
        s.to_act = (s.leader,)
        s.event("contracts", leader=s.leader, contracts=self._contracts(s))

    def _play(self, s: BackAlleyState, seat: int, card: str) -> None:
        hand = s.hands[seat]
        if card not in hand:
            raise IllegalAction(lazy_gettext("You don't hold the {card}.", card=card))
        if card not in self.playable(s, seat):
            raise IllegalAction(self._why_not(s, seat, card))
        hand.remove(card)
        s.trick.append([seat, card])
        s.played.append(card)
        if is_trump(card, s.trump):
            s.trump_played = True
        s.event("play", seat=seat, card=card)
        if len(s.trick) < PLAYERS:
            s.to_act = ((seat + 1) % PLAYERS,)
            return
        table = SUIT_OF[s.trump]
        winner = trick_winner(s.trick, table.__getitem__, STRENGTH.__getitem__, s.trump)
        s.tricks[winner] += 1
        s.event("trick", seat=winner, cards=[str(p[1]) for p in s.trick])
        s.last_trick, s.trick = s.trick, []
        s.leader = winner
        if hand:
            s.to_act = (winner,)
        else:
            self._score_deal(s)

    def _score_deal(self, s: BackAlleyState) -> None:
        teams = []
        for team, (contract, board) in enumerate(self._contracts_raw(s)):
            taken = s.tricks[team] + s.tricks[team + 2]
            points = rules.deal_points(contract, board, taken, s.hand_size)
            s.team_scores[team] += points
            teams.append({"contract": contract, "board": board, "tricks": taken,
                          "points": points})
        s.event("deal_scored", deal_no=s.deal_no, teams=teams, scores=list(s.team_scores))
        if s.deal_no >= s.options["deals"]:
            s.phase = _OVER
            s.to_act = ()
            a, b = s.team_scores
            s.event("game_over", scores=self._scores(s),
                    winner=None if a == b else (0 if a > b else 1))
            return
        s.deal_no += 1
        s.dealer = (s.dealer + 1) % PLAYERS
        self._deal(s)

    # -- observing ----------------------------------------------------------------------
    def _contracts_raw(self, s: BackAlleyState) -> list[tuple[int, int]]:
        return [rules.team_contract(s.bids, s.boards, t) for t in (0, 1)]

    def _contracts(self, s: BackAlleyState) -> list[dict[str, int]]:
        """Per team: tricks needed (the hand size for board) and the board multiplier."""
        return [{"tricks": s.hand_size if board else c, "board": board}
                for c, board in self._contracts_raw(s)]

    def _view(self, state: BackAlleyState, seat: int | None) -> View:
        """Public facts plus the seat's hand. ``bids`` per seat: ``None`` until bid, then
        ``"pass"``, the number, or ``"board xL"`` (L = the claim's multiplier)."""
        s = state
        bids: list[int | str | None] = [
            f"board x{s.boards[i]}" if s.boards[i] else ("pass" if b == 0 else b)
            for i, b in enumerate(s.bids)
        ]
        v: View = {
            "phase": s.phase,
            "deal_no": s.deal_no,
            "deals": s.options["deals"],
            "hand_size": s.hand_size,
            "dealer": s.dealer,
            "turned": s.turned,
            "trump": s.trump,
            "discarded": s.discarded,
            "bids": bids,
            "boards": list(s.boards),
            "contracts": self._contracts(s),
            "leader": s.leader,
            "trick": [list(p) for p in s.trick],
            "last_trick": [list(p) for p in s.last_trick],
            "tricks": list(s.tricks),
            "team_tricks": [s.tricks[0] + s.tricks[2], s.tricks[1] + s.tricks[3]],
            "played": list(s.played),
            "trump_played": s.trump_played,
            "hand_counts": [len(h) for h in s.hands],
            "scores": self._scores(s),
            "team_scores": list(s.team_scores),
        }
        if seat is not None:
            v["hand"] = list(s.hands[seat])
        return v

    def _decide(self, view: View, legal: list[str]) -> tuple[str, Why]:
        return bots.decide(view, legal)

    def _world(self, view: View, rng: random.Random) -> BackAlleyState:
        return expert.world(view, rng)

    def _scores(self, state: BackAlleyState) -> list[int]:
        return [state.team_scores[s % 2] for s in range(state.players)]
