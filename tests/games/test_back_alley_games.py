"""Back Alley seeded full games: random and normal computer players, replay, win rate."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.back_alley import GAME
from games.back_alley.bots import choose_bid, estimate_tricks, normal_bot
from games.back_alley.rules import PATTERN
from games.back_alley.state import BackAlleyState
from games.cards import DECK_WITH_JOKERS
from games.simulate import play_game


@pytest.mark.parametrize(("level", "seed"), [("random", 1), ("normal", 2), ("normal", 3)])
def test_full_games_end_with_scores_that_add_up(level: str, seed: int) -> None:
    played = play_game(GAME, 4, seed, [level] * 4)
    state = GAME.new(4, seed=seed)
    totals = [0, 0]
    sizes = []
    for seat, action in played.actions:
        state = GAME.apply(state, seat, action)
        assert GAME.loads(GAME.dumps(state)) == state
        cards = [c for h in state.hands for c in h] + state.stock + state.played
        cards += [state.turned] + ([state.discarded] if state.discarded else [])
        assert Counter(cards) == Counter(DECK_WITH_JOKERS)
        for e in state.events:
            if e["type"] == "deal_scored":
                sizes.append(sum(t["tricks"] for t in e["teams"]))
                for t, team in enumerate(e["teams"]):
                    totals[t] += team["points"]
                assert e["scores"] == totals
    assert state == played.state and state.is_over
    assert sizes == list(PATTERN)
    assert GAME.outcome(state).scores == (totals[0], totals[1], totals[0], totals[1])


def _match(seed: int, normal_team: int, deals: int) -> int:
    levels = ["normal" if s % 2 == normal_team else "random" for s in range(4)]
    state = play_game(GAME, 4, seed, levels, {"deals": deals}).state
    assert isinstance(state, BackAlleyState)
    scores = state.team_scores
    return scores[normal_team] - scores[1 - normal_team]


def test_normal_team_beats_random_team() -> None:
    margins = [_match(seed, team, 5) for seed in range(15) for team in (0, 1)]
    assert sum(m > 0 for m in margins) >= 28


def _bidding_view(hand: list[str], trump: str | None, turned: str, size: int) -> dict[str, object]:
    return {"seat": 1, "hand": hand, "trump": trump, "turned": turned, "discarded": None,
            "hand_size": size, "played": [], "bids": [None] * 4, "boards": [0] * 4,
            "phase": "bidding"}


def test_bidding_follows_hand_strength() -> None:
    strong = ["BJ", "LJ", "AS", "KS", "QS", "AH", "AD", "AC", "KH", "2D", "3C", "4H", "5D"]
    weak = ["2H", "3H", "4H", "5H", "6D", "7D", "3C", "4C", "5C", "6C", "7C", "8C", "9D"]
    legal = ["pass", *(f"bid {n}" for n in range(1, 13)), "board"]
    assert estimate_tricks(_bidding_view(strong, "S", "2S", 13)) > 6
    assert estimate_tricks(_bidding_view(weak, "S", "2S", 13)) < 1.5
    assert int(choose_bid(_bidding_view(strong, "S", "2S", 13), legal).split()[1]) >= 6
    assert choose_bid(_bidding_view(weak, "S", "2S", 13), legal) == "pass"
    # One card: the Big Blooper always wins, so claim board.
    assert choose_bid(_bidding_view(["BJ"], "S", "2S", 1), ["pass", "board"]) == "board"
    assert choose_bid(_bidding_view(["3H"], "S", "2S", 1), ["pass", "board"]) == "pass"


def test_bid_complements_partner() -> None:
    hand = ["BJ", "AS", "KS", "AH", "KH", "AD", "2C"]
    legal = ["pass", *(f"bid {n}" for n in range(1, 7)), "board"]
    alone = _bidding_view(hand, "S", "2S", 7)
    with_partner = {**alone, "bids": [None, None, None, 5]}
    mine = int(choose_bid(alone, legal).split()[1])
    assert 3 <= mine <= 6
    assert choose_bid(with_partner, legal) in ("pass", "bid 1", "bid 2")
    # A partner's board is supported only with a strong hand.
    weak = {**_bidding_view(["2H", "3H", "4D", "5D", "6C", "7C", "8C"], "S", "2S", 7),
            "bids": [None, None, None, 0], "boards": [0, 0, 0, 1]}
    assert choose_bid(weak, legal) == "pass"


def test_normal_play_does_not_overtake_partner_and_wins_cheaply() -> None:
    base = {"seat": 0, "trump": "S", "turned": "2S", "discarded": None, "hand_size": 3,
            "phase": "playing", "bids": [1, 1, 1, 1], "boards": [0] * 4,
            "contracts": [{"tricks": 2, "board": 0}, {"tricks": 2, "board": 0}]}

    rng = random.Random(0)
    partner_wins = {**base, "hand": ["AH", "3H", "4D"], "played": ["KH", "5H", "2H"],
                    "trick": [[1, "5H"], [2, "KH"], [3, "2H"]]}
    assert normal_bot(partner_wins, ["play AH", "play 3H"], rng) == "play 3H"
    cheap = {**base, "hand": ["AH", "QH", "4D"], "played": ["5H", "TH", "2H"],
             "trick": [[1, "5H"], [2, "2H"], [3, "TH"]]}
    assert normal_bot(cheap, ["play AH", "play QH"], rng) == "play QH"


def test_normal_leads_top_trumps_when_it_holds_the_best_one_or_claimed_board() -> None:
    rng = random.Random(0)
    view = {"seat": 0, "trump": "S", "turned": "2S", "discarded": None, "hand_size": 3,
            "phase": "playing", "bids": [1, 1, 1, 1], "boards": [0] * 4, "trick": [],
            "played": ["BJ", "3S", "4S", "5S"], "hand": ["LJ", "6S", "AH"],
            "contracts": [{"tricks": 2, "board": 0}, {"tricks": 2, "board": 0}]}
    legal = ["play LJ", "play 6S", "play AH"]
    assert normal_bot(view, legal, rng) == "play LJ"
    weak = {**view, "played": ["3S", "4S", "5S", "7S"]}
    assert normal_bot(weak, legal, rng) == "play AH"
    board = {**weak, "hand": ["6S", "8S", "9S"], "boards": [1, 0, 0, 0],
             "contracts": [{"tricks": 3, "board": 1}, {"tricks": 2, "board": 0}]}
    assert normal_bot(board, ["play 6S", "play 8S", "play 9S"], rng) == "play 9S"


def test_clone_is_independent() -> None:
    state = GAME.new(4, seed=1)
    copy = state.clone()
    assert copy == state
    copy.hands[0].pop()
    copy.bids[0] = 3
    copy.team_scores[1] = 9
    assert len(state.hands[0]) == 13 and state.bids[0] is None and state.team_scores == [0, 0]
