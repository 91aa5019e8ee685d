"""Extraction of what the Python extractor cannot see: the rules, which are each game
package's docstring (so ``help()`` and the docs read them too), one message per paragraph.

``babel.cfg`` maps ``games/*/__init__.py`` here; ``paragraphs`` is the one way to split
a rules text, used by the extractor and by ``games.base.Game.rules`` alike.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

#: What a translator is told about each paragraph of the rules.
RULES_NOTE = (
    "A paragraph of a game's rules (/rules, docs/rules.md, the terminal's rules). Keep each"
    " line that starts with '* ' a list item; moves in quotes are typed by players as they"
    " are, so keep them."
)


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a text: parts between blank lines, without the blank lines."""
    return [p.strip("\n") for p in text.strip().split("\n\n") if p.strip()]


def rules_paragraphs(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor: each paragraph of the module's docstring, as ``_`` would mark it."""
    tree = ast.parse(fileobj.read())
    doc = ast.get_docstring(tree, clean=True)
    if doc is None:
        return
    for text in paragraphs(doc):
        yield tree.body[0].lineno, "_", text, [RULES_NOTE]
