"""Computer-player helpers for trick-taking games (Spades, Back Alley).

Like ``games.tricks`` these know no game's rules: a ``TrickRules`` holds how this deal
orders cards — each card's suit (``suit_of``), its power within the suit (``strength``)
and the trump suit, if any — and answers the questions a computer player asks: which
cards are trumps, what still outranks a card, what beats the winning card, which card is
cheapest to give up. A trick is a list of ``[seat, card]`` plays, as in ``games.tricks``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.tricks import Strength, SuitOf, winning_index


def unseen(deck: Iterable[str], *known: Iterable[str]) -> set[str]:
    """Cards of ``deck`` in none of ``known``: in other hands or not dealt."""
    out = set(deck)
    for cards in known:
        out.difference_update(cards)
    return out


@dataclass(frozen=True, slots=True)
class TrickRules:
    """Card order of a deal: ``suit_of`` and ``strength`` of each card, and the trumps."""

    suit_of: SuitOf
    strength: Strength
    trump: str | None = None

    def is_trump(self, card: str) -> bool:
        """Whether ``card`` belongs to the trump suit."""
        return self.trump is not None and self.suit_of(card) == self.trump

    def trumps(self, cards: Iterable[str]) -> list[str]:
        """The trumps among ``cards``, in their order."""
        return [c for c in cards if self.is_trump(c)]

    def side(self, cards: Iterable[str]) -> list[str]:
        """The cards that are not trumps, in their order."""
        return [c for c in cards if not self.is_trump(c)]

    def by_suit(self, hand: Iterable[str], suits: str = "") -> dict[str, list[str]]:
        """Cards per suit, strongest first. Each of ``suits`` is a key (maybe empty), then
        the other suits held, in order of their strongest card."""
        out: dict[str, list[str]] = {s: [] for s in suits}
        for c in sorted(hand, key=self.strength, reverse=True):
            out.setdefault(self.suit_of(c), []).append(c)
        return out

    def higher(self, card: str, pool: Iterable[str]) -> int:
        """How many cards of ``pool`` are of ``card``'s suit and stronger."""
        suit_of, strength = self.suit_of, self.strength
        suit, power = suit_of(card), strength(card)
        return len([c for c in pool if suit_of(c) == suit and strength(c) > power])

    def outranking(self, pool: Iterable[str]) -> Callable[[str], int]:
        """``higher`` against one ``pool`` for many cards: the pool is sorted per suit
        once, then each card is a binary search (profiled: ``higher`` over the pool card
        by card was the search's top function)."""
        powers: dict[str, list[int]] = {}
        for c in pool:
            powers.setdefault(self.suit_of(c), []).append(self.strength(c))
        for row in powers.values():
            row.sort()

        def count(card: str) -> int:
            row = powers.get(self.suit_of(card), [])
            return len(row) - bisect_right(row, self.strength(card))

        return count

    def masters(self, cards: Iterable[str], unseen: Collection[str]) -> list[str]:
        """The cards that no ``unseen`` card of their own suit outranks."""
        return [c for c in cards if self.higher(c, unseen) == 0]

    def top_master(self, cards: Iterable[str], unseen: Collection[str]) -> str | None:
        """The strongest of ``masters`` (the first one on ties), or ``None``."""
        return max(self.masters(cards, unseen), key=self.strength, default=None)

    def safe(self, card: str, unseen: Collection[str]) -> bool:
        """No ``unseen`` card can beat ``card``: none outranks it in its suit and, for a
        side card, no trump is unseen (a player void in the suit could ruff)."""
        if self.higher(card, unseen):
            return False
        return self.is_trump(card) or not any(map(self.is_trump, unseen))

    def beats(self, card: str, best: str) -> bool:
        """Whether ``card`` played now beats ``best``, the winning card so far."""
        if self.suit_of(card) == self.suit_of(best):
            return self.strength(card) > self.strength(best)
        return self.is_trump(card)

    def winning(self, trick: Sequence[Sequence[Any]]) -> tuple[int, str]:
        """``(seat, card)`` of the play winning the (unfinished) trick so far."""
        cards = [str(p[1]) for p in trick]
        i = winning_index(cards, self.suit_of, self.strength, self.trump)
        return int(trick[i][0]), cards[i]

    def cost(self, card: str) -> tuple[bool, int]:
        """Sort key of what a card is worth keeping: side cards before trumps, weak first."""
        return self.is_trump(card), self.strength(card)

    def by_cost(self, cards: Iterable[str]) -> list[str]:
        """``cards`` cheapest first (ties keep their order)."""
        return sorted(cards, key=self.cost)

    def cheapest(self, cards: Iterable[str]) -> str:
        """The card least worth keeping (the first one on ties)."""
        return min(cards, key=self.cost)

    def split(self, cards: Iterable[str], best: str) -> tuple[list[str], list[str]]:
        """``(winners, losers)``: the cards that would and would not beat ``best``, each
        cheapest first — so ``winners[0]`` wins cheaply and ``losers[-1]`` is the
        highest card to throw under it."""
        winners: list[str] = []
        losers: list[str] = []
        for c in cards:
            (winners if self.beats(c, best) else losers).append(c)
        return self.by_cost(winners), self.by_cost(losers)

    def distinct(
        self, cards: Iterable[str], live: Collection[str], keep: str | None = None
    ) -> list[str]:
        """``cards`` with equivalent ones merged, in their order. Two cards of a suit with
        no ``live`` card (one another seat may still hold, or has played to the trick in
        progress) ranked between them win and lose the same tricks, so one stands for the
        run: ``keep`` when it is in it, else the run's strongest card."""
        cards = list(cards)
        suit_of, strength = self.suit_of, self.strength
        stands: dict[str, str] = {}
        for suit in dict.fromkeys(map(suit_of, cards)):
            mine = sorted((c for c in cards if suit_of(c) == suit), key=strength, reverse=True)
            theirs = [strength(c) for c in live if suit_of(c) == suit]
            run = [mine[0]]
            for card in [*mine[1:], None]:
                if card is not None and not any(
                    strength(card) < t < strength(run[-1]) for t in theirs
                ):
                    run.append(card)
                    continue
                head = keep if keep in run else run[0]
                stands.update((c, head) for c in run)
                if card is not None:
                    run = [card]
        return [c for c in cards if stands[c] == c]

    def players_of(self, played: Sequence[str], leader: int, players: int) -> list[int]:
        """The seat that played each card of ``played`` (every card played this deal in
        order; ``leader`` led the first trick and each trick's winner leads the next)."""
        seats: list[int] = []
        for start in range(0, len(played), players):
            cards = list(played[start:start + players])
            seats += [(leader + k) % players for k in range(len(cards))]
            if len(cards) == players:
                won = winning_index(cards, self.suit_of, self.strength, self.trump)
                leader = (leader + won) % players
        return seats

    def shown_voids(self, played: Sequence[str], leader: int, players: int) -> list[set[str]]:
        """Per seat, the suits it showed void in this deal: a player who did not follow
        the suit led has none left (``played`` and ``leader`` as in ``players_of``)."""
        voids: list[set[str]] = [set() for _ in range(players)]
        for i, seat in enumerate(self.players_of(played, leader, players)):
            led = self.suit_of(played[i - i % players])
            if self.suit_of(played[i]) != led:
                voids[seat].add(led)
        return voids


def distinct_plays(
    rules: TrickRules, deck: Iterable[str], view: Any, legal: Sequence[str], usual: str
) -> list[str]:
    """The legal ``play <card>`` actions of a seat's ``view`` (its ``hand``, the cards
    ``played`` this deal and the ``trick`` in progress), one per run of equivalent cards
    (``TrickRules.distinct``); ``usual``, a legal action, stands for its run."""
    live = unseen(deck, view["hand"], view["played"]) | {str(p[1]) for p in view["trick"]}
    cards = [a.split(" ", 1)[1] for a in legal]
    return ["play " + c for c in rules.distinct(cards, live, usual.split(" ", 1)[1])]
