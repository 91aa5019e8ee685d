"""Hand-end pictures: one per scored hand of every game from seeded games, a sensible
size, and drawn from public events only — two games that differ only in cards the
rules keep hidden give byte-identical pictures."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

import games
from bot.__main__ import main
from bot.art import hand_end
from bot.art.draw import FALLBACK_FONTS, font, runs
from bot.art.samples import NAMES, PLAYERS, play, public_events
from games.base import State
from tests.system import require

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
ONO_MODES = ("elimination", "tokens", "points")
CASES: list[tuple[str, dict[str, str]]] = [(g, {}) for g in games.names() if g != "ono99"] + [
    ("ono99", {"scoring": mode}) for mode in ONO_MODES
]
_CLOSE = {"gin_rummy": "hand_result", "spades": "hand_scored", "back_alley": "deal_scored",
          "craits": "round"}


def _check_png(data: bytes) -> None:
    assert len(data) < 500_000
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.width <= 1000 and image.height <= 2000


@pytest.mark.parametrize(("game", "options"), CASES, ids=str)
def test_every_scored_hand_of_a_seeded_game_has_a_picture(
    game: str, options: dict[str, str]
) -> None:
    events = public_events(play(game, PLAYERS[game], seed=5, options=options))
    hands = hand_end.hands(game, events)
    assert hands
    if game in _CLOSE:  # one picture per scored hand, none for a redeal
        assert len(hands) == sum(1 for e in events if e["type"] == _CLOSE[game])
    for hand in hands:
        _check_png(hand_end.picture(game, hand, NAMES[: PLAYERS[game]], "four"))


def test_a_gin_picture_changes_with_what_was_shown() -> None:
    shown, hand = next(
        (e, hand)
        for hand in hand_end.hands("gin_rummy", public_events(play("gin_rummy", 2, seed=5)))
        for e in hand if e["type"] == "lay_down"
    )
    other = [dict(e) for e in hand]
    other[hand.index(shown)] = {**shown, "deadwood": [*shown["deadwood"], "KS"]}
    assert hand_end.picture("gin_rummy", hand, NAMES) != hand_end.picture(
        "gin_rummy", other, NAMES)


def test_a_lay_off_is_drawn_in_its_place_in_the_meld() -> None:
    assert hand_end.laid_on({"cards": ["AS"], "onto": ["2S", "3S", "4S"]}) == [
        "AS", "2S", "3S", "4S"]
    assert hand_end.laid_on({"cards": ["9H", "5H"], "onto": ["6H", "7H", "8H"]}) == [
        "5H", "6H", "7H", "8H", "9H"]
    assert set(hand_end.laid_on({"cards": ["5S"], "onto": ["5H", "5D", "5C"]})) == {
        "5S", "5H", "5D", "5C"}


def test_a_hand_must_start_with_its_opening_event() -> None:
    hand = hand_end.hands("spades", public_events(play("spades", 2, seed=3)))[0]
    with pytest.raises(ValueError, match="start"):
        hand_end.picture("spades", hand[1:], NAMES)
    with pytest.raises(ValueError, match="No hand-end picture"):
        hand_end.picture("poker", hand, NAMES)


# -- hidden cards ------------------------------------------------------------------------
def _swap(pile: list[str], i: int, j: int) -> bool:
    if len(pile) < 2 or pile[i] == pile[j]:
        return False
    pile[i], pile[j] = pile[j], pile[i]
    return True


def _gin(s: Any, action: str) -> bool:
    return _swap(s.stock, -1, -2)  # the stock's bottom is never seen


def _spades(s: Any, action: str) -> bool:
    down = [k for k, c in enumerate(s.discards) if c not in s.face_up]
    return len(down) >= 2 and _swap(s.discards, down[0], down[1])  # face-down discards


def _back_alley(s: Any, action: str) -> bool:
    return _swap(s.stock, 0, 1)  # the undealt cards


def _craits(s: Any, action: str) -> bool:
    # The draw pile's bottom two cards, while no move can draw them: one move draws at most
    # 12 (a crank of four aces and four twos), so the pile needs more than 14.
    return len(s.draw_pile) > 14 and _swap(s.draw_pile, -1, -2)


def _ono99(s: Any, action: str, seat: int) -> bool:
    """A card of the mover's hand (other than the one played) trades places with the
    bottom of the draw pile: a hand that is never shown, unless the rules show it."""
    if action == "swap":  # the four ONO 99 cards it throws are the move: none to trade
        return False
    played = action.rsplit(maxsplit=1)[-1]
    k = next((k for k, c in enumerate(s.hands[seat]) if c != played), None)
    if k is None or not s.draw or s.draw[-1] == s.hands[seat][k]:
        return False
    s.hands[seat][k], s.draw[-1] = s.draw[-1], s.hands[seat][k]
    return True


HIDE: dict[str, Callable[..., bool]] = {
    "gin_rummy": _gin, "spades": _spades, "back_alley": _back_alley, "craits": _craits,
}


def _hidden_twins(game: str, options: dict[str, str], seed: int) -> int:
    """Play a seeded game; before each hand-ending move, change hidden cards in a copy,
    make the same move in both and compare the pictures (the next deal is shuffled anew,
    so only the hand's own end could carry the change). Returns how many were compared."""
    engine = games.get(game)
    rng = random.Random(seed)
    state: State = engine.new(PLAYERS[game], seed=seed, options=options)
    events = list(state.events)
    compared = 0
    while not state.is_over:
        seat = state.to_act[0]
        action = engine.choose(state, seat, "normal", rng)
        after = engine.apply(state, seat, action)
        twin = state.clone()
        hidden = (_ono99(twin, action, seat) if game == "ono99"
                  else HIDE[game](twin, action))
        if hidden and hand_end.hands(game, after.events):  # this move ends a hand
            ended = hand_end.hands(game, events + after.events)
            twin_after = engine.apply(twin, seat, action)
            mine = hand_end.hands(game, events + twin_after.events)
            names = NAMES[: PLAYERS[game]]
            assert hand_end.picture(game, mine[-1], names) == hand_end.picture(
                game, ended[-1], names)
            compared += 1
        events += after.events
        state = after
    return compared


@pytest.mark.parametrize(("game", "options"), CASES, ids=str)
def test_cards_the_rules_hide_never_change_a_picture(game: str, options: dict[str, str]) -> None:
    assert _hidden_twins(game, options, seed=11) > 0


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), case=st.sampled_from(CASES))
def test_hidden_cards_never_change_a_picture_whatever_the_deal(
    seed: int, case: tuple[str, dict[str, str]]
) -> None:
    _hidden_twins(*case, seed=seed)


