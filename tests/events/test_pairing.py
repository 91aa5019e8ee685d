"""Swiss and round-robin pairing, partnerships and tie-breaks (pure, no database)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services.events.pairing import (
    BYE_POINTS,
    DRAW,
    LOSS,
    WIN,
    Entrant,
    Pairing,
    Result,
    opponents,
    partnerships,
    round_robin,
    standings,
    swiss_round,
)


def matchings(players: Sequence[Entrant]) -> Iterator[list[tuple[Entrant, Entrant]]]:
    """Every way to split an even number of players into pairs."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in matchings([*rest[:i], *rest[i + 1:]]):
            yield [(first, other), *tail]


def rematch_free_exists(
    seeds: Sequence[Entrant], results: Sequence[Result]
) -> bool:
    """Brute force: a pairing with no rematch and a bye the bye rule allows."""
    met = opponents(results)
    byes = Counter(r.a for r in results if r.b is None)
    fewest = min(byes[e] for e in seeds)
    choices = [e for e in seeds if byes[e] == fewest] if len(seeds) % 2 else [None]
    for bye in choices:
        rest = [e for e in seeds if e != bye]
        for m in matchings(rest):
            if all(b not in met[a] for a, b in m):
                return True
    return False


def play(round_no: int, pairings: list[Pairing], rng: random.Random) -> list[Result]:
    return [
        Result.bye(round_no, p.a) if p.b is None
        else Result(round_no, p.a, p.b, rng.choice([WIN, DRAW, LOSS]))
        for p in pairings
    ]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_swiss_properties(n: int, rounds: int, seed: int) -> None:
    """Per round: everyone paired or given the bye exactly once; a bye only when the count
    is odd, to someone without one while anyone is; no rematch while a rematch-free
    pairing exists (checked by brute force)."""
    rng = random.Random(seed)
    seeds = list(range(100, 100 + n))
    results: list[Result] = []
    for r in range(1, rounds + 1):
        pairs = swiss_round(seeds, results)
        seen = [e for p in pairs for e in (p.a, p.b) if e is not None]
        assert sorted(seen) == seeds
        byes_now = [p.a for p in pairs if p.is_bye]
        assert len(byes_now) == n % 2
        had = Counter(x.a for x in results if x.b is None)
        for b in byes_now:
            assert had[b] == min(had[e] for e in seeds)  # byes spread
        met = opponents(results)
        rematches = [p for p in pairs if p.b is not None and p.b in met[p.a]]
        if rematches:
            assert not rematch_free_exists(seeds, results)
        results += play(r, pairs, rng)
    byes = Counter(x.a for x in results if x.b is None)
    assert max(byes.values(), default=0) - min((byes[e] for e in seeds), default=0) <= 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 14), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_standings_are_a_rebuild_from_the_results(n: int, rounds: int, seed: int) -> None:
    """Standings depend on the set of results only (any order gives the same), points add
    up, and the order follows points, Buchholz, Sonneborn-Berger, seed."""
    rng = random.Random(seed)
    seeds = list(range(n))
    results: list[Result] = []
    for r in range(1, rounds + 1):
        results += play(r, swiss_round(seeds, results), rng)
    table = standings(seeds, results)
    shuffled = results[:]
    rng.shuffle(shuffled)
    assert standings(seeds, shuffled) == table
    assert sum(s.points for s in table) == sum(
        BYE_POINTS if x.b is None else WIN for x in results)
    keys = [(-s.points, -s.buchholz, -s.sonneborn_berger, s.seed) for s in table]
    assert keys == sorted(keys) and [s.rank for s in table] == list(range(1, n + 1))


def test_round_one_is_top_half_against_bottom_half() -> None:
    pairs = swiss_round([1, 2, 3, 4, 5, 6, 7], [])
    assert pairs == [Pairing(1, 4), Pairing(2, 5), Pairing(3, 6), Pairing(7, None)]


