"""The ``expert`` computer player for ONO 99: a learned score, and determinized search
(PIMC) over it.

Learned score. ``normal``'s score of each card (``bots.py``) with weights learned against
three ``normal`` players (``weights.json`` beside this module, written by ``python -m
bench.ono_tune``, which records its command there): it keeps Reverses and Play 2s a little
longer, plays a Play 2 less readily, leans on the pressure on the next player and
counts the cards it has seen. On deals it was not chosen on it wins 1.6 ± 0.6 points more
than ``normal`` in the same seats (BENCHMARKS.md, "ONO 99's learned weights").

Worlds. The hands still hidden and the draw pile are dealt from the cards the seat cannot
place (not in its hand, not in a hand laid face up, not in the face-up discard pile), by
the public hand sizes.

Value. Each play is played out to the end of the round by ``normal`` players and scored
by the game's own standings (players outlasted, tokens or points): how much mine gained
on the others' average.

Budget. 48 rollouts, and the learned score's move unless the search beats it by 2.5
standard errors: neither 72 rollouts, a lower margin nor a value counting only first places
measured better (ONO 99 leaves little to choose: see BENCHMARKS.md, "How strong the computer
players are", ONO 99, and docs/benchmarks-history.md, Strength).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from importlib import resources
from pathlib import Path

import games
from games.base import View
from games.ono99.bots import Weights, decide
from games.ono99.cards import FULL_DECK
from games.ono99.state import OnoState
from games.search import budget, deal, pimc, standing

#: Four-player games against three ``normal`` players (BENCHMARKS.md, ONO 99): the expert's
#: wins over games 900,000–900,479, and the search's shown every hand over games
#: 300,000–300,119 (a bound): over ``normal``'s move, which won more so shown (39 against 29
#: over the learned score's).
MEASURED = {"games": 480, "expert": 127, "bound_games": 120, "clairvoyant": 39}

#: The learned weights (``python -m bench.ono_tune`` writes them), beside this module.
WEIGHTS_PATH = Path(__file__).with_name("weights.json")

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 2.5
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 48


@cache
def learned() -> Weights:
    """The shipped learned weights (read once)."""
    text = resources.files(__package__).joinpath(WEIGHTS_PATH.name).read_text(encoding="utf-8")
    return Weights(**json.loads(text)["weights"])


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
    game = games.get("ono99")
    return pimc(
        game, view, legal, rng,
        worlds=budget(ROLLOUTS, len(legal)), value=standing(game), done=round_over,
        default=decide(view, legal, learned())[0],
        confidence=CONFIDENCE,
    )
