"""Which language a page is in, and the switch between them.

* ``?lang=xx`` when Deckhand has that language (the switch's links carry it), else the
  first language of the browser's ``Accept-Language`` that Deckhand has (by its weights),
  else English. Responses say ``Vary: Accept-Language``.
* The site sets no cookies, so a language chosen with ``?lang=`` is carried by the links
  of the page it chose (``href``); a page in the browser's language links plainly.
* Every page ends with the switch (``switch``): the same page in each language Deckhand
  has, each named in its own words — plain links, no script.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from i18n import SOURCE, current, language_name, languages, match, speaking

PARAMETER = "lang"


@dataclass(frozen=True)
class Page:
    """The page being answered: its path, its query without ``lang``, and the language
    its ``?lang=`` chose (``None``: the browser's)."""

    path: str
    query: tuple[tuple[str, str], ...]
    chosen: str | None


_PAGE: ContextVar[Page | None] = ContextVar("deckhand_web_page", default=None)


def accepted(header: str) -> str | None:
    """The first language of an ``Accept-Language`` header that Deckhand has, by weight
    (``cy-GB,cy;q=0.9,en;q=0.8``); ``None`` when there is none."""
    weighed: list[tuple[float, int, str]] = []
    for n, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            weighed.append((-weight, n, tag))
    for _weight, _n, tag in sorted(weighed):
        found = match(tag)
        if found is not None:
            return found
    return None


@contextmanager
def page(path: str, query: Mapping[str, str], header: str) -> Iterator[str]:
    """Speak the page's language while it is answered (see the module docstring)."""
    chosen = match(query.get(PARAMETER))
    lang = chosen or accepted(header) or SOURCE
    rest = tuple((k, v) for k, v in query.items() if k != PARAMETER)
    token = _PAGE.set(Page(path, rest, chosen))
    try:
        with speaking(lang):
            yield lang
    finally:
        _PAGE.reset(token)


def href(url: str) -> str:
    """A link of the site, carrying the language a ``?lang=`` chose."""
    now = _PAGE.get()
    if now is None or now.chosen is None or not url.startswith("/"):
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in _query(parts.query) if k != PARAMETER]
    return parts.path + "?" + urlencode([*query, (PARAMETER, now.chosen)])


def _query(text: str) -> list[tuple[str, str]]:
    return [(k, v) for k, _eq, v in (p.partition("=") for p in text.split("&") if p)]


def switch() -> list[tuple[str, str, bool]]:
    """The switch: ``(name, link, is the page's language)`` for every language Deckhand
    has (nothing when it has one)."""
    now = _PAGE.get()
    if now is None or len(languages()) < 2:
        return []
    return [
        (language_name(lang), now.path + "?" + urlencode([*now.query, (PARAMETER, lang)]),
         lang == current())
        for lang in languages()
    ]


def tag() -> str:
    """The page's language as HTML's ``lang`` attribute writes it (``cy``, ``en-XA``)."""
    return current().replace("_", "-")