def test_deckhand_art_writes_the_pictures_page(tmp_path: Path) -> None:
    assert main(["art", "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    kept_names = {p.name for p in IMAGES.iterdir() if not p.name.startswith("web-")}
    assert written == sorted(kept_names), "run deckhand art"  # web-*: the browser test's
    page = (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8")
    for name in written:
        assert f"](images/{name})" in page, name
        fresh, kept = Image.open(tmp_path / name), Image.open(IMAGES / name)
        assert fresh.size == kept.size, f"docs/images/{name} is out of date: run deckhand art"


def test_names_with_accents_are_drawn_not_boxed() -> None:
    def ink(text: str) -> bytes:
        image = Image.new("L", (60, 40))
        ImageDraw.Draw(image).text((5, 5), text, font=font(22), fill=255)
        return image.tobytes()

    missing = ink("\uffff")  # a character no font has: the "missing glyph" box
    for letter in "éüßøłЖλ×":
        assert ink(letter) != missing, letter


def test_chinese_japanese_and_korean_names_are_drawn_with_wenquanyi() -> None:
    """DejaVu Sans has no CJK glyph: Debian's WenQuanYi Micro Hei (which the Dockerfile and
    ``.ci/run`` install) draws them rather than the missing-glyph box."""
    wenquanyi = FALLBACK_FONTS[0]
    require(wenquanyi, "fonts-wqy-microhei")
    assert runs("王小明さくら김민준") == [("王小明さくら김민준", wenquanyi)]
