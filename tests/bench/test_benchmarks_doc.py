"""BENCHMARKS.md is the reference and docs/benchmarks-history.md its history: the run's
markers are there once, on lines of their own, and every link from an area into the
history (or within either file) names a heading that exists."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bench import __main__ as runner  # noqa: E402

HISTORY = ROOT / runner.HISTORY


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings (outside code blocks)."""
    found: set[str] = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.+)", line)):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


def test_the_runs_markers_are_there_once() -> None:
    lines = runner.BENCHMARKS.read_text(encoding="utf-8").splitlines()
    assert lines.count(runner.BEGIN) == lines.count(runner.END) == 1
    assert lines.index(runner.BEGIN) < lines.index(runner.END)


def test_every_area_links_to_a_heading_that_exists() -> None:
    targets = {runner.BENCHMARKS: anchors(runner.BENCHMARKS), HISTORY: anchors(HISTORY)}
    for source, base in ((runner.BENCHMARKS, ROOT), (HISTORY, HISTORY.parent)):
        text = source.read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", text):
            path = (base / target).resolve() if target else source
            assert path in targets, f"{source.name} links to {target}, not a benchmarks file"
            assert anchor in targets[path], f"{source.name} links to #{anchor} in {path.name}"
    for _, anchor, _ in runner.AREAS:
        assert anchor in targets[HISTORY], f"the run's area {anchor} has no history heading"


def test_the_glance_shows_the_runs_engine_numbers() -> None:
    """"At a glance" is written by hand; its Gin Rummy engine numbers are the generated
    table's (so a run that changes them asks for the glance to follow)."""
    text = runner.BENCHMARKS.read_text(encoding="utf-8")
    markers = f"^{re.escape(runner.BEGIN)}$(.*)^{re.escape(runner.END)}$"
    found = re.search(markers, text, re.M | re.S)
    assert found
    block = found.group(1)
    engines = re.findall(
        r"^\| (?:Deckhand|OpenSpiel|RLCard) \([^)]*\) \| ([\d,]+) \(.*\| ([\d.]+)× \|$", block, re.M
    )
    assert len(engines) == 4, engines
    glance = re.search(
        r"^\| How fast is an engine\? \| Gin Rummy: ([\d,]+) random hands/s, ([\d.]+)× OpenSpiel's"
        r" Python loop, ([\d.]+)× its C\+\+ `evaluate_bots`, ([\d.]+)× RLCard", text, re.M
    )
    assert glance, "At a glance names Gin Rummy's hands/s and the three ratios"
    assert glance.groups() == (engines[0][0], *(ratio for _, ratio in engines[1:]))
