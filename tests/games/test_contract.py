"""The engine contract from DESIGN.md, checked the same way for every game."""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

import games
from games import IllegalAction, UnknownGame
from games.simulate import play_game

PUBLIC_FACTS = {
    "gin_rummy": {"hand_no", "stock", "discard_top"},
    "spades": {"hand_no", "bids", "tricks", "bags"},
    "back_alley": {"deal_no", "hand_size", "trump", "bids", "tricks"},
    "craits": {"round_no", "top", "suit", "crank", "hand_counts"},
    "ono99": {"total", "direction", "eliminated", "hand_counts"},
}
# Random players at Spades lose points on most hands, so only a low target ends their games.
SHORT: dict[str, dict[str, object]] = {
    "back_alley": {"deals": 3},
    "craits": {"short": True},
    "gin_rummy": {"target": 30},
    "spades": {"target": 10},
}


def test_names_and_lookup() -> None:
    assert games.names() == ["back_alley", "craits", "gin_rummy", "ono99", "spades"]
    assert games.get("Gin Rummy") is games.get("gin_rummy")
    with pytest.raises(UnknownGame) as err:
        games.get("poker")
    assert isinstance(err.value, KeyError)
    assert "poker" in str(err.value) and "gin_rummy" in str(err.value)


@pytest.mark.parametrize("name", games.names())
def test_bad_setup_is_a_value_error(name: str) -> None:
    game = games.get(name)
    assert game.title and 2 <= game.min_players <= game.max_players
    package_doc = importlib.import_module(f"games.{name}").__doc__
    assert package_doc and game.rules == package_doc.strip()
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError, match="players"):
            game.new(players)
    with pytest.raises(ValueError, match="nonsense"):
        game.new(game.min_players, options={"nonsense": 1})
    for key, option in game.options.items():
        bad: Any = "maybe" if isinstance(option.default, bool | int) else 12
        with pytest.raises(ValueError, match=key):
            game.new(game.min_players, options={key: bad})
    with pytest.raises(ValueError):
        game.new(game.min_players, deck=list(game.full_deck)[1:])


def _check_step(game: games.Game[Any], state: games.State) -> None:
    text = game.dumps(state)
    assert game.loads(text) == state
    for seat in range(state.players):
        legal = game.legal_actions(state, seat)
        if seat in state.to_act:
            assert legal, f"seat {seat} is to act but has no legal action"
            assert legal == game.legal_actions(state, seat)
            for action in legal:
                assert game.parse_action(action) == action
                assert game.parse_action("  " + action.upper() + " ") == action
        else:
            assert legal == []
            if not state.is_over:
                with pytest.raises(IllegalAction):
                    game.apply(state, seat, "draw")
        view = game.view(state, seat)
        json.dumps(view)
        assert {"hand", "scores", "to_act", "phase"} <= view.keys()
        assert PUBLIC_FACTS[game.name] <= view.keys()
        assert len(view["scores"]) == state.players
    spectator = game.view(state, None)
    assert "hand" not in spectator
    assert PUBLIC_FACTS[game.name] <= spectator.keys()
    if not state.is_over:
        seat = state.to_act[0]
        for garbage in ("", "   ", "xyzzy", "play", "discard ZZ 9", "bid -4"):
            with pytest.raises(IllegalAction):
                game.apply(state, seat, garbage)
    assert game.dumps(state) == text


@pytest.mark.parametrize("name", games.names())
def test_seeded_games_keep_the_contract(name: str) -> None:
    game = games.get(name)
    for players in range(game.min_players, game.max_players + 1):
        seed = 1000 + players
        played = play_game(game, players, seed, ["random"] * players, SHORT.get(name))
        state = game.new(players, seed=seed, options=SHORT.get(name))
        rng = random.Random(seed)
        for step, (seat, action) in enumerate(played.actions):
            if step % 7 == 0 or rng.random() < 0.05:
                _check_step(game, state)
            before = game.dumps(state)
            state = game.apply(state, seat, action)
            assert game.dumps(state) != before or state.events
        assert state == played.state, "replaying the action log gives the same state"
        assert state.is_over and state.to_act == ()
        _check_step(game, state)
        with pytest.raises(IllegalAction, match="over"):
            game.apply(state, 0, game.example_action())
        outcome = game.outcome(state)
        assert len(outcome.scores) == len(outcome.ranks) == players
        assert min(outcome.ranks) == 1
        better = 1 if game.higher_scores_win(state.options) else -1
        for a in range(players):
            for b in range(players):
                if better * outcome.scores[a] > better * outcome.scores[b]:
                    assert outcome.ranks[a] < outcome.ranks[b]


@pytest.mark.parametrize("name", games.names())
def test_computer_players_choose_legal_moves(name: str) -> None:
    game = games.get(name)
    assert {"random", "normal"} <= set(game.levels)
    players = game.min_players
    played = play_game(game, players, 5, ["normal"] * players, SHORT.get(name))
    assert played.state.is_over
    with pytest.raises(ValueError, match="level"):
        state = game.new(players, seed=1, options=SHORT.get(name))
        game.choose(state, state.to_act[0], "grandmaster")
