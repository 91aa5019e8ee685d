"""Deckhand's one translation layer: gettext catalogs, built with Babel, below every package.

Every text a person reads goes through here. Decisions:

* **Where it lives.** A package of its own under ``games``, ``storage`` and ``bot``, which
  imports none of them, so the engines' own sentences (refusals, hints, option help, the
  rules) are translated the same way as the bot's. Catalogs are ``.po`` sources in
  ``i18n/locales/<lang>/LC_MESSAGES/deckhand.po`` (template ``i18n/locales/deckhand.pot``);
  each is compiled in memory by Babel the first time its language is spoken — there are no
  ``.mo`` files. English is the source language: message ids are the English sentences,
  and ``en`` is the catalog that ``python -m i18n update`` fills from them.
* **Whose language.** The language of the reader is a context variable set around each
  render, ``with speaking("cy"): ...``, so the deepest renderer calls ``_()`` and
  ``ngettext()`` without a parameter threaded down to it; outside any ``speaking`` it is
  English. A table message is rendered in the table's language, a hand in its player's.
* **Texts made before anyone reads them** (an engine's refusal, a service's error, a hint's
  reason) are ``Message`` values, a message id with its parameters: ``lazy_gettext`` and
  ``lazy_ngettext`` make them, and ``str()`` puts them into words in the language being
  spoken then — English for every caller that sets none, so ``str(IllegalAction(...))`` is
  still a readable English sentence. A parameter may itself be a ``Message``.
* **Templates** use ``{name}`` placeholders, filled with ``str.format`` when parameters are
  given; ``ngettext`` adds ``{n}``, the count written with ``number``. Counts choose their
  form by the catalog's plural rule (Welsh has six), never by ``+ "s"``.
* **Numbers** are written by Babel for the language (digits, grouping from 10,000 on) with
  the typeset minus sign U+2212; ranks (``ordinal``) by CLDR's ordinal categories.
"""

from __future__ import annotations

from i18n.catalogs import (
    PSEUDO,
    SOURCE,
    from_environment,
    known,
    languages,
    match,
    translations,
)
from i18n.speech import (
    MINUS,
    N_,
    Message,
    _,
    current,
    date,
    decimal,
    language_name,
    lazy_gettext,
    lazy_ngettext,
    listing,
    ngettext,
    number,
    ordinal,
    pgettext,
    speak,
    speaking,
)

__all__ = [
    "MINUS",
    "N_",
    "PSEUDO",
    "SOURCE",
    "Message",
    "_",
    "current",
    "date",
    "decimal",
    "from_environment",
    "known",
    "language_name",
    "languages",
    "lazy_gettext",
    "lazy_ngettext",
    "listing",
    "match",
    "ngettext",
    "number",
    "ordinal",
    "pgettext",
    "speak",
    "speaking",
    "translations",
]
