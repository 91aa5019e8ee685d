"""The command as the user ran it, for every message that tells them what to run next.

* ``deckhand`` when the command found on ``PATH`` is the one running (an activated venv,
  an installed package), so the advice works from any folder.
* Otherwise the path as typed (``.venv/bin/deckhand``, ``../deckhand/.venv/bin/deckhand``),
  or relative to the current folder when it lies below it; ``python -m bot`` likewise with
  the Python that runs it.
* Anything else (Deckhand imported by another program, such as the tests) is
  ``bot.text.COMMAND``, the command as the README's set-up leaves it.
"""

from __future__ import annotations

import os
import shutil
import sys
from functools import cache
from pathlib import Path

from bot.text import COMMAND


def _as_typed(program: str, name: str) -> str:
    """``program`` (a path) as the user can type it again from this folder."""
    found = shutil.which(name)
    if found is not None and Path(found).resolve() == Path(program).resolve():
        return name
    if not os.path.isabs(program):
        return program
    below = os.path.relpath(program)
    return below if not below.startswith("..") else program


def command_of(argv0: str, executable: str) -> str:
    """The command that ran this process, given its ``sys.argv[0]`` and ``sys.executable``."""
    file = Path(argv0)
    if file.name == "deckhand":
        return _as_typed(argv0, "deckhand")
    if file.name == "__main__.py" and file.parent.name == "bot":
        python = Path(executable).name
        return f"{_as_typed(executable, python)} -m bot"
    return COMMAND


@cache
def command() -> str:
    """The command that ran this process (see the module's docstring)."""
    return command_of(sys.argv[0] if sys.argv else "", sys.executable)


def typed(words: str) -> str:
    """A command line to run next: this process's command, then ``words`` (kept out of the
    message ids, since what is typed is never translated)."""
    return f"{command()} {words}"
