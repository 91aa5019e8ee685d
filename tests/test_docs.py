"""The repository explains itself: docs/rules.md is current and every README link
resolves inside a clone."""

from __future__ import annotations

import re
from pathlib import Path

from bot.docs import PATH, rules_markdown

ROOT = Path(__file__).resolve().parent.parent


def test_the_rules_document_is_current() -> None:
    assert PATH.read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is out of date: run .venv/bin/python -m bot.docs"
    )


def test_every_readme_link_resolves_in_a_clone() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        assert (ROOT / target).exists(), f"README links to {target}, which a clone lacks"
    assert "../shared" not in text
