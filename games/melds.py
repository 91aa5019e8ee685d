"""Rummy melds: sets, runs, deadwood and the exact best arrangement of a hand.

*Set*: 3 or 4 cards of one rank. *Run*: 3 or more consecutive cards of one suit, the ace
always low (``A23`` is a run, ``QKA`` and ``KA2`` are not). A card belongs to at most one
meld; cards in no meld are *deadwood*, worth their pips (ace 1, ``T J Q K`` 10).

Hands are bitmasks over ``cards.INDEX`` (suit-major, ace low), so a run is a block of
consecutive bits. All 329 melds of the deck — every 3-card subset of a 4-set and every
sub-run included — are precomputed; the melds inside a hand are found from the ranks it
holds 3 or 4 times and from its suits' 13-bit patterns (memoised), and a search picks
disjoint melds from those.
Every *packing* (set of disjoint melds) is visited, so results are exact, including the
best discard of 11 cards: that is the minimum over all packings of (deadwood − the
highest deadwood card), which may come from a packing that is not a best one for the 11
cards. The same search lays off: extending a knocker's run at either end or completing a
3-set are extra "pseudo-melds" (of any length ≥ 1) offered to the defender's search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
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


_SUIT_BITS = (1 << _RANKS) - 1


def _pattern_bits(base: int) -> tuple[tuple[int, ...], ...]:
    """Per 13-bit suit pattern: the bit positions of its ranks, offset by ``base``."""
    out: list[tuple[int, ...]] = [()]
    for p in range(1, 1 << _RANKS):
        top = p.bit_length() - 1
        out.append((*out[p ^ 1 << top], base + top))
    return tuple(out)


#: Per suit, per 13-bit pattern of that suit: the cards' bit positions.
_S0, _S1, _S2, _S3 = (_pattern_bits(s * _RANKS) for s in range(len(SUITS)))
#: Per 13-bit suit pattern: the deadwood value of its cards.
_PATTERN_VALUE: tuple[int, ...] = tuple(sum(min(r + 1, 10) for r in b) for b in _S0)


def bits(mask: int) -> list[int]:
    """Bit positions set in ``mask``, lowest first."""
    return [
        *_S0[mask & _SUIT_BITS],
        *_S1[mask >> _RANKS & _SUIT_BITS],
        *_S2[mask >> 2 * _RANKS & _SUIT_BITS],
        *_S3[mask >> 3 * _RANKS],
    ]


def mask_value(mask: int) -> int:
    """Total deadwood value of the cards in ``mask``."""
    return (
        _PATTERN_VALUE[mask & _SUIT_BITS]
        + _PATTERN_VALUE[mask >> _RANKS & _SUIT_BITS]
        + _PATTERN_VALUE[mask >> 2 * _RANKS & _SUIT_BITS]
        + _PATTERN_VALUE[mask >> 3 * _RANKS]
    )


#: Cards of the lowest rank (ace) in every suit; shifted by ``r`` for rank ``r``.
_COLUMN = sum(1 << (s * _RANKS) for s in range(len(SUITS)))


def _index_melds() -> tuple[dict[int, int], dict[int, int], dict[int, tuple[int, ...]]]:
    """Each meld's value and stable position (by lowest bit, then ``MELDS`` order), and the
    sets held in each rank's 4-card column (keyed by the cards of the column held)."""
    value = {m: mask_value(m) for m in MELDS}
    by_low = sorted(MELDS, key=lambda m: ((m & -m).bit_length(), MELDS.index(m)))
    order = {m: k for k, m in enumerate(by_low)}
    sets: dict[int, tuple[int, ...]] = {}
    for r in range(_RANKS):
        column = _COLUMN << r
        for held in (column, *(column & ~(1 << (s * _RANKS + r)) for s in range(len(SUITS)))):
            sets[held] = tuple(m for m in MELDS if m & column == m and m & held == m)
    return value, order, sets


_MELD_VALUE, _MELD_ORDER, _SETS_HELD = _index_melds()


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


@cache
def _suit_runs(pattern: int, base: int) -> tuple[int, ...]:
    """Every run inside one suit's 13-bit ``pattern``, as masks shifted up by ``base``."""
    out: list[int] = []
    for lo in range(_RANKS - 2):
        run = 3 << lo
        for r in range(lo + 2, _RANKS):
            run |= 1 << r
            if pattern & run != run:
                break
            out.append(run << base)
    return tuple(out)


