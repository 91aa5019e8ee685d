"""Computer players are named in the reader's language on every surface, from one function
(``storage.models.computer_name``): what the table runtime says (a player who left a running
game), the table message and its placements, a hand, a replay and an export — and no other
code writes a computer's name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.render.hand import hand_message
from bot.render.table import table_message
from bot.services import exports, replays
from bot.services.tables import TableService
from i18n import languages, speaking
from storage.db import Database
from tests.services.conftest import play_out
from tests.test_words import shown_strings

ROOT = Path(__file__).resolve().parent.parent.parent
CH = 7070
ANN, BEN = 1, 2
#: A computer's word in each language (the level and number are kept as typed).
COMPUTER = {"en": "Computer", "cy": "Cyfrifiadur", "is": "Tölva", "tl": "Kompyuter",
            "sw": "Kompyuta"}


def test_every_shipped_language_is_checked() -> None:
    assert set(COMPUTER) == set(languages())


async def test_a_computer_is_named_in_the_readers_language_everywhere(
    service: TableService, db: Database
) -> None:
    await service.create(CH, 9, ANN, "Ann", "ono99")
    await service.join(CH, BEN, "Ben")
    await service.add_bot(CH, ANN)
    await service.start(CH, ANN)
    left = await service.leave(CH, BEN)  # a computer of the server's level plays on for Ben
    finished = await play_out(service, CH, await service.status(CH))
    assert finished.match_id is not None
    rep = await replays.replay_step(db, finished.match_id, 1, hands=False, guild_id=9)
    assert rep is not None
    for lang, word in COMPUTER.items():
        with speaking(lang):
            numbered, stand_in = f"{word} (normal) 1", f"{word} (normal)"
            said = str(left.message)
            assert stand_in in said and "Ben" in said, (lang, said)
            shown = [table_message(finished).text(),
                     hand_message(finished, finished.private[0 if finished.seats[0].user_id
                                                          else 1], "#t").text()]
            for text in shown:
                assert numbered in text, (lang, text)
            assert [str(n) for n in rep.names].count(numbered) == 1, rep.names
            (line,) = [r async for r in exports.export_lines(db, guild_id=9)]
            names = [s["name"] for s in json.loads(line)["seats"]]
            assert numbered in names and any(n.startswith(stand_in) for n in names), names
            if word != "Computer":
                assert all("Computer (" not in t for t in [said, *shown, *names]), lang


@pytest.mark.parametrize("package", ["bot", "games", "storage", "bench"])
def test_only_one_function_writes_a_computers_name(package: str) -> None:
    """``storage.models.computer_name`` is the one place a computer's name is written: no
    other code builds one, or takes one apart."""
    for path in sorted((ROOT / package).rglob("*.py")):
        if path == ROOT / "storage" / "models.py":
            continue
        for line, text in shown_strings(path):
            assert "Computer (" not in text, f"{path.relative_to(ROOT)}:{line}: {text!r}"
