"""Hints' reasons (``Game.explain``): every game says why its ``normal`` player makes its
move, in one line of card names from the seat's own view, and says nothing for a move
``normal`` would not make."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import games
from games import melds
from games.cards import pretty
from games.craits.scoring import POINTS
from games.rng import rng_for

PLAYERS = {"back_alley": 4, "craits": 4, "gin_rummy": 2, "ono99": 4, "spades": 2}
gin_reason = games.get("gin_rummy").explain
spades_reason = games.get("spades").explain
craits_reason = games.get("craits").explain


#: One decision of the ``normal`` player: its seat's view, legal moves, the move, the
#: reason ``explain`` gives, the state, and the state after the move.
Decision = tuple[dict[str, Any], list[str], str, str, Any, Any]


def decisions(name: str, seeds: range, per_game: int = 300) -> Iterator[Decision]:
    """``normal``'s decisions in seeded games (its moves mixed with random ones, so the
    positions vary), each with the reason the hint gives."""
    game = games.get(name)
    for seed in seeds:
        state = game.new(PLAYERS[name], seed=seed)
        rng = rng_for(seed, "true reasons")
        for _ in range(per_game):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            move = game.choose(state, seat, "normal", random.Random(0))
            after = game.apply(state, seat, move)
            yield view, legal, move, game.explain(view, legal, move), state, after
            state = after if rng.random() < 0.8 else game.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_normal_move_of_a_game_has_a_reason(name: str) -> None:
    game = games.get(name)
    rng = random.Random(7)
    for view, legal, move, said, _, _ in decisions(name, range(3), per_game=400):
        assert said and "\n" not in said and len(said) < 200, (move, said)
        assert "{" not in said and "}" not in said, said
        others = [a for a in legal if a != move]
        if others:
            assert game.explain(view, legal, rng.choice(others)) == ""


def test_gin_names_the_near_meld_kept_and_the_card_thrown() -> None:
    hand = ["2H", "3H", "4H", "5C", "5D", "5S", "3S", "4S", "6D", "2C", "9D"]
    view = {"seat": 0, "hand": hand, "known": [[], []], "stock": 10}
    legal = [f"discard {c}" for c in hand]
    said = gin_reason(view, legal, "discard 9D")
    assert said == "keeps 3♠ 4♠ for a run; 9♦ is your highest unmatched card"
    assert gin_reason(view, legal, "discard 2C") == ""
    # With 10 deadwood or less in reach, the least deadwood counts, not the near-meld.
    low = [*hand[:-1], "AD"]
    low_legal = [f"discard {c}" for c in low]
    assert gin_reason({**view, "hand": low}, low_legal, "discard 6D") == (
        "at this low deadwood each point counts more than a near-meld;"
        " 6♦ is your highest unmatched card")


def test_gin_knocks_and_takes_with_their_numbers() -> None:
    hand = ["2H", "3H", "4H", "5C", "5D", "5S", "3S", "4S", "6D", "2C", "AD"]
    view = {"seat": 0, "hand": hand, "known": [[], []], "stock": 25}
    legal = [f"discard {c}" for c in hand] + [f"knock {c}" for c in hand]
    assert gin_reason(view, legal, "knock 6D") == (
        "throwing 6♦ leaves 10 deadwood, and with 25 cards left in the stock knocking with"
        " that pays more than waiting"
    )
    late = {**view, "stock": 12}  # knocking with 10 no longer pays: it waits, and says so
    assert gin_reason(late, legal, "knock 6D") == ""
    assert gin_reason(late, legal, "discard 6D") == (
        "knocking with 10 deadwood pays less than waiting; 6♦ is your highest unmatched card")
    take = {"hand": hand[:10], "discard_top": "5H", "seat": 0, "known": [[], []], "stock": 25}
    assert gin_reason(take, ["draw", "take"], "take").startswith("5♥ ")


def test_spades_says_why_it_ducks_or_wins() -> None:
    view = {
        "seat": 0, "phase": "play", "hand": ["AH", "9H", "2H"], "bids": [3, 4],
        "tricks": [3, 4], "trick": [[1, "KH"]], "played": [], "face_up_discards": [],
    }
    legal = ["play AH", "play 9H", "play 2H"]
    said = spades_reason(view, legal, "play 9H")
    assert said.startswith("your bid is made") and "9♥ is your highest card that loses" in said
    short = {**view, "tricks": [1, 2]}
    assert spades_reason(short, legal, "play AH") == (
        "you still need tricks for your bid; A♥ is your cheapest card that wins the trick"
    )


def test_craits_says_what_a_play_sheds_and_what_it_keeps() -> None:
    view = {"seat": 0, "players": 3, "direction": 1, "hand_counts": [6, 5, 5], "crank": 0,
            "hand": ["5S", "7S", "9S", "8D", "3C", "QH"]}
    legal = ["play 5S", "play 7S", "play 9S", "play 9S as C",
             *(f"play 8D as {s}" for s in "SHDC")]
    assert craits_reason(view, legal, "play 5S") == (
        "5♠ sheds 30 points; you keep 2 spades to follow with, an 8 as an escape and a 3 to"
        " cancel with"
    )
    assert craits_reason(view, ["play 7S"], "play 7S") == "7♠ is the only card you can play"
    assert craits_reason(view, legal, "play 7S") == ""
    threes = {**view, "hand": ["3S", "3C", "9S", "QH"]}
    assert craits_reason(threes, ["play 3S", "play 3C"], "play 3S") == (
        "you can play only 3s; you keep 1 spade to follow with and 3♣ to match it"
    )


# -- a reason is true of its move -------------------------------------------------------
def _number(pattern: str, said: str) -> float | None:
    found = re.search(pattern, said)
    return float(found.group(1)) if found else None


def _event(after: Any, kind: str) -> dict[str, Any] | None:
    return next((e for e in after.events if e["type"] == kind), None)


def _won_trick(after: Any, seat: int) -> bool | None:
    """Whether ``seat`` won the trick its move completed (None: the trick goes on)."""
    trick = _event(after, "trick")
    return None if trick is None else trick["seat"] == seat


def test_spades_reasons_are_true_of_the_move() -> None:
    counted = Counter[str]()
    for view, _, move, said, _, after in decisions("spades", range(12)):
        me = view["seat"]
        verb, *args = move.split()
        if verb == "bid":
            if args == ["0"]:
                assert "Nil" in said, said
            else:
                expected = _number(r"take about (\d+\.\d) tricks", said)
                assert expected is not None and int(args[0]) <= expected, (move, said)
                counted["bid"] += 1
        if verb == "play":
            card = pretty(args[0])
            assert card in said, (move, said)
            won = _won_trick(after, me)
            if "that wins the trick" in said or "every card you may play wins" in said:
                assert won is not False, (move, said)
            if "loses the trick" in said or "no card you may play wins" in said:
                assert won is not True, (move, said)
            mine, tricks = view["bids"][me], view["tricks"][me]
            if "your bid is made" in said:
                assert isinstance(mine, int) and tricks >= mine, (view["bids"], tricks, said)
            if "you still need tricks" in said:
                assert isinstance(mine, int) and tricks < mine, (view["bids"], tricks, said)
            counted["play"] += 1
        if move in ("keep", "discard"):
            assert pretty(view["drawn"]) in said, (move, said)
    assert counted["bid"] > 20 and counted["play"] > 300, counted


def test_back_alley_reasons_are_true_of_the_move() -> None:
    counted = Counter[str]()
    for view, _, move, said, _, after in decisions("back_alley", range(6)):
        args = move.split()[1:]
        if view["phase"] == "bidding":
            expected = _number(r"take about (\d+\.\d) tricks", said)
            assert expected is not None, said
            if "so you bid" in said:  # the hand's own bid: nine tenths, rounded up from .7
                assert int(args[0]) <= 0.9 * (expected + 0.05) + 0.3, (move, said)
                counted["bid"] += 1
            if "leave room for" in said:  # under the hand's own bid
                assert int(args[0]) < 0.9 * (expected + 0.05) + 0.3, (move, said)
            if "a bid is at most" in said:
                assert int(args[0]) == view["hand_size"] - 1, (move, said)
            if "too few to bid one" in said:
                assert move == "pass" and expected < 0.8, said
            if move == "board":
                assert "claim board" in said or "join it" in said, said
            continue
        assert pretty(args[0]) in said, (move, said)
        won = _won_trick(after, view["seat"])
        if "cheapest card that wins" in said or "trumps the trick" in said:
            assert won is not False, (move, said)
        counted["play"] += 1
    assert counted["bid"] > 20 and counted["play"] > 300, counted


def test_gin_reasons_are_true_of_the_move() -> None:
    """Through the public ``choose``/``explain`` only, so it holds whatever rules of thumb
    the normal player follows: what a reason says of the move is the engine's fact."""
    counted = Counter[str]()
    for view, legal, move, said, _, after in decisions("gin_rummy", range(20)):
        hand = view["hand"]
        verb, *args = move.split()
        if verb in ("discard", "knock"):
            card = pretty(args[0])
            left = melds.deadwood_by_discard(hand)[args[0]]
            thrown = re.search(r"throwing (\S+) leaves (\d+|no) deadwood", said)
            if thrown:
                assert thrown.group(1) == card, (move, said)
                assert thrown.group(2) == ("no" if left == 0 else str(left)), (move, said)
            if verb == "knock":
                knocked = _event(after, "knock") or _event(after, "gin")
                assert knocked is not None and thrown, (move, said)
                assert knocked["points"] == left, (move, said, knocked)
                limit = _number(r"no more than the (\d+)", said)
                assert limit is None or left <= limit, (move, said)
                counted["knock"] += 1
            if "leaves the least deadwood" in said:
                after_each = melds.deadwood_by_discard(hand)
                assert left == min(after_each[a.split()[1]] for a in legal
                                   if a.startswith("discard ")), (move, said)
            highest = re.search(r"(\S+) is (?:one of )?your highest unmatched card", said)
            if highest:
                loose = melds.best_arrangement(hand).deadwood
                assert highest.group(1) == card and args[0] in loose, (move, said)
                assert melds.card_value(args[0]) == max(map(melds.card_value, loose)), said
                counted["highest"] += 1
        cut = re.search(r"(\S+) cuts your deadwood from (\d+) to (\d+)", said)
        if cut:
            assert move == "take" and cut.group(1) == pretty(view["discard_top"]), said
            taken = melds.deadwood_by_discard([*hand, view["discard_top"]])
            del taken[view["discard_top"]]
            assert int(cut.group(2)) == melds.min_deadwood(hand), said
            assert int(cut.group(3)) == min(taken.values()), said
            counted["take"] += 1
    assert counted["knock"] > 10 and counted["highest"] > 50, counted


