"""Run every benchmark in one process and write ``bench/results/latest.md``.

    bash bench/run.sh [--quick]            # the documented command (benchmark venv, core 0)
    python -m bench [--quick] [--out FILE] [--no-service] [--benchmarks FILE]

Sections: the machine; Gin Rummy against OpenSpiel and RLCard (random hands, deadwood
evaluations, ratios); every Deckhand game; the table service (``bench/service_bench.py``
and ``bench/service_memory.py``); Discord (the slot ``bench/discord_bench.py`` fills);
profiles (cProfile, and py-spy when it is installed).

A full run (neither ``--quick`` nor ``--no-service``) also rewrites what BENCHMARKS.md
shows of it — the machine, the engines and the table service — between its markers
``<!-- bench:run.sh begin -->`` and ``<!-- bench:run.sh end -->``; ``--benchmarks FILE``
names another file (and splices even a quick run, to try it). A run with a failed section
leaves BENCHMARKS.md as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import engines, hotspots, reference, service_memory
from bench.engines import Rate
from i18n import ngettext

RESULTS = Path(__file__).with_name("results")
BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"
BEGIN, END = "<!-- bench:run.sh begin -->", "<!-- bench:run.sh end -->"
HISTORY = "docs/benchmarks-history.md"
#: BENCHMARKS.md's areas that a full run measures: (heading, anchor in HISTORY, sections).
AREAS = (
    ("Engines", "engines", ("Gin Rummy against the reference engines", "Every Deckhand game")),
    ("Table service", "table-service", ("Table service",)),
)


@dataclass(frozen=True)
class Sizes:
    """How much work each benchmark does."""

    rounds: int
    gin_hands: int
    deadwood_hands: int
    games_per_row: int
    #: (concurrent tables, moves per table per phase, mean think seconds when paced)
    service_tables: tuple[tuple[int, int, float], ...]
    stored_tables: int
    memory_tables: int
    size_games: int
    profile_hands: int
    profile_games: int


FULL = Sizes(
    5, 400, 20_000, 20, ((1, 200, 0.02), (100, 20, 0.3), (1000, 10, 3.0)), 10_000, 300, 10,
    200, 3,
)
QUICK = Sizes(1, 5, 200, 1, ((1, 10, 0.001), (10, 3, 0.001)), 200, 5, 0, 5, 1)


def fmt(x: float) -> str:
    """A rate or size for the table: thousands separated, 3 significant digits below 100."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def machine() -> list[str]:
    """Markdown lines describing the machine and the run."""
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    pinned = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "n/a"
    versions = ", ".join(f"{k} {v}" for k, v in reference.versions().items())
    git = subprocess.run(
        ["git", "log", "-1", "--format=%h %s"], capture_output=True, text=True, check=False
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--short", "--", "games", "bot", "storage"],
        capture_output=True, text=True, check=False,
    ).stdout.split()[1::2]
    return [
        f"* Date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
        f"* CPU: {cpu}; nproc {os.cpu_count()}; this process pinned to CPUs {pinned}",
        f"* Python {platform.python_version()} ({sys.executable}); {platform.platform()}",
        f"* Reference packages: {versions}",
        f"* Code: commit {git or 'unknown'}; uncommitted changes in:"
        f" {', '.join(dirty) or 'none'}",
        f"* Load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
    ]


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}×" if theirs else "—"


