"""Speaking a language: the reader's language in a context variable, and the calls that
put message ids into words in it (``_``, ``ngettext``, ``pgettext``, ``Message``),
numbers and dates included."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal

from i18n.catalogs import PSEUDO, SOURCE, translations

#: The minus sign of every negative number shown to people (``−50``; typeset minus, as
#: the ONO 99 card −10 is written). Data meant for programs (exports, logs) keep ASCII.
MINUS = "\u2212"

_SPOKEN: ContextVar[str] = ContextVar("deckhand_language", default=SOURCE)


@contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Put every text made inside the block into ``lang`` (English where Deckhand has no
    such catalog); the block's language is restored after it, also on error."""
    token = _SPOKEN.set(lang)
    try:
        yield lang
    finally:
        _SPOKEN.reset(token)


def speak(lang: str) -> None:
    """Speak ``lang`` from here to the end of the enclosing ``speaking`` block (for a
    language learnt only part-way through it, e.g. after an interaction was acknowledged)."""
    _SPOKEN.set(lang)


def current() -> str:
    """The language being spoken (``en`` outside any ``speaking`` block)."""
    return _SPOKEN.get()


def _filled(text: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    return text.format(**{k: str(v) if isinstance(v, Message) else v for k, v in params.items()})


def _(msgid: str, /, **params: Any) -> str:
    """``msgid`` in the language being spoken, its ``{placeholders}`` filled with
    ``params`` (when any are given)."""
    return _filled(translations(current()).gettext(msgid), params)


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """The form for ``count`` by the language's plural rule, ``{n}`` being the count
    (written with ``number``) and the other placeholders ``params``:
    ``ngettext("{n} card", "{n} cards", 3)`` → ``3 cards``."""
    text = translations(current()).ngettext(singular, plural, count)
    return _filled(text, {"n": number(count), **params})


def pgettext(context: str, msgid: str, /, **params: Any) -> str:
    """``_`` for a message id whose meaning depends on ``context`` (a short word that
    reads differently as a button and in a sentence, a slash command's name)."""
    return _filled(translations(current()).pgettext(context, msgid), params)


def N_(msgid: str, /) -> str:
    """``msgid`` itself, marked for the catalogs: for texts kept in constants and put
    into words where they are shown (``_(option.help)``)."""
    return msgid


@dataclass(frozen=True)
class Message:
    """A text made before anyone reads it: a message id and its parameters, put into
    words in the language spoken when it is ``str()``-ed. ``plural`` and ``count`` make it
    an ``ngettext``. Equal messages compare equal; it pickles."""

    msgid: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int = 0

    def __str__(self) -> str:
        params = dict(self.params)
        if self.plural is None:
            return _(self.msgid, **params)
        return ngettext(self.msgid, self.plural, self.count, **params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def lazy_gettext(msgid: str, /, **params: Any) -> Message:
    """``_``, put into words only when ``str()``-ed."""
    return Message(msgid, tuple(params.items()))


def lazy_ngettext(singular: str, plural: str, count: int, /, **params: Any) -> Message:
    """``ngettext``, put into words only when ``str()``-ed."""
    return Message(singular, tuple(params.items()), plural, count)


@cache
def _locale(lang: str) -> Locale:
    """Babel's locale for a catalog (the pseudo-language writes numbers as English)."""
    return Locale.parse(SOURCE if lang == PSEUDO else lang)


def number(value: int) -> str:
    """A whole number as the language writes it: ``12``, ``−50`` (U+2212), ``12,000``
    (``12.000`` in Icelandic; grouped from 10,000 on, so years and scores read plainly)."""
    digits = format_decimal(abs(value), locale=_locale(current()),
                            group_separator=abs(value) >= 10_000)
    return f"{MINUS}{digits}" if value < 0 else digits


def ordinal(value: int) -> str:
    """A rank as the language writes it, chosen by CLDR's ordinal category for the number
    (Babel's ``ordinal_form``): ``1st 2nd 3rd 4th`` in English, ``1af 2il 3ydd 5ed 7fed``
    in Welsh, ``1.`` in Icelandic. Each category has its own message, so a language whose
    categories fall differently from English's (Welsh has six) writes every one."""
    n = number(value)
    form = _locale(current()).ordinal_form(value)
    if form == "one":
        return pgettext("ordinal, CLDR category one (en 1st 21st; cy 1)", "{n}st", n=n)
    if form == "two":
        return pgettext("ordinal, CLDR category two (en 2nd 22nd; cy 2)", "{n}nd", n=n)
    if form == "few":
        return pgettext("ordinal, CLDR category few (en 3rd 23rd; cy 3 4)", "{n}rd", n=n)
    if form == "many":
        return pgettext("ordinal, CLDR category many (cy 5 6)", "{n}th", n=n)
    if form == "zero":
        return pgettext("ordinal, CLDR category zero (cy 0 7 8 9)", "{n}th", n=n)
    return pgettext("ordinal, CLDR category other (en 4th 11th; cy 10 11 20)", "{n}th", n=n)


def decimal(value: float, places: int = 1) -> str:
    """A number with ``places`` decimals as the language writes it (``25.3``, ``25,3``)."""
    pattern = "0." + "0" * places if places else "0"
    digits = format_decimal(abs(value), format=pattern, locale=_locale(current()))
    return f"{MINUS}{digits}" if value < 0 and digits.strip("0.,") else digits


def listing(items: Sequence[str]) -> str:
    """Items as the language lists them: ``a``, ``a and b``, ``a, b and c`` (the last two
    joined by the catalog's word for "and")."""
    if len(items) <= 1:
        return "".join(items)
    return _("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def date(value: dt.date | dt.datetime) -> str:
    """A day as the language writes it: ``3 Mar 2025`` in English, ``3 Maw 2025`` in Welsh."""
    return format_date(value, format="medium", locale=_locale(current()))


def language_name(lang: str) -> str:
    """A language's own name for itself, from its catalog (``Cymraeg``, ``Íslenska``)."""
    return translations(lang).pgettext("the name of this language", "English")
