"""Proofreading by outside judges: what ``tests/i18n/test_proof.py`` holds every shipped
catalog to, beyond the placeholders and markup ``i18n.check`` keeps.

* **Spelling.** Every word of every translation (placeholders, code, tags, links, typed
  moves in quotes and technical tokens such as ``name=value`` left out) is known to a real
  dictionary of its language, or listed in that language's glossary under *Words outside
  the dictionary* with the reason it is used. The dictionaries are Debian's
  (``hunspell-is``, ``hunspell-sw``, ``myspell-tl``, read by the ``hunspell`` program) and,
  for Welsh, Bangor University's hunspell ``cy_GB`` as ``cymraeg-mcp`` ships it (Debian's
  ``aspell-cy`` 0.50 lacks everyday words: *rownd*, *sgorio*, *trwmp*). A language's own
  word-building is allowed where the dictionary is a bare word list: Welsh clitics (*sy'n*,
  *i'r*), the Tagalog linker *-ng* and prefixes before a hyphen (*barahang*, *mag-bid*),
  Icelandic compounds of two known words (*kastbunki*). Slash-command and option names
  are typed, and stay English (Discord has none of these languages), so they are left out.
* **Welsh mutations.** ``cymraeg-mcp``'s treiglad rules (soft mutation after prepositions,
  *dau/dwy*, *neu*…; aspirate after *tri*, *chwe*, *a*, *â*…) over every Welsh text; and
  every number before a noun (a plural form, or a digit in running text) read as Welsh
  reads it: radical after 0, 4, 5, 7…; after 1 the soft mutation of a feminine noun but
  not of *ll*/*rh*; after 2 the soft mutation; after 3 the aspirate of a masculine noun
  (*tri*), none of a feminine (*tair*); after 6 the aspirate (*chwe*). Each counted noun's
  gender is in the glossary (*Counted nouns*), so a noun of unknown gender fails.
  Form 1 of a plural entry keeps the singular possessive (*wedi'i*, never *wedi'u*).
* **Swahili agreement.** The singular form of a plural entry (n = 1) names its noun in the
  noun's own singular class (*mzunguko 1*, never *mizunguko 1*: a plural-prefixed word whose
  singular the dictionary knows), with singular concord after the number (*kadi 1
  imegawiwa*, never *zimegawiwa*).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message

from i18n.catalogs import LOCALES
from i18n.check import CODE, NAME_CONTEXTS, PLACEHOLDER, TAG

#: Debian's hunspell dictionaries, by language (``apt-get install hunspell hunspell-is
#: hunspell-sw myspell-tl``); Welsh comes with ``cymraeg-mcp``.
HUNSPELL = Path("/usr/share/hunspell")
DEBIAN = {"is": "is_IS", "sw": "sw_TZ", "tl": "tl"}
INSTALL = "apt-get install hunspell hunspell-is hunspell-sw myspell-tl"

_STRIP = re.compile("|".join(p.pattern for p in (PLACEHOLDER, CODE, TAG)))
_QUOTED = re.compile(r"'[^'\n]+'|\"[^\"\n]+\"|‘[^’\n]+’|“[^”\n]+”|„[^“\n]+“")
#: Technical tokens: options, paths, variables, commands (``target=50``, ``data/x.db``,
#: ``DISCORD_TOKEN``, ``--lang``, ``.env``), and ordinals written with digits (``2il``).
_TECHNICAL = re.compile(r"\S*[=_/\\@#]\S*|(?<!\w)[-.]{1,2}\w\S*|\b\d+[^\W\d_]+")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_CLITICS = frozenset({"r", "n", "i", "u", "w", "m", "th", "ch", "ma", "na"})
_TL_PREFIXES = frozenset({"i", "ika", "ma", "mag", "nag", "pag", "na", "naka", "maka",
                          "magka", "nagka", "pang", "tig", "ipa", "pa", "ka", "pinaka"})


def glossary_path(lang: str) -> Path:
    """The glossary of ``lang``, beside its catalog."""
    return LOCALES / lang / "glossary.md"


@cache
def glossary_table(lang: str, heading: str) -> tuple[tuple[str, ...], ...]:
    """The rows of the table under ``## heading`` in ``lang``'s glossary, cells stripped."""
    rows: list[tuple[str, ...]] = []
    inside = False
    for line in glossary_path(lang).read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == heading
            continue
        if inside and line.startswith("|") and not set(line) <= set("|- "):
            rows.append(tuple(c.strip() for c in line.strip().strip("|").split("|")))
    return tuple(rows[1:])  # the first row is the header


