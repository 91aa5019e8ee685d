"""What the command line says when a command cannot do its job: one line naming what to
fix, never a traceback (``bot.__main__.main`` is the one boundary that asks here).

* A refusal of ours (a bad option, a refused move, an unusable database or setting) is
  already a sentence: it is printed as it is.
* A file the system refused is named with what to do about it (a folder where a file was
  meant, a missing folder, a place that cannot be written).
* A database driver's own error that no backend translated is its first line.
* Anything else is a bug: one line saying so; ``DECKHAND_LOG_LEVEL=DEBUG`` in the
  environment adds the traceback for the report.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import traceback

import psycopg

from bot.progress import Interrupted
from bot.services.errors import ServiceError
from bot.settings import SettingsError
from bot.text import clip
from storage.db import StorageUnavailable

#: Exit statuses: a refusal or an unusable file/database/setting; Ctrl-C; a bug.
REFUSED, STOPPED, BUG = 2, 130, 70

_FIX = {
    errno.EISDIR: "is a folder: give a file name",
    errno.ENOTDIR: "goes through a file as if it were a folder: check the path",
    errno.ENOENT: "does not exist: check the path (missing folders are not made here)",
    errno.EEXIST: "already exists and is not a folder: give another name",
    errno.EACCES: "may not be used here (permission denied): choose another place",
    errno.EPERM: "may not be used here (not permitted): choose another place",
    errno.EROFS: "is on a read-only file system: choose another place",
    errno.ENOSPC: "cannot be written: the disk is full",
    errno.ENAMETOOLONG: "is too long a name: choose a shorter one",
}


def os_problem(exc: OSError) -> str:
    """An ``OSError`` as one sentence naming the file and what to do."""
    fix = _FIX.get(exc.errno or 0, f"cannot be used ({exc.strerror or exc})")
    name = exc.filename if exc.filename is not None else "A file"
    return f"{clip(str(name), 200)} {fix}."


def explain(exc: BaseException) -> tuple[int, str]:
    """The exit status and the one line for a command's failure."""
    status, text = _explain(exc)
    return status, (text.strip().splitlines() or [""])[0]


def _explain(exc: BaseException) -> tuple[int, str]:
    if isinstance(exc, Interrupted):
        return STOPPED, str(exc)
    if isinstance(exc, ServiceError | StorageUnavailable | SettingsError):
        return REFUSED, str(exc)
    if isinstance(exc, OSError):
        return REFUSED, os_problem(exc)
    if isinstance(exc, sqlite3.Error | psycopg.Error):
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return REFUSED, f"The database refused: {clip(first, 200)}"
    if isinstance(exc, KeyError):
        return REFUSED, str(exc.args[0]) if exc.args else "Not found."
    if isinstance(exc, ValueError):
        return REFUSED, str(exc)
    if os.environ.get("DECKHAND_LOG_LEVEL", "").strip().upper() == "DEBUG":
        traceback.print_exception(exc)
    return BUG, (
        f"Something went wrong inside Deckhand ({type(exc).__name__}: {clip(str(exc), 120)})."
        " This is a bug: please report it with the command you ran"
        " (DECKHAND_LOG_LEVEL=DEBUG shows the details)."
    )
