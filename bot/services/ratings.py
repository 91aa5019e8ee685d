"""OpenSkill ratings (Plackett–Luce): multiplayer placements and teams handled natively.

Decisions:
* The model is ``openskill``'s ``PlackettLuce`` with its defaults (mu 25, sigma 25/3).
* A match is rated team by team: partners (Back Alley) form one OpenSkill team, every
  other seat is a team of one. Ranks are the engine's placements (1 = best); equal ranks
  are draws, which OpenSkill takes as ties.
* The conservative rating is the ordinal ``mu - 3 sigma`` (0 for a newcomer). It is shown
  as ``display(ordinal) = round(1000 + 40 * ordinal)``, so a newcomer shows 1000, the winner
  of a first two-player game about 1140 and the loser about 930.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


@dataclass(frozen=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` (skill is 99.7% likely to be higher)."""
        return self.mu - 3.0 * self.sigma


DEFAULT = Rating(_MODEL.mu, _MODEL.sigma)


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """New ratings after a match of ``teams`` that placed ``ranks`` (1 = best, ties share).

    Fewer than two teams cannot be rated: the ratings come back unchanged.
    """
    if len(teams) != len(ranks):
        raise ValueError("Every team needs exactly one rank.")
    if len(teams) < 2:
        return [list(t) for t in teams]
    result = _MODEL.rate(
        [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return [[Rating(p.mu, p.sigma) for p in team] for team in result]


def display(ordinal: float) -> int:
    """The rating as shown to players (see the module docstring)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)
