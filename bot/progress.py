"""Long commands (``simulate``, ``db copy``/``check``/``purge``, ``export``, ``replay``):
their progress, and what Ctrl-C says.

* A ``tqdm`` bar on standard error with the count, the rate and an estimate of the time
  left — only when standard error is a terminal, so piped or logged output holds nothing
  but the results. It may be advanced from another thread (``db copy`` fills the target
  on the database's writer thread).
* Ctrl-C ends the command with ``Interrupted``, whose sentence says what was done; the
  command line prints it and exits with status 130.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from tqdm import tqdm


def progress(
    total: int | None, unit: str, what: str, *, stream: TextIO | None = None
) -> tqdm[Any]:
    """A bar counting ``unit``s up to ``total`` (None: unknown, count and rate only),
    labelled ``what``; use it as a context manager and ``update(n)`` it."""
    out = stream or sys.stderr
    shown = bool(getattr(out, "isatty", None) and out.isatty())
    return tqdm(
        total=total, unit=unit if unit == "B" else f" {unit}", desc=what, file=out,
        disable=not shown, leave=False, dynamic_ncols=True, mininterval=0.25,
        unit_scale=unit == "B",
    )


class Interrupted(Exception):
    """Ctrl-C stopped a long command; ``str()`` says what was done (and what was not)."""
