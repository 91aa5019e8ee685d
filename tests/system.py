"""What some tests need from the machine beyond the Python packages: Debian packages that
``.ci/run`` installs (its install block is the one place they are installed; no test
installs anything).

Where one is missing a test that needs it is skipped with a line saying what to install —
except under ``.ci/run``, which sets ``DECKHAND_CI=1``: there it fails, so CI never passes
by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def require(path: Path, package: str) -> None:
    """Skip the test (fail it under ``DECKHAND_CI=1``) unless ``path``, which Debian's
    ``package`` installs, is there."""
    if path.exists():
        return
    message = f"{path} is missing: apt-get install {package} (.ci/run installs it)"
    if os.environ.get("DECKHAND_CI") == "1":
        pytest.fail(message)
    pytest.skip(message)
