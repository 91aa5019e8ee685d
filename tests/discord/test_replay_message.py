"""``/game replay`` messages of seeded games of every kind: within Discord's limits, the
buttons go where they say (disabled at the ends, ids unique and stateless), the table is
the renderer's spectator view after the move's public events, and without Hands no card
shows beyond the spectator view, those events and the move itself."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import games
from bot import custom_ids
from bot.cogs.league import history_text
from bot.render import renderer
from bot.render.markup import markdown_lines
from bot.render.replay import replay_message
from bot.render.steps import event_lines
from bot.render.table import table_message
from bot.services.replays import ReplayStep
from games.cards import pretty
from games.rng import rng_for
from storage.matches import PlayedMatch, SeatResult
from storage.tables import ActionRow
from tests.discord.support import buttons
from tests.discord.test_messages import (
    GAMES,
    NAMES,
    _check_rows,
    cards_in,
    play,
    shown_cards,
)


def _replay(name: str, players: int, seed: int, options: dict[str, Any]) -> list[ReplayStep]:
    """Every step of a seeded game between ``normal`` computers, hands revealed."""
    game = games.get(name)
    state = game.new(players, seed=seed, options=options)
    rng = rng_for(seed, "replay")
    states = [state]
    moves: list[ActionRow] = []
    while not state.is_over:
        seat = state.to_act[0]
        action = game.choose(state, seat, "normal", rng)
        state = game.apply(state, seat, action)
        states.append(state)
        moves.append(ActionRow(len(moves) + 1, seat, action, None, False, 0.0))
    names = tuple(NAMES[:players])
    return [
        ReplayStep(
            77, name, names, n, len(moves), moves[n - 1] if n else None, game.view(s, None),
            tuple(tuple(game.view(s, seat).get("hand", ())) for seat in range(players)),
            tuple(s.events),
        )
        for n, s in enumerate(states)
    ]


def names_of(rep: ReplayStep) -> list[str]:
    """The names of a step's seats (people's names here: plain words)."""
    return [str(n) for n in rep.names]


def _embed_size(rep: ReplayStep, hands: bool) -> int:
    spec = replay_message(rep if hands else _public(rep), names_of(rep))
    e = spec.embed
    assert e is not None
    assert len(e.title) <= 256 and len(e.description) <= 4096 and len(e.footer) <= 2048
    assert all(len(n) <= 256 and len(v) <= 1024 for n, v in e.fields)
    return len(e.title) + len(e.description) + len(e.footer) + sum(
        len(n) + len(v) for n, v in e.fields
    )


def _public(rep: ReplayStep) -> ReplayStep:
    return ReplayStep(rep.match_id, rep.game, rep.names, rep.step, rep.last, rep.move,
                      rep.public, None, rep.events)


@pytest.mark.parametrize(("name", "players", "seed", "options"), GAMES)
def test_every_step_fits_and_its_buttons_go_where_they_say(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    steps = _replay(name, players, seed, options)
    last = len(steps) - 1
    r = renderer(name)
    for rep in steps:
        assert _embed_size(rep, True) <= 6000 and _embed_size(rep, False) <= 6000
        for hands in (False, True):
            spec = replay_message(rep if hands else _public(rep), names_of(rep))
            _check_rows(spec.rows)
            (row,) = spec.rows
            assert [b.label for b in buttons(row)] == [
                "◀◀", "◀", "▶", "▶▶", "Hide hands" if hands else "Hands"
            ]
            targets = [custom_ids.parse_replay(b.custom_id) for b in row]
            n = rep.step
            assert targets == [
                (77, 0, hands), (77, max(n - 1, 0), hands), (77, min(n + 1, last), hands),
                (77, last, hands), (77, n, not hands),
            ]
            assert [b.disabled for b in buttons(row[:4])] == [n == 0, n == 0, n == last, n == last]
            assert spec.embed is not None
            head, *rest = spec.embed.description.split("\n")
            assert head.startswith(f"**{n}/{last} · ") and head.endswith("**")
            happened, table = rest[:rest.index("")], rest[rest.index("") + 1:]
            assert happened == markdown_lines(event_lines(name, rep.events, names_of(rep)))
            assert table == markdown_lines(r.table(rep.public, names_of(rep)))
    assert "0/" in replay_message(steps[0], names_of(steps[0])).text().split(" · The deal**")[0]


@pytest.mark.parametrize(
    ("name", "players", "seed", "options"), [g for g in GAMES if g[0] != "ono99"]
)  # (ONO 99's cards are bare numbers: no card pattern to look for)
def test_without_hands_no_card_shows_beyond_the_public_view_and_the_move(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    hidden_seen = 0
    for rep in _replay(name, players, seed, options):
        assert rep.hands is not None
        public = {pretty(c) for c in cards_in(rep.public) | cards_in(rep.events)}
        if rep.move is not None:
            public |= {pretty(c) for c in cards_in(rep.move.action.split())}
        held = {pretty(c) for hand in rep.hands for c in hand}
        hidden_seen += bool(held - public)
        shown = set(shown_cards(replay_message(_public(rep), names_of(rep))))
        assert shown <= public, shown - public
        with_hands = set(shown_cards(replay_message(rep, names_of(rep))))
        assert held <= with_hands
    assert hidden_seen > 10


def test_a_finished_table_and_the_history_name_the_game_to_replay() -> None:
    last = list(play("gin_rummy", 2, 3, {"target": 100}))[-1]
    embed = table_message(last.result).embed
    assert embed is not None
    result = dict(embed.fields)["Result"]
    assert "/game replay" not in result  # (a finished table loaded from its row)
    known = replace(last.result, match_id=123)
    embed = table_message(known).embed
    assert embed is not None
    result = dict(embed.fields)["Result"]
    assert result.startswith("1. ") and result.endswith("\nReplay: `/game replay id:123`")
    seats = (SeatResult(0, 1, None, "*Al*", 0, 10, 1), SeatResult(1, None, "normal", "Bo", 1, 0, 2))
    text = history_text([PlayedMatch(123, 9, None, "gin_rummy", 0.0, 1.0, seats)])
    assert "#123 **Gin Rummy** — 1. \\*Al\\* 10 · 2. Bo 0" in text
    assert text.endswith("/game replay id:`.")
