"""The ``expert`` level and what it needs from the engines: worlds sampled from a view
(never from hidden cards), determinism, whole games, and the Gin Rummy loop guard."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

import games
from games.back_alley import expert as back_alley_expert
from games.base import State
from games.craits import expert as craits_expert
from games.craits import reading
from games.gin_rummy.engine import TAKE_LIMIT
from games.gin_rummy.state import GinState
from games.rng import rng_for
from games.search import Meter, deal, fitted, pimc, rollout, standing
from games.spades import expert as spades_expert

PLAYERS = {"back_alley": 4, "craits": 4, "gin_rummy": 2, "ono99": 4, "spades": 2}
SHORT: dict[str, dict[str, object]] = {
    "back_alley": {"deals": 2},
    "craits": {"short": True},
    "gin_rummy": {"target": 10},
    "ono99": {},
    "spades": {"target": 10},
}


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Search with a handful of rollouts so whole games stay quick."""
    for name in PLAYERS:
        module = importlib.import_module(f"games.{name}.expert")
        for budget in ("ROLLOUTS", "BID_ROLLOUTS"):
            if hasattr(module, budget):
                monkeypatch.setattr(module, budget, 4)


def _midgame(name: str, seed: int, moves: int) -> State:
    """A state after up to ``moves`` moves of ``normal`` play."""
    game = games.get(name)
    state: State = game.new(PLAYERS[name], seed=seed, options=SHORT[name])
    rng = rng_for(seed, "mid")
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act[0]
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
    return state


def _refill(cards: list[list[str]], rng: random.Random) -> list[list[str]]:
    """The same places, the cards in them shuffled among them."""
    pool = [c for group in cards for c in group]
    rng.shuffle(pool)
    out, at = [], 0
    for group in cards:
        out.append(pool[at:at + len(group)])
        at += len(group)
    return out


