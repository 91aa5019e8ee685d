"""Determinized search (PIMC) for the ``expert`` computer players, shared by every game.

Perfect-information Monte Carlo: sample ``worlds`` full states consistent with the seat's
view (``Game.world``), try every candidate move in each, play each world out with a fast
policy (``normal`` by default) until ``done``, and score the end with ``value``. The move
with the best total wins; ties go to the earlier candidate. Each move of a world is
rolled out with the same generator seed (common random numbers), so moves are compared on
the same futures. Everything is drawn from the ``rng`` passed in: a search is
deterministic for a given generator state.

The strength is in what the worlds look like (``deal``'s weights and voids) and what the
value counts, not in the number of rollouts; a fixed budget of rollouts per decision (and,
where play-outs can run long, of the moves they make) keeps decisions reproducible and
bounded in time.
"""

from __future__ import annotations

import contextvars
import functools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Game, S, State, View

#: Deals tried before ``deal`` drops a restriction it cannot meet.
DEAL_ATTEMPTS = 8
#: Scores a finished rollout for ``seat``: ``value(root, end, seat)``.
Value = Callable[[Any, Any, int], float]
#: Whether a rollout that started at ``root`` has gone far enough: ``done(root, now)``.
Done = Callable[[Any, Any], bool]
#: Draws a full state consistent with a seat's view: ``sample(view, rng)``.
Sampler = Callable[[View, random.Random], Any]
#: Plays a candidate's state on to where ``value`` scores it: ``playout(after, world, rng)``.
Playout = Callable[[Any, Any, random.Random], Any]


def deal(
    pool: Iterable[str],
    sizes: Sequence[int],
    rng: random.Random,
    *,
    allowed: Sequence[Callable[[str], bool] | None] | None = None,
    weight: Sequence[Callable[[str], float] | None] | None = None,
) -> list[list[str]]:
    """Deal ``pool`` into slots of ``sizes`` (they must add up to the pool's size).

    ``allowed[i]`` restricts slot ``i`` (e.g. no card of a suit its owner showed void in),
    ``weight[i]`` makes some cards likelier in it (weighted sampling without replacement).
    The most constrained slots are filled first; when the cards chosen for one slot leave
    too few for a later one's restriction, the deal starts again (up to ``DEAL_ATTEMPTS``
    times), and on the last try a restriction that cannot be met is dropped rather than
    failing. The pool is sorted first, so the deal depends only on the
    set of cards and ``rng`` — never on where the hidden cards really are.
    """
    ordered = sorted(pool)
    if len(ordered) != sum(sizes):
        raise ValueError(f"cannot deal {len(ordered)} cards into {sum(sizes)} places")
    n = len(sizes)
    allow = list(allowed or [None] * n)
    weigh = list(weight or [None] * n)

    def slack(i: int) -> int:
        rule = allow[i]
        return (sum(map(rule, ordered)) if rule else len(ordered)) - sizes[i]

    order = sorted(range(n), key=slack)
    for attempt in range(1, DEAL_ATTEMPTS + 1):
        out: list[list[str]] = [[] for _ in sizes]
        left = ordered
        kept = True
        for i in order:
            rule, w = allow[i], weigh[i]
            fits = [k for k, c in enumerate(left) if rule(c)] if rule else list(range(len(left)))
            if len(fits) < sizes[i]:
                if attempt < DEAL_ATTEMPTS:
                    kept = False
                    break
                fits = list(range(len(left)))
            if w is None:
                chosen = rng.sample(fits, sizes[i])
            else:
                keys = {k: rng.random() ** (1.0 / w(left[k])) for k in fits}
                chosen = sorted(fits, key=keys.__getitem__, reverse=True)[: sizes[i]]
            out[i] = [left[k] for k in chosen]
            taken = set(chosen)
            left = [c for k, c in enumerate(left) if k not in taken]
        if kept:
            break
    return out


