"""The catalogs: which languages Deckhand has, and each compiled in memory when first used.

* A language is a folder ``locales/<lang>/LC_MESSAGES/`` holding ``deckhand.po``; its name
  is the catalog's locale (``en``, ``cy``, ``is``, ``tl``, ``sw``). Adding one needs no
  code: ``python -m i18n update xx`` makes its catalog.
* A catalog still being translated is a draft, ``drafts/<lang>.po``: kept up to date with
  the others and checked for what it has, but not a language anyone can choose (it would
  fall back to English mid-sentence). Moving it into ``locales/`` ships it, and from then
  on a missing message fails the tests.
* Babel compiles a ``.po`` into ``.mo`` bytes in memory (``write_mo``) and the standard
  library reads them (``gettext.GNUTranslations``), plural rule included. Fuzzy entries
  are left out, like ``msgfmt`` does; a message a catalog lacks reads in English (the
  tests make sure none is lacking).
* ``en_XA`` is the pseudo-language: every English text accented and made 40 % longer
  (``i18n.pseudo``), built from the English catalog whenever it is asked for by name. It
  shows at a glance, and to the tests, a text that does not go through the catalogs. It is
  for tests only: no page, terminal or player can choose it (``match`` does not find it)
  unless the process runs with ``DECKHAND_PSEUDO=1``, as the tests that ask for it do.
* ``match`` reads a language tag as browsers, terminals and Discord write it (``cy-GB``,
  ``is_IS.UTF-8``, ``pt-BR``) and gives the catalog that speaks it, or ``None``.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from i18n.pseudo import pseudo_catalog

DOMAIN = "deckhand"
#: The language the message ids are written in.
SOURCE = "en"
#: The pseudo-language (accented, 40 % longer), made from the source catalog.
PSEUDO = "en_XA"
#: The environment variable that lets the pseudo-language be chosen (tests set it to 1).
PSEUDO_SWITCH = "DECKHAND_PSEUDO"
#: Where the catalogs are (package data: installed with Deckhand).
LOCALES = Path(__file__).resolve().with_name("locales")


def po_path(lang: str) -> Path:
    """The catalog file of ``lang``."""
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


#: Where the catalogs still being translated are (not installed, not selectable).
DRAFTS = LOCALES.with_name("drafts")


def draft_path(lang: str) -> Path:
    """The catalog file of ``lang`` while it is a draft."""
    return DRAFTS / f"{lang}.po"


def drafts() -> tuple[str, ...]:
    """The languages whose catalog is a draft, by code."""
    return tuple(sorted(p.stem for p in DRAFTS.glob("*.po")))


def pot_path() -> Path:
    """The template every catalog is updated from."""
    return LOCALES / f"{DOMAIN}.pot"


@cache
def languages() -> tuple[str, ...]:
    """The languages Deckhand has a catalog for, English first, then by code (read once:
    catalogs are part of the installed package)."""
    found = {p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return (SOURCE, *sorted(found - {SOURCE}))


def known(lang: str) -> bool:
    """Whether ``lang`` is a catalog's name (or the pseudo-language, where the tests ask
    for it with ``DECKHAND_PSEUDO=1``)."""
    if lang == PSEUDO:
        return os.environ.get(PSEUDO_SWITCH) == "1"
    return lang in languages()


def match(tag: str | None) -> str | None:
    """The catalog that speaks the language ``tag`` names (``cy-GB``, ``is_IS.UTF-8``,
    ``EN``, ``en-XA``): the whole tag first, then its language alone; ``None`` if none
    does (``C``, ``POSIX``, an empty tag or a language without a catalog)."""
    if not tag:
        return None
    tag = tag.split(".")[0].split("@")[0].replace("-", "_").strip()
    head, _, region = tag.partition("_")
    full = f"{head.lower()}_{region.upper()}" if region else head.lower()
    for candidate in (full, head.lower()):
        if candidate and known(candidate):
            return candidate
    return None


#: Where a terminal names its language, most telling first (gettext's order).
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def from_environment(environ: Mapping[str, str]) -> str | None:
    """The catalog that speaks the language the locale variables name (``LANGUAGE`` may
    list several, ``cy:en``; the first Deckhand has wins), or ``None``."""
    for name in LOCALE_VARIABLES:
        for tag in environ.get(name, "").split(":"):
            found = match(tag)
            if found is not None:
                return found
    return None


def read(lang: str) -> Catalog:
    """The catalog of ``lang`` as Babel reads it (shipped, else its draft)."""
    path = po_path(lang) if po_path(lang).exists() else draft_path(lang)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def compiled(catalog: Catalog) -> gettext.GNUTranslations:
    """A catalog compiled to ``.mo`` in memory and read by ``gettext``."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    out.seek(0)
    return gettext.GNUTranslations(out)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s compiled catalog; English (the message ids themselves) for a language
    Deckhand has no catalog for."""
    if lang == PSEUDO:
        return compiled(pseudo_catalog(read(SOURCE)))
    if lang not in languages() or not po_path(lang).exists():
        return gettext.NullTranslations()
    return compiled(read(lang))
