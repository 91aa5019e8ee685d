"""Training Gin Rummy's learned evaluation (``bench.gin_train``) on a few hands: seeded,
whatever the worker count, and its samples and weights in the shape the player reads."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

# bench/ is not an installed package: import it from the checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import gin_train
from games.gin_rummy import features, learned


def test_the_played_samples_are_seeded_and_cover_every_net() -> None:
    first = gin_train.generate(3, seed=5, jobs=1, opponents=("self", "normal", "eager"))
    again = gin_train.generate(3, seed=5, jobs=1, opponents=("self", "normal", "eager"))
    assert first.rows == again.rows and first.targets == again.targets
    assert all(first.rows[k] for k in learned.KINDS)  # hand 0 is self-play: both seats learn
    for k in learned.KINDS:
        assert all(len(r) == len(features.NAMES) for r in first.rows[k])
        assert all(math.isfinite(t) for t in first.targets[k])
        assert set(first.hands[k]) <= {0, 1, 2}


def test_training_writes_weights_the_player_loads(tmp_path: Path) -> None:
    out = tmp_path / "evaluation.json"
    samples = tmp_path / "samples.pkl"
    gin_train.main(["--hands", "3", "--seed", "5", "--out", str(out), "--samples", str(samples)])
    first = out.read_text(encoding="utf-8")
    gin_train.main(["--hands", "3", "--seed", "5", "--out", str(out), "--samples", str(samples)])
    assert out.read_text(encoding="utf-8") == first  # refitted from the kept samples: the same
    ev = learned.Evaluation.from_json(json.loads(first))
    assert ev.about["command"] == (
        "python -m bench.gin_train --hands 3 --seed 5 --opponents normal,eager")
    assert set(ev.nets) == set(learned.KINDS)


def test_the_opponents_can_be_chosen_and_the_command_records_them(tmp_path: Path) -> None:
    eager_only = gin_train.generate(2, seed=5, jobs=1, opponents=("eager",))
    mixed = gin_train.generate(2, seed=5, jobs=1)
    assert eager_only.rows != mixed.rows  # hand 0 is against normal by default, eager here
    out = tmp_path / "evaluation.json"
    gin_train.main(["--hands", "2", "--seed", "5", "--opponents", "self,eager", "--out", str(out)])
    about = json.loads(out.read_text(encoding="utf-8"))["about"]
    assert about["command"] == "python -m bench.gin_train --hands 2 --seed 5 --opponents self,eager"
    assert about["opponents"] == ["self", "eager"]


def test_an_unknown_opponent_is_refused() -> None:
    with pytest.raises(SystemExit):
        gin_train.main(["--hands", "1", "--opponents", "normal,random"])


def test_the_defaults_are_the_shipped_weights_command() -> None:
    """``python -m bench.gin_train`` with no options writes the shipped file: its defaults
    are the command the file records."""
    about = learned.shipped().about
    assert about["command"] == (
        f"python -m bench.gin_train --hands {gin_train.HANDS} --seed {gin_train.SEED}"
        f" --opponents {','.join(gin_train.OPPONENTS)}")
    assert about["opponents"] == list(gin_train.OPPONENTS)


@pytest.mark.parametrize("args", [
    ["--hands", "0"], ["--hands", "many"], ["--out", "{tmp}"], ["--out", "{tmp}/no/such.json"],
    ["--samples", "{tmp}"],
])
def test_bad_arguments_are_refused_in_one_line_before_any_play(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        gin_train.main(["--hands", "1", *[a.format(tmp=tmp_path) for a in args]])
    err = capsys.readouterr().err
    assert "error: argument --hands" in err or "error: --" in err, err
    assert "Traceback" not in err


def test_a_file_that_holds_no_samples_is_named(tmp_path: Path) -> None:
    junk = tmp_path / "samples.pkl"
    junk.write_text("not samples", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"does not hold bench\.gin_train's samples"):
        gin_train.main(["--hands", "3", "--samples", str(junk), "--out", str(tmp_path / "e.json")])


def test_too_few_hands_to_fit_say_so() -> None:
    with pytest.raises(SystemExit, match="too few hands"):
        gin_train.train(1, seed=5, jobs=1)
