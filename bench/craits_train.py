"""Train Craits' learned value of a play (``games/craits/learned.py``) and write its weights.

    python -m bench.craits_train [--games N] [--seed S] [--jobs 2] [--out PATH] [--samples PATH]

It plays ``N`` four-player games (the ``short`` option: rounds of 8 cards down to 1) of
``normal`` in every seat, deals ``S`` to ``S + N - 1`` (far from the deals
``bench.strength`` measures on). At a share (``SAMPLED``) of the turns with more than one
candidate play (``learned.candidates``; not during the crank, nor when someone may
announce or call out), up to ``CANDIDATES`` of them (at random) are each played on to the
end of the round from the real position, ``SHUFFLES`` times with the draw pile reshuffled
(the same shuffles for every candidate), by ``normal`` for every seat
(``expert.playout``), and scored as the game scores it (``search.standing``: the round
points the others took on average minus mine). A candidate's target is its mean.

The fit (ridge ``RIDGE``), the held-out report (in round points), ``--samples`` and
``--measure`` (the value alone, ``learned.choose``, against three ``normal`` players) are
``bench.distill``'s. The defaults write the shipped ``weights.json``; BENCHMARKS.md gives
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
from games.craits import expert, learned
from games.craits.state import CraitsState
from games.learned_value import Value
from games.search import Meter

#: The shipped weights' games and first deal (``python -m bench.craits_train`` writes them).
GAMES = 1_600
SEED = 2_000_000
PLAYERS = 4
#: The share of turns with a choice whose candidates are played out.
SAMPLED = 0.3
#: The most candidates played out at one turn.
CANDIDATES = 4
#: Play-outs per candidate (each with the draw pile reshuffled).
SHUFFLES = 4
#: Ridge penalty on the standardized columns.
RIDGE = 1000.0


def play_game(deal: int) -> Samples:
    """The samples of one game of ``normal`` (see the module docstring)."""
    game = games.get("craits")
    state = game.new(PLAYERS, seed=deal, options={"short": True})
    rng = random.Random(f"craits_train:{deal}")
    out = Samples()
    while not state.is_over:
        seat = state.to_act[0]
        legal = game.legal_actions(state, seat)
        if (state.current == seat and not state.crank and rng.random() < SAMPLED
                and not any(a.split()[0] in ("announce", "callout") for a in legal)):
            view = game.view(state, seat)
            plays = learned.candidates(view, legal)
            if len(plays) > CANDIDATES:
                plays = rng.sample(plays, CANDIDATES)
            if len(plays) > 1:
                shuffles = [rng.getrandbits(32) for _ in range(SHUFFLES)]
                out.put(deal, learned.rows(view, plays).tolist(),
                        distill.targets(game, state, seat, plays, shuffles, "draw_pile", _on))
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
    return out


def _on(world: State, root: State, rng: random.Random) -> State:
    assert isinstance(world, CraitsState) and isinstance(root, CraitsState)
    return expert.playout(world, root, rng, Meter())


def _player(value: Value) -> paired.Policy:
    return partial(learned.choose, value=value)


TRAINER = distill.Trainer(
    command="bench.craits_train", names=learned.NAMES, play_game=play_game, games=GAMES,
    seed=SEED, ridge=RIDGE,
    settings={"sampled": SAMPLED, "candidates": CANDIDATES, "shuffles": SHUFFLES},
    shipped=Path(learned.__file__).with_name(learned.WEIGHTS),
    table=paired.Table("craits", PLAYERS, "craits_train", {"short": True}), player=_player,
    cost="BENCHMARKS.md, \"Craits' learned value\"",
)


def main(argv: Sequence[str] | None = None) -> None:
    distill.main(TRAINER, __doc__ or "", argv)


if __name__ == "__main__":
    main()
