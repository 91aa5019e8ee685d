"""Scoring one seat's hand (RULES.md §2, "Score per hand")."""

from __future__ import annotations

from typing import Any

from i18n import N_

NIL_BONUS = 100
BLIND_NIL_BONUS = 200
BAG_LIMIT = 10
BAG_PENALTY = 100
#: Each ``result`` of ``score_hand`` in words (marked for the catalogs).
RESULTS = {
    "made": N_("made"), "missed": N_("missed"), "nil made": N_("nil made"),
    "nil failed": N_("nil failed"), "blind nil made": N_("blind nil made"),
    "blind nil failed": N_("blind nil failed"),
}


def score_hand(bid: int, blind: bool, tricks: int, bags_before: int) -> dict[str, Any]:
    """The per-line breakdown of one seat's hand.

    Keys: ``bid`` (``"blind nil"`` for Blind Nil), ``tricks``, ``result`` (``made``,
    ``missed``, ``nil made``, ``nil failed``, ``blind nil made``, ``blind nil failed``),
    ``contract`` (points for the bid, signed), ``bags`` (won this hand; never for a Nil or
    Blind Nil bidder), ``bag_penalty`` (≤ 0), ``bags_total`` (after penalties) and
    ``points`` (the hand's total).
    """
    new_bags = 0
    if blind or bid == 0:
        bonus = BLIND_NIL_BONUS if blind else NIL_BONUS
        name = "blind nil" if blind else "nil"
        made = tricks == 0
        contract = bonus if made else -bonus
        result = f"{name} {'made' if made else 'failed'}"
    elif tricks >= bid:
        new_bags = tricks - bid
        contract, result = 10 * bid, "made"
    else:
        contract, result = -10 * bid, "missed"
    bags = bags_before + new_bags
    penalties = bags // BAG_LIMIT
    bags -= penalties * BAG_LIMIT
    penalty = -BAG_PENALTY * penalties
    return {
        "bid": "blind nil" if blind else bid,
        "tricks": tricks,
        "result": result,
        "contract": contract,
        "bags": new_bags,
        "bag_penalty": penalty,
        "bags_total": bags,
        "points": contract + new_bags + penalty,
    }
