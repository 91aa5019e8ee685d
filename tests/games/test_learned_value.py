"""The learned values' shared shape (``games/learned_value.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from games.learned_value import Value, expand, width


def test_expansion_keeps_the_features_and_adds_every_product_of_two() -> None:
    row = np.array([[2.0, 3.0, 5.0]])
    assert expand(row).tolist() == [[2, 3, 5, 4, 6, 10, 9, 15, 25]]
    assert width(("a", "b", "c")) == 9


def test_a_value_reads_back_only_for_the_features_it_was_trained_on() -> None:
    value = Value(("a", "b"), np.arange(5.0), {"command": "x"})
    again = Value.from_json(value.to_json(), ("a", "b"))
    assert again.names == value.names and again.weights.tolist() == [0, 1, 2, 3, 4]
    assert value.of(np.array([[1.0, 0.0], [0.0, 1.0]])).tolist() == [0 + 2, 1 + 4]
    for names in (("b", "a"), ("a", "b", "c")):
        with pytest.raises(ValueError, match="other features"):
            Value.from_json(value.to_json(), names)
