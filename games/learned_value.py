"""A learned value of a seat's options, shared by the games whose expert plays one (Craits,
ONO 99): linear in the features of an option (named by the game) and in every product of
two of them (``expand``), fitted offline (``bench/distill.py``) to what the options were
worth when played out, and shipped as a JSON file beside the game's module that names the
features it was trained on and records how it was trained."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np


def expand(rows: np.ndarray) -> np.ndarray:
    """Each row of features followed by the products of every pair of them (squares
    included), upper triangle row by row."""
    i, j = np.triu_indices(rows.shape[1])
    return np.hstack([rows, rows[:, i] * rows[:, j]])


def width(names: Sequence[str]) -> int:
    """How many columns ``expand`` makes of ``names``' features."""
    n = len(names)
    return n + n * (n + 1) // 2


@dataclass(frozen=True)
class Value:
    """The fitted weights of ``expand``'s columns of the features ``names``, and how they
    were trained."""

    names: tuple[str, ...]
    weights: np.ndarray
    about: dict[str, Any]

    def of(self, rows: np.ndarray) -> np.ndarray:
        """The value of each option from its features (only differences between options
        mean anything)."""
        return np.asarray(expand(rows) @ self.weights)

    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "weights": [float(w) for w in self.weights],
                "about": self.about}

    @classmethod
    def from_json(cls, data: dict[str, Any], names: Sequence[str]) -> Value:
        """The value in ``data``, which must have been trained on the features ``names``."""
        if tuple(data["names"]) != tuple(names) or len(data["weights"]) != width(names):
            raise ValueError("the weights were trained on other features")
        return cls(tuple(names), np.array(data["weights"]), dict(data["about"]))


def load(package: str, filename: str, names: Sequence[str]) -> Value:
    """The value shipped as ``filename`` beside ``package``'s modules."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return Value.from_json(json.loads(text), names)