@cache
def listed(lang: str) -> frozenset[str]:
    """The words ``lang``'s glossary lists, with reasons, as outside the dictionary."""
    return frozenset(
        w.strip().lower() for row in glossary_table(lang, "Words outside the dictionary")
        for w in row[0].split(",") if w.strip())


def words(msgid: str, text: str) -> list[str]:
    """The words of a translation that a dictionary must know: without placeholders, code,
    tags and links, technical tokens, and what is typed as the English writes it (quoted
    moves, capitals such as card codes ``QH``)."""
    text = _STRIP.sub(" ", text)
    text = _QUOTED.sub(lambda m: " " if m.group(0) in msgid else m.group(0), text)
    text = _TECHNICAL.sub(" ", text)
    out = []
    for w in _WORD.findall(text):
        if w.isupper() and re.search(rf"\b{re.escape(w)}\b", msgid):
            continue
        out.append(w)
    return out


def forms(message: Message) -> list[str]:
    """A message's translated text, each plural form."""
    if isinstance(message.string, tuple | list):
        return list(message.string)
    return [message.string or ""]


def english(message: Message) -> str:
    """A message's English, both forms of a plural."""
    return " ".join(message.id) if isinstance(message.id, tuple | list) else message.id


class Dictionary:
    """A language's dictionary: ``known(word)``, with the language's word-building."""

    def __init__(self, lang: str, lookup: Callable[[Iterable[str]], set[str]]) -> None:
        self.lang = lang
        self._unknown = lookup
        self._cache: dict[str, bool] = {}

    def _lookups(self, word: str) -> set[str]:
        """Every string whose entry decides whether ``word`` is known."""
        low = word.lower()
        out = {word, low}
        parts = re.split(r"['’]", word)
        if self.lang == "cy" and len(parts) > 1:
            out |= self._lookups(parts[0]) if parts[0] else set()
        if "-" in word:
            for part in word.split("-"):
                out |= self._lookups(part) if part else set()
        if self.lang == "tl" and low.endswith("ng"):
            out |= {low[:-2], low[:-1]}
        if self.lang == "is":
            out |= {low[:i] for i in range(2, len(low) - 2)}
            out |= {low[i:] for i in range(3, len(low) - 2)}
        return out

    def known_all(self, words_: Iterable[str]) -> None:
        """Look up at once every string that decides whether each word is known."""
        todo = set().union(*(self._lookups(w) for w in set(words_))) - self._cache.keys()
        bad = self._unknown(todo)
        self._cache.update({w: w not in bad for w in todo})

    def _in(self, word: str) -> bool:
        if word not in self._cache:
            self.known_all([word])
        return self._cache[word]

    def known(self, word: str) -> bool:
        if word.lower() in listed(self.lang) or self._in(word) or self._in(word.lower()):
            return True
        parts = re.split(r"['’]", word)
        if self.lang == "cy" and len(parts) > 1 and all(p.lower() in _CLITICS for p in parts[1:]):
            return self.known(parts[0]) if parts[0] else True
        if "-" in word:
            head, _, rest = word.partition("-")
            tl_prefix = self.lang == "tl" and head.lower() in _TL_PREFIXES
            return (tl_prefix or self.known(head)) and self.known(rest)
        low = word.lower()
        if self.lang == "tl" and low.endswith("ng") and len(low) > 4:
            return self._in(low[:-2]) or self._in(low[:-1])
        if self.lang == "is":
            return any(self._in(low[i:]) and (
                self._in(low[:i]) or (low[i - 1] == "s" and self._in(low[:i - 1])))
                for i in range(3, len(low) - 2))
        return False


