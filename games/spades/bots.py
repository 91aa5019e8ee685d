"""Computer players for two-player Spades. They see only their own seat's view.

``normal``:
* Draft: keeps spades, aces and kings, queens and cards of long suits; lets go of low
  cards in short suits (voids ruff). Declares Blind Nil only when far behind; a Blind
  Nil player keeps low cards and exchanges its three most dangerous ones.
* Bid: expected tricks from honours (discounted by the unseen higher cards the opponent
  may hold), spade length and short suits to ruff; Nil with a very weak hand.
* Play (it is always me against them, and the second card of a trick is the last): while
  it still needs tricks, or can still set the opponent's bid, it wins as cheaply as
  possible and leads winners — top spades first, to draw trumps, when long in them;
  otherwise (bid made, own Nil, or the opponent's Nil to break) it ducks with its
  highest losing card and leads low.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import View, Why, words
from games.cards import HIGH_RANK, STANDARD_DECK, SUIT, sort_hand
from games.trick_play import TrickRules, unseen
from i18n import N_, _, decimal

TRUMP = "S"
PLAIN = "HDC"
#: Keep a drafted card worth at least this (an unknown next card is worth about 0.37).
DRAFT_KEEP_AT = 0.4
#: Blind Nil succeeds about a third of the time: only when far behind an opponent who is
#: close to winning.
BLIND_NIL_BEHIND = 250
BLIND_NIL_NEAR = 150
#: Bid = slope × estimate + shift: self-play takes about 0.94 × estimate + 2.2 tricks;
#: bidding ``BID_UNDER`` tricks under that scored best in self-play (a miss costs as much
#: as a made bid earns, an extra trick only a bag).
BID_SLOPE = 0.94
BID_SHIFT = 0.6
BID_UNDER = 1.6
#: Cards a Blind Nil player would rather not hold: a spade counts five ranks higher.
NIL_DANGER_AT = 9


def strength(card: str) -> int:
    """Order of power in this game: any spade beats any other card."""
    return HIGH_RANK[card] + (20 if SUIT[card] == TRUMP else 0)


#: How cards compare in trick play.
RULES = TrickRules(SUIT.__getitem__, strength, TRUMP)


def nil_danger(card: str) -> int:
    """How likely a card is to win a trick against a Nil player's wishes."""
    return HIGH_RANK[card] + (5 if SUIT[card] == TRUMP else 0)


def keep_value(card: str, hand: list[str]) -> float:
    """How much a drafted card is worth keeping (about 0.37 for an unknown card)."""
    rank = HIGH_RANK[card]
    if SUIT[card] == TRUMP:
        return 0.5 + rank / 28
    value = {14: 0.95, 13: 0.7, 12: 0.4, 11: 0.25}.get(rank, 0.1)
    length = sum(1 for c in hand if SUIT[c] == SUIT[card])
    if rank < 11:
        value += 0.15 if length >= 3 else (-0.05 if length == 0 else 0.0)
    return value


def expected_tricks(hand: list[str], face_up: list[str]) -> float:
    """Tricks this hand should take against an unseen 13-card hand."""
    pool = unseen(STANDARD_DECK, hand, face_up)
    # An unseen card is in the opponent's 13-card hand with this chance.
    p_opp = 13 / max(13, len(pool))
    suits = RULES.by_suit(hand, "SHDC")
    total = 0.0
    for suit in PLAIN:
        for i, c in enumerate(suits[suit][:3]):
            total += (1 - p_opp) ** RULES.higher(c, pool) * (0.85**i)
    spades = suits[TRUMP]
    sure = 0.0
    for c in spades:
        sure += (1 - p_opp) ** RULES.higher(c, pool)
    spare = max(0.0, len(spades) - sure)
    ruffs = sum(1.0 if not suits[s] else 0.5 if len(suits[s]) == 1 else 0.0 for s in PLAIN)
    return total + sure + min(spare, ruffs + max(0.0, len(spades) - 4) * 0.6)


def nil_safe(hand: list[str]) -> bool:
    """A hand weak enough to bid Nil: at most three spades, none above 9; in every other
    suit held a card of 5 or less, and high cards only with length to guard them."""
    suits = RULES.by_suit(hand, "SHDC")
    if len(suits[TRUMP]) > 3 or any(HIGH_RANK[c] > 9 for c in suits[TRUMP]):
        return False
    for suit in PLAIN:
        cards = suits[suit]
        if cards and (HIGH_RANK[cards[0]] - len(cards) >= 10 or HIGH_RANK[cards[-1]] > 5):
            return False
    return True


def choose_bid(view: View) -> str:
    """Bid from hand strength; Nil with a very weak hand."""
    hand = view["hand"]
    if nil_safe(hand):
        return "bid 0"
    n = round(BID_SLOPE * expected_tricks(hand, view["face_up_discards"]) + BID_SHIFT)
    return f"bid {min(13, max(1, n))}"


def _why_bid(name: Callable[[str], str], view: View, move: str) -> str:
    if move == "bid 0":
        return _(
            "your hand is weak enough for Nil: at most three spades, none above 9, a card of"
            " 5 or lower in every other suit you hold and no high card without length"
        )
    taken = BID_SLOPE * expected_tricks(view["hand"], view["face_up_discards"]) + BID_SHIFT
    return _(
        "hands like yours take about {tricks} tricks; you bid {bid}, a little under, as a"
        " trick short costs as much as a made bid earns",
        tricks=decimal(taken + BID_UNDER), bid=move.split()[1],
    )


