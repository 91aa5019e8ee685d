"""Computer players' names, stored in English, are shown in the reader's language; a
person's name is shown as they chose it, even one that looks like a computer's."""

from __future__ import annotations

import pytest

from bot.render.common import seat_name
from i18n import speaking


@pytest.mark.parametrize(("stored", "english", "welsh"), [
    ("Computer (normal) 2", "Computer (normal) 2", "Cyfrifiadur (normal) 2"),
    ("Computer (expert) for Ann", "Computer (expert) for Ann", "Cyfrifiadur (expert) yn lle Ann"),
    ("Computer (random)", "Computer (random)", "Cyfrifiadur (random)"),
])
def test_a_computers_name_in_the_readers_language(stored: str, english: str, welsh: str) -> None:
    assert seat_name(stored, "normal") == english
    with speaking("cy"):
        assert seat_name(stored, "normal") == welsh


def test_a_persons_name_is_never_translated() -> None:
    with speaking("cy"):
        assert seat_name("Computer (normal) 2", None) == "Computer (normal) 2"
        assert seat_name("Ann", None) == "Ann"


@pytest.mark.parametrize(("lang", "name"), [
    ("cy", "Cyfrifiadur (expert) 3"), ("is", "Tölva (expert) 3"),
    ("tl", "Kompyuter (expert) 3"),
    ("sw", "Kompyuta (expert) 3"),
])
def test_every_language_names_computers_with_their_level_and_number(lang: str, name: str) -> None:
    with speaking(lang):
        assert seat_name("Computer (expert) 3", "expert") == name