def _reshuffle_hidden(name: str, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``state`` whose cards hidden from ``seat`` sit in other hidden places."""
    s = state.clone()
    others = [t for t in range(s.players) if t != seat]
    if name == "spades":
        opp = others[0]
        seen_top = 1 if games.get(name).view(s, seat)["drawn"] else 0
        down = [c for c in s.discards if c not in s.face_up]
        hand, top, pile = _refill(
            [s.hands[opp], s.stock[seen_top:], down], rng
        )
        s.hands[opp] = hand
        s.stock = s.stock[:seen_top] + top
        s.discards = [c for c in s.discards if c in s.face_up] + pile
    elif name == "gin_rummy":
        opp = others[0]
        free = [c for c in s.hands[opp] if c not in s.known[opp]]
        free, s.stock = _refill([free, s.stock], rng)
        s.hands[opp] = list(s.known[opp]) + free
    elif name == "back_alley":
        *hands, s.stock = _refill([*(s.hands[t] for t in others), s.stock], rng)
        for t, h in zip(others, hands, strict=True):
            s.hands[t] = h
    elif name == "craits":
        *hands, s.draw_pile = _refill([*(s.hands[t] for t in others), s.draw_pile], rng)
        for t, h in zip(others, hands, strict=True):
            s.hands[t] = h
    else:
        hidden = [t for t in others if s.in_round[t]]
        *hands, s.draw = _refill([*(s.hands[t] for t in hidden), s.draw], rng)
        for t, h in zip(hidden, hands, strict=True):
            s.hands[t] = sorted(h)
    return s


@pytest.mark.parametrize("name", sorted(PLAYERS))
@pytest.mark.parametrize("moves", [0, 7, 23, 60])
def test_worlds_never_read_hidden_cards(name: str, moves: int) -> None:
    game = games.get(name)
    for seed in range(3):
        state = _midgame(name, seed, moves)
        if state.is_over:
            continue
        for seat in range(state.players):
            other = _reshuffle_hidden(name, state, seat, random.Random(seed))
            assert game.view(other, seat) == game.view(state, seat)
            a = game.determinize(state, seat, random.Random(9))
            b = game.determinize(other, seat, random.Random(9))
            assert game.dumps(a) == game.dumps(b)
            # The world is one the seat cannot tell from the real state...
            assert game.view(a, seat) == game.view(state, seat)
            # ...and a real game state: its moves are legal and can be applied.
            if seat in a.to_act:
                assert game.legal_actions(a, seat) == game.legal_actions(state, seat)
                game.apply(a, seat, game.legal_actions(a, seat)[0])


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_worlds_differ_with_the_generator(name: str) -> None:
    game = games.get(name)
    state = _midgame(name, 1, 9)
    seat = state.to_act[0]
    worlds = {game.dumps(game.determinize(state, seat, random.Random(k))) for k in range(4)}
    assert len(worlds) > 1


def test_deal_keeps_voids_and_sizes() -> None:
    pool = [f"{r}{s}" for r in "23456789" for s in "SHDC"]
    no_spades: Callable[[str], bool] = lambda c: not c.endswith("S")  # noqa: E731
    for k in range(20):
        a, b, rest = deal(pool, [8, 8, 16], random.Random(k), allowed=[no_spades, None, None])
        assert len(a) == 8 and len(b) == 8 and len(rest) == 16
        assert sorted(a + b + rest) == sorted(pool)
        assert not any(c.endswith("S") for c in a)


def test_deal_keeps_duplicates() -> None:
    pool = ["ONO"] * 5 + ["7"] * 3
    a, b = deal(pool, [4, 4], random.Random(3))
    assert sorted(a + b) == sorted(pool)


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_expert_is_a_level_and_deterministic(name: str, small_budget: None) -> None:
    game = games.get(name)
    assert "expert" in game.levels
    state = _midgame(name, 2, 11)
    seat = state.to_act[0]
    picks = {game.choose(state, seat, "expert", random.Random(5)) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(game.legal_actions(state, seat))


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_seeded_expert_game_ends(name: str, small_budget: None) -> None:
    game = games.get(name)
    n = PLAYERS[name]
    levels = ["expert"] + ["normal"] * (n - 1)
    state = game.new(n, seed=3, options=SHORT[name])
    rng = rng_for(3, "bots")
    for _ in range(5000):
        if state.is_over:
            break
        seat = state.to_act[0]
        action = game.choose(state, seat, levels[seat], rng)
        assert action in game.legal_actions(state, seat)
        state = game.apply(state, seat, action)
    assert state.is_over
    assert len(game.outcome(state).scores) == n


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_advance_is_apply_for_listed_moves(name: str) -> None:
    """Search rollouts skip apply's checks: every listed move must give the same state,
    and the state advanced from must stay as it was."""
    game = games.get(name)
    state = game.new(PLAYERS[name], seed=4, options=SHORT[name])
    rng = rng_for(4, "advance")
    for _ in range(400):
        if state.is_over:
            break
        seat = state.to_act[0]
        before = game.dumps(state)
        for action in game.legal_actions(state, seat):
            assert game.to_json(game.advance(state, seat, action)) == game.to_json(
                game.apply(state, seat, action)
            )
        assert game.dumps(state) == before
        state = game.apply(state, seat, game.choose(state, seat, "random", rng))


def test_gin_take_backs_end_the_hand_as_a_draw() -> None:
    """Two players who only ever take the discard and throw another card: the tenth
    such turn's discard ends the hand, a draw that scores nothing."""
    game = games.get("gin_rummy")
    state = game.new(2, seed=4)
    hand_no, stock = state.hand_no, len(state.stock)
    for turn in range(1, TAKE_LIMIT + 1):
        seat = state.to_act[0]
        state = game.apply(state, seat, "take")
        assert len(state.stock) == stock
        discard = next(a for a in game.legal_actions(state, seat) if a.startswith("discard"))
        state = game.apply(state, seat, discard)
        if turn < TAKE_LIMIT:
            assert state.hand_no == hand_no and state.takes == turn
    assert state.hand_no == hand_no + 1
    assert state.last_hand is not None and state.last_hand["result"] == "wall"
    assert state.scores == [0, 0] and state.takes == 0


def test_a_stock_draw_restarts_the_take_back_count() -> None:
    game = games.get("gin_rummy")
    state = game.new(2, seed=5)
    state = game.apply(state, state.to_act[0], "take")
    assert state.takes == 1
    seat = state.to_act[0]
    discard = next(a for a in game.legal_actions(state, seat) if a.startswith("discard"))
    state = game.apply(state, seat, discard)
    state = game.apply(state, state.to_act[0], "draw")
    assert state.takes == 0


def test_normal_gin_players_end_every_hand_from_sampled_worlds() -> None:
    """Worlds sampled mid-hand (where two ``normal`` players were once seen passing a card
    back and forth) all end their hand within a bounded number of moves."""
    game = games.get("gin_rummy")
    for seed in range(12):
        state = _midgame("gin_rummy", seed, 6 + seed)
        assert isinstance(state, GinState)
        if state.is_over:
            continue
        for k in range(4):
            world = game.determinize(state, state.to_act[0], random.Random(k))
            rng = random.Random(k)
            for _ in range(4 * 52):
                if world.hand_no != state.hand_no or world.is_over:
                    break
                seat = world.to_act[0]
                world = game.apply(world, seat, game.choose(world, seat, "normal", rng))
            assert world.hand_no != state.hand_no or world.is_over


def test_old_gin_states_load_without_the_take_back_count() -> None:
    game = games.get("gin_rummy")
    state = game.new(2, seed=6)
    data = game.to_json(state)
    del data["takes"]
    assert game.from_json(data).takes == 0


def _check_fitted(name: str, state: State, misfit: Callable[[Any], float], tries: int) -> None:
    """Worlds kept by ``fitted`` come from the view alone (the same world whatever the
    hidden hands really are), keep every hand count, and explain what the others did at
    least as well as a plain world drawn first."""
    game = games.get(name)
    seat = state.to_act[0]
    view = game.view(state, seat)
    sample = fitted(game.world, misfit, tries)
    other = _reshuffle_hidden(name, state, seat, random.Random(state.seed))
    kept = sample(view, random.Random(7))
    assert game.dumps(kept) == game.dumps(sample(game.view(other, seat), random.Random(7)))
    assert game.view(kept, seat) == view
    assert misfit(kept) <= misfit(game.world(view, random.Random(7)))


@pytest.mark.parametrize("bids", [1, 2, 3])
def test_back_alley_bid_worlds_fit_the_bids_from_the_view_alone(bids: int) -> None:
    game = games.get("back_alley")
    for seed in range(4):
        state = _midgame("back_alley", seed, bids)
        seat = state.to_act[0]
        legal = game.legal_actions(state, seat)
        misfit = partial(back_alley_expert.bid_misfit, game.view(state, seat), legal)
        _check_fitted("back_alley", state, misfit, back_alley_expert.TRIES)


@pytest.mark.parametrize("moves", [30, 40, 50])
def test_spades_worlds_fit_the_opponents_bid_from_the_view_alone(moves: int) -> None:
    game = games.get("spades")
    checked = 0
    for seed in range(6):
        state = _midgame("spades", seed, moves)
        seat = state.to_act[0]
        view = game.view(state, seat)
        if state.is_over or not isinstance(view["bids"][1 - seat], int):
            continue
        misfit = partial(spades_expert.bid_misfit, view)
        _check_fitted("spades", state, misfit, spades_expert.TRIES)
        checked += 1
    assert checked


def test_back_alley_shared_bid_playouts_score_as_full_ones() -> None:
    """A bid scored on a play-out shared with another bid (same leader and board claims)
    is worth what its own play-out to the end of the deal is worth."""
    game = games.get("back_alley")
    for seed in range(4):
        state = _midgame("back_alley", seed, seed % 4)
        seat = state.to_act[0]
        shared = back_alley_expert.BidPlayout()
        for k in range(3):
            world = game.determinize(state, seat, random.Random(k))
            for bid in game.legal_actions(world, seat):
                after = game.advance(world, seat, bid)
                full = rollout(
                    game, after, world, back_alley_expert.deal_over, "normal", random.Random(k)
                )
                mine = shared(after, world, random.Random(k))
                assert back_alley_expert.value(world, mine, seat) == (
                    back_alley_expert.value(world, full, seat)
                ), (seed, k, bid)


def _held_since(hand: list[str], refused: list[reading.Refusal]) -> bool:
    """Whether ``hand`` has room for what the refusals say: for each, at least ``held -
    drawn`` cards that keep its gap and every later one's."""
    return all(
        sum(all(r.fits(c) for r in refused[i:]) for c in hand) >= len(hand) - refused[i].drawn
        for i in range(len(refused))
    )


@pytest.mark.parametrize("seed", range(6))
def test_craits_refusals_are_true_and_worlds_keep_them(seed: int) -> None:
    """What a draw tells (the player could not play) holds for the real hands in every
    position of a seeded game, and every sampled world keeps it."""
    game = games.get("craits")
    state = game.new(4, seed=seed, options={"short": True})
    rng = rng_for(seed, "refusals")
    seen = 0
    while not state.is_over:
        seat = state.to_act[0]
        view = game.view(state, seat)
        refused = reading.refusals(view["history"], 4)
        for s in range(4):
            assert _held_since(state.hands[s], refused[s]), (s, refused[s], state.hands[s])
        if any(refused[s] for s in range(4) if s != seat) and seen % 5 == 0:
            world = game.world(view, random.Random(seen))
            for s in range(4):
                if s != seat:
                    assert _held_since(world.hands[s], refused[s]), (s, refused[s])
        seen += 1
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
    assert seen > 100


def test_a_move_budget_weighs_fewer_worlds_and_keeps_the_default_below_two() -> None:
    """``max_moves`` stops drawing worlds before the play-outs would pass it; when not even
    two worlds fit, the fast policy's move stands."""
    game = games.get("craits")
    state = _midgame("craits", 3, 4)
    seat = state.to_act[0]
    view = game.view(state, seat)
    legal = [a for a in game.legal_actions(state, seat) if a.startswith("play")]
    assert len(legal) >= 2
    value = standing(game)

    def search(max_moves: int | None) -> tuple[str, int]:
        drawn: list[State] = []

        def sample(view: dict[str, Any], rng: random.Random) -> State:
            drawn.append(game.world(view, rng))
            return drawn[-1]

        move = pimc(
            game, view, legal, random.Random(1), worlds=12, value=value,
            done=craits_expert.round_over, default=legal[-1], confidence=0.0,
            sample=sample, max_moves=max_moves,
        )
        return move, len(drawn)

    assert search(None)[1] == 12
    few = search(400)[1]
    assert 1 <= few < 12
    assert search(1) == (legal[-1], 1)


@pytest.mark.parametrize("seed", range(3))
def test_craits_lean_playouts_are_normal_rollouts(seed: int) -> None:
    """The Craits expert's lean play-outs make exactly ``normal``'s moves, and count them."""
    game = games.get("craits")
    for moves in (0, 7, 20):
        state = _midgame("craits", seed, moves)
        if state.is_over:
            continue
        world = game.determinize(state, state.to_act[0], random.Random(seed))
        meter = Meter()
        lean = craits_expert.playout(world, world, random.Random(7), meter)
        counted = Meter()
        full = rollout(game, world, world, craits_expert.round_over, "normal",
                       random.Random(7), meter=counted)
        assert game.dumps(lean) == game.dumps(full)
        assert meter.moves == counted.moves > 0


def test_a_craits_playout_that_goes_round_for_ever_stops_at_the_move_budget() -> None:
    """Every card in a hand (game 1,000,030's round, as a play-out found it): the ``normal``
    players play and draw the same cards back and nobody goes out, so the round never ends
    (still on after 5,000 moves). The play-out stops at ``MAX_MOVES`` and scores nothing."""
    from games.craits.state import CraitsState

    hands = ["JD JH 4H QD KD KH 2D AH 2S 9D 6H TS 8S 5H", "3D 3S JS 3C 7D 9C 5D 5S TH",
             "3H 9S 6D", "4D KC QH 8C 4C QC KS 4S 7H 7C TD 7S 9H JC TC QS 2H 2C AS 8D AD 8H 6C"
             " 6S AC"]
    stuck = CraitsState(
        players=4, seed=1_000_030, options={"short": True}, to_act=(0,), hands=[
            h.split() for h in hands], discard=["5C"], suit="C", current=0,
        announced=[False] * 4, skipped=[0] * 4, scores=[0] * 4, shuffles=2839,
    )
    game = games.get("craits")
    assert sum(map(len, stuck.hands)) == 51 and not stuck.draw_pile
    still = rollout(game, stuck, stuck, craits_expert.round_over, "normal", random.Random(1),
                    horizon=5_000)
    assert still.round_no == 1 and not still.is_over  # the loop: no horizon, no end
    meter = Meter()
    end = craits_expert.playout(stuck, stuck, random.Random(1), meter)
    assert meter.moves == craits_expert.MAX_MOVES and end.round_no == 1
    assert standing(game)(stuck, end, 0) == 0.0
