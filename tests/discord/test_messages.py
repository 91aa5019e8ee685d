"""Whole Discord messages of seeded games, after every move: the public table message never
shows a hidden card, a hand message only its own seat's cards, and the move components
respect Discord's limits while offering exactly the legal moves."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

import games
from bot import custom_ids
from bot.render import renderer
from bot.render.hand import hand_message, move_for, move_rows
from bot.render.hint import hint_text
from bot.render.messages import Button, MessageSpec, Select
from bot.render.options import option_pairs
from bot.render.rules import rules_message, rules_pages
from bot.render.table import EventLog, lobby_message, table_message
from bot.services.tables import SeatInfo, SeatPrivate, Step, TableResult, TableStatus
from games.base import Game, State
from games.cards import DECK_WITH_JOKERS, pretty
from games.rng import rng_for
from games.search import Advice, Ranking
from tests.discord.support import button, buttons
from tests.games.support import of_a_game

#: (game, players, seed, options) of each seeded game the messages are checked on.
GAMES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("gin_rummy", 2, 3, {"target": 100}),
    ("spades", 2, 5, {"target": 120}),
    ("back_alley", 4, 7, {"deals": 3}),
    ("craits", 3, 11, {"short": True}),
    ("ono99", 4, 13, {}),
]
NAMES = ["Alice", "Bob", "Cleo", "Dev", "Eve"]
_PRETTY_CARD = re.compile(r"(?:10|[A2-9JQK])[♠♥♦♣]|Big🃏|Little🃏")
_POOLS = ("stock", "draw_pile", "draw")


@dataclass
class Moment:
    """A state after a move, and the result the service would return for it."""

    state: State
    result: TableResult
    events: list[str]


def result_of(game: Game[Any], state: State, version: int, steps: tuple[Step, ...]) -> TableResult:
    """The service's result for a table where every seat is a human (as ``_result`` builds)."""
    n = state.players
    seats = tuple(SeatInfo(i, NAMES[i], 1000 + i, None) for i in range(n))
    private = {
        i: SeatPrivate(i, 1000 + i, game.view(state, i), tuple(game.legal_actions(state, i)))
        for i in range(n)
    }
    return TableResult(
        table_id=42,
        channel_id=7,
        guild_id=9,
        game=game.name,
        title=game.title,
        status=TableStatus.FINISHED if state.is_over else TableStatus.PLAYING,
        version=version,
        host_id=1000,
        seats=seats,
        options=dict(state.options),
        turn_timer=300,
        deadline=None if state.is_over else 1_800_000_000.0,
        message="",
        steps=steps,
        to_act=tuple(state.to_act),
        public=game.view(state, None),
        outcome=game.outcome(state) if state.is_over else None,
        private=private,
    )


def play(name: str, players: int, seed: int, options: dict[str, Any]) -> Iterator[Moment]:
    """Every moment of a seeded game between ``normal`` computer players."""
    game = games.get(name)
    state = game.new(players, seed=seed, options=options)
    rng = rng_for(seed, "test")
    log = EventLog()
    version = 0
    while not state.is_over:
        seat = state.to_act[0]
        state = game.apply(state, seat, game.choose(state, seat, "normal", rng))
        version += 1
        step = Step(version, seat, NAMES[seat], "player", tuple(state.events))
        result = result_of(game, state, version, (step,))
        log.add(result)
        yield Moment(state, result, list(log.lines))


def strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def cards_in(value: Any) -> set[str]:
    """Every card code (standard deck or joker) anywhere in a JSON value."""
    return strings(value) & set(DECK_WITH_JOKERS)


def hidden_cards(m: Moment) -> set[str]:
    """Cards in some hand that neither the spectator view nor a shown event reveals."""
    public = strings(m.result.public) | strings([s.events for s in m.result.steps])
    in_hands = {c for hand in of_a_game(m.state).hands for c in hand}
    return in_hands - public


def shown_cards(spec: MessageSpec) -> list[str]:
    return _PRETTY_CARD.findall(spec.text())


