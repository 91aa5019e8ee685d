"""Gin Rummy scoring: laying the hands down after a knock, hand points, game bonuses."""

from __future__ import annotations

from typing import Any

from games import melds

GIN_BONUS = 25
BIG_GIN_BONUS = 31
UNDERCUT_BONUS = 25
GAME_BONUS = 100
LINE_BONUS = 25
#: Most deadwood a knocker may keep.
KNOCK_LIMIT = 10


def _melds_json(ms: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    return [list(m) for m in ms]


def lay_down(hand_no: int, knocker: int, kind: str, hands: list[list[str]]) -> dict[str, Any]:
    """The public result of a hand ended by ``knocker`` (``kind``: knock, gin or big_gin).

    ``hands[knocker]`` is the knocker's hand without the knock card. The engine arranges it
    with the least deadwood; among several such arrangements it picks the one leaving the
    defender the most deadwood after lay-offs. The defender melds and lays off to
    minimise their deadwood, except against gin or big gin (no lay-offs).
    """
    defender = 1 - knocker
    options = melds.arrangements(hands[knocker])
    if kind == "knock":
        pairs = [(a, melds.defend(hands[defender], a.melds)) for a in options]
        arrangement, defence = max(pairs, key=lambda p: p[1].value)
    else:
        arrangement = options[0]
        shown = melds.best_arrangement(hands[defender])
        defence = melds.Defence(shown.melds, (), shown.deadwood)
    k_points, d_points = arrangement.value, defence.value
    points = [0, 0]
    result = kind
    winner: int | None = knocker
    if kind == "gin":
        points[knocker] = d_points + GIN_BONUS
    elif kind == "big_gin":
        points[knocker] = d_points + BIG_GIN_BONUS
    elif d_points < k_points:
        result, winner = "undercut", defender
        points[defender] = UNDERCUT_BONUS + k_points - d_points
    elif d_points == k_points:
        result, winner = "tie", None
    else:
        points[knocker] = d_points - k_points
    by_seat: list[list[list[str]]] = [[], []]
    deadwood: list[list[str]] = [[], []]
    dw_points = [0, 0]
    by_seat[knocker] = _melds_json(arrangement.melds)
    by_seat[defender] = _melds_json(defence.melds)
    deadwood[knocker], deadwood[defender] = list(arrangement.deadwood), list(defence.deadwood)
    dw_points[knocker], dw_points[defender] = k_points, d_points
    return {
        "hand_no": hand_no,
        "result": result,
        "kind": kind,
        "knocker": knocker,
        "winner": winner,
        "undercut": result == "undercut",
        "melds": by_seat,
        "lay_offs": [
            {"cards": list(cards), "onto": list(arrangement.melds[k])}
            for cards, k in defence.lay_offs
        ],
        "deadwood": deadwood,
        "deadwood_points": dw_points,
        "points": points,
    }


def wall(hand_no: int) -> dict[str, Any]:
    """The public result of a hand that reached the wall: a draw, nobody scores."""
    return {
        "hand_no": hand_no,
        "result": "wall",
        "kind": "wall",
        "knocker": None,
        "winner": None,
        "undercut": False,
        "points": [0, 0],
    }


def final_totals(scores: list[int], hands_won: list[int], hands_played: int) -> dict[str, Any]:
    """Game-end totals: the player who reached the target (``reached``) adds the game
    bonus, doubled with it on a shutout (won every hand, none drawn or tied); then everyone
    adds the line bonus per hand won. The ``winner`` is the one ranked first by these final
    totals — line bonuses can put the other player ahead — and None when they are equal."""
    reached = max(range(len(scores)), key=lambda s: scores[s])
    shutout = hands_won[reached] == hands_played
    final = list(scores)
    final[reached] = (scores[reached] + GAME_BONUS) * (2 if shutout else 1)
    line = [LINE_BONUS * w for w in hands_won]
    final = [f + b for f, b in zip(final, line, strict=True)]
    leaders = [s for s, total in enumerate(final) if total == max(final)]
    return {
        "reached": reached,
        "winner": leaders[0] if len(leaders) == 1 else None,
        "totals": list(scores),
        "game_bonus": GAME_BONUS,
        "shutout": shutout,
        "line_bonus": line,
        "final": final,
    }
