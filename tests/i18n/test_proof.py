"""Proofreading by outside judges (``i18n.proof``): every catalog's words in a real
dictionary of its language or its glossary, Welsh numbers and prepositions mutated as the
treiglad rules say, Swahili singulars in their own class; and a planted fault of each kind
fails. The dictionaries are Debian's and Bangor University's: missing, the tests fail
(``apt-get install hunspell hunspell-is hunspell-sw myspell-tl``), they never skip."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from i18n import SOURCE, languages, proof
from i18n.catalogs import read

#: Every shipped language but English: one without a dictionary in ``i18n.proof`` fails.
SHIPPED = tuple(lang for lang in languages() if lang != SOURCE)


def _catalog(lang: str, msgid: str | tuple[str, str], string: str | tuple[str, ...]) -> Catalog:
    catalog = Catalog(locale=lang)
    catalog.add(msgid, string)
    return catalog


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_word_is_in_a_dictionary_or_the_glossary(lang: str) -> None:
    found = list(proof.misspelt(read(lang)))
    assert not found, "\n".join(found[:40])


def test_welsh_mutates_after_numbers_and_prepositions() -> None:
    found = list(proof.mutation_problems(read("cy")))
    assert not found, "\n".join(found[:40])


def test_swahili_singulars_keep_their_own_class() -> None:
    found = list(proof.class_problems(read("sw")))
    assert not found, "\n".join(found[:40])


@pytest.mark.parametrize(("lang", "text", "bad"), [
    ("cy", "Tynnwch gerdynn o'r stoc.", "gerdynn"),
    ("is", "Dragðu spiil úr stokknum.", "spiil"),
    ("sw", "Chora kaddi kutoka kwenye rundo.", "kaddi"),
    ("tl", "Bumunot ng barahha.", "barahha"),
])
def test_a_planted_misspelling_fails(lang: str, text: str, bad: str) -> None:
    found = list(proof.misspelt(_catalog(lang, "Draw a card from the stock.", text)))
    assert len(found) == 1 and repr(bad) in found[0]


def test_what_a_translation_keeps_is_not_spelt() -> None:
    """Placeholders, code, typed moves in quotes and option values are the English's."""
    msgid = "Say 'play QH' or use `/table new`; target=50 in {where}."
    assert proof.words(msgid, "Dywedwch 'play QH' neu `/table new`; target=50 yn {where}.") == [
        "Dywedwch", "neu", "yn"]


def _welsh_cards(forms: tuple[str, ...]) -> list[str]:
    return list(proof.mutation_problems(_catalog("cy", ("{n} card", "{n} cards"), forms)))


def test_a_planted_unmutated_numeral_fails() -> None:
    right = ("{n} cerdyn", "{n} cerdyn", "{n} gerdyn", "{n} cherdyn", "{n} cherdyn", "{n} cerdyn")
    assert _welsh_cards(right) == []
    two = _welsh_cards(("{n} cerdyn",) * 6)  # "2 cerdyn", "3 cerdyn", "6 cerdyn"
    assert [p.split(": ")[-1] for p in two] == [
        "form 2 says {n} cerdyn, Welsh says gerdyn after 2",
        "form 3 says {n} cerdyn, Welsh says cherdyn after 3",
        "form 4 says {n} cerdyn, Welsh says cherdyn after 6"]
    over = _welsh_cards(("{n} cerdyn", "{n} gerdyn", "{n} gerdyn", "{n} cherdyn", "{n} cherdyn",
                         "{n} gerdyn"))
    assert len(over) == 2  # 1 gerdyn (masculine) and 5 gerdyn


def test_welsh_gender_and_the_singular_possessive() -> None:
    hands = ("{n} llaw wedi'u hennill", "{n} llaw wedi'u hennill", "{n} law wedi'u hennill",
             "{n} llaw wedi'u hennill", "{n} llaw wedi'u hennill", "{n} llaw wedi'u hennill")
    found = list(proof.mutation_problems(_catalog("cy", ("{n} hand won", "{n} hands won"), hands)))
    assert [p.split(": ")[-1] for p in found] == [
        "form 1 keeps the plural possessive (wedi'u for wedi'i)"]
    calon = proof.counted_nouns("cy")["calon"]  # feminine: 1 galon, 3 calon (tair), 6 chalon
    assert [proof.after_number(calon, n) for n in (1, 2, 3, 6, 5)] == [
        "galon", "galon", "calon", "chalon", "calon"]


def test_digits_in_running_text_and_prepositions_are_read_too() -> None:
    text = "Rhaid i chi chwarae 2 cerdyn neu pasio."
    found = list(proof.mutation_problems(_catalog("cy", "You must play 2 cards or pass.", text)))
    assert any("Welsh says gerdyn after 2" in p for p in found)
    assert any("neu pasio should be basio" in p for p in found)
    counted = list(proof.mutation_problems(_catalog("cy", "{n} cards", "{n} cerdyn")))
    assert counted and "use ngettext" in counted[0]


@pytest.mark.parametrize("forms", [
    ("mizunguko {n}", "mizunguko {n}"),  # the plural class for one trick
    ("wachezaji {n}", "wachezaji {n}"),
    ("kadi {n} zimegawiwa", "kadi {n} zimegawiwa"),  # plural concord after one card
])
def test_a_planted_swahili_class_slip_fails(forms: tuple[str, str]) -> None:
    catalog = _catalog("sw", ("{n} trick", "{n} tricks"), forms)
    assert len(list(proof.class_problems(catalog))) == 1


def test_swahili_singulars_pass() -> None:
    catalog = _catalog("sw", ("{n} trick", "{n} tricks"), ("mzunguko {n}", "mizunguko {n}"))
    assert list(proof.class_problems(catalog)) == []
