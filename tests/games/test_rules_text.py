"""The rules shown to players (``/rules``, the terminal's ``rules``, docs/rules.md) are for
players: plain, complete, naming no code identifier, and stating RULES.md's decisions."""

from __future__ import annotations

import re

import pytest

import games

#: Every move word a player can type, per game (RULES.md "Actions").
MOVE_WORDS = {
    "back_alley": ("bid", "pass", "board", "play"),
    "craits": ("play", "draw", "announce", "callout"),
    "gin_rummy": ("draw", "take", "pass", "discard", "knock", "biggin"),
    "ono99": ("play", "swap"),
    "spades": ("look", "keep", "discard", "blindnil", "exchange", "bid", "play"),
}
#: Code that must never reach a player.
CODE = re.compile(
    r"`|\w\(|\bto_act\b|\boutcome\b|\bview\b|\bevents?\b|RULES\.md|§|\bseat \d\b|\bseed\b"
    r"|\bNone\b|\bTrue\b|\bFalse\b|\bdecision\b"
)
#: What each text must say (completeness, and this turn's RULES.md decisions).
MUST_SAY = {
    "back_alley": ("Big Blooper", "Little Blooper", "Scoring", "10 points times the hand size",
                   "minus 5 points per trick bid", "1 point per trick taken", "draw"),
    "craits": ("by suit or by rank", "minus 50", "lowest total score", "crank"),
    "gin_rummy": ("undercut", "25 for every hand they won", "shutout",
                  "even when it is not the player who reached the target"),
    "ono99": ("the last player to have played a card in the round survives it",
              "adds 25 to that", "98 or less", "'play #2'"),
    "spades": ("Blind Nil", "bags", "minus 100"),
}


@pytest.mark.parametrize("name", games.names())
def test_rules_name_no_code(name: str) -> None:
    game = games.get(name)
    texts = [game.rules, *(o.help for o in game.options.values())]
    for text in texts:
        found = CODE.findall(text)
        assert not found, f"{name}: code in the players' rules: {found}"
        plain = set(game.options) | {c for o in game.options.values() for c in o.choices or ()}
        named = set(re.findall(r"\b\w*_\w*\b", text))
        assert named <= plain, f"{name}: identifiers in the rules: {named - plain}"


@pytest.mark.parametrize("name", games.names())
def test_rules_are_complete(name: str) -> None:
    text = " ".join(games.get(name).rules.split())
    for word in MOVE_WORDS[name]:
        assert f"'{word}" in text, f"{name}: the rules never show the move {word!r}"
    for phrase in MUST_SAY[name]:
        assert phrase in text, f"{name}: the rules do not say {phrase!r}"
    assert "wins" in text


def test_the_levels_name_the_win_rates_measured() -> None:
    """A level note's numbers are the expert's ``MEASURED`` wins as per cent of its games
    (the bound's of its own games where they differ), rounded."""
    from games.base import win_rates

    assert win_rates({"games": 400, "expert": 253}) == {"expert": 63}
    assert win_rates({"games": 120, "expert": 31, "clairvoyant": 39}) == {
        "expert": 26, "bound": 32}
    assert win_rates({"games": 360, "expert": 84, "bound_games": 120,
                      "clairvoyant": 75.5}) == {"expert": 23, "bound": 63}
    assert set(games.get("ono99").level_numbers) == {"expert", "bound"}
    for name in ("craits", "gin_rummy", "ono99"):
        game = games.get(name)
        for number in game.level_numbers.values():
            assert f" {number} per cent" in game.explain_level("expert"), name