def test_craits_reasons_are_true_of_the_move() -> None:
    """Through the public ``choose``/``explain`` only (see the Gin Rummy test)."""
    counted = Counter[str]()
    for view, legal, move, said, _, _ in decisions("craits", range(6)):
        words = move.split()
        card = words[1] if words[0] == "play" else None
        shed = re.search(r"(\S+) sheds (\d+) points?", said)
        if shed:
            assert card is not None and shed.group(1) == pretty(card), (move, said)
            assert int(shed.group(2)) == POINTS[card[0]], (move, said)
            counted["shed"] += 1
        if "sheds the most points" in said:
            assert card is not None and POINTS[card[0]] == max(
                POINTS[a.split()[1][0]] for a in legal if a.startswith("play")
            ), (move, said)
        if "is the only card you can play" in said:
            assert len({a.split()[1] for a in legal if a.startswith("play")}) == 1, said
        ahead = re.search(r"the next player holds (\d+) cards?", said)
        if ahead:
            nxt = (view["seat"] + view["direction"]) % view["players"]
            assert int(ahead.group(1)) == view["hand_counts"][nxt], (said, view["hand_counts"])
        if "you can play only 3s" in said:
            assert all(a.split()[1][0] == "3" for a in legal if a.startswith("play")), said
        if "it goes out" in said:
            assert len(view["hand"]) == 1 and card is not None, said
        if "call them out" in said:
            assert words[0] == "callout", said
        kept = re.search(r"you keep (\d+) (\w+) to follow with", said)
        if kept and card is not None:
            suit = words[3] if len(words) > 3 and words[2] == "as" else card[1]
            rest = [c for c in view["hand"] if c != card]
            assert int(kept.group(1)) == sum(
                1 for c in rest if c[1] == suit and c[0] not in "38"
            ), (move, said)
    assert counted["shed"] > 100, counted


def test_ono99_reasons_are_true_of_the_move() -> None:
    counted = 0
    for _, _, move, said, _, after in decisions("ono99", range(10)):
        if move == "swap":
            assert "swap" in said
            continue
        total = _number(r"takes the total to (-?\d+)", said.replace("\u2212", "-"))
        played = _event(after, "play")
        assert total is not None and played is not None, (move, said)
        assert total == played["total"], (move, said, played)
        counted += 1
    assert counted > 300
