"""Pairing an event's entrants — players, or partnerships in a 4-seat game — and ranking them.

Pure: entrants are ints (user ids, or team numbers of ``partnerships``), ``seeds`` lists
them best first, and everything is computed from the recorded ``Result``s, so standings are
always a rebuild from the results.

Decisions:
* **Points**: a win 1, a draw ½, a loss 0; a bye is worth ``BYE_POINTS`` (1, a win).
* **Standings order** (ranks never shared): points, then **Buchholz** (the sum of the
  current points of every opponent met; a bye adds nothing), then **Sonneborn-Berger**
  (the points of each opponent beaten plus half the points of each opponent drawn; a bye
  adds nothing), then seeding (the earlier seed first).
* **Swiss** (``swiss_round``): entrants are taken in standings order. With an odd number
  one gets the bye: the lowest-ranked of those with the fewest byes so far (so nobody
  gets a second bye while anyone has had none: byes are spread). The rest are paired
  top down within **score groups**, Dutch style: in a group of n the i-th meets the
  (i + n//2)-th; an entrant that cannot be paired in its group **floats** down and meets
  the highest entrant of the next group. **No repeat
  opponents while possible** (the bye rule coming first): the search backtracks (other
  opponents, then the next bye candidate) until it finds a pairing without a rematch, and
  allows rematches only when no such pairing exists, preferring fresh opponents even then.
* **Round robin** (``round_robin``): the circle method. Entrant 0 stays, the others turn
  one place a round; with an odd number a ``None`` slot gives a bye. n entrants play
  n−1 rounds (n rounds when odd) and everyone meets everyone once; the fixed entrant
  is named first and second in turn.
* **Partnerships** (Back Alley): ``partnerships`` joins players into fixed teams, the
  strongest seed with the weakest (1 and n, 2 and n−1, …), and the teams are paired as
  entrants.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from i18n import Message

Entrant = int

#: Points for a win, a draw and a bye.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE_POINTS = WIN


@dataclass(frozen=True)
class Pairing:
    """One table of a round: ``a`` against ``b`` (``a`` named first), or ``a``'s bye."""

    a: Entrant
    b: Entrant | None

    @property
    def is_bye(self) -> bool:
        """This is a bye, not a game."""
        return self.b is None


@dataclass(frozen=True)
class Result:
    """A finished pairing: ``a`` scored ``points`` (``WIN``, ``DRAW`` or ``LOSS``; a bye's
    is ``BYE_POINTS``) and ``b`` the rest of one point."""

    round: int
    a: Entrant
    b: Entrant | None
    points: float

    @classmethod
    def bye(cls, round_no: int, entrant: Entrant) -> Result:
        """A bye in that round."""
        return cls(round_no, entrant, None, BYE_POINTS)


@dataclass(frozen=True)
class Standing:
    """An entrant's place (1 = first) and the numbers that decided it. ``points`` are game
    points, or matchpoints in a duplicate event (whose tie-break columns stay 0); an
    event's standings name the entrant's players (``names``: pairing knows none)."""

    rank: int
    entrant: Entrant
    points: float
    buchholz: float
    sonneborn_berger: float
    seed: int
    played: int
    byes: int
    names: tuple[str | Message, ...] = ()

    @property
    def side(self) -> str:
        """The entrant's players as one side, in the language spoken: ``Ann & Cy``."""
        return " & ".join(map(str, self.names))


def opponents(results: Iterable[Result]) -> dict[Entrant, set[Entrant]]:
    """Whom each entrant has met (byes are not opponents)."""
    met: dict[Entrant, set[Entrant]] = defaultdict(set)
    for r in results:
        if r.b is not None:
            met[r.a].add(r.b)
            met[r.b].add(r.a)
    return met


