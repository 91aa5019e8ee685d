"""Computer players are stored as a level and a number (or the player a stand-in plays for)
and named in the reader's language when shown, by one function
(``storage.models.computer_name``); a person's name is shown as they chose it, even one
that looks like a computer's; a seat stored with an English name before migration 017
reads as before."""

from __future__ import annotations

import pytest

from bot.render.common import seat_names
from i18n import speaking
from storage.models import Computer, Human, load_seats


@pytest.mark.parametrize(("seat", "english", "welsh"), [
    (Computer(bot="normal", number=2), "Computer (normal) 2", "Cyfrifiadur (normal) 2"),
    (Computer(bot="expert", stands_for="Ann"), "Computer (expert) for Ann",
     "Cyfrifiadur (expert) yn lle Ann"),
    (Computer(bot="random"), "Computer (random)", "Cyfrifiadur (random)"),
])
def test_a_computers_name_in_the_readers_language(
    seat: Computer, english: str, welsh: str
) -> None:
    assert seat_names([seat]) == [english]
    with speaking("cy"):
        assert seat_names([seat]) == [welsh]


def test_a_persons_name_is_never_translated() -> None:
    with speaking("cy"):
        assert seat_names([Human(user_id=1, name="Computer (normal) 2"),
                           Human(user_id=2, name="Ann")]) == ["Computer (normal) 2", "Ann"]


def test_a_seat_stored_before_migration_017_reads_as_before() -> None:
    """Migration 017 turns every name Deckhand wrote into a level and a number; a seat it
    did not recognise keeps its stored name, and is shown as it is."""
    (seat,) = load_seats('[{"bot": "normal", "name": "Robo 7"}]')
    with speaking("cy"):
        assert seat_names([seat]) == ["Robo 7"]


@pytest.mark.parametrize(("lang", "name"), [
    ("cy", "Cyfrifiadur (expert) 3"), ("is", "Tölva (expert) 3"),
    ("tl", "Kompyuter (expert) 3"),
    ("sw", "Kompyuta (expert) 3"),
])
def test_every_language_names_computers_with_their_level_and_number(lang: str, name: str) -> None:
    with speaking(lang):
        assert seat_names([Computer(bot="expert", number=3)]) == [name]
