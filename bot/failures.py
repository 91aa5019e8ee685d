"""What the command line says when a command cannot do its job: one line naming what to
fix, never a traceback (``bot.__main__.main`` is the one boundary that asks here, and
prints it on standard error after the command as it was typed).

* Exit statuses, one convention for every command: 2 for what the user gave that cannot be
  used (a bad command line, option, file, database or setting: ``REFUSED``), 1 when a
  check found problems, the user answered no, or Discord was out of reach (``FAILED``),
  130 after Ctrl-C
  (``STOPPED``, saying what was done or saved), 70 for a bug.
* A refusal of ours (a bad option, a refused move, an unusable database or setting) is
  already a sentence: it is printed as it is.
* Files, one set of sentences: a file the system refused is named with what to do about
  it (a folder where a file was meant, a file that does not exist, a place that cannot be
  written). A file a command writes (``output``) goes into a folder that exists: no
  command makes folders for its output (only ``run``, ``play`` and ``db migrate`` make the
  database's, and say so).
* A database driver's own error that no backend translated is its first line.
* Anything else is a bug: one line saying so; ``DECKHAND_LOG_LEVEL=DEBUG`` in the
  environment adds the traceback for the report.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import traceback
from pathlib import Path

import psycopg

from bot.progress import Interrupted
from bot.services.errors import ServiceError
from bot.settings import SettingsError
from bot.text import clip
from i18n import N_, _
from storage.db import StorageUnavailable

#: Exit statuses: a refusal or an unusable file/database/setting; Ctrl-C; a bug.
REFUSED, STOPPED, BUG = 2, 130, 70
#: Exit status when a check found problems, or the user said no to what was asked.
FAILED = 1


class Declined(Exception):
    """The user said no to something that cannot be undone; ``str()`` says what was kept."""


class Unreachable(Exception):
    """Something the command needs is out of reach for now (Discord's servers); ``str()``
    says what to check before trying again (status 1)."""

_FIX = {
    errno.EISDIR: N_("is a folder: give a file name"),
    errno.ENOTDIR: N_("goes through a file as if it were a folder: check the path"),
    errno.ENOENT: N_("does not exist: check the path"),
    errno.EEXIST: N_("already exists and is not a folder: give another name"),
    errno.EACCES: N_("may not be used here (permission denied): choose another place"),
    errno.EPERM: N_("may not be used here (not permitted): choose another place"),
    errno.EROFS: N_("is on a read-only file system: choose another place"),
    errno.ENOSPC: N_("cannot be written: the disk is full"),
    errno.ENAMETOOLONG: N_("is too long a name: choose a shorter one"),
}


def os_problem(exc: OSError) -> str:
    """An ``OSError`` as one sentence naming the file and what to do."""
    fix = (_(_FIX[exc.errno]) if exc.errno in _FIX
           else _("cannot be used ({why})", why=exc.strerror or exc))
    name = exc.filename if exc.filename is not None else _("A file")
    return _("{file} {problem}.", file=clip(str(name), 200), problem=fix)


def output(path: Path) -> Path:
    """``path``, once it is a place a command may write a file: not a folder, and in a
    folder that exists (``ServiceError`` saying what is wrong)."""
    if path.is_dir():
        raise ServiceError(os_problem(IsADirectoryError(errno.EISDIR, "", str(path))))
    output_folder(path.absolute().parent, path)
    return path


def output_folder(folder: Path, file: Path | None = None) -> Path:
    """``folder``, once a command may write into it: it exists and is a folder — no
    command makes one (``ServiceError`` naming ``file``, or else the folder)."""
    if folder.is_dir():
        return folder
    if folder.exists() or any(p.is_file() for p in folder.parents):
        named = file if file is not None else folder
        raise ServiceError(os_problem(NotADirectoryError(errno.ENOTDIR, "", str(named))))
    if file is None:
        raise ServiceError(_(
            "The folder {folder} does not exist, and this command makes no folders: create"
            " it first, or choose another place.", folder=clip(str(folder), 200),
        ))
    raise ServiceError(_(
        "{file} cannot be written: the folder {folder} does not exist, and this command"
        " makes no folders. Create it first, or choose another place.",
        file=clip(str(file), 200), folder=clip(str(folder), 200),
    ))


def explain(exc: BaseException) -> tuple[int, str]:
    """The exit status and the one line for a command's failure."""
    status, text = _explain(exc)
    return status, (text.strip().splitlines() or [""])[0]


def _explain(exc: BaseException) -> tuple[int, str]:
    if isinstance(exc, Interrupted):
        return STOPPED, str(exc)
    if isinstance(exc, Declined | Unreachable):
        return FAILED, str(exc)
    if isinstance(exc, ServiceError | StorageUnavailable | SettingsError):
        return REFUSED, str(exc)
    if isinstance(exc, OSError):
        return REFUSED, os_problem(exc)
    if isinstance(exc, sqlite3.Error | psycopg.Error):
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return REFUSED, _("The database refused: {first}", first=clip(first, 200))
    if isinstance(exc, KeyError):
        return REFUSED, str(exc.args[0]) if exc.args else _("Not found.")
    if isinstance(exc, ValueError):
        return REFUSED, str(exc)
    if os.environ.get("DECKHAND_LOG_LEVEL", "").strip().upper() == "DEBUG":
        traceback.print_exception(exc)
    return BUG, (
        _(
            "Something went wrong inside Deckhand ({name__}: {clip}). This is a bug: please "
            "report it with the command you ran (DECKHAND_LOG_LEVEL=DEBUG shows the details).",
            name__=type(exc).__name__, clip=clip(str(exc), 120),
        )
    )