def choose_draft(view: View, legal: list[str]) -> tuple[str, Why]:
    """Blind Nil when far behind; else look, then keep good cards."""
    me = view["seat"]
    if "blindnil" in legal:
        mine, theirs = view["scores"][me], view["scores"][1 - me]
        desperate = theirs - mine >= BLIND_NIL_BEHIND and theirs >= view["target"] - BLIND_NIL_NEAR
        if desperate:
            return "blindnil", (N_("you are far behind near the end: Blind Nil is worth the risk"),)
        return "look", (N_("Blind Nil is worth its risk only far behind near the end"),)
    card = view["drawn"]
    if view["bids"][me] == "blind nil":
        if nil_danger(card) < NIL_DANGER_AT:
            return "keep", (N_("{} is low enough for your Blind Nil"), card)
        return "discard", (N_("{} could win a trick and break your Blind Nil"), card)
    if keep_value(card, view["hand"]) >= DRAFT_KEEP_AT:
        return "keep", (N_("{} is worth more than the unknown card after it"), card)
    return "discard", (N_("{} is worth less than the unknown card after it"), card)


def choose_exchange(view: View) -> str:
    """Give up to three cards that would most likely win a trick."""
    worst = sorted(view["hand"], key=nil_danger, reverse=True)[:3]
    chosen = sort_hand((c for c in worst if nil_danger(c) >= NIL_DANGER_AT), ace_high=True)
    return " ".join(["exchange", *chosen])


def aim(view: View) -> tuple[bool, str]:
    """Win tricks while short of the bid or able to set the opponent; else duck. And why."""
    me, opp = view["seat"], 1 - view["seat"]
    bids, tricks = view["bids"], view["tricks"]
    mine, theirs = bids[me], bids[opp]
    left = len(view["hand"])
    nil = (0, "blind nil")
    if mine in nil:
        if tricks[me] > 0 and theirs not in nil:
            return True, N_("your Nil is broken, so you take what tricks you can")
        return False, N_("you bid Nil, so you lose every trick you can")
    if theirs in nil:
        if tricks[me] < mine:  # (also once their Nil is broken)
            return True, N_("you still need tricks for your bid")
        if tricks[opp] == 0:
            return False, N_("your bid is made, so you let your opponent win and break their Nil")
        return False, N_("their Nil is broken and your bid is made, so you duck to avoid bags")
    if tricks[me] < mine:
        return True, N_("you still need tricks for your bid")
    need: int = theirs - tricks[opp]
    if 0 < need <= left:
        return True, N_("your bid is made, and winning tricks can still set your opponent")
    return False, N_(
        "your bid is made and theirs is made or already lost, so you duck to avoid bags"
    )


def follow(view: View, options: list[str], win: bool) -> tuple[str, Why]:
    """Play second: the cheapest winner when winning, else the highest loser."""
    winners, losers = RULES.split(options, RULES.winning(view["trick"])[1])
    if win and winners:
        return winners[0], (N_("{} is your cheapest card that wins the trick"), winners[0])
    if not win and losers:
        return losers[-1], (N_("{} is your highest card that loses the trick"), losers[-1])
    if winners:
        return winners[-1], (N_("every card you may play wins the trick: {} spends the highest"),
                             winners[-1])
    return losers[0], (N_("no card you may play wins the trick: {} throws the lowest"), losers[0])


def lead(view: View, options: list[str], win: bool) -> tuple[str, Why]:
    """Lead: when winning, top spades (if long) or a sure winner; else the lowest card."""
    hand = view["hand"]
    pool = unseen(STANDARD_DECK, hand, view["played"], view["face_up_discards"])
    if win:
        spades = RULES.trumps(options)
        top = RULES.top_master(spades, pool)
        if top and len(spades) >= len(RULES.trumps(pool)) / 2:
            return top, (N_("{} is the top spade: it wins and draws your opponent's spades"), top)
        cash = RULES.top_master(RULES.side(options), pool)
        if cash:
            return cash, (N_("{} is the highest card left in its suit"), cash)
    suits = RULES.by_suit(hand)
    card = min(
        options, key=lambda c: (RULES.is_trump(c), -RULES.higher(c, pool), -len(suits[SUIT[c]]))
    )
    return card, (N_("{} is your weakest lead"), card)


def choose_play(view: View, legal: list[str]) -> tuple[str, Why]:
    """Pick a card for the current trick."""
    options = [a.split()[1] for a in legal]
    win, goal = aim(view)
    card, why = follow(view, options, win) if view["trick"] else lead(view, options, win)
    return "play " + card, (_aimed, goal, why)


def _aimed(name: Callable[[str], str], goal: str, why: Why) -> str:
    """The aim of a play (``aim``), then why this card serves it."""
    return _("{goal}; {why}", goal=_(goal), why=words(why, name))


def decide(view: View, legal: list[str]) -> tuple[str, Why]:
    """The ``normal`` player's move, and why."""
    phase = view["phase"]
    if phase == "draft":
        return choose_draft(view, legal)
    if phase == "exchange":
        move = choose_exchange(view)
        cards = tuple(move.split()[1:])
        if not cards:
            return move, (N_("none of your cards is likely to win a trick"),)
        return move, (N_("the cards most likely to win you a trick go: {}"), cards)
    if phase == "bid":
        move = choose_bid(view)
        return move, (_why_bid, view, move)
    return choose_play(view, legal)


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` computer player (deterministic; ``rng`` is unused)."""
    return decide(view, legal)[0]
