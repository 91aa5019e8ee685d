"""ONO 99 scores, round points (classic points game) and placements."""

from __future__ import annotations

from games.ono99.cards import NUMBERS, ONO, VALUE
from games.ono99.state import OnoState

HAND_SIZE = 4
ONO_POINTS = 20
SPECIAL_POINTS = 15
SHORT_CARD_POINTS = 15
OUT_OF_ROUND_POINTS = 25
_STILL_IN = 1 << 30


def card_points(card: str) -> int:
    """Points a card left in hand scores: numbers face value, ONO 99 20, specials 15."""
    if card in NUMBERS:
        return VALUE[card]
    return ONO_POINTS if card == ONO else SPECIAL_POINTS


def round_points(hand: list[str], in_round: bool) -> int:
    """A seat's points for a round: the hand's cards plus 15 for each card short of four,
    and 25 more when out of the round (RULES.md decision: "out of the round: 25" is one of
    the items added up)."""
    cards = sum(card_points(c) for c in hand) + SHORT_CARD_POINTS * (HAND_SIZE - len(hand))
    return cards + (0 if in_round else OUT_OF_ROUND_POINTS)


def scores(state: OnoState) -> list[int]:
    """Per seat: players outlasted (elimination), tokens left (tokens) or points (points)."""
    mode = state.options["scoring"]
    if mode == "tokens":
        return list(state.tokens)
    if mode == "points":
        return list(state.points)
    return [
        sum(1 for other in state.left_at if other is not None and (mine is None or other < mine))
        for mine in state.left_at
    ]


def placements(state: OnoState) -> list[int]:
    """Ranks, 1 = best: later exits from the game place higher; then more tokens / fewer
    points; seats still tied share a rank."""
    mode = state.options["scoring"]
    keys: list[tuple[int, int]] = []
    for seat, left in enumerate(state.left_at):
        second = (
            state.tokens[seat] if mode == "tokens"
            else -state.points[seat] if mode == "points"
            else 0
        )
        keys.append((_STILL_IN if left is None else left, second))
    return [1 + sum(1 for other in keys if other > key) for key in keys]
