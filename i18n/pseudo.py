"""The pseudo-language ``en_XA``: English with every letter accented and 40 % more length.

What it shows: any text on a surface that still has plain ASCII words did not go through
the catalogs, and a surface that stays within its limits in ``en_XA`` has room for a
language that is 40 % longer than English. What it keeps as it is, because a real
translation keeps it too: placeholders (``{name}``), Discord's markup (``**``, code in
backticks, ``<t:…>`` and ``<@…>`` tags), links, and the ``* `` of a bullet. Slash-command
texts (context ``discord …``) stay English: Discord has no pseudo-locale to show them in.
"""

from __future__ import annotations

import math
import re

from babel.messages.catalog import Catalog

from i18n.check import CODE, PLACEHOLDER, TAG

_LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçďéƒğĥîĵķľɱñöþǫŕšţûʋŵχýžÅƁÇĎÉƑĞĤÎĴĶĽϺÑÖÞǪŔŠŢÛƲŴΧÝŽ",
)
#: What a translation keeps verbatim: placeholders, code, Discord's tags, links (the
#: patterns ``i18n.check`` holds every translation to).
KEPT = re.compile("|".join(p.pattern for p in (PLACEHOLDER, CODE, TAG)))
#: The padding that makes a text 40 % longer (a character no markup gives a meaning to).
PAD = "°"


def pseudo(text: str) -> str:
    """``text`` in the pseudo-language."""
    out: list[str] = []
    last = 0
    for m in KEPT.finditer(text):
        out.append(text[last:m.start()].translate(_LETTERS))
        out.append(m.group(0))
        last = m.end()
    out.append(text[last:].translate(_LETTERS))
    padding = math.ceil(len(text) * 0.4)
    return "".join(out) + (" " + PAD * (padding - 1) if padding > 1 else "")


def pseudo_catalog(source: Catalog) -> Catalog:
    """Every message of ``source`` (the English catalog) in the pseudo-language."""
    out = Catalog(locale="en", domain=source.domain)
    for message in source:
        if not message.id:
            continue
        ids = tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)
        if not (message.context or "").startswith("discord "):
            ids = tuple(pseudo(form) for form in ids)
        text: str | tuple[str, ...] = ids if len(ids) > 1 else ids[0]
        out.add(message.id, text, context=message.context)
    return out