def gin_section(sizes: Sizes) -> list[str]:
    """Gin Rummy random hands and deadwood, Deckhand against the references, interleaved
    round by round; each number is the median round."""
    avail = reference.available()
    runs: dict[str, list[Rate]] = {}
    moves: dict[str, float] = {}
    contenders: list[tuple[str, Callable[[int], tuple[Rate, float] | Rate]]] = [
        ("Deckhand (Python loop)",
         lambda r: engines.gin_random_hands(sizes.gin_hands, (r + 1) * 7919)),
    ]
    if avail["OpenSpiel"] is None:
        contenders += [
            ("OpenSpiel (Python loop)",
             lambda r: reference.openspiel_python_hands(sizes.gin_hands, (r + 1) * 7919)),
            ("OpenSpiel (C++ evaluate_bots)",
             lambda r: reference.openspiel_cpp_hands(sizes.gin_hands, (r + 1) * 7919)),
        ]
    if avail["RLCard"] is None:
        contenders.append(
            ("RLCard (Python, Game level)",
             lambda r: reference.rlcard_hands(sizes.gin_hands, (r + 1) * 7919))
        )
    for _, run in contenders:  # warm up: imports, tables, caches of the first hands
        run(-1)
    for r in range(sizes.rounds):
        for name, run in contenders:
            out = run(r)
            rate = out[0] if isinstance(out, tuple) else out
            if isinstance(out, tuple):
                moves[name] = out[1]
            runs.setdefault(name, []).append(rate)
    ours = engines.median_rate(runs["Deckhand (Python loop)"]).per_second
    lines = [
        f"Random full single hands, {sizes.gin_hands} per round, {sizes.rounds} interleaved"
        " rounds, median round shown (min–max in brackets).",
        "",
        "| Engine | Hands/s | Actions/hand | Deckhand ÷ this |",
        "|---|---:|---:|---:|",
    ]
    for name, rates in runs.items():
        per = sorted(x.per_second for x in rates)
        mid = engines.median_rate(rates).per_second
        mv = f"{moves[name]:.0f}" if name in moves else "—"
        lines.append(
            f"| {name} | {fmt(mid)} ({fmt(per[0])}–{fmt(per[-1])}) | {mv} | {ratio(ours, mid)} |"
        )
    lines += _missing(avail)

    hands = engines.random_11_card_hands(sizes.deadwood_hands, seed=11)
    dw: dict[str, list[Rate]] = {}
    values: dict[str, list[int]] = {}
    evaluators: list[tuple[str, Callable[[list[list[str]]], tuple[Rate, list[int]]]]] = [
        ("Deckhand `melds.best_discard_value`", engines.deckhand_deadwood),
    ]
    if avail["OpenSpiel"] is None:
        evaluators.append(("OpenSpiel `GinRummyUtils.min_deadwood` (C++)",
                           reference.openspiel_deadwood))
    if avail["RLCard"] is None:
        evaluators.append(("RLCard `melding.get_meld_clusters` + best discard",
                           reference.rlcard_deadwood))
    for _ in range(sizes.rounds):
        for name, fn in evaluators:
            rate, vals = fn(hands)
            dw.setdefault(name, []).append(rate)
            values[name] = vals
    ours_dw = engines.median_rate(next(iter(dw.values()))).per_second
    base = next(iter(values.values()))
    lines += [
        "",
        f"Least deadwood after the best discard, on the same {sizes.deadwood_hands:,} random"
        " 11-card hands in all three (median of the rounds).",
        "",
        "| Evaluator | Evaluations/s | Answers equal to Deckhand's | Deckhand ÷ this |",
        "|---|---:|---:|---:|",
    ]
    for name, rates in dw.items():
        mid = engines.median_rate(rates).per_second
        same = sum(a == b for a, b in zip(base, values[name], strict=True))
        lines.append(
            f"| {name} | {fmt(mid)} | {same:,} / {len(base):,} | {ratio(ours_dw, mid)} |"
        )
    return lines


def _missing(avail: dict[str, str | None]) -> list[str]:
    return [f"\n**{name} not measured**: `{err}`" for name, err in avail.items() if err]


def games_section(sizes: Sizes) -> list[str]:
    lines = [
        f"{sizes.games_per_row} full games per row. Random rows use small targets so random"
        " play ends (options shown); normal rows use the defaults.",
        "",
        "| Game | Seats | Random games/s (options) | Normal games/s | Moves/game random,"
        " normal | legal_actions+apply/s | dumps/s | loads/s | State JSON bytes"
        " | Normal move p50 / p99 / max ms | p99 < 20 ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:-:|",
    ]
    for name in engines.GAME_SETUPS:
        g = engines.measure_game(name, sizes.games_per_row)
        opts = ", ".join(f"{k}={v}" for k, v in g.random_options.items()) or "defaults"
        if g.random_abandoned:
            opts += f"; {g.random_abandoned} abandoned at {engines.RANDOM_MOVE_CAP} moves"
        p99 = g.normal_ms(0.99)
        lines.append(
            f"| {name} | {g.players} | {fmt(g.random_games.per_second)} ({opts})"
            f" | {fmt(g.normal_games.per_second)}"
            f" | {g.random_moves_per_game:.0f}, {g.normal_moves_per_game:.0f}"
            f" | {fmt(g.steps.per_second)} | {fmt(g.dumps.per_second)}"
            f" | {fmt(g.loads.per_second)} | {g.state_bytes:,.0f}"
            f" | {g.normal_ms(0.5):.2f} / {p99:.2f} / {g.normal_move_ms[-1]:.2f}"
            f" | {'yes' if p99 < 20 else '**no**'} |"
        )
    return lines