def test_card_pattern_finds_cards() -> None:
    spec = MessageSpec(content="Alice discarded 10♥ and Q♠; Big🃏 wins; 3 cards left")
    assert shown_cards(spec) == ["10♥", "Q♠", "Big🃏"]


@pytest.mark.parametrize(("name", "players", "seed", "options"), GAMES)
def test_table_message_never_shows_a_hidden_card(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    checked = 0
    for m in play(name, players, seed, options):
        spec = table_message(m.result, m.events, league_line="Ratings: Alice 1000 (+3)")
        text = spec.text()
        assert "Alice" in text
        if name != "ono99":
            # Public: the spectator view, and the public events shown (this move's and the
            # earlier ones still in the log: a card once seen taken stays known).
            public = {pretty(c) for c in cards_in(m.result.public)}
            public |= {pretty(c) for c in cards_in([s.events for s in m.result.steps])}
            public |= set(_PRETTY_CARD.findall("\n".join(m.events)))
            hidden = {pretty(c) for c in hidden_cards(m)} - public
            checked += bool(hidden)
            leaked = hidden & set(shown_cards(spec))
            assert not leaked, (leaked, text)
            assert set(shown_cards(spec)) <= public, text
        else:
            checked += 1
    assert checked > 20


def _shuffle_hidden(game: Game[Any], state: State, rng: random.Random) -> State | None:
    """The same public position with the hidden cards dealt differently (or None when
    that would change what a spectator sees)."""
    public = strings(game.view(state, None))
    twin = game.from_json(json.loads(game.dumps(state)))
    slots: list[tuple[list[str], int]] = []
    for hand in of_a_game(twin).hands:
        slots += [(hand, i) for i, c in enumerate(hand) if c not in public]
    for pool in _POOLS:
        cards = getattr(twin, pool, None)
        if isinstance(cards, list):
            slots += [(cards, i) for i in range(len(cards))]
    values = [where[i] for where, i in slots]
    if len(set(values)) < 2:
        return None
    rng.shuffle(values)
    for (where, i), card in zip(slots, values, strict=True):
        where[i] = card
    return twin if game.view(twin, None) == game.view(state, None) else None


@pytest.mark.parametrize(("name", "players", "seed", "options"), GAMES)
def test_table_message_depends_on_nothing_hidden(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    """Dealing the hidden cards differently never changes the public message (this also
    covers ONO 99, whose cards are plain numbers)."""
    game = games.get(name)
    rng = random.Random(seed)
    compared = 0
    for m in play(name, players, seed, options):
        twin = _shuffle_hidden(game, m.state, rng)
        if twin is None:
            continue
        if game.dumps(twin) == game.dumps(m.state):
            continue
        other = result_of(game, twin, m.result.version, m.result.steps)
        assert table_message(other, m.events) == table_message(m.result, m.events)
        compared += 1
    assert compared > 10


@pytest.mark.parametrize(("name", "players", "seed", "options"), GAMES)
def test_hand_messages_show_only_their_seat(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    for n, m in enumerate(play(name, players, seed, options)):
        if n % 3:
            continue
        for seat, mine in m.result.private.items():
            spec = hand_message(m.result, mine, "<#7>")
            assert spec.content.startswith(f"**{m.result.title}** in <#7> — your hand")
            if name == "ono99":
                continue
            own = cards_in(mine.view) | cards_in([s.events for s in m.result.steps])
            others = {c for s, h in enumerate(of_a_game(m.state).hands) if s != seat for c in h}
            leaked = {pretty(c) for c in others - own} & set(shown_cards(spec))
            assert not leaked, (seat, leaked, spec.content)


def _check_rows(rows: tuple[tuple[Any, ...], ...]) -> None:
    assert len(rows) <= 5
    ids = []
    for row in rows:
        assert row
        if any(isinstance(c, Select) for c in row):
            assert len(row) == 1
        assert len(row) <= 5
        for c in row:
            ids.append(c.custom_id)
            assert len(c.custom_id) <= 100
            if isinstance(c, Button):
                assert 1 <= len(c.label) <= 80
            else:
                assert 1 <= len(c.options) <= 25
                assert 0 <= c.min_values <= c.max_values <= len(c.options)
                assert all(1 <= len(label) <= 100 and len(v) <= 100 for label, v in c.options)
    assert len(ids) == len(set(ids))


def reachable(legal: list[str], label: Any, table: int = 42, version: int = 9) -> set[str]:
    """Every move the components offer, over all pages."""
    found: set[str] = set()
    pages = [0]
    seen_pages: set[int] = set()
    while pages:
        page = pages.pop()
        if page in seen_pages:
            continue
        seen_pages.add(page)
        rows = move_rows(table, version, legal, label, page)
        _check_rows(rows)
        for row in rows:
            for c in row:
                cid = custom_ids.parse(c.custom_id)
                assert (cid.table_id, cid.version) == (table, version)
                if isinstance(c, Button) and cid.kind == "page":
                    pages.append(int(cid.arg))
                elif isinstance(c, Button):
                    found.add(move_for(cid, []))
                elif cid.kind == "sel":
                    found |= {move_for(cid, [v]) for _, v in c.options}
                else:
                    values = [v for _, v in c.options]
                    found |= {
                        a
                        for a in legal
                        if a.split()[0] == cid.arg
                        and set(a.split()[1:]) <= set(values)
                        and c.min_values <= len(a.split()) - 1 <= c.max_values
                    }
    return found


@pytest.mark.parametrize(("name", "players", "seed", "options"), GAMES)
def test_components_offer_exactly_the_legal_moves(
    name: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    label = renderer(name).action_label
    for m in play(name, players, seed, options):
        for mine in m.result.private.values():
            if mine.legal:
                assert reachable(list(mine.legal), label) == set(mine.legal)


def test_spades_exchange_is_a_multi_select_of_cards() -> None:
    hand = ["2S", "5S", "9H", "QH", "KH", "3D", "7D", "TD", "AD", "4C", "8C", "JC", "KC"]
    from itertools import combinations

    legal = ["exchange"] + [
        "exchange " + " ".join(c) for k in (1, 2, 3) for c in combinations(hand, k)
    ]
    assert len(legal) == 378
    rows = move_rows(1, 2, legal, renderer("spades").action_label)
    _check_rows(rows)
    multi = [c for row in rows for c in row if isinstance(c, Select)]
    assert len(multi) == 1 and (multi[0].min_values, multi[0].max_values) == (1, 3)
    assert [v for _, v in multi[0].options] == hand
    assert move_for(custom_ids.parse(multi[0].custom_id), ["QH", "2S"]) == "exchange QH 2S"
    assert reachable(legal, renderer("spades").action_label) == set(legal)


def test_many_rows_are_paged() -> None:
    legal = [f"verb{i} x{j}" for i in range(7) for j in range(2)]
    first = move_rows(5, 1, legal, str)
    assert len(first) == 5 and [b.label for b in buttons(first[-1])] == ["Next ▶"]
    last = move_rows(5, 1, legal, str, page=1)
    assert [b.label for b in buttons(last[-1])] == ["◀ Previous"]
    assert reachable(legal, str, 5, 1) == set(legal)


def test_lobby_and_closed_messages() -> None:
    game = games.get("spades")
    lobby = TableResult(
        table_id=3,
        channel_id=7,
        guild_id=9,
        game="spades",
        title=game.title,
        status=TableStatus.LOBBY,
        version=0,
        host_id=1000,
        seats=(SeatInfo(0, "Alice", 1000, None),),
        options={"target": 300, "blind_nil": True},
        turn_timer=120,
        deadline=None,
        message="",
    )
    spec = lobby_message(lobby)
    assert [b.label for b in buttons(spec.rows[0])] == [
        "Join", "Leave", "Add computer", "Start", "Cancel"
    ]
    start = next(b for b in buttons(spec.rows[0]) if b.label == "Start")
    assert start.disabled and "target=300" in spec.text() and "2 min per turn" in spec.text()
    assert "<@1000> (host)" in spec.text()
    closed = table_message(TableResult(**{**lobby.__dict__, "status": "aborted"}))
    assert "closed" in closed.text() and closed.rows == ()


def test_finished_message_has_placements_league_and_rematch() -> None:
    moments = list(play("gin_rummy", 2, 3, {"target": 100}))
    last = moments[-1]
    spec = table_message(last.result, last.events, league_line="Ratings: Alice 1012 (+12)")
    fields = dict(spec.embed.fields) if spec.embed else {}
    assert fields["Result"].startswith("1. ")
    assert fields["League"] == "Ratings: Alice 1012 (+12)"
    assert [b.label for row in spec.rows for b in buttons(row)] == ["Rematch"]
    assert "wins" in spec.text()


def test_rules_pages_fit_an_embed_and_keep_the_decisions() -> None:
    for name in games.names():
        pages = rules_pages(name)
        assert all(0 < len(p) <= 4096 for p in pages)
        text = "\n".join(pages)
        assert "**Options**" in text or not games.get(name).options
        assert "/play" in text
    assert "undercut" in "\n".join(rules_pages("gin_rummy")).lower()
    first, second = rules_message("craits", 0), rules_message("craits", 1)
    assert first.embed and second.embed and first.embed.description != second.embed.description
    assert button(first.rows[0][0]).disabled and not button(first.rows[0][1]).disabled


def test_option_pairs() -> None:
    assert option_pairs("target=150  blind_nil=off") == {"target": "150", "blind_nil": "off"}
    assert option_pairs("") == {}
    with pytest.raises(ValueError, match="name=value"):
        option_pairs("target")


def test_a_hint_says_the_move_and_why_in_one_line() -> None:
    ranking = Ranking("discard 9D", (("discard 9D", 3.25), ("knock 9D", 1.0), ("gin", -2.0)), 24)
    text = hint_text("gin_rummy", Advice("discard 9D", ranking))
    assert "\n" not in text and "**Discard 9♦**" in text
    assert "Over 24 deals" in text and "2.2 points more than the next best (Knock 9♦)" in text
    kept = hint_text("gin_rummy", Advice("knock 9D", ranking))
    assert "Knock 9♦**, its rules of thumb" in kept and "Discard 9♦ scored only 2.2" in kept
    plain = hint_text("gin_rummy", Advice("draw stock", None))
    assert "rules of thumb" in plain and "**" in plain
    odds = Ranking("knock 9D", (("knock 9D", 0.62), ("discard 9D", 0.55)), 48, chance=True)
    text = hint_text("gin_rummy", Advice("knock 9D", odds))
    assert "it won the game 7.0% more often than the next best (Discard 9♦)" in text
    assert "points" not in text
    kept = hint_text("gin_rummy", Advice("discard 9D", odds))
    assert "Knock 9♦ won the game only 7.0% more often, too little" in kept


def test_a_hint_gives_the_rule_of_thumb_that_makes_the_move() -> None:
    why = "keeps 7♠ 8♠ for a run; 6♦ is your highest unmatched card"
    plain = hint_text("gin_rummy", Advice("discard 6D", None, why))
    assert plain == f"💡 The expert would play **Discard 6♦**: {why}."
    odds = Ranking("discard 6D", (("discard 6D", 0.62), ("knock 6D", 0.55)), 48, chance=True)
    searched = hint_text("gin_rummy", Advice("discard 6D", odds, why))
    assert searched.startswith(f"💡 The expert would play **Discard 6♦**: {why}. Over 48 deals")
    assert "\n" not in searched
    knock = Ranking("knock 6D", (("knock 6D", 0.62), ("discard 6D", 0.55)), 48, chance=True)
    overruled = hint_text("gin_rummy", Advice("knock 6D", knock))  # normal would discard
    assert overruled.startswith("💡 The expert would play **Knock 6♦**. Over 48 deals")
