"""A real Deckhand bot process for the multi-process end-to-end tests.

``python -m tests.e2e.bot_process`` is ``deckhand run`` (``bot.app.run_bot``, settings
from the environment as in production) with discord.py pointed at the fake Discord
named by ``DECKHAND_TEST_API`` (REST base URL) and ``DECKHAND_TEST_GATEWAY``; its tables
are dealt from the seeds counting up from ``DECKHAND_TEST_SEED`` (when set), so a test
knows the games it plays (a random deal once ended a game the test meant to go on).
"""

from __future__ import annotations

import itertools
import os
import sys

from bot.app import run_bot
from bot.settings import Settings
from tests.e2e.redirect import point_discord_py


def main() -> int:
    point_discord_py(os.environ["DECKHAND_TEST_API"], os.environ["DECKHAND_TEST_GATEWAY"])
    first = os.environ.get("DECKHAND_TEST_SEED")
    seeds = itertools.count(int(first)).__next__ if first else None
    # pydantic types __init__ with the fields only, not BaseSettings' own _env_file:
    return run_bot(Settings(_env_file=None), table_seeds=seeds)  # type: ignore[call-arg]


if __name__ == "__main__":
    sys.exit(main())
