"""The repository explains itself: docs/rules.md (and docs/rules.<lang>.md in each other
language) is current and every README link resolves inside a clone."""

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


def test_the_numbers_rules_gives_are_the_benchmarks_rows() -> None:
    """/rules names measured win rates (Gin Rummy's and ONO 99's ``expert.MEASURED``): the
    rows of BENCHMARKS.md they were measured in hold the same games and wins."""
    from games.gin_rummy.expert import MEASURED as GIN
    from games.ono99.expert import MEASURED as ONO

    text = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    for label, games, wins in (
        ("(2026-11-28, issue 47) the learned evaluation", GIN["games"], GIN["expert"]),
        ("expert vs normal+normal+normal, games 300,000–300,119", ONO["games"], ONO["expert"]),
        ("every hand (`--clairvoyant hands`), games 300,000–300,119", ONO["games"],
         ONO["clairvoyant"]),
    ):
        row = next(line for line in text.splitlines() if label in line)
        assert f"| {games} | {wins} |" in row, row