def _hunspell(name: str) -> Callable[[Iterable[str]], set[str]]:
    binary = shutil.which("hunspell")
    if binary is None or not (HUNSPELL / f"{name}.dic").exists():
        raise RuntimeError(f"the {name} dictionary is missing: {INSTALL}")

    def unknown(ws: Iterable[str]) -> set[str]:
        todo = sorted(ws)
        if not todo:
            return set()
        bad = set(subprocess.run(
            [binary, "-d", str(HUNSPELL / name), "-i", "utf-8", "-l"],
            input="".join(f"{w}\n" for w in todo), capture_output=True, text=True, check=True,
        ).stdout.split())
        # ``-l`` lists the unknown words; it reads "a-b" as the words "a" and "b".
        return {w for w in todo if w in bad or any(p in bad for p in re.split(r"[-'’]", w))}

    return unknown


def _welsh() -> Callable[[Iterable[str]], set[str]]:
    from cymraeg_mcp.spelling import known  # type: ignore[import-untyped]

    return lambda ws: {w for w in ws if not known(w)}


@cache
def dictionary(lang: str) -> Dictionary:
    """The dictionary of a shipped language (Welsh, Icelandic, Swahili or Tagalog); a new
    language names its Debian dictionary in ``DEBIAN``."""
    if lang != "cy" and lang not in DEBIAN:
        raise RuntimeError(f"{lang} has no dictionary: name its hunspell one in i18n.proof.DEBIAN")
    return Dictionary(lang, _welsh() if lang == "cy" else _hunspell(DEBIAN[lang]))


def _typed(message: Message) -> bool:
    """A slash command's or option's name, or a choice kept as its English value: typed."""
    context = message.context or ""
    return context in NAME_CONTEXTS or (
        context == "discord choice_name" and message.string == message.id)


def misspelt(catalog: Catalog) -> Iterator[str]:
    """Each word of ``catalog`` no dictionary knows and its glossary does not list."""
    lang = str(catalog.locale_identifier)
    found = [(english(m), w) for m in catalog if m.id and not _typed(m)
             for f in forms(m) for w in words(english(m), f)]
    book = dictionary(lang)
    book.known_all(w for _, w in found)
    seen: set[str] = set()
    for msgid, w in found:
        if w not in seen and not book.known(w):
            seen.add(w)
            yield f"{lang}: {w!r} is in no dictionary nor the glossary ({msgid[:50]!r})"


# --- Welsh mutations ------------------------------------------------------------------

@dataclass(frozen=True)
class Noun:
    """A noun counted by a number: its radical and gender (``m`` or ``f``)."""

    radical: str
    feminine: bool


@cache
def counted_nouns(lang: str) -> dict[str, Noun]:
    """The glossary's *Counted nouns*: each noun that follows a number, every form of it
    (radical and mutated) mapped to it."""
    from cymraeg_mcp.mutations import word_initial  # type: ignore[import-untyped]

    out: dict[str, Noun] = {}
    for row in glossary_table(lang, "Counted nouns"):
        noun = Noun(row[0].lower(), row[1].lower().startswith("f"))
        out[noun.radical] = noun
        for kind in ("soft", "nasal", "aspirate"):
            table = _engine().tables[kind]
            init = word_initial(noun.radical)
            if init in table:
                out.setdefault(table[init] + noun.radical[len(init):], noun)
    return out


@cache
def _engine() -> Any:
    from cymraeg_mcp.mutations import MutationEngine
    from cymraeg_mcp.paths import mutation_rules_path  # type: ignore[import-untyped]
    from cymraeg_mcp.spelling import lookup

    return MutationEngine(mutation_rules_path(), lookup)


@cache
def unmutated() -> frozenset[str]:
    """The Welsh words that keep their radical after a trigger (loanwords such as *gêm*),
    from the glossary's *Words that do not mutate*."""
    return frozenset(w.strip().lower() for row in glossary_table("cy", "Words that do not mutate")
                     for w in row[0].split(",") if w.strip())


