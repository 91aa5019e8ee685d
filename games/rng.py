"""Seeded randomness for engines: no global random, and nothing to store but numbers.

Every shuffle an engine makes is drawn from ``random.Random`` seeded with the game's seed
and a salt (usually a counter of shuffles kept in the state). A state therefore only needs
its seed and counter to be reproducible and JSON-serialisable, and replaying the same
actions gives the same shuffles. String seeds go through SHA-512 in CPython, so results
are stable across processes and versions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int, *salt: object) -> random.Random:
    """A fresh generator determined by ``seed`` and ``salt``."""
    return random.Random(f"deckhand:{seed}:" + ":".join(map(str, salt)))


def shuffled(items: Sequence[T], seed: int, *salt: object) -> list[T]:
    """A shuffled copy of ``items``, determined by ``seed`` and ``salt``."""
    out = list(items)
    rng_for(seed, *salt).shuffle(out)
    return out
