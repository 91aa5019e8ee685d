"""Python's own texts in Deckhand's languages: argparse writes its usage lines, section
titles, ``--help`` line and errors ("argument --players: invalid int value…") through the
standard ``gettext`` functions, and ``library_texts`` points those at Deckhand's catalogs.

Decisions:
* Only public API: the standard library looks a text up in the default text domain
  (``gettext.textdomain``), in ``.mo`` files under the folder bound to it
  (``gettext.bindtextdomain``), for the languages ``LANGUAGE`` names. So, for the length
  of a block, Deckhand's catalog of the language spoken is written as ``.mo`` into a folder
  of this process's own (once per language; removed when the process ends), bound as
  the default domain, and named in ``LANGUAGE``; all three are put back afterwards.
* The texts to translate are argparse's own message ids, listed (and so extracted into
  the catalogs) in ``bot/cli_texts.py``; a test holds that list to the running argparse.
"""

from __future__ import annotations

import atexit
import gettext
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from i18n.catalogs import DOMAIN, mo

#: The variable the standard library reads the language from first.
LANGUAGE = "LANGUAGE"


@cache
def _folder() -> Path:
    """This process's own locale folder (removed at exit)."""
    folder = Path(tempfile.mkdtemp(prefix="deckhand-locale-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@cache
def _written(lang: str) -> Path:
    """The locale folder holding ``lang``'s compiled catalog."""
    target = _folder() / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(mo(lang))
    return _folder()


@contextmanager
def library_texts(lang: str) -> Iterator[None]:
    """Within the block the standard library's texts (argparse's) read in ``lang``."""
    folder = _written(lang)
    domain, bound = gettext.textdomain(), gettext.bindtextdomain(DOMAIN)
    before = os.environ.get(LANGUAGE)
    gettext.bindtextdomain(DOMAIN, str(folder))
    gettext.textdomain(DOMAIN)
    os.environ[LANGUAGE] = lang
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(LANGUAGE, None)
        else:
            os.environ[LANGUAGE] = before
        gettext.textdomain(domain)
        gettext.bindtextdomain(DOMAIN, bound)
