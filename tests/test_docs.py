"""The repository explains itself: docs/rules.md (and docs/rules.<lang>.md in each other
language) is current and every README link resolves inside a clone."""

from __future__ import annotations

import re
from pathlib import Path

from bot.docs import DOCS, documents
from bot.translator import discord_speaks
from i18n import SOURCE, languages

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


def test_the_readme_names_the_languages_deckhand_speaks() -> None:
    """The README's languages are the catalogs (``i18n.languages``): its list with their
    codes, each glossary's link and rules document, and those it says Discord has no
    locale for are exactly those ``bot.translator.discord_speaks`` says so of."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Languages"):]
    section = section[: section.index("\n## ", 3)]
    others = set(languages()) - {SOURCE}
    speaks = re.search(r"Deckhand speaks English, (.+?),\n?the languages", section, re.S)
    assert speaks, "the README's Languages section names the languages Deckhand speaks"
    assert set(re.findall(r"\(`(\w+)`\)", speaks.group(1))) == others
    glossaries = dict(re.findall(r"\[([^]]+)\]\(i18n/locales/(\w+)/glossary\.md\)", section))
    assert set(glossaries.values()) == others
    rules = set(re.findall(r"rules\.(\w+)\.md", section))
    assert rules == others
    lacking = re.search(r"Discord offers none of the seed languages \(([^)]+)\)", section)
    assert lacking, "the README says which languages Discord has no locale for"
    named = {glossaries[name.strip()] for name in lacking.group(1).split(",")}
    assert named == {lang for lang in others if not discord_speaks(lang)} == others
