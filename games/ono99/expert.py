"""The ``expert`` computer player for ONO 99: the learned value of each play
(``learned.py``, trained offline by ``python -m bench.ono_train`` on play-outs of ``normal``
from real positions); swapping four ONO 99 and a turn with one card to play are the tuned
score's (``bots.tuned``). Against three ``normal`` players it won 28.7 % of 4,800
four-player games (27.5–30.0 %; an even share is 25 %), 3.7 ± 1.1 points more than
``normal`` in the same seats, in under a millisecond a decision at the median
(BENCHMARKS.md, ONO 99).

It replaced determinized search (PIMC: each card played out 48 times by ``normal`` in
worlds dealt from the cards the seat cannot place, the tuned score's move left only for one
that beat it by 2.5 standard errors), which added nothing measurable to the score it
searched over (−0.16 ± 1.02 points against the tuned score alone, leaving its move in 11 of
160 deals), as in Craits, where search over a learned value made it weaker.

Worlds remain what ``Game.world`` deals for this game (``world``): the hands still hidden
and the draw pile, dealt from the cards the seat cannot place (not in its hand, not in a
hand laid face up, not in the face-up discard pile), by the public hand sizes.
``round_over`` is where the trainer's play-outs stop.
"""

from __future__ import annotations

import random
from collections import Counter

from games.base import View
from games.ono99 import learned
from games.ono99.cards import FULL_DECK
from games.ono99.state import OnoState
from games.search import deal

#: Four-player games against three ``normal`` players (BENCHMARKS.md, ONO 99): the expert's
#: wins over games 1,800,000–1,804,799, and the search over ``normal``'s move shown every
#: hand over games 300,000–300,479 (a bound, the ceiling issue 47 measures against).
MEASURED = {"games": 4800, "expert": 1379, "bound_games": 480, "clairvoyant": 141}


def world(view: View, rng: random.Random) -> OnoState:
    """A full state consistent with ``view`` (see the module docstring)."""
    me: int = view["seat"]
    n: int = view["players"]
    hand = list(view["hand"])
    shown = [list(r) if r is not None else None for r in view["revealed"]]
    placed = Counter(hand) + Counter(view["discards"])
    for r in shown:
        placed.update(r or [])
    pool = list((Counter(FULL_DECK) - placed).elements())
    hidden = [s for s in range(n) if s != me and shown[s] is None]
    sizes = [view["hand_counts"][s] for s in hidden]
    dealt = deal(pool, [*sizes, len(pool) - sum(sizes)], rng)
    hands = [list(r or []) for r in shown]
    hands[me] = hand
    for s, h in zip(hidden, dealt, strict=False):
        hands[s] = sorted(h)
    draw = dealt[-1]
    rng.shuffle(draw)
    return OnoState(
        players=n, seed=rng.getrandbits(32), options=dict(view["options"]),
        to_act=tuple(view["to_act"]), hands=hands, draw=draw,
        discard=list(view["discards"]), in_round=[not e for e in view["eliminated"]],
        left_at=list(view["left_at"]), tokens=list(view["tokens"] or [3] * n),
        points=list(view["points"] or [0] * n), total=view["total"],
        direction=view["direction"], turn=view["to_act"][0] if view["to_act"] else 0,
        owed=max(1, view["must_play"]), ono_played=view["ono_played"],
        dealer=view["dealer"], round_no=view["round_no"],
        exits=sum(1 for x in view["left_at"] if x is not None),
        last_played=view["last_played"],
    )


def round_over(root: OnoState, now: OnoState) -> bool:
    """The rollout ends with the round."""
    return now.round_no != root.round_no


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    return learned.choose(view, legal)
