"""The catalogs: every message of the template translated in every catalog shipped (a
missing one fails here, never falls back silently), placeholders and markup kept, the
template current with the code, and the checker itself able to find each problem."""

from __future__ import annotations

import gettext
import io
import pickle
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

import i18n
from i18n.__main__ import template
from i18n.catalogs import DOMAIN, SOURCE, draft_path, drafts, pot_path, read
from i18n.check import problems, progress
from i18n.pseudo import pseudo, pseudo_catalog
from tests.i18n.catalogs import pot


@pytest.mark.parametrize("lang", i18n.languages())
def test_every_catalog_translates_every_message(lang: str) -> None:
    found = problems(read(lang), pot())
    assert not found, "\n".join(found[:40])


def test_a_draft_keeps_what_it_translates_and_cannot_be_chosen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A catalog still being translated breaks nothing it has, and is no language a player,
    server, terminal or page can choose until it is complete and moved into ``locales``."""
    for lang in drafts():
        found = problems(read(lang), pot(), draft=True)
        assert not found, "\n".join(found[:40])
        done, total = progress(read(lang), pot())
        assert done < total, f"{lang}: a complete draft ships (move it into i18n/locales)"
    monkeypatch.setattr(i18n.catalogs, "DRAFTS", tmp_path)
    partial = Catalog(locale="fy", domain=DOMAIN)
    partial.add("Pass", "Passe")
    with draft_path("fy").open("wb") as f:
        write_po(f, partial)
    assert drafts() == ("fy",)
    passe = read("fy").get("Pass")
    assert passe is not None and passe.string == "Passe"
    assert not i18n.known("fy") and i18n.match("fy-NL") is None
    assert "fy" not in i18n.languages() and i18n.from_environment({"LANG": "fy_NL"}) is None


def test_the_checker_lets_a_draft_lack_messages_but_not_break_them() -> None:
    template_ = _template("{who} knocked.")
    template_.add("Pass")
    draft = _with("{who} knocked.", "{pwy} a gnociodd.")
    assert [p.split(": ")[-1] for p in problems(draft, template_, draft=True)] == [
        "placeholders ['{pwy}'] instead of ['{who}']"]
    assert progress(draft, template_) == (1, 2)
    assert progress(_with("Pass", "Pasio"), template_) == (1, 2)


@pytest.mark.parametrize("lang", i18n.languages())
def test_every_catalog_holds_the_templates_messages_and_no_other(lang: str) -> None:
    """A catalog's messages are the template's: a merge that brings back a message the
    code no longer has (``python -m i18n update`` drops it) is caught."""
    def keys(catalog: Iterable[Message]) -> set[tuple[object, str | None]]:
        return {(m.id if isinstance(m.id, str) else tuple(m.id), m.context)
                for m in catalog if m.id}

    assert keys(read(lang)) - keys(pot()) == set(), "run python -m i18n update"


def test_the_english_catalog_is_the_message_ids() -> None:
    for message in read(SOURCE):
        if message.id:
            assert message.string == message.id, message.id


def test_the_template_holds_every_text_of_the_code() -> None:
    """Every ``_()``, ``ngettext``, ``N_``, rules paragraph and slash-command text of the
    code is in the template, and nothing else (else: ``python -m i18n extract``)."""
    fresh = {(m.id if isinstance(m.id, str) else tuple(m.id), m.context)
             for m in template() if m.id}
    kept = {(m.id if isinstance(m.id, str) else tuple(m.id), m.context) for m in pot() if m.id}
    assert fresh - kept == set(), "run python -m i18n extract, then python -m i18n update"
    assert kept - fresh == set(), "run python -m i18n extract, then python -m i18n update"
    assert pot_path().name == f"{DOMAIN}.pot"


def _with(msgid: str | tuple[str, str], string: str | tuple[str, ...], *,
          context: str | None = None, fuzzy: bool = False, locale: str = "cy") -> Catalog:
    catalog = Catalog(locale=locale, domain=DOMAIN)
    catalog.add(msgid, string, context=context, flags=("fuzzy",) if fuzzy else ())
    return catalog


def _template(msgid: str | tuple[str, str], context: str | None = None) -> Catalog:
    catalog = Catalog(domain=DOMAIN)
    catalog.add(msgid, context=context)
    return catalog


@pytest.mark.parametrize(
    ("msgid", "string", "context", "fuzzy", "problem"),
    [
        ("{who} knocked.", "", None, False, "not translated"),
        ("{who} knocked.", "{who} a gnociodd.", None, True, "not translated"),
        ("{who} knocked.", "{pwy} a gnociodd.", None, False, "placeholders"),
        ("{who} went **gin**.", "{who} aeth yn gin.", None, False, "markup"),
        ("Type `/hand`.", "Teipiwch `/llaw`.", None, False, "markup"),
        ("At <t:{when}:R>", "Am {when}", None, False, "markup"),
        ("Rules:\n* one\n* two", "Rheolau:\n* un", None, False, "markup"),
        ("table", "Bwrdd", "discord command_name", False, "command or option name"),
        ("table", "bwrdd newydd", "discord command_name", False, "command or option name"),
        ("Open a table", "x" * 101, "discord command_description", False, "1-100"),
    ],
)
def test_the_checker_finds_each_problem(
    msgid: str, string: str, context: str | None, fuzzy: bool, problem: str
) -> None:
    found = problems(_with(msgid, string, context=context, fuzzy=fuzzy),
                     _template(msgid, context))
    assert found and problem in found[0], found


def test_the_checker_passes_a_good_translation_and_finds_a_missing_one() -> None:
    ids = ("{n} card", "{n} cards")
    good = _with(ids, ("{n} cardiau", "un cerdyn", "{n} gerdyn", "{n} cherdyn", "{n} chardiau",
                       "{n} cerdyn"))
    assert problems(good, _template(ids)) == []  # "un cerdyn" may leave out {n}
    assert problems(good, _template("Pass"))[0].endswith("missing (run python -m i18n update)")
    renamed = _with(("{n} card", "{n} cards"), ("{count} cerdyn",) * 6)
    assert "placeholders" in problems(renamed, _template(ids))[0]


def test_positional_placeholders_may_be_reordered() -> None:
    template_ = _template("{} cuts your deadwood from {} to {}")
    assert problems(_with("{} cuts your deadwood from {} to {}",
                          "o {1} i {2}, diolch i {0}"), template_) == []


def test_plurals_follow_the_catalogs_rule(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: object) -> None:
    """Welsh has six forms (zero, one, two, few, many, other); ``ngettext`` picks by the
    catalog's own rule, never by ``+ "s"``."""
    catalog = Catalog(locale="cy", domain=DOMAIN)
    forms = ("dim cardiau", "{n} cerdyn", "{n} gerdyn", "{n} cherdyn", "{n} chardiau",
             "{n} cerdyn (arall)")
    catalog.add(("{n} card", "{n} cards"), forms)
    compiled = gettext.GNUTranslations(io.BytesIO(i18n.catalogs.compiled(catalog)))
    monkeypatch.setattr(i18n.speech, "translations", lambda lang: compiled)
    said = [i18n.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2, 3, 6, 7)]
    assert said == ["dim cardiau", "1 cerdyn", "2 gerdyn", "3 cherdyn", "6 chardiau",
                    "7 cerdyn (arall)"]


