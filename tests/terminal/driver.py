"""Drive the real ``python -m bot`` program: scripted through pipes, or live through pipes
or a pseudo-terminal, reading its output as it comes."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bot.invocation import command_of

ROOT = Path(__file__).resolve().parents[2]
USER = "tester"
#: The programs speak English unless a test says otherwise (``--lang``, ``LANGUAGE``), whatever
#: this machine's locale variables say.
ENV = {
    **{k: v for k, v in os.environ.items()
       if k not in ("NO_COLOR", "DECKHAND_DB", "LANGUAGE", "LC_ALL", "LC_MESSAGES")},
    "USER": USER, "LOGNAME": USER, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "LINES": "40",
    "LANG": "C.UTF-8",
}
ALL_ONES = "1\n" * 5000


def _ran() -> str:
    """How the programs started here name themselves in advice (``bot.invocation``): they
    run as ``python -m bot`` from ``ROOT``."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        return command_of(str(ROOT / "bot" / "__main__.py"), sys.executable)
    finally:
        os.chdir(here)


RAN = _ran()


def cli(*args: str, stdin: str = "", timeout: float = 60,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot ARGS`` with ``stdin`` piped in (in ``env``, else ``ENV``); wait
    for it to end."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
        cwd=ROOT, env=ENV if env is None else env, timeout=timeout, check=False,
    )


def query(db: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of a query on the program's database (read with plain sqlite3)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def headings(out: str) -> list[str]:
    """The per-turn headings (``Gin Rummy · move 7 · you are tester``)."""
    return re.findall(r"── (.+? · move \d+ · you are \S+)", out)


def hands(out: str) -> list[str]:
    """Every ``Your hand: …`` line."""
    return re.findall(r"^Your hand: .*$", out, re.M)


def _interruptible() -> None:
    """Let the programs started next be interrupted (Ctrl-C), as from a terminal. A shell
    that starts a job in the background without job control (CI under ``nohup … &``)
    starts it with SIGINT ignored, and an ignored signal stays ignored in every child
    across exec; a handled one is reset to the default there."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class Live:
    """A running program whose output is read as it comes; ``tty`` runs it on a
    pseudo-terminal (as its controlling terminal, so Ctrl-C is a real SIGINT)."""

    def __init__(self, *args: str, tty: bool = False, env: dict[str, str] | None = None) -> None:
        argv = [sys.executable, "-m", "bot", *args]
        environ = env or ENV
        _interruptible()
        self.buffer = ""
        self.status: int | None = None
        if tty:
            pid, fd = pty.fork()
            if pid == 0:  # the child: exec at once
                os.chdir(ROOT)
                os.execve(sys.executable, argv, environ)
            self.pid, self.read_fd, self.write_fd = pid, fd, fd
            self.proc: subprocess.Popen[bytes] | None = None
        else:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                cwd=ROOT, env=environ,
            )
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.pid = self.proc.pid
            self.read_fd, self.write_fd = self.proc.stdout.fileno(), self.proc.stdin.fileno()

    def _read(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False at the end of the output."""
        ready, _, _ = select.select([self.read_fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.read_fd, 65536)
        except OSError:  # a pty whose child has gone
            return False
        self.buffer += chunk.decode("utf-8", "replace")
        return bool(chunk)

    def expect(self, *texts: str, timeout: float = 20) -> str:
        """Wait until one of ``texts`` appears after what was consumed; consume up to it."""
        end = time.monotonic() + timeout
        while True:
            hits = [(self.buffer.find(t), t) for t in texts if t in self.buffer]
            if hits:
                at, text = min(hits)
                self.seen = self.buffer[:at + len(text)]
                self.buffer = self.buffer[at + len(text):]
                return text
            if time.monotonic() > end or not self._read(0.2):
                raise AssertionError(f"none of {texts} in output:\n{self.buffer[-3000:]}")

    def send(self, line: str) -> None:
        """Type a line."""
        os.write(self.write_fd, (line + "\n").encode())

    def interrupt(self, ctrl_c: bool = False, *, until: str = "Stopped.", tries: int = 10) -> None:
        """SIGINT the program (by typing Ctrl-C on a pty, else with ``kill``) until it says
        ``until``: CPython's readline only notices a SIGINT that interrupts its wait for a
        key, so one that lands while the prompt is being set up (on a busy machine) waits
        for the next key — a person presses Ctrl-C again when nothing happens."""
        for _ in range(tries):
            if ctrl_c:
                os.write(self.write_fd, b"\x03")
            else:
                os.kill(self.pid, signal.SIGINT)
            end = time.monotonic() + 3.0  # a person's patience
            while time.monotonic() < end:
                if until in self.buffer or not self._read(0.1):
                    return

    def finish(self, timeout: float = 20) -> tuple[int, str]:
        """Wait for the end; the exit status and the rest of the output."""
        end = time.monotonic() + timeout
        if self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.close()
        while self._read(0.2):
            if time.monotonic() > end:
                os.kill(self.pid, signal.SIGKILL)
                raise AssertionError(f"still running:\n{self.buffer[-3000:]}")
        if self.proc is not None:
            code = self.proc.wait(timeout)
        else:
            _, status = os.waitpid(self.pid, 0)
            code = os.waitstatus_to_exitcode(status)
            os.close(self.read_fd)
        return code, self.buffer