def service_section(sizes: Sizes) -> list[str]:
    """The other engineers' ``service_bench`` (its printed report, verbatim) and memory."""
    from bench import service_bench

    out = io.StringIO()

    async def run_all(tmp: Path) -> None:
        # One directory per call: bench_moves also writes a fixed "seq.db" beside its file.
        for tables, moves, think in sizes.service_tables:
            tables_now = ngettext("{n} concurrent table", "{n} concurrent tables", tables)
            print(f"## {tables_now}, {moves} moves each per phase")
            (tmp / str(tables)).mkdir()
            await service_bench.bench_moves(
                str(tmp / str(tables) / "moves.db"), "sqlite", tables, moves, think,
                moves * think,
            )
        await service_bench.bench_startup(str(tmp / "startup.db"), "sqlite", sizes.stored_tables)
        if sizes.size_games:
            await service_bench.bench_size(tmp / "size.db", sizes.size_games)

    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(out):
        asyncio.run(run_all(Path(tmp)))
    memory = asyncio.run(service_memory.measure(sizes.memory_tables, 10))
    lines = [
        "`bench/service_bench.py` on a real SQLite file (WAL, synchronous=NORMAL),"
        " its output verbatim:",
        "",
        "```",
        out.getvalue().rstrip(),
        "```",
        "",
        f"Memory per active table (`bench/service_memory.py`: {sizes.memory_tables} tables"
        " per game, 10 moves each, tracemalloc growth ÷ tables):",
        "",
        "| Game | KiB per active table |",
        "|---|---:|",
    ]
    lines += [f"| {name} | {size / 1024:.1f} |" for name, size in memory.items()]
    return lines


def discord_section(quick: bool) -> list[str]:
    """The Discord slot: ``bench/discord_bench.py`` with ``run(quick: bool) -> str``
    (markdown: REST calls per move by game, interaction-to-callback p50/p99)."""
    try:
        module = importlib.import_module("bench.discord_bench")
    except ModuleNotFoundError as exc:
        if exc.name != "bench.discord_bench":
            raise
        return ["Not measured yet: `bench/discord_bench.py` (to come with the e2e tests) will"
                " report REST calls per move by game and interaction-to-callback p50/p99."]
    return [str(module.run(quick))]


def profile_section(sizes: Sizes) -> list[str]:
    lines: list[str] = []
    targets: list[tuple[str, Callable[[], tuple[float, list[hotspots.Hotspot]]]]] = [
        (f"Gin Rummy random hands ({sizes.profile_hands})",
         lambda: hotspots.gin_random_hands(sizes.profile_hands)),
    ]
    targets += [
        (f"{name} normal bot, every decision of "
         + ngettext("{n} game", "{n} games", sizes.profile_games),
         functools.partial(hotspots.normal_bot, name, sizes.profile_games))
        for name in engines.GAME_SETUPS
    ]
    for title, run in targets:
        total, top = run()
        lines += [
            f"**{title}** — {total:.2f} s profiled (cProfile), top by own time:",
            "",
            "| Function | Calls | Own s | Cum s | Own share |",
            "|---|---:|---:|---:|---:|",
        ]
        lines += [
            f"| `{h.function}` | {h.calls:,} | {h.own_seconds:.3f} | {h.cumulative_seconds:.3f}"
            f" | {h.own_share:.0%} |"
            for h in top[:6]
        ]
        lines.append("")
    lines += pyspy_lines(sizes.profile_hands)
    return lines