def test_a_message_is_put_into_words_when_read_in_the_language_spoken() -> None:
    refusal = i18n.lazy_gettext("You don't hold {card}.", card="Q♥")
    assert str(refusal) == "You don't hold Q♥."
    with i18n.speaking(i18n.PSEUDO):
        assert str(refusal) == pseudo("You don't hold {card}.").format(card="Q♥")
        assert f"{refusal}" == str(refusal)
    assert pickle.loads(pickle.dumps(refusal)) == refusal
    counted = i18n.lazy_ngettext("{n} card", "{n} cards", 2)
    assert str(counted) == "2 cards"
    nested = i18n.lazy_gettext("You must follow {suit}.", suit=i18n.Message("hearts"))
    with i18n.speaking(i18n.PSEUDO):
        assert pseudo("hearts") in str(nested)


def test_speaking_is_restored_after_a_block_even_on_error() -> None:
    assert i18n.current() == SOURCE
    with pytest.raises(RuntimeError), i18n.speaking("cy"):
        assert i18n.current() == "cy"
        raise RuntimeError
    assert i18n.current() == SOURCE


def test_numbers_and_decimals_as_each_language_writes_them() -> None:
    assert [i18n.number(n) for n in (-50, 7, 1000, 12000)] == ["\u221250", "7", "1000",
                                                                "12,000"]
    assert i18n.decimal(25.25) == "25.2" and i18n.decimal(-1.5, 0) == "\u22122"
    with i18n.speaking("is"):  # Babel's Icelandic: a dot groups, a comma decimals
        assert i18n.number(12000) == "12.000" and i18n.decimal(25.25) == "25,2"


