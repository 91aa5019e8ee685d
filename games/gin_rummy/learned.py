"""Gin Rummy's learned evaluation: three small networks that value a seat's options in
points of the hand (mine minus the opponent's, as the hand will end), from what it sees
(``features``).

* ``discard``: the hand after throwing a card face up, the opponent to play;
* ``draw``: the hand before drawing blind from the stock (or passing the upcard), the
  pile's top card let go;
* ``knock``: the hand laid down now, the opponent to meld and lay off.

Each is one hidden layer of rectified units over ``features.vector``, trained offline by
``python -m bench.gin_train`` on hands played against both opponent models in turn
(``normal`` and the eager player), and shipped as ``evaluation.json`` beside this module
(loaded once, on first use; the file also records how it was trained). ``values`` gives
every legal move's value; ``choose`` picks the most valuable, leaving ``normal``'s move only
for one valued ``margin`` points higher. Gin is played, never weighed: the knock net saw
few early gins and values one on the first turn below holding on (42.8 points against
58.1 in ``tests/games/test_gin_learned.py``'s hand).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from games import melds
from games.cards import INDEX
from games.gin_rummy import features
from games.gin_rummy.features import Table

#: The shipped weights, beside this module.
WEIGHTS = "evaluation.json"
#: The networks, by the option they value.
KINDS = ("discard", "draw", "knock")


@dataclass(frozen=True)
class Net:
    """One hidden layer of rectified units: ``relu(((x - mean) / scale) W1 + b1) w2 + b2``."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Net:
        return cls(
            np.array(data["mean"]), np.array(data["scale"]), np.array(data["w1"]),
            np.array(data["b1"]), np.array(data["w2"]), float(data["b2"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": _rounded(self.mean), "scale": _rounded(self.scale), "w1": _rounded(self.w1),
            "b1": _rounded(self.b1), "w2": _rounded(self.w2), "b2": round(self.b2, 6),
        }

    def __call__(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        x = (np.asarray(rows, dtype=float) - self.mean) / self.scale
        hidden: np.ndarray = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: np.ndarray = hidden @ self.w2 + self.b2
        return out


def _rounded(a: np.ndarray) -> Any:
    return np.round(a.astype(float), 6).tolist()


@dataclass(frozen=True)
class Evaluation:
    """The three networks (``KINDS``) and how they were trained (``about``)."""

    nets: Mapping[str, Net]
    about: Mapping[str, Any]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Evaluation:
        if list(data["features"]) != list(features.NAMES):
            raise ValueError("the weights were trained on other features")
        return cls({k: Net.from_json(data["nets"][k]) for k in KINDS}, dict(data["about"]))

    def to_json(self) -> dict[str, Any]:
        return {
            "about": dict(self.about), "features": list(features.NAMES),
            "nets": {k: self.nets[k].to_json() for k in KINDS},
        }


@cache
def shipped() -> Evaluation:
    """The evaluation shipped with the package (read once)."""
    text = resources.files("games.gin_rummy").joinpath(WEIGHTS).read_text(encoding="utf-8")
    return Evaluation.from_json(json.loads(text))


def values(t: Table, legal: Sequence[str], top: str | None, ev: Evaluation) -> dict[str, float]:
    """Each legal move's value (see the module docstring) for the seat whose ``Table`` is
    ``t``, ``top`` being the discard pile's top card: a discard by ``discard``, a knock (gin
    too) by ``knock``, drawing or passing by ``draw``, taking by the best move after it.
    Big gin is not valued (it is always played)."""
    hand = t.hand
    if legal[0] in ("take", "draw"):
        out: dict[str, float] = {}
        refuse = [a for a in legal if a in ("draw", "pass")]
        if refuse:
            top_bit = None if top is None else INDEX[top]
            out[refuse[0]] = float(ev.nets["draw"]([features.vector(t, hand, top_bit)])[0])
        if "take" in legal and top is not None:
            bit = INDEX[top]
            after = _after_take(t, bit)
            out["take"] = max(values(after, _moves_after_take(after.hand, bit), None, ev).values())
        return out
    discards = [a for a in legal if a.startswith("discard ")]
    knocks = [a for a in legal if a.startswith("knock ")]
    rows = [features.vector(t, hand & ~(1 << INDEX[a[8:]]), INDEX[a[8:]])
            for a in discards]
    out = dict(zip(discards, ev.nets["discard"](rows).tolist(), strict=True))
    if knocks:
        rows = [features.vector(t, hand & ~(1 << INDEX[a[6:]]), None) for a in knocks]
        out.update(zip(knocks, ev.nets["knock"](rows).tolist(), strict=True))
    return out


def _after_take(t: Table, bit: int) -> Table:
    """``t`` after the seat takes the pile's top card (``bit``)."""
    return replace(t, hand=t.hand | 1 << bit, pile=t.pile & ~(1 << bit), mine=t.mine | 1 << bit)


def _moves_after_take(hand: int, taken: int) -> list[str]:
    """The discards and knocks open after taking card ``taken`` into ``hand`` (11 cards)."""
    out = [f"discard {melds.CODES[i]}" for i in melds.bits(hand) if i != taken]
    out += [f"knock {melds.CODES[i]}" for i, _ in melds.discards_leaving(hand, 10) if i != taken]
    return out


def choose(
    view: Mapping[str, Any], legal: Sequence[str], usual: str, eager: float, margin: float,
    ev: Evaluation,
) -> str:
    """The move the evaluation values most for the seat of ``view``, where ``usual`` is
    ``normal``'s move, played unless another is valued more than ``margin`` points above it;
    ``eager``: how likely the opponent is the eager player. Gin and big gin are always
    played (``normal`` plays them)."""
    if len(legal) == 1 or usual == "biggin":
        return usual
    t = features.table(view, eager)
    if usual.startswith("knock ") and not melds.min_deadwood_mask(
        t.hand & ~(1 << INDEX[usual[6:]])
    ):
        return usual
    vals = values(t, legal, view["discard_top"], ev)
    best = max(vals, key=lambda a: (vals[a], a == usual))
    return best if vals[best] > vals.get(usual, -np.inf) + margin else usual
