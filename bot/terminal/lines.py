"""Lines for a terminal, cut between words: the one writer every command's output goes
through, so that no word is broken at the terminal's edge.

Decisions:
* On a terminal each line longer than its width is cut at the last space that fits, and
  its continuations are indented as the line itself is (a menu's or a list's items stay
  in their column). A word longer than the whole width (a long path) keeps a line of its
  own, whole: the terminal breaks it, as nothing else could.
* The width is the terminal's (``COLUMNS`` first, as ``shutil.get_terminal_size`` reads
  it). A character counts as the columns it takes: two for the wide characters of
  Chinese, Japanese and Korean, none for combining marks.
* Piped or written to a file, lines are left whole: a reader or a script gets them as the
  program wrote them.
"""

from __future__ import annotations

import shutil
import sys
import unicodedata
from typing import TextIO

from bot.render.markup import Line, Span, Text, line, spans


def columns_of(text: str) -> int:
    """How many terminal columns ``text`` takes."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _cuts(text: str, width: int) -> list[tuple[int, int]]:
    """Where to cut the line ``text``: ``(start, end)`` of each piece (the spaces at a cut
    dropped); the pieces after the first are to be indented as the line is."""
    indent = len(text) - len(text.lstrip(" "))
    pieces: list[tuple[int, int]] = []
    start, limit = 0, width
    while columns_of(text[start:]) > limit:
        body = start + (indent if not pieces else 0)  # never cut inside the indent
        end, used = -1, columns_of(text[start:body])
        for i in range(body, len(text)):
            used += columns_of(text[i])
            if used > limit:
                break
            if text[i] == " " and i > body:
                end = i
        if end < 0:  # no space within reach: the word stays whole
            end = text.find(" ", body + 1)
            if end < 0:
                break
        pieces.append((start, end))
        start = end
        while start < len(text) and text[start] == " ":
            start += 1
        limit = max(width - indent, 1)
    pieces.append((start, len(text)))
    return pieces


def _slice(text: Text, start: int, end: int) -> Text:
    """The characters ``start:end`` of ``text``, emphasis kept."""
    if isinstance(text, str):
        return text[start:end]
    out: list[Span] = []
    at = 0
    for span in spans(text):
        a, b = max(start, at), min(end, at + len(span.text))
        if a < b:
            out.append(Span(span.text[a - at:b - at], span.strong))
        at += len(span.text)
    return line(*out) if out else Line(())


def wrap(text: Text, width: int) -> list[Text]:
    """``text`` (one line) as lines of at most ``width`` columns, cut between words."""
    plain = str(text)
    if columns_of(plain) <= width:
        return [text]
    indent = " " * (len(plain) - len(plain.lstrip(" ")))
    cuts = _cuts(plain, width)
    return [
        _slice(text, a, b) if n == 0 else indent + _slice(text, a, b)
        for n, (a, b) in enumerate(cuts)
    ]


def width(stream: TextIO) -> int | None:
    """The width to cut lines at on ``stream``: its terminal's, or None when it is not a
    terminal."""
    isatty = getattr(stream, "isatty", None)
    if not (isatty and isatty()):
        return None
    return shutil.get_terminal_size((80, 24)).columns


def fitted(text: str, stream: TextIO) -> str:
    """``text`` (any number of lines) as it is written to ``stream``: each line cut between
    words on a terminal, as it is elsewhere."""
    at = width(stream)
    if at is None:
        return text
    return "\n".join(str(piece) for one in text.split("\n") for piece in wrap(one, at))


def say(text: str, stream: TextIO | None = None) -> None:
    """Write ``text`` and a newline to ``stream`` (standard output) through ``fitted``."""
    out = stream or sys.stdout
    out.write(fitted(text, out) + "\n")
    out.flush()
