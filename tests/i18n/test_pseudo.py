"""Everything goes through the catalogs: each surface rendered in the pseudo-language
``en_XA`` (every letter of every catalog text accented, 40 % longer) has no plain English
word left — outside code, tags, links and what is data (players' names, typed words)."""

from __future__ import annotations

import pytest

from i18n import PSEUDO, speaking
from tests.i18n.surfaces import leftovers, messages, picture_texts, spec_texts, texts


def test_every_message_is_in_the_language_spoken() -> None:
    found: dict[str, set[str]] = {}
    with speaking(PSEUDO):
        for where, spec in messages():
            for text in spec_texts(spec):
                found.setdefault(where, set()).update(leftovers(text))
        for where, text in texts():
            found.setdefault(where, set()).update(leftovers(text))
    assert len(found) == 5 * 6 + 2  # lobby, table, hand, rules, replay, hint; events, docs
    assert not {k: v for k, v in found.items() if v}


def test_every_picture_is_in_the_language_spoken(monkeypatch: pytest.MonkeyPatch) -> None:
    found: set[str] = set()
    drawn = set()
    with speaking(PSEUDO):
        for where, text in picture_texts(monkeypatch):
            found.update(leftovers(text))
            drawn.add(where)
    assert len(drawn) == 5 and not found


def test_the_leftover_finder_finds_english() -> None:
    assert leftovers("Ŷöûŕ ĥåñð: `/hand` Alice <@12> Q♥") == []
    assert leftovers("Ŷöûŕ hand: 3 cards") == ["hand", "cards"]