def _melds_in(mask: int) -> list[int]:
    """Every meld made only of cards in ``mask``, in no particular order."""
    p0 = mask & _SUIT_BITS
    p1 = mask >> _RANKS & _SUIT_BITS
    p2 = mask >> 2 * _RANKS & _SUIT_BITS
    p3 = mask >> 3 * _RANKS
    out: list[int] = []
    threes = (p0 & p1 & (p2 | p3)) | (p2 & p3 & (p0 | p1))
    while threes:
        low = threes & -threes
        threes ^= low
        out += _SETS_HELD[mask & _COLUMN * low]
    if p0 & p0 >> 1 & p0 >> 2:
        out += _suit_runs(p0, 0)
    if p1 & p1 >> 1 & p1 >> 2:
        out += _suit_runs(p1, _RANKS)
    if p2 & p2 >> 1 & p2 >> 2:
        out += _suit_runs(p2, 2 * _RANKS)
    if p3 & p3 >> 1 & p3 >> 2:
        out += _suit_runs(p3, 3 * _RANKS)
    return out


def melds_within(mask: int) -> list[int]:
    """Every meld (as a bitmask) made only of cards in ``mask``, in a stable order: by
    lowest card, then in ``MELDS`` order."""
    return sorted(_melds_in(mask), key=_MELD_ORDER.__getitem__)


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


def _top_value(mask: int) -> int:
    """The highest deadwood value of a card in ``mask`` (0 if empty)."""
    ranks = (mask | mask >> _RANKS | mask >> 2 * _RANKS | mask >> 3 * _RANKS) & _SUIT_BITS
    return min(ranks.bit_length(), 10)


def _most_melded(ms: Sequence[int]) -> int:
    """The highest total value of a packing (pairwise disjoint melds) of ``ms``."""
    best = 0
    n = len(ms)

    def rec(start: int, used: int, melded: int) -> None:
        nonlocal best
        for j in range(start, n):
            m = ms[j]
            if not m & used:
                v = melded + _MELD_VALUE[m]
                if v > best:  # noqa: PLR1730 (a call to max() is slower here)
                    best = v
                rec(j + 1, used | m, v)

    rec(0, 0, 0)
    return best


def _discard_search(ms: Sequence[int], total: int) -> tuple[int, int, list[int]]:
    """Over every packing of ``ms`` in a hand worth ``total``: its least deadwood, the
    cards in some meld of ``ms`` (a mask), and for each of them (lowest first) the least
    deadwood of the packings that leave it out (the empty packing included)."""
    core = 0
    for m in ms:
        core |= m
    cards = bits(core)
    left = [total] * len(cards)
    least = total
    n = len(ms)

    def rec(start: int, used: int, dw: int) -> None:
        nonlocal least
        for j in range(start, n):
            m = ms[j]
            if not m & used:
                u = used | m
                d = dw - _MELD_VALUE[m]
                if d < least:  # noqa: PLR1730 (a call to min() is slower here)
                    least = d
                for k, i in enumerate(cards):
                    if d < left[k] and not u >> i & 1:
                        left[k] = d
                rec(j + 1, u, d)

    rec(0, 0, total)
    return least, core, left


@lru_cache(maxsize=1 << 16)
def min_deadwood_mask(mask: int) -> int:
    """Least deadwood of the cards in ``mask`` (any number of cards)."""
    ms = _melds_in(mask)
    return mask_value(mask) - _most_melded(ms) if ms else mask_value(mask)


def min_deadwood(codes: Iterable[str]) -> int:
    """Least deadwood of a hand (exact)."""
    return min_deadwood_mask(to_mask(codes))


def best_discard_value_mask(mask: int) -> int:
    """Least deadwood left after discarding one card of ``mask`` (exact, e.g. 11 cards)."""
    total = mask_value(mask)
    ms = _melds_in(mask)
    if not ms:
        return total - _top_value(mask)
    least, core, left = _discard_search(ms, total)
    best = min([d - BIT_VALUE[i] for i, d in zip(bits(core), left, strict=True)])
    free = mask & ~core
    return min(best, least - _top_value(free)) if free else best


def best_discard_value(codes: Iterable[str]) -> int:
    """Least deadwood left after discarding one of the cards (exact)."""
    return best_discard_value_mask(to_mask(codes))


def discards_leaving(mask: int, limit: int) -> list[tuple[int, int]]:
    """(bit position, least deadwood of ``mask`` without it) for each card whose discard
    leaves at most ``limit`` deadwood, lowest first (exact)."""
    total = mask_value(mask)
    ms = _melds_in(mask)
    if not ms:
        if total - _top_value(mask) > limit:
            return []
        need = total - limit
        return [(i, total - BIT_VALUE[i]) for i in bits(mask) if BIT_VALUE[i] >= need]
    least, core, left = _discard_search(ms, total)
    out = [(i, d - BIT_VALUE[i]) for i, d in zip(bits(core), left, strict=True)]
    out += [(i, least - BIT_VALUE[i]) for i in bits(mask & ~core)]
    out.sort()
    return [p for p in out if p[1] <= limit]


@lru_cache(maxsize=1 << 14)
def _deadwood_by_discard_mask(mask: int) -> tuple[tuple[int, int], ...]:
    """(bit position, least deadwood of ``mask`` without it) for each card, lowest first."""
    return tuple(discards_leaving(mask, mask_value(mask)))


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
