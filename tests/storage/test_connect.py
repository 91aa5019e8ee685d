"""The forms ``DECKHAND_DB`` and ``--db`` take (``storage.connect``), each as
docs/settings.md's table of them says, and that table lists exactly these."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from storage.connect import is_postgres, open_database, shown, sqlite_path
from storage.db import StorageUnavailable

ROOT = Path(__file__).resolve().parents[2]

#: Each form of docs/settings.md's table, and the file it names (None: PostgreSQL).
FORMS: dict[str, str | None] = {
    "data/deckhand.db": "{cwd}/data/deckhand.db",
    "/srv/deckhand/deckhand.db": "/srv/deckhand/deckhand.db",
    "sqlite:///srv/deckhand/deckhand.db": "/srv/deckhand/deckhand.db",
    "postgresql://deckhand:secret@db.example.org:5432/deckhand": None,
}


def documented_forms() -> list[str]:
    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    section = text.split("\n## The database setting\n", 1)[1]
    table = next(block for block in section.split("\n\n") if block.startswith("| Form |"))
    return re.findall(r"^\| `([^`]+)` \|", table, re.M)


def test_the_settings_page_lists_each_form() -> None:
    assert documented_forms() == list(FORMS)


@pytest.mark.parametrize("form", list(FORMS))
def test_each_form_names_what_the_docs_say(form: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    expected = FORMS[form]
    if expected is None:
        assert is_postgres(form) and is_postgres(form.replace("postgresql:", "postgres:"))
        assert "secret" not in shown(form)
        return
    assert not is_postgres(form)
    assert sqlite_path(form) == Path(expected.format(cwd=tmp_path))
    assert shown(form) == expected.format(cwd=tmp_path)


def test_sqlalchemys_absolute_spelling_is_the_same_file() -> None:
    """Today's code read ``sqlite:///srv/x.db`` as ``srv/x.db`` in the current folder."""
    assert sqlite_path("sqlite:////srv/x.db") == sqlite_path("sqlite:///srv/x.db") == Path(
        "/srv/x.db")
    assert sqlite_path("SQLite:///srv/x.db") == Path("/srv/x.db")


@pytest.mark.parametrize("form", ["sqlite:deckhand.db", "sqlite://deckhand.db",
                                  "sqlite://host/x.db"])
async def test_other_sqlite_texts_are_refused_not_read_as_names(
    form: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StorageUnavailable, match="a SQLite URL names its file by an absolute"):
        await open_database(form)
    assert list(tmp_path.iterdir()) == []  # nothing made
    assert shown(form) == form


async def test_a_url_opens_the_file_it_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    monkeypatch.chdir(tmp_path / "..")
    db = await open_database(f"sqlite://{tmp_path}/u.db")
    await db.close()
    assert (tmp_path / "u.db").exists()
