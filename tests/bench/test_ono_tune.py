"""Learning the ONO 99 expert's weights (``bench.ono_tune``) on a few deals: seeded, and
written in the shape the expert reads."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import asdict
from pathlib import Path

# bench/ is not an installed package: import it from the checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import ono_tune
from games.ono99 import bots
from games.ono99.bots import NORMAL, Weights


def test_a_step_changes_one_or_two_weights_and_is_seeded() -> None:
    tried = [ono_tune.step(NORMAL, random.Random(k)) for k in range(20)]
    assert tried == [ono_tune.step(NORMAL, random.Random(k)) for k in range(20)]
    changed = [sum(a != b for a, b in zip(asdict(t).values(), asdict(NORMAL).values(),
                                          strict=True)) for t in tried]
    assert set(changed) <= {0, 1, 2} and max(changed) == 2


def test_the_gain_is_the_wins_over_normal_in_the_same_seats() -> None:
    assert ono_tune.gain(NORMAL, 0, 6, None) == [0.0] * 6  # normal's weights: normal's games
    # a player that keeps nothing back loses games normal would have won
    careless = Weights(minus=0, play2=0, reverse=0, numbers=0, risk=0, pressure=0)
    assert sum(ono_tune.gain(careless, 0, 24, None)) < 0


def test_tuning_writes_weights_the_expert_reads(tmp_path: Path) -> None:
    out = tmp_path / "weights.json"
    ono_tune.main(["--steps", "2", "--deals", "4", "--seed", "3", "--out", str(out)])
    first = out.read_text(encoding="utf-8")
    ono_tune.main(["--steps", "2", "--deals", "4", "--seed", "3", "--out", str(out)])
    assert out.read_text(encoding="utf-8") == first
    data = json.loads(first)
    assert Weights(**data["weights"])
    assert data["about"]["command"] == "python -m bench.ono_tune --steps 2 --deals 4 --seed 3"


def test_the_shipped_weights_are_learned_not_normals() -> None:
    data = json.loads(bots.TUNED_PATH.read_text(encoding="utf-8"))
    assert data["about"]["command"].startswith("python -m bench.ono_tune")
    assert bots.tuned() == Weights(**data["weights"]) != NORMAL


def test_a_bad_output_or_count_is_refused_before_any_tuning(tmp_path: Path) -> None:
    for argv in (["--out", str(tmp_path)], ["--out", str(tmp_path / "no" / "w.json")],
                 ["--steps", "0", "--out", str(tmp_path / "w.json")]):
        try:
            ono_tune.main(argv)
        except SystemExit as refused:
            assert refused.code == 2
        else:
            raise AssertionError(f"{argv} was not refused")
    assert list(tmp_path.iterdir()) == []
