"""Rummy melds: sets, runs, deadwood and the exact best arrangement of a hand.

*Set*: 3 or 4 cards of one rank. *Run*: 3 or more consecutive cards of one suit, the ace
always low (``A23`` is a run, ``QKA`` and ``KA2`` are not). A card belongs to at most one
meld; cards in no meld are *deadwood*, worth their pips (ace 1, ``T J Q K`` 10).

Hands are bitmasks over ``cards.INDEX`` (suit-major, ace low), so a run is a block of
consecutive bits. All 329 melds of the deck — every 3-card subset of a 4-set and every
sub-run included — are precomputed; a search picks disjoint melds from those inside a hand.
Every *packing* (set of disjoint melds) is visited, so results are exact, including the
best discard of 11 cards: that is the minimum over all packings of (deadwood − the
highest deadwood card), which may come from a packing that is not a best one for the 11
cards. The same search lays off: extending a knocker's run at either end or completing a
3-set are extra "pseudo-melds" (of any length ≥ 1) offered to the defender's search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from games.cards import INDEX, LOW_RANK, RANKS, STANDARD_DECK, SUITS

#: Card codes by bit position.
CODES: tuple[str, ...] = STANDARD_DECK
#: Deadwood value by bit position: ace 1, pips, ten and faces 10.
BIT_VALUE: tuple[int, ...] = tuple(min(LOW_RANK[c], 10) for c in CODES)

_RANKS = len(RANKS)


def _build_melds() -> tuple[int, ...]:
    out: list[int] = []
    for r in range(_RANKS):
        four = [s * _RANKS + r for s in range(len(SUITS))]
        out.append(sum(1 << i for i in four))
        out.extend(sum(1 << i for i in trio) for trio in combinations(four, 3))
    for s in range(len(SUITS)):
        for lo in range(_RANKS):
            for hi in range(lo + 2, _RANKS):
                out.append(sum(1 << (s * _RANKS + r) for r in range(lo, hi + 1)))
    return tuple(out)


#: Every meld of the deck as a bitmask (65 sets, 264 runs).
MELDS: tuple[int, ...] = _build_melds()
_MELD_VALUE: dict[int, int] = {}
#: Melds by their lowest bit, for filtering those inside a hand quickly.
_BY_LOW: tuple[tuple[int, ...], ...]


def _index_melds() -> tuple[tuple[int, ...], ...]:
    by_low: list[list[int]] = [[] for _ in CODES]
    for m in MELDS:
        _MELD_VALUE[m] = mask_value(m)
        by_low[(m & -m).bit_length() - 1].append(m)
    return tuple(tuple(ms) for ms in by_low)


_SUIT_BITS = (1 << _RANKS) - 1
#: Per 13-bit suit pattern: its rank positions and their deadwood value.
_PATTERN_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(_RANKS) if p >> r & 1) for p in range(1 << _RANKS)
)
_PATTERN_VALUE: tuple[int, ...] = tuple(sum(min(r + 1, 10) for r in b) for b in _PATTERN_BITS)


def bits(mask: int) -> list[int]:
    """Bit positions set in ``mask``, lowest first."""
    out: list[int] = []
    for s in range(len(SUITS)):
        p = mask >> (s * _RANKS) & _SUIT_BITS
        if p:
            base = s * _RANKS
            out.extend(base + r for r in _PATTERN_BITS[p])
    return out


def mask_value(mask: int) -> int:
    """Total deadwood value of the cards in ``mask``."""
    return (
        _PATTERN_VALUE[mask & _SUIT_BITS]
        + _PATTERN_VALUE[mask >> _RANKS & _SUIT_BITS]
        + _PATTERN_VALUE[mask >> 2 * _RANKS & _SUIT_BITS]
        + _PATTERN_VALUE[mask >> 3 * _RANKS]
    )


_BY_LOW = _index_melds()


def to_mask(codes: Iterable[str]) -> int:
    """Bitmask of card codes."""
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


def to_cards(mask: int) -> list[str]:
    """Card codes of a bitmask, by suit then rank (ace low)."""
    return [CODES[i] for i in bits(mask)]


def sorted_cards(codes: Iterable[str]) -> list[str]:
    """Distinct cards by suit (S H D C) then rank, ace low: ``cards.sort_hand``'s order."""
    return to_cards(to_mask(codes))