@pytest.mark.parametrize(("lang", "ranks"), [
    ("en", ["1st", "2nd", "3rd", "4th", "5th", "7th", "11th", "12th", "21st", "22nd", "113th"]),
    # Welsh writes 1af 2il 3ydd 4ydd 5ed 6ed 7fed (CLDR's six ordinal categories); an
    # English split by last digit would have written "1." for all, or 4 as "4fed".
    ("cy", ["1af", "2il", "3ydd", "4ydd", "5ed", "7fed", "10fed", "11fed", "20fed", "21fed",
            "100fed"]),
    ("is", ["1.", "2.", "3.", "4.", "5.", "7.", "11.", "12.", "21.", "22.", "113."]),
])
def test_ranks_as_each_language_writes_them(lang: str, ranks: list[str]) -> None:
    numbers = [1, 2, 3, 4, 5, 7, 11, 12, 21, 22, 113] if lang != "cy" else [
        1, 2, 3, 4, 5, 7, 10, 11, 20, 21, 100]
    with i18n.speaking(lang):
        assert [i18n.ordinal(n) for n in numbers] == ranks


@pytest.mark.parametrize(
    ("tag", "found"),
    [("en-US", "en"), ("EN", "en"), ("en_GB.UTF-8", "en"), ("en-XA", "en_XA"), ("C", None),
     ("POSIX", None), ("", None), (None, None), ("xx-YY", None)],
)
def test_a_language_tag_finds_its_catalog(tag: str | None, found: str | None,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.catalogs.PSEUDO_SWITCH, "1")
    assert i18n.match(tag) == found


def test_nobody_chooses_the_pseudo_language_unless_the_tests_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(i18n.catalogs.PSEUDO_SWITCH, raising=False)
    assert i18n.match("en-XA") == "en" and not i18n.known(i18n.PSEUDO)  # plain English
    assert i18n.from_environment({"LANGUAGE": "en_XA:cy", "LANG": "cy_GB"}) == "en"


def test_the_locale_variables_in_gettexts_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.catalogs.PSEUDO_SWITCH, "1")
    assert i18n.from_environment({"LANG": "en_US.UTF-8"}) == "en"
    assert i18n.from_environment({"LANGUAGE": "xx:en_XA", "LANG": "en_US"}) == "en_XA"
    assert i18n.from_environment({"LC_ALL": "C", "LANG": "xx_YY"}) is None


def test_the_pseudo_language_keeps_what_translations_keep() -> None:
    text = "{who} went **gin** at <t:{when}:R>: type `/hand`, see https://example.org/x"
    made = pseudo(text)
    for kept in ("{who}", "**", "<t:{when}:R>", "`/hand`", "https://example.org/x"):
        assert kept in made
    assert "went" not in made and len(made) >= 1.4 * len(text)
    catalog = pseudo_catalog(read(SOURCE))
    assert problems(catalog, pot()) == []