def pyspy_lines(hands: int) -> list[str]:
    """Sampled leaf frames of the Gin Rummy random-hand loop under py-spy, if installed."""
    exe = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if exe is None:
        return ["py-spy: not installed in this environment (cProfile only)."]
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "gin.txt"
        code = f"from bench import engines; engines.gin_random_hands({hands})"
        proc = subprocess.run(
            [exe, "record", "-r", "500", "-f", "raw", "-o", str(raw), "--",
             sys.executable, "-c", code],
            capture_output=True, text=True, check=False,
        )
        if proc.returncode != 0 or not raw.exists():
            return [f"py-spy failed: `{(proc.stderr or proc.stdout).strip()[-300:]}`"]
        leaves: Counter[str] = Counter()
        for line in raw.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if "gin_random_hand " in stack:  # the hands, not start-up and imports
                leaves[stack.rsplit(";", 1)[-1]] += int(count)
    total = sum(leaves.values()) or 1
    lines = [
        f"**py-spy** (500 Hz sampling, no tracing overhead), Gin Rummy random hands"
        f" ({hands}): {total} samples inside the hands, top leaf frames:",
        "",
        "| Frame | Samples | Share |",
        "|---|---:|---:|",
    ]
    lines += [f"| `{frame}` | {n} | {n / total:.0%} |" for frame, n in leaves.most_common(8)]
    return lines


def reference_block(head: list[str], done: dict[str, list[str]], tail: str) -> str:
    """BENCHMARKS.md's generated part: the machine, then each of ``AREAS`` with the
    sections of this run it holds and the link to its history."""
    lines = [
        BEGIN,
        "<!-- Written by `bash bench/run.sh` (bench/__main__.py); the next full run"
        " rewrites everything between these markers. -->",
        "",
        "Generated by `bash bench/run.sh`, one run, every number side by side in one process:",
        "",
        *head,
        f"* {tail}",
    ]
    for heading, anchor, titles in AREAS:
        lines += ["", f"### {heading}", ""]
        for title in titles:
            if len(titles) > 1:
                lines += [f"#### {title}", ""]
            lines += [*done.get(title, ["Not measured in this run."]), ""]
        lines.append(f"History: [{HISTORY}#{anchor}]({HISTORY}#{anchor})")
    return "\n".join([*lines, END])


def splice(path: Path, block: str) -> None:
    """Put ``block`` (markers included) in place of ``path``'s markers, each a line of its
    own, and what lies between them (a marker quoted in a sentence is not one)."""
    text = path.read_text(encoding="utf-8")
    found = re.search(f"^{re.escape(BEGIN)}$.*?^{re.escape(END)}$", text, re.M | re.S)
    if found is None:
        raise SystemExit(f"{path} has no lines {BEGIN} … {END} to rewrite")
    path.write_text(text[:found.start()] + block + text[found.end():], encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes, seconds (CI smoke)")
    ap.add_argument("--out", type=Path, default=RESULTS / "latest.md")
    ap.add_argument("--no-service", action="store_true", help="skip the table service")
    ap.add_argument("--benchmarks", type=Path, default=None,
                    help="the file whose markers take the engines and table service"
                         " (default: BENCHMARKS.md after a full run)")
    args = ap.parse_args()
    sizes = QUICK if args.quick else FULL
    target = args.benchmarks or (None if args.quick or args.no_service else BENCHMARKS)
    t0 = time.perf_counter()
    head = machine()
    doc = ["# Deckhand benchmark results", "", *head, ""]
    done: dict[str, list[str]] = {}
    sections: list[tuple[str, Callable[[], list[str]]]] = [
        ("Gin Rummy against the reference engines", lambda: gin_section(sizes)),
        ("Every Deckhand game", lambda: games_section(sizes)),
    ]
    if not args.no_service:
        sections.append(("Table service", lambda: service_section(sizes)))
    sections += [
        ("Discord (through the fake server)", lambda: discord_section(args.quick)),
        ("Profiles", lambda: profile_section(sizes)),
    ]
    failed = False
    for title, build in sections:
        print(f"… {title}", file=sys.stderr, flush=True)
        try:
            body = build()
        except Exception:  # report it and go on: one broken section must not hide the rest
            failed = True
            body = ["**Failed:**", "", "```", traceback.format_exc().rstrip(), "```"]
            print(body[3], file=sys.stderr)
        done[title] = body
        doc += [f"## {title}", "", *body, ""]
    tail = (
        f"Load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())};"
        f" whole run {time.perf_counter() - t0:.0f} s"
        f"{' (--quick: sizes too small to mean much)' if args.quick else ''}."
    )
    text = "\n".join([*doc, tail]) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text, flush=True)
    if target is not None and not failed:
        splice(target, reference_block(head, done, tail))
        print(f"… {target}: the engines and table service rewritten", file=sys.stderr)
    if failed:
        # A failed service section may leave a database connection's thread running,
        # which would keep the interpreter from exiting.
        sys.stderr.flush()
        os._exit(1)


if __name__ == "__main__":
    main()
