"""Where computer players think: quick levels on the spot, searching levels in worker
processes, so that no table's thinking ever holds another table's clicks.

Decisions:

* A level listed in the game's ``search_levels`` (``expert``) spends up to a few hundred
  milliseconds of CPU per decision. On the event loop that would delay every interaction
  of every server; in a thread it would still hold the GIL. It runs in a process pool
  instead: spawned workers (they inherit none of the bot's threads or connections), as
  many as the machine has cores, started on the first search and kept.
* The worker gets the game's name, the state, the seat, the level and the generator, all
  by pickle, and returns the move: the same move ``Game.choose`` would make on the spot.
* Other levels (``random``, ``normal``: well under a millisecond) are chosen on the spot.
* A hint (``advise``: expert's move and its search's ranking) is a search too.
* Workers ignore Ctrl-C, from their start (``_ctrl_c_ignored``, ``_deaf_to_ctrl_c``): at a
  terminal it reaches them too, and only the parent stops, saying what was saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import games
from games.base import Game, State
from games.search import Advice, advise
from i18n import current, speaking

T = TypeVar("T")


def _deaf_to_ctrl_c() -> None:
    """A worker ignores SIGINT. Ctrl-C at a terminal reaches every process of its group,
    workers included; the parent alone stops, says what was saved and shuts the workers
    down (a worker interrupted mid-search, or while starting, printed a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """SIGINT ignored while the pool may start a worker: an ignored signal stays ignored
    across the worker's exec, and Python then leaves it so, so no Ctrl-C reaches a worker
    still importing (``_deaf_to_ctrl_c`` runs only once it has). Only the main thread may
    change it; a Ctrl-C within those milliseconds is not heard (press it again)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _choose(name: str, state: State, seat: int, level: str, rng: random.Random) -> str:
    """The worker's side: the move ``level`` picks."""
    return games.get(name).choose(state, seat, level, rng)


def _advise(name: str, state: State, seat: int, rng: random.Random, lang: str) -> Advice:
    """The worker's side of a hint, its reason in the asker's language ``lang``."""
    with speaking(lang):
        return advise(games.get(name), state, seat, rng)


class Thinker:
    """Picks computer moves; ``close`` stops the workers."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the worker processes run (only once a level searched)."""
        return self._pool is not None

    async def choose(
        self, game: Game[Any], state: State, seat: int, level: str, rng: random.Random
    ) -> str:
        """The move ``level`` makes for ``seat``; a search runs in a worker process."""
        if level not in game.search_levels:
            return game.choose(state, seat, level, rng)
        return await self._run(_choose, game.name, state, seat, level, rng)

    async def advise(
        self, game: Game[Any], state: State, seat: int, rng: random.Random
    ) -> Advice:
        """What ``expert`` would play for ``seat`` and why, searched in a worker; the
        reason is in the language spoken by the caller (``i18n.speaking``)."""
        return await self._run(_advise, game.name, state, seat, rng, current())

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_deaf_to_ctrl_c
            )
        with _ctrl_c_ignored():  # a worker started now is born ignoring it
            future = asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        return await future

    def close(self) -> None:
        """Stop the workers (a search under way is dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
