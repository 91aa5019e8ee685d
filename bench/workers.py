"""A list of work split among worker processes for one call: each item's result in the
order of the items, whatever the number of processes, so a seeded command gives the same
output with ``--jobs 1`` or ``2``. (``bench.paired.gain`` takes a pool instead, which
``bench.ono_tune`` and ``bench.distill.measure`` keep across many calls.)"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Out = TypeVar("Out")


def in_order(work: Callable[[Item], Out], items: Iterable[Item], jobs: int) -> list[Out]:
    """``work`` of each of ``items`` in order, on ``jobs`` worker processes (in this one
    when ``jobs`` is 1 or less; ``work`` and the items must pickle when it is more)."""
    if jobs <= 1:
        return [work(item) for item in items]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(work, items))
