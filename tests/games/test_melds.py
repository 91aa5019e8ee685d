"""Rummy melds: sets, runs, deadwood, exact best arrangements, best discards and lay-offs."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games import melds
from games.cards import INDEX, STANDARD_DECK


def h(text: str) -> list[str]:
    return text.split()


def test_meld_table_has_every_set_subset_and_sub_run() -> None:
    assert len(melds.MELDS) == 329
    assert len(set(melds.MELDS)) == 329
    sizes = sorted(bin(m).count("1") for m in melds.MELDS)
    assert sizes.count(3) == 13 * 4 + 4 * 11  # 3-card sets + 3-card runs
    assert sizes.count(13) == 4


def test_sets_and_runs() -> None:
    assert melds.is_set(h("8H 8S 8D")) and melds.is_set(h("QH QS QD QC"))
    assert not melds.is_set(h("8H 8S")) and not melds.is_set(h("8H 8S 9D"))
    assert melds.is_run(h("AH 2H 3H")) and melds.is_run(h("6C 7C 8C 9C TC"))
    assert melds.is_run(h("JS KS QS"))
    assert not melds.is_run(h("QH KH AH")), "aces are low only"
    assert not melds.is_run(h("KH AH 2H")), "runs do not wrap"
    assert not melds.is_run(h("5H 6H 8H")) and not melds.is_run(h("5H 6H 7S"))
    assert melds.is_meld(h("2S 2H 2C")) and not melds.is_meld(h("2S 3H 4C"))


def test_deadwood_values() -> None:
    assert [melds.card_value(c) for c in h("AS 2H 9D TC JS QH KD")] == [1, 2, 9, 10, 10, 10, 10]
    assert melds.deadwood_value(h("AS KD 5C")) == 16
    assert melds.mask_value(melds.to_mask(STANDARD_DECK)) == 4 * (45 + 40)


def test_min_deadwood_picks_the_better_use_of_a_shared_card() -> None:
    # 7H can go in the run 5H6H7H or the set 7H7S7D, not both.
    assert melds.min_deadwood(h("5H 6H 7H 7S 7D")) == 11
    assert melds.min_deadwood(h("5H 6H 7H 7S 7D 7C")) == 0  # run 5H6H7H + set 7S7D7C
    assert melds.min_deadwood(h("AH 2H 3H 4H 5H 6H 7H 8H 9H TH")) == 0
    assert melds.min_deadwood(h("KS QH JD TC 9S 8H 7D 6C 5S 4H")) == 79


def test_best_discard_is_exact_on_the_known_trap() -> None:
    hand = h("3S 7S 2H 4S 5S 3H AH 7D 3C 7H 6S")
    # Best arrangement of all 11 keeps 3C in a set; discarding it still goes gin.
    assert melds.best_discard_value(hand) == 0
    after = melds.deadwood_by_discard(hand)
    assert after["3C"] == 0
    assert melds.min_deadwood([c for c in hand if c != "3C"]) == 0
    assert after["7D"] == melds.min_deadwood([c for c in hand if c != "7D"])


def test_arrangements_lists_every_minimum() -> None:
    # 2H3H4H + 3S3D: the run leaves 3S 3D (6), the set leaves 2H 4H (6).
    found = melds.arrangements(h("2H 3H 4H 3S 3D"))
    assert {a.melds for a in found} == {(("2H", "3H", "4H"),), (("3S", "3H", "3D"),)}
    assert all(a.value == 6 for a in found)
    best = melds.best_arrangement(h("AS KD 2S 3S"))
    assert best.melds == (("AS", "2S", "3S"),) and best.deadwood == ("KD",)
    assert melds.best_arrangement([]).value == 0


def test_defend_chains_runs_both_ends_and_completes_sets() -> None:
    knocker = [h("4H 5H 6H"), h("9S 9D 9C")]
    d = melds.defend(h("2H 3H 7H 9H KS"), knocker)
    assert d.deadwood == ("KS",) and d.value == 10
    laid = {(cards, k) for cards, k in d.lay_offs}
    assert laid == {(("2H", "3H"), 0), (("7H",), 0), (("9H",), 1)}
    # A gap breaks the chain; a 4-set takes nothing.
    d = melds.defend(h("2H 8H 9H"), [h("4H 5H 6H"), h("9S 9D 9C 9H")])
    assert d.lay_offs == () and d.value == 19


def test_defend_prefers_own_melds_or_lay_offs_whichever_is_lower() -> None:
    # 7H 7S 7D is a set of the defender's own; laying 7H on the run would strand 7S 7D.
    d = melds.defend(h("7H 7S 7D"), [h("4H 5H 6H")])
    assert d.value == 0 and d.melds == (("7S", "7H", "7D"),) and d.lay_offs == ()
    # 5C extends the knocker's run; alone it would be deadwood.
    d = melds.defend(h("5C KH"), [h("2C 3C 4C")])
    assert d.lay_offs == ((("5C",), 0),) and d.deadwood == ("KH",)


def _brute_min_deadwood(hand: list[str]) -> int:
    """An independent check: every subset that is a meld, then every disjoint choice."""
    found = [
        frozenset(c) for n in range(3, len(hand) + 1) for c in combinations(hand, n)
        if melds.is_meld(list(c))
    ]
    best = melds.deadwood_value(hand)

    def rec(start: int, used: frozenset[str]) -> None:
        nonlocal best
        best = min(best, melds.deadwood_value([c for c in hand if c not in used]))
        for j in range(start, len(found)):
            if not found[j] & used:
                rec(j + 1, used | found[j])

    rec(0, frozenset())
    return best


# Hands drawn from few ranks and suits are full of overlapping melds.
_DENSE = [r + s for r in "A23456" for s in "SHD"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_DENSE), min_size=0, max_size=9, unique=True))
def test_min_deadwood_matches_brute_force(hand: list[str]) -> None:
    assert melds.min_deadwood(hand) == _brute_min_deadwood(hand)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_DENSE + list(STANDARD_DECK[:13])), min_size=11, max_size=11,
                unique=True))
def test_best_discard_is_the_minimum_over_every_discard(hand: list[str]) -> None:
    per_card = {c: melds.min_deadwood([o for o in hand if o != c]) for c in hand}
    assert melds.deadwood_by_discard(hand) == per_card
    assert melds.best_discard_value(hand) == min(per_card.values())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=10, max_size=10, unique=True))
def test_arrangements_are_valid_partitions(hand: list[str]) -> None:
    least = melds.min_deadwood(hand)
    for a in melds.arrangements(hand):
        assert all(melds.is_meld(list(m)) for m in a.melds)
        used = [c for m in a.melds for c in m] + list(a.deadwood)
        assert sorted(used) == sorted(hand)
        assert a.value == least


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(STANDARD_DECK), min_size=20, max_size=20, unique=True),
)
def test_defence_is_legal_and_never_worse_than_melding_alone(cards: list[str]) -> None:
    knocker, defender = cards[:10], cards[10:]
    shown = melds.best_arrangement(knocker).melds
    d = melds.defend(defender, shown)
    assert d.value <= melds.min_deadwood(defender)
    grown = [list(m) for m in shown]
    for laid, k in d.lay_offs:
        grown[k] += laid
    assert all(melds.is_meld(m) for m in grown)
    assert all(melds.is_meld(list(m)) for m in d.melds)
    used = [c for m in d.melds for c in m] + [c for laid, _ in d.lay_offs for c in laid]
    assert sorted(used + list(d.deadwood)) == sorted(defender)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=0, max_size=20, unique=True))
def test_melds_within_are_the_deck_melds_inside_the_hand_in_order(hand: list[str]) -> None:
    mask = melds.to_mask(hand)
    inside = [m for m in melds.MELDS if m & mask == m]
    assert melds.melds_within(mask) == sorted(
        inside, key=lambda m: ((m & -m).bit_length(), melds.MELDS.index(m))
    )


def test_hands_without_melds_take_the_short_cut() -> None:
    hand = h("AS 3S 5H 7H 9D JD KC 2C 4D 6C QS")
    assert melds.melds_within(melds.to_mask(hand)) == []
    total = melds.deadwood_value(hand)
    assert melds.best_discard_value(hand) == total - 10
    assert melds.deadwood_by_discard(hand) == {c: total - melds.card_value(c) for c in hand}
    mask = melds.to_mask(hand)
    assert melds.discards_leaving(mask, total - 11) == []
    assert melds.discards_leaving(mask, total - 10) == [
        (INDEX[c], total - 10) for c in melds.sorted_cards(h("JD KC QS"))
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(_DENSE + list(STANDARD_DECK[:13])), min_size=11, max_size=11,
             unique=True),
    st.integers(min_value=-1, max_value=40),
)
def test_discards_leaving_is_deadwood_by_discard_up_to_the_limit(
    hand: list[str], limit: int
) -> None:
    after = melds.deadwood_by_discard(hand)
    expected = [(INDEX[c], v) for c, v in after.items() if v <= limit]
    assert melds.discards_leaving(melds.to_mask(hand), limit) == expected
