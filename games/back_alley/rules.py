"""Back Alley rule tables and pure rule functions: deal pattern, trumps, leader, scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.cards import HIGH_RANK, JOKERS, SUIT, SUITS

PLAYERS: Final = 4
#: Hand size of each deal: 13, 12, …, 2, 1, 2, …, 13.
PATTERN: Final[tuple[int, ...]] = (*range(13, 0, -1), *range(2, 14))

#: Card strength within its suit: 2 … A = 2 … 14; Little Blooper 15, Big Blooper 16.
STRENGTH: Final[dict[str, int]] = {**HIGH_RANK, "LJ": 15, "BJ": 16}


def _suit_table(trump: str | None) -> dict[str, str]:
    table = dict(SUIT)
    for j in JOKERS:
        table[j] = trump if trump is not None else "J"
    return table


#: Suit of each card when a given suit (or ``None``) is trumps: jokers belong to the trumps.
SUIT_OF: Final[dict[str | None, dict[str, str]]] = {
    t: _suit_table(t) for t in (*SUITS, None)
}

def is_trump(card: str, trump: str | None) -> bool:
    """Whether ``card`` is a trump (jokers are, whenever there is a trump suit)."""
    return trump is not None and SUIT_OF[trump][card] == trump


def leader_of(bids: Sequence[int | None], boards: Sequence[int], dealer: int) -> int:
    """Who leads the first trick: the last board claimant, else the highest number bid,
    ties going to the earliest bidder (bidding starts left of the dealer)."""
    if any(boards):
        return max(range(PLAYERS), key=lambda s: boards[s])
    order = [(dealer + k) % PLAYERS for k in range(1, PLAYERS + 1)]
    return max(order, key=lambda s: (bids[s] or 0, -order.index(s)))


def team_contract(
    bids: Sequence[int | None], boards: Sequence[int], team: int
) -> tuple[int, int]:
    """``(tricks bid, board multiplier)`` of a team: its highest board claim (multiplier
    L ≥ 1, numbers ignored) if any, else the sum of its numeric bids with multiplier 0."""
    seats = (team, team + 2)
    board = max(boards[s] for s in seats)
    if board:
        return 0, board
    return sum(bids[s] or 0 for s in seats), 0


def deal_points(contract: int, board: int, tricks: int, hand_size: int) -> int:
    """Points of one team for one deal (RULES.md §3, "Score per team per deal")."""
    if board:
        sign = 1 if tricks == hand_size else -1
        return sign * 10 * hand_size * board
    if contract == 0:
        return tricks
    if tricks >= contract:
        return 5 * contract + (tricks - contract)
    return -5 * contract
