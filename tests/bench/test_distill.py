"""Training the learned values (``bench.distill``, with ``bench.craits_train`` and
``bench.ono_train``): each game's samples are seeded and true to their shape, the fit finds
a value the targets follow, the written file reads back, and the command refuses bad input
before it plays."""

from __future__ import annotations

import json
import pickle
import random
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

# bench/ is not an installed package: import it from the checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import craits_train, distill, ono_train
from games.craits import learned as craits_learned
from games.learned_value import Value
from games.ono99 import learned as ono_learned

TRAINERS = {"craits": (craits_train, craits_learned), "ono99": (ono_train, ono_learned)}


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_a_games_samples_are_seeded_and_shaped_as_the_value_reads_them(name: str) -> None:
    trainer, learned = TRAINERS[name]
    first, again = trainer.play_game(trainer.SEED), trainer.play_game(trainer.SEED)
    assert first == again and first.games and set(first.games) == {trainer.SEED}
    for rows, targets in zip(first.rows, first.targets, strict=True):
        assert 2 <= len(rows) == len(targets)
        assert all(len(r) == len(learned.NAMES) for r in rows)
    if name == "craits":
        assert max(len(r) for r in first.rows) <= craits_train.CANDIDATES


def _synthetic(decisions: int, rng: random.Random) -> distill.Samples:
    """Decisions whose targets are ten times the Craits ``points`` feature; ``normal``'s
    own value is noise."""
    out = distill.Samples()
    points = craits_learned.NAMES.index("points")
    for i in range(decisions):
        rows = [[rng.random() for _ in craits_learned.NAMES]
                for _ in range(rng.choice((2, 3, 4)))]
        out.put(i // 10, rows, [10 * r[points] for r in rows])
    return out


def test_the_fit_learns_what_the_targets_follow_and_reports_on_held_out_games() -> None:
    fit = distill.fit(_synthetic(600, random.Random(1)), 54, 1000.0, craits_learned.NAMES)
    assert fit.decisions == 540 and fit.held_out == 60
    # it picks the best candidate of nearly every held-out decision (the penalty blurs a
    # near tie or two); normal's value is noise here
    assert fit.best_gain >= fit.learned_gain > 0.98 * fit.best_gain
    assert fit.best_gain > fit.normal_gain + 1


def test_training_writes_a_value_the_player_reads(tmp_path: Path) -> None:
    samples = tmp_path / "samples.pkl"
    played = _synthetic(120, random.Random(2))
    played.games = [craits_train.SEED + g for g in played.games]
    with samples.open("wb") as f:
        pickle.dump(asdict(played), f)
    out = tmp_path / "weights.json"
    craits_train.main(["--games", "12", "--samples", str(samples), "--out", str(out)])
    value = Value.from_json(json.loads(out.read_text(encoding="utf-8")), craits_learned.NAMES)
    assert value.about["command"] == (
        f"python -m bench.craits_train --games 12 --seed {craits_train.SEED}")
    assert value.about["decisions"] == 100  # games before the last tenth
    assert np.isfinite(value.weights).all()
    with pytest.raises(ValueError, match="other features"):
        Value.from_json(value.to_json(), ono_learned.NAMES)
    # samples of other deals are refused, not fitted
    with pytest.raises(SystemExit, match="outside"):
        craits_train.main(["--games", "5000", "--seed", "0", "--samples", str(samples),
                           "--out", str(out)])


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_the_shipped_value_is_what_the_default_command_writes(name: str) -> None:
    trainer, learned = TRAINERS[name]
    about = learned.shipped().about
    assert about["command"] == (f"python -m {trainer.TRAINER.command} --games {trainer.GAMES}"
                                f" --seed {trainer.SEED}")
    assert {k: about[k] for k in trainer.TRAINER.settings} == trainer.TRAINER.settings
    assert about["ridge"] == trainer.RIDGE


def test_bad_counts_and_outputs_are_refused_before_any_play(tmp_path: Path) -> None:
    out = str(tmp_path / "w.json")
    for argv in (["--games", "9", "--out", out], ["--measure", "-1", "--out", out],
                 ["--out", str(tmp_path)], ["--out", str(tmp_path / "no" / "w.json")],
                 ["--samples", str(tmp_path), "--out", out],
                 ["--samples", str(tmp_path / "no" / "s.pkl"), "--out", out]):
        with pytest.raises(SystemExit) as refused:
            ono_train.main(argv)
        assert refused.value.code == 2, argv
    assert list(tmp_path.iterdir()) == []