def fitted(sample: Sampler, misfit: Callable[[Any], float], tries: int) -> Sampler:
    """A sampler that draws up to ``tries`` worlds with ``sample`` and keeps the one
    ``misfit`` scores lowest (how badly the world explains what the others did, e.g. their
    bids; the first on ties), stopping at the first perfect fit (0). Each world still
    comes from the view alone, so the kept one cannot read a hidden card either."""

    def draw(view: View, rng: random.Random) -> Any:
        best, best_misfit = None, math.inf
        for _ in range(tries):
            world = sample(view, rng)
            score = misfit(world)
            if score < best_misfit:
                best, best_misfit = world, score
            if score <= 0:
                break
        return best

    return draw


@dataclass
class Meter:
    """The moves play-outs have made: a search's work, for a budget in moves."""

    moves: int = 0


def rollout(
    game: Game[Any], state: S, root: S, done: Done, level: str, rng: random.Random,
    horizon: int | None = None, meter: Meter | None = None,
) -> S:
    """Play ``state`` on with ``level`` players until ``done(root, state)``, the game ends or
    ``horizon`` moves were made (counted on ``meter`` if given)."""
    moves = 0
    while not state.is_over and not done(root, state):
        if horizon is not None and moves >= horizon:
            break
        seat = state.to_act[0]
        state = game.advance(state, seat, game.choose(state, seat, level, rng))
        moves += 1
    if meter is not None:
        meter.moves += moves
    return state


def pimc(
    game: Game[Any],
    view: View,
    candidates: Sequence[str],
    rng: random.Random,
    *,
    worlds: int,
    value: Value,
    done: Done,
    default: str | None = None,
    confidence: float = 1.0,
    rollout_level: str = "normal",
    horizon: int | None = None,
    sample: Sampler | None = None,
    playout: Playout | None = None,
    max_moves: int | None = None,
    chance: bool = False,
    meter: Meter | None = None,
) -> str:
    """The candidate move with the best total value over ``worlds`` sampled worlds.

    With a ``default`` move (the fast policy's own choice, which must be a candidate) the
    search only overrides it when the best move's gain over it, world by world, is more
    than ``confidence`` standard errors above zero: a few noisy rollouts must not talk a
    sound player out of its move. ``sample`` draws the worlds (``game.world`` unless
    given, e.g. a ``fitted`` one); ``playout`` replaces ``rollout`` (with ``done``,
    ``rollout_level`` and ``horizon``), e.g. to share play-outs that cannot differ.
    With ``max_moves``, no world is drawn that would take the play-outs past that many
    moves (judged by the worlds so far; counted by ``rollout``, or by a ``playout`` on the
    ``meter`` given): a decision whose play-outs run long (a big table, full hands) weighs
    fewer worlds instead of taking longer, and keeps ``default`` when not even two fit.
    ``chance`` says ``value`` is a chance of winning the game (0 to 1), not points (for the
    ranking ``advise`` reports).
    """
    if len(candidates) == 1:
        return candidates[0]
    seat: int = view["seat"]
    draw = sample or game.world
    meter = meter or Meter()

    def play(after: State, world: State, rng: random.Random) -> State:
        return rollout(game, after, world, done, rollout_level, rng, horizon, meter)

    play_out = playout or play
    scores: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        done_worlds = len(scores[0])
        over = max_moves is not None and meter.moves * (done_worlds + 1) > max_moves * done_worlds
        if done_worlds and over:
            break  # the next world would take the play-outs past the budget
        world = draw(view, rng)
        seed = rng.getrandbits(64)
        for i, action in enumerate(candidates):
            end = play_out(game.advance(world, seat, action), world, random.Random(seed))
            scores[i].append(value(world, end, seat))
    totals = [sum(s) for s in scores]
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    chosen = candidates[best]
    if default is not None and len(scores[0]) < 2:
        chosen = default  # one world cannot outweigh the fast policy
    elif default is not None and chosen != default:
        base = scores[candidates.index(default)]
        gains = [a - b for a, b in zip(scores[best], base, strict=True)]
        if not significant(gains, confidence):
            chosen = default
    record = _RECORDS.get()
    if record is not None:  # someone asked why (``advise``)
        n = len(scores[0])
        record.append(Ranking(chosen, _means(candidates, totals, n), n, chance))
    return chosen


