"""Terminal output: the renderers' emphasis as ANSI bold (or nothing), red suits, menus, paging;
every line cut between words at the terminal's edge (``bot.terminal.lines``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from bot.render.markup import RED_CARD, Text, spans
from bot.terminal import lines
from i18n import _

RED = "\x1b[31m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
RESET = "\x1b[0m"



def use_colour(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    environ = os.environ if env is None else env
    if environ.get("NO_COLOR", "") != "":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def style(text: Text, colour: bool) -> str:
    """Strong spans in ANSI bold and hearts/diamonds in red, or the words alone."""
    if not colour:
        return str(text)
    out = []
    for span in spans(text):
        if span.strong:  # bold re-opened after a red card's reset: the rest stays bold
            out.append(BOLD + _red(span.text, RESET + BOLD) + RESET)
        else:
            out.append(_red(span.text, RESET))
    return "".join(out)


def _red(text: str, after: str) -> str:
    """``text`` with its red cards in red, each followed by ``after``."""
    return RED_CARD.sub(lambda m: RED + m.group(0) + after, text)


def columns(items: Sequence[str], width: int) -> list[str]:
    """Items laid out in as many equal columns as fit in ``width``, filled down then across."""
    if not items:
        return []
    cell = max(len(i) for i in items) + 3
    per_row = max(1, min(len(items), (width + 3) // cell))
    rows = -(-len(items) // per_row)
    per_row = -(-len(items) // rows)
    out = []
    for r in range(rows):
        row = [items[c * rows + r] for c in range(per_row) if c * rows + r < len(items)]
        out.append("".join(i.ljust(cell) for i in row[:-1]) + row[-1])
    return out


class Screen:
    """Where the game is printed: an output stream, with or without colour; ``interactive``
    when a person is at a terminal (long texts are then paged)."""

    def __init__(self, out: TextIO, colour: bool, interactive: bool) -> None:
        self.out = out
        self.colour = colour
        self.interactive = interactive

    @property
    def width(self) -> int:
        """The terminal's width (80 when it is not a terminal)."""
        return shutil.get_terminal_size((80, 24)).columns

    def line(self, text: Text = "") -> None:
        """Print one line (styled), cut between words at a terminal's edge
        (``bot.terminal.lines``)."""
        for piece in self._pieces(text):
            self.out.write(style(piece, self.colour) + "\n")

    def _pieces(self, text: Text) -> list[Text]:
        at = lines.width(self.out)
        return [text] if at is None else lines.wrap(text, at)

    def lines(self, texts: Sequence[Text]) -> None:
        """Print several lines."""
        for t in texts:
            self.line(t)
        self.out.flush()

    def heading(self, text: str) -> None:
        """A rule with a title, to separate turns."""
        bar = f"── {text} " + "─" * max(3, min(self.width, 80) - lines.columns_of(text) - 4)
        for piece in self._pieces(bar):
            self.out.write((f"{DIM}{piece}{RESET}" if self.colour else str(piece)) + "\n")

    def note(self, text: str) -> None:
        """A message to the player (errors, help), shown at once."""
        self.lines(text.split("\n"))

    def page(self, texts: Sequence[str], ask: Callable[[str], str]) -> None:
        """Print long text a screenful at a time on a terminal (Enter for more, q to stop)."""
        height = shutil.get_terminal_size((80, 24)).lines - 2
        if not self.interactive or height < 5:
            self.lines(texts)
            return
        for start in range(0, len(texts), height):
            self.lines(texts[start:start + height])
            if start + height >= len(texts):
                return
            try:
                answer = ask(_("-- more: Enter, or q to stop -- "))
            except EOFError:
                return
            if answer.strip().lower().startswith("q"):
                return
