"""Training Craits' learned value (``bench.craits_train``): the samples are seeded and true
to the play-outs, the fit finds a value the targets follow, and the command refuses bad
input before it plays."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

# bench/ is not an installed package: import it from the checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import craits_train
from games.craits import learned


def test_a_games_samples_are_seeded_and_shaped_as_the_value_reads_them() -> None:
    deal = craits_train.SEED
    first, again = craits_train.play_game(deal), craits_train.play_game(deal)
    assert first == again and first.games and set(first.games) == {deal}
    for rows, targets in zip(first.rows, first.targets, strict=True):
        assert 2 <= len(rows) == len(targets) <= craits_train.CANDIDATES
        assert all(len(r) == len(learned.NAMES) for r in rows)


def _synthetic(decisions: int, rng: random.Random) -> craits_train.Samples:
    """Decisions whose targets are ten times the ``points`` feature, and 0 for ``normal``'s."""
    out = craits_train.Samples()
    points = learned.NAMES.index("points")
    for i in range(decisions):
        rows = [[rng.random() for _ in learned.NAMES] for _ in range(rng.choice((2, 3, 4)))]
        out.games.append(i // 10)
        out.rows.append(rows)
        out.targets.append([10 * r[points] for r in rows])
    return out


def test_the_fit_learns_what_the_targets_follow_and_reports_on_held_out_games() -> None:
    fit = craits_train.fit(_synthetic(600, random.Random(1)), cut=54)
    assert fit.decisions == 540 and fit.held_out == 60
    # it picks the best candidate of nearly every held-out decision (the penalty blurs a
    # near tie or two); normal's value is noise here
    assert fit.best_gain >= fit.learned_gain > 0.98 * fit.best_gain
    assert fit.best_gain > fit.normal_gain + 1


def test_training_writes_a_value_the_player_reads(tmp_path: Path) -> None:
    samples = tmp_path / "samples.pkl"
    played = _synthetic(120, random.Random(2))
    played.games = [craits_train.SEED + g for g in played.games]
    craits_train.pickle.dump(asdict(played), samples.open("wb"))
    out = tmp_path / "weights.json"
    craits_train.main(["--games", "12", "--samples", str(samples), "--out", str(out)])
    value = learned.Value.from_json(json.loads(out.read_text(encoding="utf-8")))
    assert value.about["command"] == (
        f"python -m bench.craits_train --games 12 --seed {craits_train.SEED}")
    assert value.about["decisions"] == 100  # games before the last tenth
    assert np.isfinite(value.weights).all()
    # samples of other deals are refused, not fitted
    with pytest.raises(SystemExit, match="outside"):
        craits_train.main(["--games", "5000", "--seed", "0", "--samples", str(samples),
                           "--out", str(out)])


def test_the_shipped_value_is_what_the_default_command_writes() -> None:
    about = learned.shipped().about
    assert about["command"] == (f"python -m bench.craits_train --games {craits_train.GAMES}"
                                f" --seed {craits_train.SEED}")
    assert (about["sampled"], about["candidates"], about["shuffles"], about["ridge"]) == (
        craits_train.SAMPLED, craits_train.CANDIDATES, craits_train.SHUFFLES,
        craits_train.RIDGE)


def test_bad_counts_and_outputs_are_refused_before_any_play(tmp_path: Path) -> None:
    out = str(tmp_path / "w.json")
    for argv in (["--games", "9", "--out", out], ["--measure", "-1", "--out", out],
                 ["--out", str(tmp_path)], ["--out", str(tmp_path / "no" / "w.json")]):
        with pytest.raises(SystemExit) as refused:
            craits_train.main(argv)
        assert refused.value.code == 2, argv
    assert list(tmp_path.iterdir()) == []
