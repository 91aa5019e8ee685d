"""``bench.workers.in_order``: the results come in the items' order, the same in one
process as in two."""

from __future__ import annotations

import sys
from pathlib import Path

# bench/ is not an installed package: import it from the checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import workers


def test_results_come_in_the_items_order_whatever_the_processes() -> None:
    items = [-5, 3, -1, 0, 8, -13, 2, 21, -34]
    alone = workers.in_order(abs, items, 1)
    assert alone == [5, 3, 1, 0, 8, 13, 2, 21, 34]
    assert workers.in_order(abs, items, 2) == alone
    assert workers.in_order(abs, [], 2) == []
