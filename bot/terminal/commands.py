"""What the player typed at the prompt: a menu key, a command word, or a move; the menu
of legal moves they pick from; a yes or no."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
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


#: A bid, as the engines write it (``bid 3``; Spades' ``bid 0`` is Nil).
_BID = re.compile(r"bid (\d+)")


@dataclass(frozen=True)
class Menu:
    """The legal moves under the keys the player types: ``1``, ``2``, ``3``… — except when
    there are bids among them. Then each bid is listed under its own number (``3) Bid 3``,
    ``0) Bid Nil``), so a number typed can never bid one off, and every other move under
    its own word (``pass``, ``board``), which is also how it is typed as text."""

    keys: tuple[str, ...]
    moves: tuple[str, ...]

    @classmethod
    def of(cls, legal: Sequence[str]) -> Menu:
        """The menu of ``legal``, in its order."""
        if not any(_BID.fullmatch(m) for m in legal):
            return cls(tuple(str(n) for n in range(1, len(legal) + 1)), tuple(legal))
        keys = tuple(found[1] if (found := _BID.fullmatch(m)) else m for m in legal)
        return cls(keys, tuple(legal))

    def find(self, key: str) -> str | None:
        """The move under ``key`` (a number as typed, without leading zeros), if any."""
        return dict(zip(self.keys, self.moves, strict=True)).get(key)

    def key_of(self, move: str) -> str:
        """The key of a legal ``move``."""
        return self.keys[self.moves.index(move)]

    def span(self) -> str:
        """The keys in short: ``1-10``, ``0-13``, ``1-12, pass, board`` (as typed)."""
        numbers = [int(k) for k in self.keys if k.isdigit()]
        words = [k for k in self.keys if not k.isdigit()]
        run = [f"{min(numbers)}-{max(numbers)}" if len(numbers) > 1 else str(numbers[0])
               ] if numbers else []
        return ", ".join([*run, *words])


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