def after_number(noun: Noun, count: int) -> str:
    """The form of ``noun`` after the number ``count``, as Welsh reads the digits."""
    engine = _engine()
    if noun.radical in unmutated():
        return noun.radical
    kind = None
    if count == 2 or (count == 1 and noun.feminine and not noun.radical.startswith(("ll", "rh"))):
        kind = "soft"
    elif count == 6 or (count == 3 and not noun.feminine):
        kind = "aspirate"
    mutated = engine.apply(noun.radical, kind) if kind else None
    return str(mutated or noun.radical)


#: The count each Welsh plural form stands for (``n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 :
#: n == 3 ? 3 : n == 6 ? 4 : 5``); 5 stands for "the rest" (4, 5, 7, 8…).
WELSH_FORMS = (0, 1, 2, 3, 6, 5)
_COUNTED = re.compile(r"(\{n\}|(?<![\d.,])\b\d+\b(?![.,]\d))\s+([^\W\d_]+)")


def mutation_problems(catalog: Catalog) -> Iterator[str]:
    """Every Welsh mutation the rules find wrong in ``catalog``."""
    nouns = counted_nouns("cy")
    engine = _engine()
    for m in catalog:
        if not m.id:
            continue
        where = f"cy: {english(m)[:50]!r}"
        texts = forms(m)
        plural = isinstance(m.string, tuple | list)
        for k, text in enumerate(texts):
            for f in engine.check_text(_STRIP.sub(" , ", text)):
                if f.word.lower() not in unmutated() and len(f.word) > 1:
                    yield f"{where}: {f.trigger} {f.word} should be {f.suggestions[0]}"
            for number, word in _COUNTED.findall(text):
                noun = nouns.get(word.lower())
                if number == "{n}" and not plural:
                    if noun is not None:
                        yield f"{where}: {{n}} {word} outside a plural entry (use ngettext)"
                    continue
                count = WELSH_FORMS[k] if number == "{n}" else int(number)
                if noun is None:
                    if number == "{n}" and word.lower() not in _NOT_NOUNS:
                        yield f"{where}: {word!r} follows a number but is no counted noun"
                elif word.lower() != after_number(noun, count):
                    yield (f"{where}: form {k} says {number} {word}, Welsh says "
                           f"{after_number(noun, count)} after {count}")
        if plural and len(texts) == 6 and "wedi'i" not in texts[1] and any(
                "wedi'u" in t for t in texts[2:]):
            yield f"{where}: form 1 keeps the plural possessive (wedi'u for wedi'i)"


#: Words a number may stand before that are not counted nouns (units written with the
#: number, conjunctions).
_NOT_NOUNS = frozenset({"a", "ac", "i", "o", "neu", "yn", "yr", "y", "am", "ar", "hen", "yw"})


# --- Swahili agreement ------------------------------------------------------------------

_PLURAL_PREFIXES = (("wa", ("m", "mw")), ("mi", ("m", "mw")), ("ma", ("", "ji")),
                    ("vi", ("ki",)), ("vy", ("ch",)))
_PLURAL_CONCORD = re.compile(r"^(?:(?:zi|vi|ya|wa)(?:me|na|ta|li|ki|sha|nge)\w+|zilizo\w*|"
                             r"vilivyo\w*|yaliyo\w*|za|vya)$")


def class_problems(catalog: Catalog) -> Iterator[str]:
    """Every Swahili singular form (n = 1) that keeps a plural noun or plural concord."""
    book = dictionary("sw")
    for m in catalog:
        if not m.id or not isinstance(m.string, tuple | list):
            continue
        one = m.string[0]
        where = f"sw: {english(m)[:50]!r}"
        before = re.search(r"([^\W\d_]+)\s+\{n\}", one)
        if before:
            noun = before.group(1)
            for plural, singulars in _PLURAL_PREFIXES:
                low = noun.lower()
                if low.startswith(plural) and any(
                        book.known(s + low[len(plural):]) for s in singulars if s or len(low) > 4):
                    yield f"{where}: form 0 (n = 1) counts {noun!r}, a plural"
                    break
        after = re.search(r"\{n\}\s+([^\W\d_]+)", one)
        if after and _PLURAL_CONCORD.match(after.group(1).lower()):
            yield f"{where}: form 0 (n = 1) agrees in the plural ({after.group(1)!r})"
