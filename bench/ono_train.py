"""Train ONO 99's learned value of a play (``games/ono99/learned.py``) and write its weights.

    python -m bench.ono_train [--games N] [--seed S] [--jobs 2] [--out PATH] [--samples PATH]
                              [--measure D [--measure-first F]]

It plays ``N`` four-player games (default options: elimination) of ``normal`` in every
seat, deals ``S`` to ``S + N - 1`` (far from the deals ``bench.strength`` and
``bench.ono_tune`` measure on). At a share (``SAMPLED``) of the turns with more than one
card to play (not a swap), each card is played on to the end of the round (in elimination,
the game) from the real position, ``SHUFFLES`` times with the draw pile reshuffled (the
same shuffles for every card), by ``normal`` for every seat, and scored by the game's own
standings (``search.standing``: how much the seat gained on the others' average). A card's
target is its mean.

The fit (ridge ``RIDGE``), the held-out report (in points of the standings), ``--samples``
and ``--measure`` (the value alone, ``learned.choose``, against three ``normal`` players)
are ``bench.distill``'s. The defaults write the shipped ``value.json``; BENCHMARKS.md gives
the time it takes and what it measured.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import games
from bench import distill, paired
from bench.distill import Samples
from games.base import State
from games.learned_value import Value
from games.ono99 import expert, learned
from games.search import rollout

#: The shipped weights' games and first deal (``python -m bench.ono_train`` writes them).
GAMES = 9_000
SEED = 3_000_000
PLAYERS = 4
#: The share of turns with a choice whose cards are played out.
SAMPLED = 0.5
#: Play-outs per card (each with the draw pile reshuffled).
SHUFFLES = 4
#: Ridge penalty on the standardized columns.
RIDGE = 60_000.0
#: The most moves a play-out makes.
HORIZON = 5_000


def play_game(deal: int) -> Samples:
    """The samples of one game of ``normal`` (see the module docstring)."""
    game = games.get("ono99")
    state = game.new(PLAYERS, seed=deal)
    rng = random.Random(f"ono_train:{deal}")
    out = Samples()
    while not state.is_over:
        seat = state.to_act[0]
        legal = game.legal_actions(state, seat)
        plays = learned.candidates(legal)
        if len(plays) > 1 and "swap" not in legal and rng.random() < SAMPLED:
            view = game.view(state, seat)
            shuffles = [rng.getrandbits(32) for _ in range(SHUFFLES)]
            out.put(deal, learned.rows(view, plays).tolist(),
                    distill.targets(game, state, seat, plays, shuffles, "draw", _on))
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
    return out


def _on(world: State, root: State, rng: random.Random) -> State:
    return rollout(games.get("ono99"), world, root, expert.round_over, "normal", rng, HORIZON)


def _player(value: Value) -> paired.Policy:
    return partial(learned.choose, value=value)


TRAINER = distill.Trainer(
    command="bench.ono_train", names=learned.NAMES, play_game=play_game, games=GAMES,
    seed=SEED, ridge=RIDGE, settings={"sampled": SAMPLED, "shuffles": SHUFFLES},
    shipped=Path(learned.__file__).with_name(learned.WEIGHTS),
    table=paired.Table("ono99", PLAYERS, "ono_train"), player=_player,
    cost="BENCHMARKS.md, \"ONO 99's learned value\"",
)


def main(argv: Sequence[str] | None = None) -> None:
    distill.main(TRAINER, __doc__ or "", argv)


if __name__ == "__main__":
    main()