def test_score_groups_and_a_floater() -> None:
    """After round 1 (1, 2, 3 won; 4, 5, 6 lost): the winners' group is odd, so its third
    floats down to meet the top of the losers' group; no rematches."""
    seeds = [1, 2, 3, 4, 5, 6]
    results = [Result(1, 1, 4, WIN), Result(1, 2, 5, WIN), Result(1, 3, 6, WIN)]
    assert swiss_round(seeds, results) == [Pairing(1, 2), Pairing(3, 4), Pairing(5, 6)]


def test_the_lowest_ranked_without_a_bye_gets_it() -> None:
    seeds = [1, 2, 3]
    r1 = swiss_round(seeds, [])
    assert r1 == [Pairing(1, 2), Pairing(3, None)]
    results = [Result(1, 1, 2, LOSS), Result.bye(1, 3)]
    # 2 and 3 have a point, 1 has none; 1 is lowest and has had no bye.
    assert swiss_round(seeds, results)[-1] == Pairing(1, None)


def test_a_rematch_only_when_nothing_else_works() -> None:
    seeds = [1, 2]
    results = [Result(1, 1, 2, WIN)]
    assert swiss_round(seeds, results) == [Pairing(1, 2)]


def test_tie_breaks_by_hand() -> None:
    """Four players, two rounds. Round 1: A beats B, C draws D. Round 2: A draws C, D beats B.
    Points: A 1.5, C 1, D 1.5, B 0. Buchholz: A = B + C = 0 + 1 = 1; D = C + B = 1;
    C = D + A = 3; B = A + D = 3. Sonneborn-Berger: A = B·1 + C·½ = 0.5;
    D = C·½ + B·1 = 0.5; so A and D tie on everything but seed: A (seed 1) first."""
    a, b, c, d = 1, 2, 3, 4
    results = [Result(1, a, b, WIN), Result(1, c, d, DRAW),
               Result(2, a, c, DRAW), Result(2, d, b, WIN)]
    table = standings([a, b, c, d], results)
    assert [(s.entrant, s.points, s.buchholz, s.sonneborn_berger) for s in table] == [
        (a, 1.5, 1.0, 0.5), (d, 1.5, 1.0, 0.5), (c, 1.0, 3.0, 1.5), (b, 0.0, 3.0, 0.0)]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_a_bye_adds_points_but_no_buchholz() -> None:
    table = standings([1, 2, 3], [Result(1, 1, 2, WIN), Result.bye(1, 3)])
    by = {s.entrant: s for s in table}
    assert (by[3].points, by[3].buchholz, by[3].byes, by[3].played) == (1.0, 0.0, 1, 0)
    assert by[1].buchholz == 0.0 and by[2].buchholz == 1.0
    assert [s.entrant for s in table] == [1, 3, 2]  # 1 and 3 equal on points and Buchholz 0


@pytest.mark.parametrize("n", range(2, 12))
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    seeds = list(range(10, 10 + n))
    rounds = round_robin(seeds)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met: Counter[frozenset[int]] = Counter()
    for r in rounds:
        seen = sorted(e for p in r for e in (p.a, p.b) if e is not None)
        assert seen == seeds
        assert sum(p.is_bye for p in r) == n % 2
        met.update(frozenset((p.a, p.b)) for p in r if p.b is not None)
    assert set(met) == {frozenset(x) for x in itertools.combinations(seeds, 2)}
    assert set(met.values()) == {1}
    if n % 2:
        assert sorted(p.a for r in rounds for p in r if p.is_bye) == seeds


def test_partnerships_join_strong_and_weak() -> None:
    assert partnerships([1, 2, 3, 4, 5, 6]) == [(1, 6), (2, 5), (3, 4)]
    with pytest.raises(ValueError, match="even"):
        partnerships([1, 2, 3])


def test_a_withdrawn_entrant_keeps_results_but_is_not_paired() -> None:
    seeds = [1, 2, 3, 4]
    results = [Result(1, 1, 3, WIN), Result(1, 2, 4, WIN)]
    pairs = swiss_round(seeds, results, withdrawn={2})
    assert pairs == [Pairing(1, 4), Pairing(3, None)]  # 4 is lowest, but 1 met 3: 3 sits out
    assert swiss_round(seeds, results, withdrawn={1, 2, 3, 4}) == []
