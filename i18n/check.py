"""The checks every catalog passes (``python -m i18n check``, and the tests): nothing
missing, and nothing a translation may not change changed.

* Every message of the template is translated (an empty or fuzzy one counts as missing:
  it would fall back to English without anyone noticing); a draft (``i18n.catalogs``)
  may lack some, and is checked for the rest.
* The same placeholders (``{name}``, and argparse's ``%(name)s``, ``%s`` and ``%r``; a
  plural form may leave out ``{n}``, as Welsh says "one card" without the number), and
  the same Discord markup: ``**``, code in
  backticks (kept letter for letter: it is typed), ``<t:…>``/``<@…>`` tags, links, and
  list items (lines starting ``* ``).
* Slash-command texts within Discord's rules: names lower case, letters, digits, ``-``
  and ``_`` only, 1–32 characters; descriptions and choices 1–100.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from babel.messages.catalog import Catalog, Message

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[sdr]|%[sdr]")
CODE = re.compile(r"`[^`]*`")
TAG = re.compile(r"<[^<>\s]+>|https?://\S+")
BOLD = re.compile(r"\*\*")
ITEM = re.compile(r"^\s*\* ", re.M)

#: The message contexts of slash-command texts (``bot.translator``), and their limits.
NAME_CONTEXTS = frozenset(
    {"discord command_name", "discord group_name", "discord parameter_name"}
)
TEXT_CONTEXTS = frozenset(
    {"discord command_description", "discord group_description",
     "discord parameter_description", "discord choice_name"}
)


def _forms(message: Message) -> tuple[list[str], list[str]]:
    ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
    strs = list(message.string) if isinstance(message.string, tuple | list) else [
        message.string or ""]
    return ids, strs


def _kept(text: str) -> Counter[str]:
    """What a translation keeps: code spans, tags, links, bold marks and list items."""
    found: Counter[str] = Counter(CODE.findall(text))
    found.update(TAG.findall(text))
    found["**"] = len(BOLD.findall(CODE.sub("", text)))
    found["* "] = len(ITEM.findall(text))
    return +found


def placeholders(text: str) -> set[str]:
    """The placeholders of a text; ``{}`` numbered as Python does (``{0}``, ``{1}``), so a
    translation may reorder them by number."""
    found: set[str] = set()
    auto = 0
    for p in PLACEHOLDER.findall(text):
        if p == "{}":
            found.add(f"{{{auto}}}")
            auto += 1
        else:
            found.add(p)
    return found


def message_problems(message: Message) -> Iterator[str]:
    """What is wrong with one translated message."""
    ids, strs = _forms(message)
    if message.fuzzy or not all(s.strip() for s in strs):
        yield "not translated"
        return
    wanted = set().union(*(placeholders(i) for i in ids))
    for form in strs:
        got = placeholders(form)
        if got != wanted and got != wanted - {"{n}"}:
            yield f"placeholders {sorted(got)} instead of {sorted(wanted)}"
        if _kept(form) != _kept(ids[0]):
            yield f"markup {dict(_kept(form))} instead of {dict(_kept(ids[0]))}"
    context = message.context or ""
    for form in strs:
        if context in NAME_CONTEXTS and not (
            1 <= len(form) <= 32 and form == form.lower()
            and all(c.isalnum() or c in "-_" for c in form)
        ):
            yield "a command or option name: lower case letters, digits, - and _, 1-32"
        if context in TEXT_CONTEXTS and not 1 <= len(form) <= 100:
            yield "a command description or choice: 1-100 characters"


def translated(message: Message | None) -> bool:
    """Whether a catalog's message has a translation that counts (not empty, not fuzzy)."""
    return message is not None and not message.fuzzy and all(
        s.strip() for s in _forms(message)[1])


def problems(catalog: Catalog, template: Catalog, *, draft: bool = False) -> list[str]:
    """Every problem of ``catalog`` against the template, one line each; a ``draft`` may
    still lack messages, but what it has must keep what a translation keeps."""
    out = []
    for wanted in template:
        if not wanted.id:
            continue
        got = catalog.get(wanted.id, wanted.context)
        where = f"{catalog.locale_identifier}: {_forms(wanted)[0][0][:60]!r}"
        if draft and not translated(got):
            continue
        if got is None:
            out.append(f"{where}: missing (run python -m i18n update)")
            continue
        out += [f"{where}: {p}" for p in message_problems(got)]
    return out


def progress(catalog: Catalog, template: Catalog) -> tuple[int, int]:
    """How many of the template's messages ``catalog`` translates, and how many there are."""
    wanted = [m for m in template if m.id]
    return sum(translated(catalog.get(m.id, m.context)) for m in wanted), len(wanted)
