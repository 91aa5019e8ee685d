"""The repository explains itself: docs/rules.md (and docs/rules.<lang>.md in each other
language) is current, every README link resolves inside a clone, and every setting is in
the README's settings table and in .env.example."""

from __future__ import annotations

import re
from pathlib import Path

from bot.docs import DOCS, documents

ROOT = Path(__file__).resolve().parent.parent


def test_the_rules_documents_are_current() -> None:
    written = documents()
    assert DOCS / "rules.md" in written
    for path, text in written.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} is out of date: run .venv/bin/python -m bot.docs"
        )
    stale = set(DOCS.glob("rules.*.md")) - set(written)
    assert not stale, f"{sorted(p.name for p in stale)} has no catalog: delete it"


def test_every_readme_link_resolves_in_a_clone() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        assert (ROOT / target).exists(), f"README links to {target}, which a clone lacks"
    assert "../shared" not in text


def test_every_setting_is_in_the_readme_and_env_example() -> None:
    """One list of settings (``bot.settings.Settings``); the README's table and
    ``.env.example`` name each one (the README lacked DECKHAND_WEB_URL)."""
    from bot.settings import Settings

    names = {str(f.alias) for f in Settings.model_fields.values()}
    table = re.findall(r"^\| `([A-Z_]+)` \|", (ROOT / "README.md").read_text(encoding="utf-8"),
                       re.M)
    example = re.findall(r"^#? ?([A-Z_]+)=", (ROOT / ".env.example").read_text(encoding="utf-8"),
                         re.M)
    assert names == set(table), names ^ set(table)
    assert names <= set(example), names - set(example)