def significant(gains: Sequence[float], confidence: float) -> bool:
    """Whether the mean of ``gains`` is more than ``confidence`` standard errors above 0."""
    n = len(gains)
    mean = sum(gains) / n
    if n < 2:
        return mean > 0
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return bool(mean > confidence * math.sqrt(var / n))


def _means(
    candidates: Sequence[str], totals: Sequence[float], worlds: int
) -> tuple[tuple[str, float], ...]:
    """Every candidate with its mean value, best first."""
    means = [(a, t / worlds) for a, t in zip(candidates, totals, strict=True)]
    return tuple(sorted(means, key=lambda m: -m[1]))


@dataclass(frozen=True)
class Ranking:
    """One search's verdict: the move chosen, every candidate with its mean value over
    the worlds (best first), how many worlds were played out, and whether the values are
    chances of winning the game (else points)."""

    chosen: str
    means: tuple[tuple[str, float], ...]
    worlds: int
    chance: bool = False


@dataclass(frozen=True)
class Advice:
    """The move ``expert`` would make, its last search's ranking (``None`` when the move
    needed no search: the only sensible one, or the fast policy's own), and the rule of
    thumb that makes it (``Game.explain``; ``""`` when ``normal`` would play otherwise)."""

    move: str
    ranking: Ranking | None
    reason: str = ""


_RECORDS: contextvars.ContextVar[list[Ranking] | None] = contextvars.ContextVar(
    "search_records", default=None
)


def advise(game: Game[Any], state: State, seat: int, rng: random.Random) -> Advice:
    """What ``expert`` plays for ``seat`` and why (its search's ranking), for hints: the
    move is the one ``game.choose(state, seat, "expert", rng)`` makes."""
    token = _RECORDS.set([])
    try:
        move = game.choose(state, seat, "expert", rng)
        found = _RECORDS.get() or []
    finally:
        _RECORDS.reset(token)
    ranking = found[-1] if found and found[-1].chosen == move else None
    reason = game.explain(game.view(state, seat), game.legal_actions(state, seat), move)
    return Advice(move, ranking, reason)


def budget(rollouts: int, candidates: int, least: int = 2, most: int = 32) -> int:
    """Worlds for a fixed budget of ``rollouts`` shared by ``candidates`` moves."""
    return max(least, min(most, rollouts // max(1, candidates)))


@functools.cache
def race(need: int, other: int, hand: tuple[tuple[int, int], ...]) -> float:
    """The chance of being first to a target when I still need ``need`` points and the other
    side ``other``, if from now on each hand is won by either side alike and the winner
    scores as ``hand`` says: (points, how often) pairs, 0 points for a hand nobody wins."""
    if need <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    scored = [(p, w) for p, w in hand if p > 0]
    total = sum(w for _, w in scored)
    return sum(
        w * (race(need - p, other, hand) + race(need, other - p, hand)) for p, w in scored
    ) / (2 * total)


def standing(game: Game[Any]) -> Value:
    """A value for games scored seat by seat: how much my score (``outcome().scores``)
    gained on the other seats' average (signed so that more is better when the lowest
    score wins)."""

    def value(root: State, end: State, seat: int) -> float:
        before, after = game.outcome(root).scores, game.outcome(end).scores
        gains = [a - b for a, b in zip(after, before, strict=True)]
        others = sum(gains) - gains[seat]
        sign = 1.0 if game.higher_scores_win(root.options) else -1.0
        return sign * (gains[seat] - others / (len(gains) - 1))

    return value
