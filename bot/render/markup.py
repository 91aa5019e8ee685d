"""Text with emphasis: written once by the renderers, shown by each surface in its own markup.

A renderer returns ``Text`` — a plain ``str`` (no emphasis) or a ``Line`` of spans, some
of them strong — and never a surface's markup. Each surface turns it into its own:

* Discord: ``markdown`` (``**strong**``), here, since every message spec is Discord's;
* the standings page: ``bot.web.html.rich`` (``<strong>``, every span escaped);
* the terminal: ``bot.terminal.screen.style`` (ANSI bold, or nothing when piped).

Names inside are text like any other. The page escapes every span; Discord's callers
pass names already escaped for markdown where they must (``bot.text.plain``), as before.
``str(text)`` is the plain words of either kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: A card label in a red suit (``Q♥``, ``10♦``): surfaces that have colour show it red.
RED_CARD = re.compile(r"(?:10|[A2-9JQK])?[♥♦]")


@dataclass(frozen=True)
class Span:
    """A run of text, strong (emphasised) or not."""

    text: str
    strong: bool = False


@dataclass(frozen=True)
class Line:
    """One line of spans; ``+`` joins it with text, a span or another line."""

    spans: tuple[Span, ...]

    def __str__(self) -> str:
        return "".join(s.text for s in self.spans)

    def __add__(self, other: str | Span | Line) -> Line:
        return line(self, other)

    def __radd__(self, other: str) -> Line:
        return line(other, self)


#: What a renderer returns for one line: plain text, or a line with emphasis.
Text = str | Line


def strong(text: str) -> Span:
    """``text`` emphasised."""
    return Span(text, strong=True)


def line(*parts: str | Span | Line) -> Line:
    """The parts one after the other as a line (empty parts dropped, neighbours of the
    same emphasis joined)."""
    out: list[Span] = []
    for part in parts:
        for s in spans(part):
            if not s.text:
                continue
            if out and out[-1].strong == s.strong:
                out[-1] = Span(out[-1].text + s.text, s.strong)
            else:
                out.append(s)
    return Line(tuple(out))


def spans(text: str | Span | Line) -> tuple[Span, ...]:
    """The spans of any text (a plain string is one span without emphasis)."""
    if isinstance(text, Line):
        return text.spans
    return (text,) if isinstance(text, Span) else (Span(text),)


def markdown(text: Text) -> str:
    """Discord's markup: strong spans as ``**bold**``."""
    if isinstance(text, str):
        return text
    return "".join([f"**{s.text}**" if s.strong else s.text for s in text.spans])


def markdown_lines(texts: Iterable[Text]) -> list[str]:
    """``markdown`` of each line."""
    return [markdown(t) for t in texts]


def marked(template: str, **params: object) -> Line:
    """A line from a (translated) template whose ``**…**`` parts are strong, each part's
    ``{placeholders}`` filled with ``params`` — so a translation moves the emphasis with
    the words: ``marked(_("{who} went **gin**"), who="Alice")``."""
    parts = template.split("**")
    return line(*(
        Span(part.format(**params) if params else part, strong=i % 2 == 1)
        for i, part in enumerate(parts)
    ))
