"""The reading records' sample (``i18n.sample``): the same for the same seed, every surface
drawn alike, and no typed command name in it."""

from __future__ import annotations

from i18n.check import NAME_CONTEXTS
from i18n.sample import PER_STRATUM, STRATA, sample


def test_the_sample_is_reproducible_and_stratified() -> None:
    drawn = sample("cy")
    assert [m.id for _, m in drawn] == [m.id for _, m in sample("cy")]
    assert [m.id for _, m in drawn] != [m.id for _, m in sample("cy", seed=46)]
    assert {name: sum(s == name for s, _ in drawn) for name, _ in STRATA} == {
        name: PER_STRATUM for name, _ in STRATA}
    assert not any((m.context or "") in NAME_CONTEXTS for _, m in drawn)
    assert len(drawn) >= 100