def standings(seeds: Sequence[Entrant], results: Iterable[Result]) -> list[Standing]:
    """Every seeded entrant in standings order (see the module docstring)."""
    done = list(results)
    points = dict.fromkeys(seeds, 0.0)
    games: dict[Entrant, list[tuple[Entrant, float]]] = {e: [] for e in seeds}
    byes = dict.fromkeys(seeds, 0)
    for r in done:
        points[r.a] += r.points
        if r.b is None:
            byes[r.a] += 1
            continue
        points[r.b] += WIN - r.points
        games[r.a].append((r.b, r.points))
        games[r.b].append((r.a, WIN - r.points))
    seed_of = {e: i + 1 for i, e in enumerate(seeds)}

    def numbers(e: Entrant) -> tuple[float, float]:
        buchholz = sum(points[o] for o, _ in games[e])
        sb = sum(points[o] * mine for o, mine in games[e])
        return buchholz, sb

    rows = [(e, points[e], *numbers(e)) for e in seeds]
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], seed_of[row[0]]))
    return [
        Standing(i + 1, e, p, bh, sb, seed_of[e], len(games[e]), byes[e])
        for i, (e, p, bh, sb) in enumerate(rows)
    ]


def swiss_round(
    seeds: Sequence[Entrant], results: Iterable[Result], withdrawn: Collection[Entrant] = ()
) -> list[Pairing]:
    """The next Swiss round (see the module docstring): the tables in standings order of
    their first-named entrant, then the bye if there is one. ``withdrawn`` entrants keep
    their results (their opponents' tie-breaks count them) but are paired no more."""
    done = list(results)
    table = [s for s in standings(seeds, done) if s.entrant not in withdrawn]
    order = [s.entrant for s in table]
    points = {s.entrant: s.points for s in table}
    met = opponents(done)
    fewest = min((s.byes for s in table), default=0)
    candidates: list[Entrant | None] = (
        [s.entrant for s in reversed(table) if s.byes == fewest] if len(order) % 2 else [None]
    )
    for strict in (True, False):
        failed: set[frozenset[Entrant]] = set()  # impossible remainders, whoever has the bye
        for bye in candidates:
            rest = [e for e in order if e != bye]
            pairs = _pair(rest, points, met, strict, failed)
            if pairs is not None:
                return pairs + ([Pairing(bye, None)] if bye is not None else [])
    raise AssertionError("a relaxed pairing always exists")  # pragma: no cover


def _pair(
    rest: list[Entrant], points: dict[Entrant, float], met: dict[Entrant, set[Entrant]],
    strict: bool, failed: set[frozenset[Entrant]],
) -> list[Pairing] | None:
    """Pair ``rest`` (in standings order) top down; None when ``strict`` (no rematch) makes
    it impossible. ``failed`` remembers remainders known to be impossible."""
    if not rest:
        return []
    key = frozenset(rest)
    if key in failed:
        return None
    top, others = rest[0], rest[1:]
    group = [e for e in others if points[e] == points[top]]
    half = (len(group) + 1) // 2  # top is the group's first: its Dutch partner is group[half - 1]
    preferred = [*group[half - 1:], *reversed(group[:half - 1])] if group else []
    below = others[len(group):]  # standings order: the group comes first
    ranked = [*preferred, *below]
    if not strict:  # fresh opponents first even when a rematch must be allowed
        ranked.sort(key=lambda e: e in met[top])
    for opponent in ranked:
        if strict and opponent in met[top]:
            continue
        tail = _pair([e for e in others if e != opponent], points, met, strict, failed)
        if tail is not None:
            return [Pairing(top, opponent), *tail]
    failed.add(key)
    return None


def round_robin(seeds: Sequence[Entrant]) -> list[list[Pairing]]:
    """Every round of a round robin by the circle method (see the module docstring); a
    round's bye, if any, comes last."""
    slots: list[Entrant | None] = list(seeds)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds = []
    for r in range(n - 1):
        tables: list[Pairing] = []
        bye: list[Pairing] = []
        for i in range(n // 2):
            x, y = slots[i], slots[n - 1 - i]
            if i == 0 and r % 2:
                x, y = y, x
            if x is None or y is None:
                alone = x if y is None else y
                assert alone is not None
                bye.append(Pairing(alone, None))
            else:
                tables.append(Pairing(x, y))
        rounds.append(tables + bye)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def partnerships(players: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]]:
    """Fixed teams from seeded players: the first with the last, the second with the
    second-last, … (an even number of players is needed)."""
    if len(players) % 2:
        raise ValueError("Partnerships need an even number of players.")
    n = len(players)
    return [(players[i], players[n - 1 - i]) for i in range(n // 2)]
