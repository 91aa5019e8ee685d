"""``python -m i18n.sample LANG [SEED]``: a stratified sample of a catalog for a reading
record (``i18n/locales/<lang>/reading.md``), the same for the same catalog and seed.

Each message falls in one surface by where the code says it (``STRATA``); the sample takes
``PER_STRATUM`` messages of each, at random with the seed, so a record reads the table, the
hand, refusals, hints, leagues and events, settings, the command line, the web page, the
slash-command texts and the rules alike (slash-command and option names are typed, and
stay English: they are left out). It prints the record's table with an empty mark
column, for the reader to fill: correct, awkward, wrong or English.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from babel.messages.catalog import Message

from i18n.catalogs import read
from i18n.check import NAME_CONTEXTS

#: The surfaces a reader meets, each by the files its messages come from (first match).
STRATA: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("slash texts", ("bot/command_texts.py",)),
    ("hand", ("bot/render/hand.py", "bot/ui/hands", "bot/ui/publish/hand")),
    ("hints", ("bots.py", "bot/render/hint.py")),
    ("refusals", ("games/base.py", "games/actions.py", "games/cards.py", "engine.py",
                  "moves.py", "bot/services/tables/", "bot/failures.py", "bot/ui/answers.py")),
    ("rules", ("games/",)),
    ("leagues and events", ("bot/cogs/league.py", "bot/services/leagues/", "bot/services/events/",
                            "bot/render/events.py", "bot/ui/events.py", "bot/ui/publish/league")),
    ("settings", ("bot/services/preferences.py", "bot/cogs/settings.py", "bot/ui/language.py")),
    ("command line", ("bot/__main__.py", "bot/terminal/", "bot/services/dbcli.py",
                      "bot/simulate.py", "bot/services/exports.py", "bot/docs.py")),
    ("web", ("bot/web/",)),
    ("table", ("bot/render/", "bot/art/", "bot/ui/")),
)
PER_STRATUM = 11
SEED = 45


def stratum(message: Message) -> str | None:
    """The surface a message is read on, by the first file that uses it."""
    where = message.locations[0][0] if message.locations else ""
    for name, parts in STRATA:
        if any(p in where for p in parts):
            return name
    return None


def sample(lang: str, seed: int = SEED) -> list[tuple[str, Message]]:
    """``PER_STRATUM`` messages of each surface of ``lang``'s catalog, drawn with ``seed``."""
    rng = random.Random(f"{lang}:{seed}")
    by: dict[str, list[Message]] = {name: [] for name, _ in STRATA}
    for m in read(lang):
        if m.id and (m.context or "") not in NAME_CONTEXTS and (s := stratum(m)) is not None:
            by[s].append(m)
    out = []
    for name, _ in STRATA:
        pool = sorted(by[name], key=lambda m: (str(m.id), m.context or ""))
        out += [(name, m) for m in rng.sample(pool, min(PER_STRATUM, len(pool)))]
    return out


def _cell(text: str | Sequence[str] | None) -> str:
    if text is None:
        return ""
    if not isinstance(text, str):
        text = " ‖ ".join(text)
    return text.replace("|", "\\|").replace("\n", " ⏎ ")


def main(argv: Sequence[str]) -> int:
    lang, seed = argv[0], int(argv[1]) if len(argv) > 1 else SEED
    print("| # | surface | English | translation | mark | note |")
    print("|---|---|---|---|---|---|")
    for n, (name, m) in enumerate(sample(lang, seed), 1):
        print(f"| {n} | {name} | {_cell(m.id)} | {_cell(m.string)} |  |  |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
