"""The reference engines, OpenSpiel and RLCard, doing the same work as ``bench.engines``.

Both are optional imports (they live only in the benchmark environment, ``bench/.venv``);
``available()`` says which ones import here, with the error when one does not.

What a *hand* is in each:

* OpenSpiel ``gin_rummy`` (one game = one hand): the deal is 21 chance actions (one per
  card) plus the upcard; the first-turn upcard offer; draws and discards until a knock or
  the wall (2 stock cards); after a knock both players lay melds and the defender lays
  off, one action at a time; then the hand is scored and the state is terminal.
* RLCard ``gin_rummy`` at the Game level: ``init_game`` shuffles and deals 11 cards to the
  non-dealer and 10 to the dealer (no upcard offer: the non-dealer discards first); draw
  or pick up, discard, knock or gin, or declare a dead hand when 2 stock cards are left;
  then two scoring actions (``ScoreNorthPlayerAction``, ``ScoreSouthPlayerAction``) and
  ``is_over()``. Lay-offs are computed by its scorer, not played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from bench.engines import Rate


def available() -> dict[str, str | None]:
    """Reference engine → ``None`` if it imports here, else the import error."""
    out: dict[str, str | None] = {}
    for name, module in (("OpenSpiel", "pyspiel"), ("RLCard", "rlcard.games.gin_rummy.game")):
        try:
            __import__(module)
        except Exception as exc:  # any failure to import means "not available"
            out[name] = f"{type(exc).__name__}: {exc}"
        else:
            out[name] = None
    return out


def versions() -> dict[str, str]:
    """Installed versions of the reference engines (and numpy, which RLCard uses)."""
    from importlib import metadata

    out = {}
    for dist in ("open_spiel", "rlcard", "numpy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


# -- OpenSpiel ----------------------------------------------------------------------------
def openspiel_cpp_hands(hands: int, seed: int = 0) -> Rate:
    """Hands per second with ``pyspiel.evaluate_bots`` and uniform random bots (the whole
    hand, chance included, is played in C++)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(2)]
    t0 = time.perf_counter()
    for i in range(hands):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return Rate(hands, time.perf_counter() - t0)


def openspiel_python_hands(hands: int, seed: int = 0) -> tuple[Rate, float]:
    """Hands per second with a Python loop over ``legal_actions`` / ``apply_action``
    (chance outcomes sampled uniformly in Python too); also mean actions per hand."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
    return Rate(hands, time.perf_counter() - t0), actions / hands


def openspiel_deadwood(hands: Sequence[Sequence[str]]) -> tuple[Rate, list[int]]:
    """``GinRummyUtils.min_deadwood`` on 11-card hands (the least deadwood after the best
    discard), in C++ through pybind11. Cards are converted before timing."""
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    native = [[utils.card_int(c[0] + c[1].lower()) for c in h] for h in hands]
    t0 = time.perf_counter()
    values = [utils.min_deadwood(h) for h in native]
    return Rate(len(hands), time.perf_counter() - t0), values


# -- RLCard -------------------------------------------------------------------------------
def rlcard_hands(hands: int, seed: int = 0) -> tuple[Rate, float]:
    """Hands per second at RLCard's Game level with uniformly random legal actions; also
    mean actions per hand (scoring actions included)."""
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            actions += 1
    return Rate(hands, time.perf_counter() - t0), actions / hands


def rlcard_deadwood(hands: Sequence[Sequence[str]]) -> tuple[Rate, list[int]]:
    """Least deadwood after the best discard of 11-card hands with RLCard's own melding:
    ``melding.get_meld_clusters`` (every set of disjoint melds), then, as its judge does
    for going out, the unmelded cards minus the highest one. Cards converted before timing.
    """
    from rlcard.games.gin_rummy.utils import melding, utils

    native = [[utils.card_from_text(c) for c in h] for h in hands]
    t0 = time.perf_counter()
    values = [_rlcard_best_discard(h, melding, utils) for h in native]
    return Rate(len(hands), time.perf_counter() - t0), values


def _rlcard_best_discard(hand: list[Any], melding: Any, utils: Any) -> int:
    value = utils.get_deadwood_value
    best: int = sum(value(c) for c in hand) - max(value(c) for c in hand)
    for cluster in melding.get_meld_clusters(hand=hand):
        melded = {c for pile in cluster for c in pile}
        left = [value(c) for c in hand if c not in melded]
        best = min(best, sum(left) - max(left, default=0))
    return best
