"""``python -m i18n extract | update [LANG …] | check``: the catalogs' upkeep, from a clone.

* ``extract`` reads every text marked for translation (``babel.cfg`` says where and how)
  into the template ``i18n/locales/deckhand.pot``;
* ``update`` brings every catalog, drafts included, up to the template (new messages
  empty, gone ones dropped, English filled from the message ids); ``update xx`` also
  makes the draft ``i18n/drafts/xx.po`` of a new language ``xx`` with its plural rule;
* ``check`` lists what a translator still has to do or undo (``i18n.check``) and how far
  each draft is; exit status 1 when a shipped catalog lacks or breaks anything, or a
  draft breaks what it has. A complete draft ships by moving it to
  ``i18n/locales/xx/LC_MESSAGES/deckhand.po``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from i18n.catalogs import (
    DOMAIN,
    SOURCE,
    draft_path,
    drafts,
    languages,
    po_path,
    pot_path,
    read,
)
from i18n.check import problems, progress

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "babel.cfg"
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "lazy_ngettext": (1, 2)}


def template() -> Catalog:
    """Every text of the code that is marked for translation, as a fresh template."""
    with CONFIG.open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(CONFIG))  # type: ignore[no-untyped-call]
    catalog = Catalog(project="Deckhand", domain=DOMAIN, msgid_bugs_address="", charset="utf-8")
    for path, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return catalog


def _write(catalog: Catalog, path: Path) -> None:
    """Catalogs are written by file, without line numbers (they move with every edit)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_by_file=True, include_lineno=False,
                 ignore_obsolete=True)


def extract() -> str:
    pot = template()
    _write(pot, pot_path())
    return f"{len(pot)} messages in {pot_path().relative_to(ROOT)}"


def update(new: Sequence[str]) -> str:
    with pot_path().open("rb") as f:
        pot = read_po(f, domain=DOMAIN)
    for lang in new:
        try:
            Locale.parse(lang)
        except (ValueError, UnknownLocaleError):
            raise SystemExit(
                f"{lang!r} is not a language Babel knows (e.g. cy, is, tl, sw)."
            ) from None
    wanted = sorted(set(languages()) | set(drafts()) | set(new))
    for lang in wanted:
        shipped = po_path(lang).exists()
        fresh = not shipped and not draft_path(lang).exists()
        catalog = Catalog(locale=lang, domain=DOMAIN) if fresh else read(lang)
        catalog.update(pot, update_creation_date=True)
        if lang == SOURCE:
            for message in catalog:
                if message.id:
                    message.string = message.id
                    message.flags.discard("fuzzy")
        _write(catalog, po_path(lang) if shipped else draft_path(lang))
    return f"updated {', '.join(wanted)} from {len(pot)} messages"


def check() -> tuple[list[str], list[str]]:
    """The problems of every catalog, and how far each draft is."""
    with pot_path().open("rb") as f:
        pot = read_po(f, domain=DOMAIN)
    found = [line for lang in languages() for line in problems(read(lang), pot)]
    found += [line for lang in drafts() for line in problems(read(lang), pot, draft=True)]
    drafted = []
    for lang in drafts():
        done, total = progress(read(lang), pot)
        drafted.append(f"{lang}: a draft, {done} of {total} messages translated (not shipped)")
    return found, drafted


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="the texts of the code into i18n/locales/deckhand.pot")
    up = sub.add_parser("update", help="every catalog up to the template")
    up.add_argument("new", nargs="*", metavar="LANG", help="a new language's code, e.g. cy")
    sub.add_parser("check", help="what each catalog lacks or breaks")
    args = parser.parse_args(argv)
    if args.command == "extract":
        print(extract())
    elif args.command == "update":
        print(update(args.new))
    else:
        found, drafted = check()
        print("\n".join(found) or f"every catalog is complete: {', '.join(languages())}")
        print("\n".join(drafted), end="\n" if drafted else "")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
