"""The one way from a ``DECKHAND_DB`` (or ``--db``) value to an open ``Database``.

* ``postgresql://…`` (or ``postgres://…``) is PostgreSQL; anything else is a SQLite file,
  given as a path (a relative one is relative to the current folder) or as a URL
  ``sqlite:///srv/x.db``, whose path is absolute as in a ``file://`` URL: ``/srv/x.db``
  (SQLAlchemy's ``sqlite:////srv/x.db`` is the same file). Any other ``sqlite:`` text is
  refused rather than read as a file name. Messages name a file by its absolute path
  (``shown``). docs/settings.md ("The database setting") lists these forms; a test holds
  it to them.
* Only a caller that may start a database (the bot, ``play``, ``db migrate``, a copy's
  target) passes ``create=True``; every other use of a missing SQLite file is refused with
  a sentence, so a mistyped path never becomes an empty database reported on.
* A path that is a folder, or a file that is not a SQLite database, is refused before
  SQLite sees it (SQLite would call the latter "damaged").
* ``read_only`` (``deckhand web``) opens SQLite with ``mode=ro`` and PostgreSQL sessions
  with ``default_transaction_read_only``; nothing is migrated, so a database whose schema
  is older than this Deckhand is refused with what to run.
"""

from __future__ import annotations

import os
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict, make_conninfo

from storage.db import Database, StorageUnavailable, migrations
from storage.postgres import PostgresDatabase, describe
from storage.sqlite import SqliteDatabase

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:"
#: How a ``sqlite:`` URL must begin: its path is absolute.
SQLITE_URL = "sqlite:///"
#: The first 16 bytes of every SQLite database file (an empty file is a new database).
SQLITE_HEADER = b"SQLite format 3\x00"
#: How users name the database, for the sentences below.
NAMED_BY = "--db (or DECKHAND_DB)"


def is_postgres(where: str | Path) -> bool:
    """Whether ``where`` is a PostgreSQL URL (else a SQLite path or ``sqlite:///`` URL)."""
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


def sqlite_path(where: str | Path) -> Path:
    """The SQLite file ``where`` names, absolute (``:memory:`` stays as it is);
    ``StorageUnavailable`` for a ``sqlite:`` text that is not a URL of this form."""
    text = str(where)
    if isinstance(where, str) and where[:len(SQLITE_SCHEME)].lower() == SQLITE_SCHEME:
        if not where.lower().startswith(SQLITE_URL):
            raise StorageUnavailable(
                f"{where[:80]!r} is not a database Deckhand can read: a SQLite URL names its"
                f" file by an absolute path (sqlite:///srv/deckhand.db is /srv/deckhand.db);"
                f" give a relative path without sqlite: (data/deckhand.db)."
            )
        text = "/" + where[len(SQLITE_URL):].lstrip("/")
    return Path(text) if text == ":memory:" else Path(os.path.abspath(text))


def shown(where: str | Path) -> str:
    """``where`` for messages: a SQLite file's absolute path, or a PostgreSQL URL without
    its password (a text that names neither, as it is)."""
    if is_postgres(where):
        return describe(str(where))
    try:
        return str(sqlite_path(where))
    except StorageUnavailable:
        return str(where)[:80]


class NoDatabase(StorageUnavailable):
    """There is no SQLite file where one was to be opened without ``create``."""


def check_sqlite_file(path: Path, *, create: bool, named_by: str = NAMED_BY) -> None:
    """Refuse, with a sentence, a folder, a file that is not a SQLite database, or (unless
    ``create``) a missing file."""
    if path.is_dir():
        raise StorageUnavailable(f"{path} is a folder, not a database file: check {named_by}.")
    if not path.exists():
        if create:
            return
        raise NoDatabase(f"There is no database at {path}: check {named_by}.")
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StorageUnavailable(
            f"{path} cannot be read ({exc.strerror}): check {named_by} and the file's"
            " permissions."
        ) from None
    if head and head != SQLITE_HEADER:
        raise StorageUnavailable(
            f"The database {path} is damaged or not a database at all (it does not start"
            f" as a SQLite file does): check {named_by}, or restore a backup."
        )


def _read_only_url(url: str) -> str:
    options = conninfo_to_dict(url).get("options")
    extra = "-c default_transaction_read_only=on"
    return make_conninfo(url, options=f"{options} {extra}" if options else extra)


async def open_database(
    where: str | Path,
    *,
    migrate: bool = True,
    create: bool = True,
    read_only: bool = False,
    synchronous: str = "NORMAL",
    named_by: str = NAMED_BY,
) -> Database:
    """Open the database at ``where``: ``postgresql://user@host/db`` (PostgreSQL), or a
    path or ``sqlite:///path`` (SQLite; ``synchronous`` is its durability setting).
    ``named_by`` says, in refusals, where the user gave ``where``. Raises
    ``StorageUnavailable`` with a plain sentence when it cannot be used."""
    if is_postgres(where):
        url = _read_only_url(str(where)) if read_only else str(where)
        db: Database = await PostgresDatabase.open(url, migrate=migrate and not read_only)
    else:
        path = sqlite_path(where)
        if str(path) != ":memory:":
            check_sqlite_file(path, create=create and not read_only, named_by=named_by)
        try:
            db = await SqliteDatabase.open(
                path, migrate=migrate and not read_only, synchronous=synchronous,
                read_only=read_only,
            )
        except UnicodeDecodeError:  # SQLite's own error text is garbled by the damage
            raise StorageUnavailable(
                f"The database {path} is damaged (its schema cannot be read): restore a"
                " backup, or move the file away to start afresh."
            ) from None
    if read_only:
        await _refuse_old_schema(db, where)
    return db


async def _refuse_old_schema(db: Database, where: str | Path) -> None:
    version, latest = await db.schema_version(), len(migrations())
    if version < latest:
        await db.close()
        raise StorageUnavailable(
            f"The database {shown(where)} is at schema {version}, older than this Deckhand's"
            f" {latest}: run `deckhand db migrate` (or start the bot) on it first."
        )
