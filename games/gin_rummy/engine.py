"""Gin Rummy rules: dealing, the first-turn offer, drawing, discarding, knocking, the wall.

The rules and decisions are in the package docstring (the players' rules text). Once the
game is over ``outcome().scores`` are the final totals (bonuses included) and the
``game_over`` event's ``winner`` is the seat ranked first by them (None on a tie), while
``reached`` names who reached the target and took the game bonus.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games import actions, melds
from games.base import LEVEL_NOTES, Bot, Game, IllegalAction, Option, View, Why, win_rates
from games.cards import INDEX, STANDARD_DECK, deal, pretty
from games.gin_rummy import expert, scoring
from games.gin_rummy.bots import decide, normal_bot
from games.gin_rummy.state import DISCARD, DRAW, OFFER, OVER, GinState
from games.rng import shuffled
from i18n import N_, lazy_gettext

HAND_SIZE = 10
#: A discard that leaves this many stock cards (with no knock) ends the hand in a draw.
WALL = 2
#: A discard that ends the tenth turn in a row begun by taking the discard pile's top card
#: (no stock draw in between, the first-turn upcard included) ends the hand like the wall:
#: a draw, nobody scores. Without it two players could pass one card back and forth for
#: ever (RULES.md: no game may loop); players who mean to play on draw from the stock.
TAKE_LIMIT = 10
#: The discard and knock actions by card bit position (``melds.CODES``).
_DISCARD = tuple(f"discard {c}" for c in melds.CODES)
_KNOCK = tuple(f"knock {c}" for c in melds.CODES)
#: Every canonical action: each parses to itself, so ``_parse_action`` returns it at once.
_CANONICAL = frozenset({"take", "draw", "pass", "biggin", *_DISCARD, *_KNOCK})


class GinRummy(Game[GinState]):
    """Two-player Gin Rummy (RULES.md §1)."""

    name = "gin_rummy"
    title = N_("Gin Rummy")
    min_players = 2
    max_players = 2
    state_type = GinState
    options: ClassVar[dict[str, Option]] = {
        "target": Option(100, N_("Points that end the game"), minimum=10, maximum=1000),
    }
    bots: ClassVar[dict[str, Bot]] = {"normal": normal_bot, "expert": expert.expert_bot}
    level_notes: ClassVar[dict[str, str]] = {
        **LEVEL_NOTES,
        "expert": N_(
            "weighs every draw, discard and knock with an evaluation learned from thousands"
            " of hands played out, and plays the normal player's move unless the evaluation"
            " values another clearly higher (it always goes gin when it can); it won {expert}"
            " per cent of games to 100 against the normal player."
        ),
    }
    level_numbers: ClassVar[dict[str, int]] = win_rates(expert.MEASURED)
    card_verbs: ClassVar[tuple[str, ...]] = ("discard", "knock")

    def example_action(self) -> str:
        return "discard QH"

    # -- setting up ---------------------------------------------------------------------
    def _new(
        self, players: int, seed: int, options: dict[str, Any], deck: list[str] | None
    ) -> GinState:
        state = GinState(players=players, seed=seed, options=options)
        self._deal(state, deck)
        return state

    def _deal(self, state: GinState, deck: list[str] | None = None) -> None:
        order = deck if deck is not None else shuffled(STANDARD_DECK, state.seed, state.shuffles)
        state.shuffles += 1
        state.hands, rest = deal(order, 2, HAND_SIZE, state.dealer)
        state.discards = [rest[0]]
        state.stock = rest[1:]
        state.phase = OFFER
        state.stock_only = False
        state.taken = None
        state.face_down = None
        state.known = [[], []]
        state.takes = 0
        state.to_act = (1 - state.dealer,)
        state.begin("new_hand", hand_no=state.hand_no, dealer=state.dealer, upcard=rest[0])

    # -- parsing ------------------------------------------------------------------------
    def _parse_action(self, text: str) -> str:
        if text in _CANONICAL:
            return text
        verb, words = actions.split(text)
        if verb in ("take", "draw", "pass", "biggin"):
            return actions.no_args(verb, words)
        if verb == "big" and [w.lower() for w in words] == ["gin"]:
            return "biggin"
        if verb in ("discard", "knock"):
            return f"{verb} {actions.one_card(verb, words, self.parse_card)}"
        raise IllegalAction(
            lazy_gettext(
                "Unknown move {verb!r}: say draw, take, pass, discard <card>, knock <card> or "
                "biggin.",
                verb=verb,
            )
        )

    # -- legal moves --------------------------------------------------------------------
    def _legal(self, state: GinState, seat: int) -> list[str]:
        if state.phase == OFFER:
            return ["take", "pass"]
        if state.phase == DRAW:
            return ["draw"] if state.stock_only else ["draw", "take"]
        mask = melds.to_mask(state.hands[seat])
        taken = -1 if state.taken is None else INDEX[state.taken]
        out = [_DISCARD[i] for i in melds.bits(mask) if i != taken]
        low = melds.discards_leaving(mask, scoring.KNOCK_LIMIT)
        if low:
            out += [_KNOCK[i] for i, _ in low if i != taken]
            # 11 melded cards hold a meld of 4+, so some discard would leave 0 deadwood.
            if any(dw == 0 for _, dw in low) and melds.min_deadwood_mask(mask) == 0:
                out.append("biggin")
        return out

    # -- applying -----------------------------------------------------------------------
    def _apply(self, state: GinState, seat: int, action: str) -> None:
        verb, _, arg = action.partition(" ")
        if state.phase == OFFER:
            if verb == "take":
                self._take(state, seat)
            elif verb == "pass":
                self._pass(state, seat)
            else:
                raise IllegalAction(
                    lazy_gettext(
                        "First decide on the upcard {card}: take or pass.",
                        card=pretty(state.discards[-1]),
                    )
                )
        elif state.phase == DRAW:
            if verb == "draw":
                self._draw(state, seat)
            elif verb == "take":
                if state.stock_only:
                    raise IllegalAction(
                        lazy_gettext("Both players passed the upcard: draw from the stock instead.")
                    )
                self._take(state, seat)
            elif verb == "pass":
                raise IllegalAction(
                    lazy_gettext(
                        "Passing is only for the first upcard: draw from the stock or take the "
                        "discard."
                    )
                )
            else:
                raise IllegalAction(lazy_gettext(
                    "Draw first: 'draw' from the stock or 'take' the discard."
                ))
        elif verb in ("discard", "knock"):
            self._check_discard(state, seat, arg)
            if verb == "discard":
                self._discard(state, seat, arg)
            else:
                self._knock(state, seat, arg)
        elif verb == "biggin":
            dw = melds.min_deadwood(state.hands[seat])
            if dw:
                raise IllegalAction(
                    lazy_gettext(
                        "Big gin needs all 11 cards in melds; your deadwood is {deadwood}."
                        " Discard or knock instead.",
                        deadwood=dw,
                    )
                )
            self._end_hand(state, scoring.lay_down(state.hand_no, seat, "big_gin", state.hands))
        else:
            raise IllegalAction(lazy_gettext("You have drawn already: discard a card or knock."))

    def _take(self, state: GinState, seat: int) -> None:
        card = state.discards.pop()
        state.hands[seat].append(card)
        state.known[seat].append(card)
        state.taken = card
        state.takes += 1
        state.stock_only = False
        state.phase = DISCARD
        state.event("draw", seat=seat, source="discard", card=card)

    def _pass(self, state: GinState, seat: int) -> None:
        state.event("pass", seat=seat)
        if seat != state.dealer:
            state.to_act = (state.dealer,)
        else:
            state.to_act = (1 - seat,)
            state.phase = DRAW
            state.stock_only = True

    def _draw(self, state: GinState, seat: int) -> None:
        state.hands[seat].append(state.stock.pop(0))
        state.takes = 0
        state.stock_only = False
        state.phase = DISCARD
        state.event("draw", seat=seat, source="stock")

    def _check_discard(self, state: GinState, seat: int, card: str) -> None:
        if card not in state.hands[seat]:
            raise IllegalAction(lazy_gettext("You don't hold {card}.", card=pretty(card)))
        if card == state.taken:
            raise IllegalAction(
                lazy_gettext(
                    "You just took {card} from the discard pile: discard another card.",
                    card=pretty(card),
                )
            )

    def _discard(self, state: GinState, seat: int, card: str) -> None:
        state.hands[seat].remove(card)
        if card in state.known[seat]:
            state.known[seat].remove(card)
        state.discards.append(card)
        state.taken = None
        state.event("discard", seat=seat, card=card)
        if len(state.stock) <= WALL or state.takes >= TAKE_LIMIT:
            self._end_hand(state, scoring.wall(state.hand_no))
        else:
            state.phase = DRAW
            state.to_act = (1 - seat,)

    def _knock(self, state: GinState, seat: int, card: str) -> None:
        rest = [c for c in state.hands[seat] if c != card]
        dw = melds.min_deadwood(rest)
        if dw > scoring.KNOCK_LIMIT:
            raise IllegalAction(
                lazy_gettext(
                    "You can't knock with {card}: your deadwood would be {deadwood} (at most "
                    "{limit}). Discard instead.",
                    card=pretty(card), deadwood=dw, limit=scoring.KNOCK_LIMIT,
                )
            )
        state.hands[seat] = rest
        state.face_down = card
        if card in state.known[seat]:
            state.known[seat].remove(card)
        hands = [list(h) for h in state.hands]
        kind = "gin" if dw == 0 else "knock"
        if dw:
            state.knocks[seat].append([dw, len(state.stock), len(state.known[1 - seat])])
        self._end_hand(state, scoring.lay_down(state.hand_no, seat, kind, hands))

    def _end_hand(self, state: GinState, result: dict[str, Any]) -> None:
        knocker = result["knocker"]
        if knocker is not None:
            defender = 1 - knocker
            state.event(
                result["kind"], seat=knocker, melds=result["melds"][knocker],
                deadwood=result["deadwood"][knocker],
                points=result["deadwood_points"][knocker],
            )
            state.event(
                "lay_down", seat=defender, melds=result["melds"][defender],
                lay_offs=result["lay_offs"], deadwood=result["deadwood"][defender],
                points=result["deadwood_points"][defender],
            )
        else:
            state.walls += 1
        for s in (0, 1):
            state.scores[s] += result["points"][s]
        if result["winner"] is not None:
            state.hands_won[result["winner"]] += 1
        state.last_hand = result
        state.event(
            "hand_result", hand_no=state.hand_no, result=result["result"],
            knocker=result["knocker"], winner=result["winner"], points=result["points"],
            scores=list(state.scores),
        )
        if max(state.scores) >= state.options["target"]:
            state.final = scoring.final_totals(state.scores, state.hands_won, state.hand_no)
            state.phase = OVER
            state.to_act = ()
            state.taken = None
            state.event("game_over", **state.final)
            return
        state.hand_no += 1
        state.dealer = 1 - state.dealer
        self._deal(state)

    def _world(self, view: View, rng: random.Random) -> GinState:
        return expert.world(view, rng)

    def _decide(self, view: View, legal: list[str]) -> tuple[str, Why]:
        return decide(view, legal)

    # -- observing ----------------------------------------------------------------------
    def _view(self, state: GinState, seat: int | None) -> View:
        v: View = {
            "hand_no": state.hand_no,
            "dealer": state.dealer,
            "phase": state.phase,
            "stock": len(state.stock),
            "discard_top": state.discards[-1] if state.discards else None,
            "discards": list(state.discards),
            "stock_only": state.stock_only,
            "taken": state.taken,
            "known": [melds.sorted_cards(k) for k in state.known],
            "hand_counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "hands_won": list(state.hands_won),
            "walls": state.walls,
            "knocks": [[list(k) for k in ks] for ks in state.knocks],
            "takes": state.takes,
            "target": state.options["target"],
            "last_hand": state.last_hand,
            "final": state.final,
        }
        if seat is not None:
            hand = state.hands[seat]
            best = melds.best_arrangement(hand)
            v["hand"] = melds.sorted_cards(hand)
            v["melds"] = [list(m) for m in best.melds]
            v["deadwood"] = best.value
        return v

    def _scores(self, state: GinState) -> list[int]:
        return list(state.final["final"]) if state.final else list(state.scores)
