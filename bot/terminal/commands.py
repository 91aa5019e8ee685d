"""What the player typed at the prompt: a menu number, a command word, or a move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from i18n import N_

Word = Literal["help", "rules", "hint", "quit"]

_WORDS: dict[str, Word] = {
    "help": "help", "?": "help", "h": "help",
    "rules": "rules",
    "hint": "hint",
    "quit": "quit", "exit": "quit", "q": "quit",
}


@dataclass(frozen=True)
class Empty:
    """An empty line."""


@dataclass(frozen=True)
class Pick:
    """A number from the menu of legal moves (1-based, as typed; may be out of range)."""

    number: int


@dataclass(frozen=True)
class Command:
    """``help``, ``rules``, ``hint`` or ``quit``."""

    word: Word


@dataclass(frozen=True)
class Move:
    """Anything else: a move as text, for the engine to parse (``discard QH``)."""

    text: str


Input = Empty | Pick | Command | Move


def parse(line: str) -> Input:
    """Classify one line of input; never raises."""
    text = " ".join(line.split())
    if not text:
        return Empty()
    if text.lstrip("+-").isdigit() and text.isascii():
        # A number too long to be a menu entry is still a (missing) menu entry.
        return Pick(int(text) if len(text) <= 6 else 0)
    word = _WORDS.get(text.lower())
    if word is not None:
        return Command(word)
    return Move(text)


def yes(ask: Callable[[str], str], question: str) -> bool | None:
    """Whether the answer to ``question`` (which offers ``[y/N]``, in every language) is
    yes; None at the end of the input (no answer: not yes either)."""
    try:
        answer = ask(question)
    except EOFError:
        return None
    return answer.strip().lower() in ("y", "yes")


def pick(number: int, count: int) -> int | None:
    """The 0-based index of menu ``number`` among ``count`` moves, or None if out of range."""
    return number - 1 if 1 <= number <= count else None


HELP = N_("""\
How to play:
  a number        pick that move from the numbered list
  a move as text  e.g. `discard QH`, `play 10h`, `bid 3`, `knock 7c` (cards as codes:
                  rank A 2-9 10/T J Q K, suit S H D C; symbols such as Q♥ work too);
                  `play #2` (or `play 2`) is the 2nd card of your hand as shown
  hint            what the normal computer player would do in your seat (in a
                  practice game only: play --hints, counted in no standings)
  rules           the rules of this game
  help            this text
  quit            stop here; the game is saved and the same command resumes it
A bare number always picks from the list: type `bid 3` to bid three.""")