def card_value(code: str) -> int:
    """Deadwood value of one card."""
    return BIT_VALUE[INDEX[code]]


def deadwood_value(codes: Iterable[str]) -> int:
    """Total deadwood value of cards (counting every card given)."""
    return sum(BIT_VALUE[INDEX[c]] for c in codes)


def is_set(codes: Sequence[str]) -> bool:
    """3 or 4 cards of one rank."""
    n = len(codes)
    return 3 <= n <= 4 and len({c[0] for c in codes}) == 1 and len(set(codes)) == n


def is_run(codes: Sequence[str]) -> bool:
    """3 or more consecutive cards of one suit, ace low."""
    if len(codes) < 3 or len({c[1] for c in codes}) != 1:
        return False
    ranks = sorted(LOW_RANK[c] for c in codes)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(codes: Sequence[str]) -> bool:
    """A set or a run."""
    return is_set(codes) or is_run(codes)


def melds_within(mask: int) -> list[int]:
    """Every meld (as a bitmask) made only of cards in ``mask``, in a stable order."""
    out = []
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        for m in _BY_LOW[low.bit_length() - 1]:
            if m & mask == m:
                out.append(m)
    return out


def _packings(candidates: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Every set of pairwise disjoint candidates, as (union mask, candidate indices)."""
    out: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    n = len(candidates)

    def rec(start: int, used: int, chosen: tuple[int, ...]) -> None:
        for j in range(start, n):
            m = candidates[j]
            if not m & used:
                u = used | m
                c = (*chosen, j)
                out.append((u, c))
                rec(j + 1, u, c)

    rec(0, 0, ())
    return out


#: Deadwood value by bit position, with one more position no hand has (worth 0).
_VALUE: tuple[int, ...] = (*BIT_VALUE, 0)
#: That position: as the only card of ``_least_deadwood``'s ``order``, nothing is discarded.
_NO_DISCARD: tuple[int, ...] = (len(CODES),)


def _least_deadwood(mask: int, order: Sequence[int]) -> int:
    """The least, over every packing of the melds in ``mask``, of its deadwood less the
    first card of ``order`` (bit positions) left out of its melds; packings that meld every
    card of ``order`` do not count. ``_NO_DISCARD`` as ``order`` gives the least deadwood."""
    ms = melds_within(mask)
    total = mask_value(mask)
    best = total - _VALUE[order[0]]
    if not ms:
        return best
    n = len(ms)

    def rec(start: int, used: int, melded: int) -> None:
        nonlocal best
        for j in range(start, n):
            m = ms[j]
            if not m & used:
                u = used | m
                v = melded + _MELD_VALUE[m]
                for i in order:
                    if not u >> i & 1:
                        left = total - v - _VALUE[i]
                        if left < best:  # noqa: PLR1730 (a call to min() is slower here)
                            best = left
                        break
                rec(j + 1, u, v)

    rec(0, 0, 0)
    return best


@lru_cache(maxsize=1 << 16)
def min_deadwood_mask(mask: int) -> int:
    """Least deadwood of the cards in ``mask`` (any number of cards)."""
    return _least_deadwood(mask, _NO_DISCARD)


def min_deadwood(codes: Iterable[str]) -> int:
    """Least deadwood of a hand (exact)."""
    return min_deadwood_mask(to_mask(codes))


def best_discard_value_mask(mask: int) -> int:
    """Least deadwood left after discarding one card of ``mask`` (exact, e.g. 11 cards)."""
    return _least_deadwood(mask, sorted(bits(mask), key=lambda i: -BIT_VALUE[i]))


def best_discard_value(codes: Iterable[str]) -> int:
    """Least deadwood left after discarding one of the cards (exact)."""
    return best_discard_value_mask(to_mask(codes))


@lru_cache(maxsize=1 << 14)
def _deadwood_by_discard_mask(mask: int) -> tuple[tuple[int, int], ...]:
    ms = melds_within(mask)
    total = mask_value(mask)
    best = {i: total - BIT_VALUE[i] for i in bits(mask)}
    for used, _ in _packings(ms)[1:]:
        left = bits(mask & ~used)
        lv = mask_value(mask & ~used)
        for i in left:
            best[i] = min(best[i], lv - BIT_VALUE[i])
    return tuple(best.items())


def deadwood_by_discard(codes: Iterable[str]) -> dict[str, int]:
    """For each card, the least deadwood of the hand without it (exact)."""
    return {CODES[i]: v for i, v in _deadwood_by_discard_mask(to_mask(codes))}


@dataclass(frozen=True)
class Arrangement:
    """Melds (each a sorted tuple of codes) and the deadwood cards of a hand."""

    melds: tuple[tuple[str, ...], ...]
    deadwood: tuple[str, ...]

    @property
    def value(self) -> int:
        """Deadwood points."""
        return deadwood_value(self.deadwood)


def arrangements(codes: Iterable[str]) -> list[Arrangement]:
    """Every arrangement of a hand with the least deadwood, in a stable order."""
    return list(_arrangements_mask(to_mask(codes)))


@lru_cache(maxsize=1 << 14)
def _arrangements_mask(mask: int) -> tuple[Arrangement, ...]:
    ms = melds_within(mask)
    total = mask_value(mask)
    scored = [(total - sum(_MELD_VALUE[ms[j]] for j in ch), used, ch) for used, ch in _packings(ms)]
    least = min(s for s, _, _ in scored)
    return tuple(
        Arrangement(tuple(tuple(to_cards(ms[j])) for j in ch), tuple(to_cards(mask & ~used)))
        for s, used, ch in scored
        if s == least
    )


def best_arrangement(codes: Iterable[str]) -> Arrangement:
    """One arrangement of a hand with the least deadwood (the first of ``arrangements``)."""
    return _arrangements_mask(to_mask(codes))[0]


def layoff_segments(melds: Iterable[Sequence[str]]) -> list[tuple[int, int]]:
    """Cards that could be laid off on ``melds``, as (segment mask, meld index) pairs.

    A run takes any unbroken extension below or above it (a chain of one or more cards,
    within ace..king); a 3-set takes its missing fourth card; a 4-set takes nothing.
    Segments of one end overlap, so a search uses at most one per end.
    """
    out: list[tuple[int, int]] = []
    for k, meld in enumerate(melds):
        mask = to_mask(meld)
        if is_set(meld):
            if len(meld) == 3:
                rank = RANKS.index(meld[0][0])
                four = sum(1 << (s * _RANKS + rank) for s in range(len(SUITS)))
                out.append((four & ~mask, k))
            continue
        idx = bits(mask)
        lo, hi = idx[0], idx[-1]
        base = lo - lo % _RANKS
        seg = 0
        for i in range(lo - 1, base - 1, -1):
            seg |= 1 << i
            out.append((seg, k))
        seg = 0
        for i in range(hi + 1, base + _RANKS):
            seg |= 1 << i
            out.append((seg, k))
    return out


@dataclass(frozen=True)
class Defence:
    """The defender's melds, lay-offs (cards, index of the knocker's meld) and deadwood."""

    melds: tuple[tuple[str, ...], ...]
    lay_offs: tuple[tuple[tuple[str, ...], int], ...]
    deadwood: tuple[str, ...]

    @property
    def value(self) -> int:
        """Deadwood points after melding and laying off."""
        return deadwood_value(self.deadwood)


def defend(codes: Iterable[str], knocker_melds: Sequence[Sequence[str]]) -> Defence:
    """The defender's melds and lay-offs onto ``knocker_melds`` with the least deadwood.

    Ties keep the first packing found (own melds before lay-offs, in a stable order).
    """
    mask = to_mask(codes)
    ms = melds_within(mask)
    segs = [(m, k) for m, k in layoff_segments(knocker_melds) if m & mask == m]
    cands = ms + [m for m, _ in segs]
    best_used, best_v = 0, mask_value(mask)
    best_ch: tuple[int, ...] = ()
    for used, ch in _packings(cands)[1:]:
        v = mask_value(mask & ~used)
        if v < best_v:
            best_used, best_ch, best_v = used, ch, v
    n = len(ms)
    return Defence(
        tuple(tuple(to_cards(cands[j])) for j in best_ch if j < n),
        tuple((tuple(to_cards(cands[j])), segs[j - n][1]) for j in best_ch if j >= n),
        tuple(to_cards(mask & ~best_used)),
    )
