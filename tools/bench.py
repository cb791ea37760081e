"""Measure, in one run on one machine, what decides whether the app feels
fast and plays strong, and print it as Markdown tables with the ratios that
matter (absolute times on shared machines are noisy; ratios measured side by
side are not).

    python tools/bench.py [--quick] [--seed N] [--positions]

(`make bench` / `make bench-quick` install what it needs first.) The tables go
to stdout, progress to stderr; the exit status is non-zero, with a message,
when anything fails. What is measured, in this order:

1. Start-up in headless Chromium, cold (empty cache) and warm (second visit):
   the shell's first paint, the first board accepting a move, the computer
   ready; against the floor, a page that loads nothing but bare Pyodide
   (tools/bench/floor.html), the two taking turns.
2. Bytes the server sent on a cold first visit, the runtime apart from ours.
3. Responsiveness and memory: whole games against the perfect computer on 6
   boards, the page's long tasks; the JS heap and both interpreters' heaps;
   the worker's heap after the strongest level's game on the biggest Hex and
   Y boards (under 200 MB).
4. Engine throughput: random playouts per second (every game), the engines'
   own search iterations per second (UTTT, Hex, Y), the master level's playouts
   and tree nodes per second with its knowledge (UTTT, Hex, Y), the AI's move times at
   every Notakto level, under native CPython and in the page's Pyodide
   worker, the same functions in both (py/bench_worker.py: ``bench_playouts``,
   ``bench_search``, ``bench_moves``; reached through the page's bench hooks
   in py/app/harness.py), with their results checked equal.
5. Strength: arena matches of each game's strongest level (CPython) against
   baselines: Notakto's weaker levels and random play here, and for UTTT, Hex
   and Y a plain UCT search in C++ (OpenSpiel's MCTSBot, tools/arena.py) at
   equal and at half time (UTTT: at a quarter of the time); with Wilson 95 %
   intervals.

To add figures, write a function ``(Bench) -> list[Row]`` and append it to
``MEASUREMENTS``: each row names its table and fills some columns. A new game
gets its lines in ``PLAYOUTS``, ``SEARCHES`` and ``OPENSPIEL`` from its entry
in py/registry.py.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import http.server
import importlib.util
import json
import math
import os
import platform
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tools"))

import ai  # noqa: E402
import bench_worker  # noqa: E402 - the harness's worker module, run here under CPython
import harness  # noqa: E402 - the server, Chromium and the page watch, shared with the end-to-end tests
from ai import notakto as notakto_ai  # noqa: E402
import registry  # noqa: E402
from core import FIRST, SECOND, GameState  # noqa: E402
from core.hex import HexState  # noqa: E402
from core.notakto import CELLS, HAS_LINE, NotaktoState  # noqa: E402
from registry import STATES as GAMES  # noqa: E402 - game -> its state class

DEFAULT_SEED = 2024
TARGET_S = 0.050  # a computer move within 50 ms in the browser; no main-thread task over 50 ms
TARGET_PAINT_S = 0.5  # the shell paints within 0.5 s
TARGET_FLOOR_RATIO = 1.10  # interactive within 1.10x of the bare-Pyodide floor
TARGET_COMPUTER_RATIO = 1.3  # the computer ready within 1.3x of the floor
TARGET_SPEED = 0.6  # Pyodide at least 0.6x as fast as CPython on the same code


class BenchError(Exception):
    """A measurement could not be made (or made honestly)."""


# -- statistics ----------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), interpolating between closest ranks."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Stat:
    """Median and p10-p90 of samples, and how many (for pooled cases the
    first figure is the mean of their medians: see ``pooled``). ``unit`` says
    how to print them: "ms" (samples in seconds), "/s" (rates), "B" (bytes)."""

    median: float
    p10: float
    p90: float
    n: int
    unit: str = "ms"

    @classmethod
    def of(cls, samples: Sequence[float], unit: str = "ms") -> Stat:
        return cls(percentile(samples, 50), percentile(samples, 10), percentile(samples, 90), len(samples), unit)

    @classmethod
    def pooled(cls, groups: Sequence[Sequence[float]], unit: str = "ms") -> Stat:
        """Several cases as one figure: the mean of their medians (what a
        move costs on average over the cases: stable where the median of
        all samples would jump between fast and slow cases), with the p10
        and p90 of all their samples."""
        if len(groups) == 1:
            return cls.of(groups[0], unit)
        every = [x for group in groups for x in group]
        center = sum(percentile(group, 50) for group in groups) / len(groups)
        return cls(center, percentile(every, 10), percentile(every, 90), len(every), unit)

    @classmethod
    def rates(cls, seconds_per_item: Sequence[float]) -> Stat:
        """Items per second, one rate per timed sample."""
        return cls.of([1 / s for s in seconds_per_item], "/s")


@dataclass(frozen=True)
class Ratio:
    """A ratio, or the median and p10-p90 of several (paired) ratios."""

    median: float
    p10: float | None = None
    p90: float | None = None

    @classmethod
    def of(cls, ratios: Sequence[float]) -> Ratio:
        if len(ratios) == 1:
            return cls(ratios[0])
        return cls(percentile(ratios, 50), percentile(ratios, 10), percentile(ratios, 90))


#: z for a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / games`` (a draw
    counting half a point); (0, 1) for no games."""
    if games <= 0:
        return 0.0, 1.0
    if not 0 <= score <= games:
        raise ValueError(f"a score of {score} in {games} games")
    p = score / games
    denominator = 1 + z * z / games
    center = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (0.0 if score == 0 else max(0.0, center - half)), (1.0 if score == games else min(1.0, center + half))


# -- formatting ----------------------------------------------------------------------
def format_ms(seconds: float) -> str:
    """Milliseconds with about three significant digits."""
    ms = seconds * 1000
    for limit, decimals in ((100, 0), (10, 1), (1, 2), (0.1, 3)):
        if ms >= limit:
            return f"{ms:.{decimals}f}"
    return f"{ms:.4f}"


def format_rate(value: float) -> str:
    """A count per second with three significant digits and thousands separators."""
    if value <= 0:
        return "0"
    exponent = math.floor(math.log10(value))
    if exponent >= 2:
        return f"{round(value, 2 - exponent):,.0f}"
    return f"{value:.{2 - exponent}f}"


def format_bytes(count: float) -> str:
    """Decimal units (1 MB = 1,000,000 bytes), as browsers' tools show them."""
    if count >= 1e6:
        return f"{count / 1e6:.2f} MB"
    if count >= 1e3:
        return f"{count / 1e3:.1f} kB"
    return f"{count:.0f} B"


def format_percent(fraction: float) -> str:
    return f"{fraction * 100:.1f}%"


def format_ratio(value: float) -> str:
    return f"{value:.2f}×"


FORMATS: dict[str, Callable[[float], str]] = {"ms": format_ms, "/s": format_rate, "B": format_bytes}


def format_cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, Stat):
        show = FORMATS[value.unit]
        return f"{show(value.median)} ({show(value.p10)}–{show(value.p90)})"
    if isinstance(value, Ratio):
        if value.p10 is None or value.p90 is None:
            return format_ratio(value.median)
        return f"{format_ratio(value.median)} ({value.p10:.2f}–{value.p90:.2f})"
    return str(value)


def verdict(met: bool) -> str:
    return "yes" if met else "**NO**"


def at_most(ratio: float, target: float) -> bool:
    """Whether a ratio meets an upper target at the precision it is shown (2 decimals)."""
    return round(ratio, 2) <= target


def at_least(ratio: float, target: float) -> bool:
    return round(ratio, 2) >= target


@dataclass
class Row:
    """One line of one table: ``cells`` maps column names to values (Stat,
    Ratio, or anything printable); the first column names the row. A table's
    columns are those of its rows, in the order first met; a missing cell
    prints as —."""

    table: str
    cells: dict[str, Any]


def format_table(title: str, rows: Sequence[Row]) -> str:
    columns: list[str] = []
    for row in rows:
        columns += [name for name in row.cells if name not in columns]
    body = [[format_cell(row.cells.get(name)) for name in columns] for row in rows]
    numeric = [
        index > 0 and all(isinstance(row.cells.get(name), (Stat, Ratio, int, float)) or row.cells.get(name) is None
                          for row in rows)
        for index, name in enumerate(columns)
    ]
    widths = [max(len(name), 3, *(len(line[i]) for line in body)) for i, name in enumerate(columns)]

    def line(cells: Iterable[str]) -> str:
        padded = [cell.rjust(w) if right else cell.ljust(w) for cell, w, right in zip(cells, widths, numeric)]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w - 1) + ":" if right else "-" * w for w, right in zip(widths, numeric)]
    return "\n".join([f"### {title}", "", line(columns), line(rule), *(line(cells) for cells in body)])


def format_report(header: str, rows: Sequence[Row], notes: Sequence[str] = ()) -> str:
    """The header line, one table per title (in the order first met), notes."""
    titles: list[str] = []
    for row in rows:
        if row.table not in titles:
            titles.append(row.table)
    parts = [header]
    parts += [format_table(title, [row for row in rows if row.table == title]) for title in titles]
    if notes:
        parts.append("\n".join(f"- {note}" for note in notes))
    return "\n\n".join(parts) + "\n"


# -- Notakto positions ------------------------------------------------------------
#: Where in a game each phase's positions are taken: the nearest ply to this
#: fraction of the game's length (within +-PHASE_WINDOW of it) whose player to
#: move has the wanted result.
PHASES: tuple[tuple[str, float], ...] = (("early", 0.25), ("middle", 0.5), ("late", 0.8))
PHASE_WINDOW = 0.1
OUTCOMES = ("won", "lost")


@dataclass(frozen=True)
class Position:
    """A Notakto position of the bench: ``outcome`` is the result for the
    player to move under perfect play."""

    phase: str
    outcome: str
    boards: int
    moves: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.phase}, {self.outcome}"

    def state(self) -> NotaktoState:
        return NotaktoState(self.boards).replay(self.moves)

    def save(self) -> dict[str, Any]:
        return self.state().to_dict()

    def describe(self) -> str:
        """Moves played, live boards, empty cells on them."""
        state = self.state()
        empty = sum(CELLS - mask.bit_count() for i, mask in enumerate(state.boards) if not state.is_closed(i))
        return f"{len(self.moves)} · {len(state.live_boards)}/{self.boards} · {empty}"


def outcome_of(state: NotaktoState) -> str:
    return "lost" if notakto_ai.is_lost(state) else "won"


def random_game(boards: int, rng: random.Random) -> list[int]:
    """A whole game of random play in which neither side closes a board while
    another move is possible (uniform random play closes boards at once and
    gives short, unrealistic games)."""
    state = NotaktoState(boards)
    while not state.is_over():
        legal = state.legal_moves()
        quiet = [m for m in legal if not HAS_LINE[state.boards[m // CELLS] | 1 << m % CELLS]]
        state.push(rng.choice(quiet or legal))
    return state.moves


def _pick(boards: int, rng: random.Random, phase: str, fraction: float, outcome: str) -> Position:
    for _ in range(100):
        moves = random_game(boards, rng)
        length = len(moves)
        target = fraction * length
        plies = sorted((p for p in range(1, length) if abs(p - target) <= PHASE_WINDOW * length),
                       key=lambda p: (abs(p - target), p))
        for ply in plies:
            state = NotaktoState(boards)
            for move in moves[:ply]:
                state.push(move)
            if outcome_of(state) == outcome:
                return Position(phase, outcome, boards, tuple(state.move_texts()))
    raise BenchError(f"no {phase} {outcome} position on {boards} boards in 100 random games")  # pragma: no cover


def notakto_positions(boards: int, seed: int = DEFAULT_SEED) -> list[Position]:
    """The bench's positions on ``boards`` boards: the empty board, then an
    early, a middle and a late position from random play, each won and lost
    for the player to move. A function of (boards, seed) alone."""
    rng = random.Random(f"bench|notakto|{boards}|{seed}")
    empty = NotaktoState(boards)
    positions = [Position("empty", outcome_of(empty), boards, ())]
    for phase, fraction in PHASES:
        for outcome in OUTCOMES:
            positions.append(_pick(boards, rng, phase, fraction, outcome))
    return positions


# -- settings ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    name: str
    passes: int  # CPython, worker and round trips take turns this many times
    quiet_wait_s: float  # at most this long in all waiting for the machine to be quiet
    warmup: int  # per pass: batches (or round trips) of each case run and thrown away first
    repeats: int  # per pass: samples of each case kept
    batch_s: float  # a timed batch of moves lasts at least this long under CPython
    startup_rounds: int  # rounds of visits: the app and the floor, each cold then warm
    long_games: int  # whole games against the perfect computer on 6 boards
    arena_games: int  # games per strength pairing
    warm_computer: bool = True  # time the computer's start on warm visits too
    returning: bool = True  # a third visit in each start-up round
    level_boards: tuple[int, ...] = (3, 6)  # Notakto boards on which every level is timed
    warm_max_s: float = 30.0  # at most this long warming up the page before the engine figures
    playout_batch_s: float = 0.02  # a timed batch of playouts lasts at least this long under CPython
    search_s: float = 0.1  # a timed search lasts at least this long under CPython
    #: a timed search of the master level lasts at least about this long under CPython, as judged from a
    #: probe of 2,048 iterations, which its root analysis slows (4,096 iterations, 1.1 s, on 2026-12-03)
    master_search_s: float = 2.0
    master_repeats: int = 3  # per pass: samples kept of each master search (one warm-up search first)
    openspiel_games: int = 40  # games per match against OpenSpiel (tools/arena.py)
    openspiel_move_s: float = 0.25  # OpenSpiel's seconds per move; ours is this times a factor
    openspiel_factors: tuple[float, ...] = (1.0, 0.5)  # our time x this; per game: OPENSPIEL_TARGETS
    openspiel_check_games: int = 200  # random games through both engines first, the rules compared
    puzzle_s: float = 2.0  # the strongest Hex level's time per puzzle
    puzzles_in_browser: bool = True  # the puzzles in the page's worker too
    #: the puzzles the exact solver proves from scratch in both runtimes (``solver_speed``), each this many
    #: times, within this many seconds
    solver_puzzles: tuple[str, ...] = ("6x6-henderson-04", "6x6-henderson-13", "6x6-henderson-17",
                                       "6x6-henderson-19", "6x6-henderson-21")
    solver_repeats: int = 3
    solver_limit_s: float = 60.0
    big_moves: int = 24  # moves of the strongest level's game on each biggest board, in the worker
    big_move_s: float = 2.0  # its seconds per move there

    @property
    def samples(self) -> int:
        return self.passes * self.repeats


FULL = Settings("full", passes=4, quiet_wait_s=90, warmup=3, repeats=15, batch_s=0.005,
                startup_rounds=7, long_games=3, arena_games=2000)
QUICK = Settings("quick", passes=2, quiet_wait_s=5, warmup=1, repeats=3, batch_s=0.005,
                 startup_rounds=2, long_games=1, arena_games=200, warm_computer=False, warm_max_s=8.0,
                 openspiel_games=2, openspiel_move_s=0.05, openspiel_factors=(1.0,), openspiel_check_games=20,
                 puzzle_s=0.1, puzzles_in_browser=False, returning=False, level_boards=(6,), big_moves=4,
                 big_move_s=0.3, master_search_s=0.2, master_repeats=1, solver_puzzles=("6x6-henderson-02",),
                 solver_repeats=1)
MAX_BATCH = 4096
WARM_WORKER_S = 3.0  # at least this long warming up the worker, until its speed settles
WARM_PAGE_S = 1.0  # and the main thread's round trips
CALL_TIMEOUT_MS = 300_000  # one call into the page (a whole pass of cases)
READY_TIMEOUT_MS = 90_000
THINK_TIMEOUT_MS = 30_000


# -- the browser and the server ---------------------------------------------------------
APP_PATH = "#/notakto"  # a board on screen as soon as Python is ready
FLOOR_PATH = "tools/bench/floor.html"
#: A reference on cold visits, not a target: PyScript started with the app's
#: runtime and nothing else, what any page built as the app is pays first.
PYSCRIPT_FLOOR_PATH = "tools/bench/pyscript-floor.html"
#: What GitHub Pages sends with every file: fresh for ten minutes, then
#: revalidated (Last-Modified / If-Modified-Since, which http.server answers
#: with 304). A second visit within ten minutes asks the server nothing.
CACHE_CONTROL = "max-age=600"
#: Chromium flags on top of the end-to-end tests' own (tools/harness.py).
EXTRA_ARGS = ["--enable-precise-memory-info"]
VIEWPORT = {"width": 1100, "height": 900}

#: Runs in every page of the bench before the page's own scripts: notes when
#: the page marks itself ready (body[data-ready="true"], which the app sets
#: when Python is ready and the board is drawn, and the floor when Pyodide
#: is) and every long task (>= 50 ms) of the main thread.
INIT_JS = """(() => {
  const bench = (window.__bench = { ready: null, longTasks: [] });
  new MutationObserver(() => {
    if (bench.ready === null && document.body && document.body.dataset.ready === "true") bench.ready = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) {}
})();"""

VISIT_JS = """() => {
  const entry = (name) => performance.getEntriesByName(name)[0];
  const resources = performance.getEntriesByType("resource");
  const navigation = performance.getEntriesByType("navigation")[0];
  return {
    paint: entry("first-contentful-paint")?.startTime ?? null,
    ready: window.__bench.ready,
    computer: entry("computer-ready")?.startTime ?? null,
    pageBytes: [navigation, ...resources].reduce((sum, e) => sum + e.transferSize, 0),
    resources: resources.length + 1,
    fromCache: [navigation, ...resources].filter((e) => e.transferSize === 0 && e.decodedBodySize > 0).length,
    longestTask: Math.max(0, ...window.__bench.longTasks.filter(([at]) => at < window.__bench.ready).map(([, ms]) => ms)),
  };
}"""

#: If the page registered a service worker, wait (60 s at most) until it is
#: active with nothing installing or waiting: its precache downloads then
#: belong to this visit, and the next visit is served as a returning player's.
SERVICE_WORKER_JS = """async () => {
  if (!("serviceWorker" in navigator)) return null;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let registration;
  for (let i = 0; i < 5 && !registration; i++) {
    registration = await navigator.serviceWorker.getRegistration();
    if (!registration) await pause(100);
  }
  if (!registration) return null;
  const deadline = performance.now() + 60000;
  const settled = () => !registration.installing && !registration.waiting && registration.active
    && registration.active.state === "activated";
  while (!settled() && performance.now() < deadline) {
    await pause(100);
  }
  return settled() ? "activated" : `not activated after 60 s (${registration.active && registration.active.state})`;
}"""

MY_TURN_JS = ("!document.querySelector('[data-testid=result]').hidden"
              " || document.querySelector('.cell[aria-disabled=\"false\"]') !== null")

#: The longest the main thread stayed busy, beyond a 10 ms interval timer's
#: period: catches blocks shorter than the 50 ms that make a long task.
PROBE_START_JS = """() => {
  const probe = (window.__probe = { last: performance.now(), worst: 0 });
  probe.id = setInterval(() => {
    const now = performance.now();
    probe.worst = Math.max(probe.worst, now - probe.last - 10);
    probe.last = now;
  }, 10);
  return performance.now();
}"""
PROBE_STOP_JS = "() => { clearInterval(window.__probe.id); return [performance.now(), window.__probe.worst]; }"


@functools.lru_cache(maxsize=None)
def load_module(name: str, path: Path) -> Any:
    """The Python file at ``path`` as a module called ``name``, loaded once."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Sent:
    """One response of the server: what it sent for which path."""

    path: str
    status: int
    header_bytes: int
    body_bytes: int

    @property
    def bytes(self) -> int:
        return self.header_bytes + self.body_bytes


def part_of(path: str) -> str:
    """Which part of the app a served path belongs to (the rest of vendor/
    is made from our sources: the Python archive, the game list, the
    manifests, the precache list)."""
    if path.startswith("/vendor/pyodide/"):
        return "runtime: Pyodide"
    if path.startswith("/vendor/pyscript/"):
        return "runtime: PyScript"
    return "ours"


PARTS = ("runtime: Pyodide", "runtime: PyScript", "ours")


class BenchServer:
    """This checkout, served on a free loopback port as the end-to-end tests
    serve it (their handler: http.server's, which sends Last-Modified and
    answers If-Modified-Since with 304), plus GitHub Pages' Cache-Control,
    and a log of every response's size (status line and headers, body)."""

    def __init__(self, root: Path, base: type[http.server.SimpleHTTPRequestHandler]) -> None:
        self.lock = threading.Lock()
        self.log: list[Sent] = []
        server = self

        class Handler(base):  # type: ignore[misc, valid-type]
            def send_response(self, code: int, message: str | None = None) -> None:
                self.bench_status, self.bench_length = code, 0
                super().send_response(code, message)

            def send_header(self, keyword: str, value: str) -> None:
                if keyword.lower() == "content-length":
                    self.bench_length = int(value)
                super().send_header(keyword, value)

            def end_headers(self) -> None:
                if self.bench_status in (200, 304):
                    super().send_header("Cache-Control", CACHE_CONTROL)
                head = sum(map(len, getattr(self, "_headers_buffer", []))) + 2
                body = self.bench_length if self.command != "HEAD" and self.bench_status != 304 else 0
                with server.lock:
                    server.log.append(Sent(urllib.parse.urlsplit(self.path).path, self.bench_status, head, body))
                super().end_headers()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def take(self) -> list[Sent]:
        """What was sent since the last call."""
        with self.lock:
            log, self.log = self.log, []
        return log

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Browser:
    """Headless Chromium, launched as the end-to-end tests launch it, and the
    bench's server. Every page runs in a profile of its own: a fresh user
    data folder (so an empty HTTP cache on disk, as a player's browser has
    it: Playwright's ordinary contexts keep an in-memory cache that refuses
    Pyodide's 9.6 MB WebAssembly file). The bench never routes requests
    (routing would turn the cache off)."""

    def __init__(self) -> None:
        if not (ROOT / "vendor" / "pyodide" / "pyodide.asm.wasm").exists():
            raise BenchError("the runtime is not vendored: run `make bench` (or `python3 tools/vendor.py`)")
        from playwright.sync_api import sync_playwright

        self.runner: Any = None
        self.watches: list[Any] = []
        self.profiles: dict[int, tuple[Any, tempfile.TemporaryDirectory[str]]] = {}
        self.version = "?"
        self.server = BenchServer(ROOT, harness.QuietHandler)
        try:
            self.runner = sync_playwright().start()
        except BaseException:
            self.close()
            raise

    def profile(self, as_harness: bool) -> Any:
        """A browser context on a new, empty profile (close it with
        ``close_profile``); ``as_harness``: its pages have the bench hooks
        (and the harness's worker), else they are a player's."""
        folder = tempfile.TemporaryDirectory(prefix="bench-profile-")
        context = self.runner.chromium.launch_persistent_context(
            folder.name, executable_path=harness.chromium_path(), args=harness.LAUNCH_ARGS + EXTRA_ARGS,
            headless=True, viewport=VIEWPORT, locale="en-US")
        self.profiles[id(context)] = (context, folder)
        watch = harness.Watch()
        harness.watch_context(context, watch)
        self.watches.append(watch)
        context.add_init_script(INIT_JS)
        if as_harness:
            harness.open_as_harness(context)
        if self.version == "?" and context.pages:
            product = context.new_cdp_session(context.pages[0]).send("Browser.getVersion")["product"]
            self.version = product.split("/")[-1]
        return context

    def close_profile(self, context: Any) -> None:
        context, folder = self.profiles.pop(id(context))
        try:
            context.close()
        finally:
            folder.cleanup()

    def check_clean(self) -> None:
        foreign = [url for watch in self.watches for url in watch.foreign]
        errors = [error for watch in self.watches for error in watch.errors]
        if foreign:
            raise BenchError(f"a page asked another origin: {foreign}")
        if errors:
            raise BenchError(f"console errors in a page: {errors}")

    def close(self) -> None:
        try:
            for context in [context for context, _ in self.profiles.values()]:
                self.close_profile(context)
            if self.runner is not None:
                self.runner.stop()
        finally:
            self.server.stop()


def call_page(page: Any, function: str, *args: str) -> dict[str, Any]:
    """Await ``function(...args)`` in the page, which answers JSON text
    (evaluate has no timeout of its own: a hung worker must fail the run,
    not stall it)."""
    script = f"""args => Promise.race([
        Promise.resolve({function}(...args)),
        new Promise((_, reject) => setTimeout(() => reject(new Error("{function} timed out")), {CALL_TIMEOUT_MS})),
    ])"""
    reply = json.loads(page.evaluate(script, list(args)))
    if "error" in reply:
        raise BenchError(f"{function} in the page: {reply['error']}")
    return reply


class AppPage:
    """The real app at #/notakto in a context of its own, opened as the
    harness (the bench hooks, py/app/harness.py), with the worker started:
    for the responsiveness, memory and engine figures."""

    TIMER_RESOLUTION_JS = """() => {
        let best = Infinity;
        for (let i = 0; i < 20; i++) {
            const start = performance.now();
            let now = start;
            while (now === start) now = performance.now();
            best = Math.min(best, now - start);
        }
        return best / 1000;
    }"""

    def __init__(self, browser: Browser) -> None:
        self.context = browser.profile(as_harness=True)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.goto(browser.server.url + APP_PATH)
        self.page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
        self.cdp = self.context.new_cdp_session(self.page)
        self.timer_resolution_s = float(self.page.evaluate(self.TIMER_RESOLUTION_JS))

    def call(self, hook: str, request: dict[str, Any]) -> dict[str, Any]:
        return call_page(self.page, hook, json.dumps(request))

    def worker(self, function: str, request: dict[str, Any]) -> dict[str, Any]:
        """A ``bench_*`` function of the AI worker, through the page."""
        return call_page(self.page, "appBenchWorker", function, json.dumps(request))

    def memory(self) -> dict[str, Any]:
        """The page's JS heap after a full garbage collection, and both
        interpreters' WebAssembly memory (once the worker is ready)."""
        wasm = call_page(self.page, "appMemory")
        self.cdp.send("HeapProfiler.collectGarbage")
        heap = self.page.evaluate("performance.memory.usedJSHeapSize")
        return {"page_js": int(heap), "main_wasm": wasm["main_wasm_bytes"], "worker_wasm": wasm["worker_wasm_bytes"]}


@dataclass
class Timings:
    """One engine case's samples (seconds per move) in each place."""

    cpython: list[float]
    pyodide: list[float]
    round_trip: list[float]
    batch: int


@dataclass
class Visit:
    """One page load: ms from navigation start, and what it transferred."""

    paint_s: float
    ready_s: float
    computer_s: float | None
    sent: list[Sent]
    page_bytes: int  # the page's own Resource Timing transferSize, summed (its worker's requests are not in it)
    resources: int
    from_cache: int
    longest_task_s: float  # the longest main-thread task that started before the page was ready


def machine_busy(window_s: float = 0.25) -> float | None:
    """The share of all CPUs busy over ``window_s`` (Linux; None elsewhere)."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return sum(fields), idle

    try:
        total0, idle0 = sample()
        time.sleep(window_s)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def quiet_moves(state: NotaktoState) -> list[int]:
    """The moves that close no board, or every legal move when all do."""
    legal = state.legal_moves()
    quiet = [m for m in legal if not HAS_LINE[state.boards[m // CELLS] | 1 << m % CELLS]]
    return quiet or legal


@dataclass
class Bench:
    """What the measurement functions share: settings, the browser, the
    three places that run the engines (CPython here, the worker, the page's
    main thread), facts and notes for the report."""

    settings: Settings
    seed: int = DEFAULT_SEED
    notes: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    _browser: Browser | None = None
    _app: AppPage | None = None
    _warm: bool = False
    _moves: dict[tuple[Any, ...], Timings] = field(default_factory=dict)

    QUIET = 0.10  # the machine counts as quiet below this share of CPU busy
    _waited_s: float = 0.0
    _starts: list[float] = field(default_factory=list)  # CPU busy when each phase started

    # -- the places ------------------------------------------------------------------
    def browser(self) -> Browser:
        if self._browser is None:
            progress("launching headless Chromium")
            self._browser = Browser()
        return self._browser

    def app(self) -> AppPage:
        """The app, started on first use; its memory is read at once, when
        the computer is ready (before anything else has run in it)."""
        if self._app is None:
            progress("starting the app")
            self._app = AppPage(self.browser())
            self.facts["page_timer_s"] = self._app.timer_resolution_s
            self.facts["memory_after_start"] = self._app.memory()
        return self._app

    def page(self) -> AppPage:
        """The app, warmed up: V8 first runs Pyodide's WebAssembly
        unoptimised and recompiles the hot parts in the background over the
        first seconds of heavy use, so measuring at once would time the
        compiler, not the engines."""
        app = self.app()
        if not self._warm:
            self._warm_up(app)
            self._warm = True
        return app

    def here(self, function: str, request: dict[str, Any]) -> dict[str, Any]:
        """A ``bench_*`` function of py/bench_worker.py run here, under
        CPython; an error it reports is raised."""
        reply = json.loads(getattr(bench_worker, function)(json.dumps(request)))
        if "error" in reply:
            raise BenchError(f"{function} under CPython: {reply['error']}")
        return reply

    def inside(self, function: str, request: dict[str, Any]) -> dict[str, Any]:
        """The same function in the page's worker; an error it reports is
        raised, and so is a reply that did not come from Pyodide."""
        reply = self.page().worker(function, request)
        if "error" in reply:
            raise BenchError(f"{function} in the worker: {reply['error']}")
        if reply.get("platform") != "emscripten":
            raise BenchError(f"{function} did not run in Pyodide (platform {reply.get('platform')!r})")
        return reply

    def cpython(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self.here("bench_moves", request)
        self.facts.setdefault("cpython_timer_s", reply["timer_resolution_s"])
        return reply

    def pyodide(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self.page().call("appBench", request)
        if reply.get("platform") != "emscripten":
            raise BenchError(f"appBench did not run in Pyodide (platform {reply.get('platform')!r})")
        self.facts.setdefault("pyodide_python", reply["python"].split()[0])
        self.facts.setdefault("worker_timer_s", reply["timer_resolution_s"])
        return reply

    def round_trip(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.page().call("appBenchRoundTrip", request)

    def _warm_up(self, app: AppPage) -> None:
        position = notakto_positions(6, self.seed)[0]
        case = {"game": position.save(), "level": "perfect"}
        for hook, request, min_s in (
            ("appBench", {"cases": [{**case, "batch": 32}], "repeats": 10}, WARM_WORKER_S),
            ("appBenchRoundTrip", {"cases": [case], "repeats": 40}, WARM_PAGE_S),
        ):
            progress(f"warming up {hook}")
            clock, medians = time.monotonic(), []
            while True:
                reply = app.call(hook, {**request, "seed": len(medians) * 10_000, "warmup": 0})
                medians.append(percentile(reply["results"][0]["samples"], 50))
                elapsed = time.monotonic() - clock
                last = medians[-4:]
                if elapsed >= min_s and len(last) == 4 and max(last) <= 1.1 * min(last):
                    settled = True
                    break
                if elapsed >= self.settings.warm_max_s:
                    settled = False
                    break
            self.facts[f"warm_{hook}"] = (elapsed, medians[0], medians[-1], settled)

    def settle(self) -> None:
        """Wait until the machine is quiet, so that no phase starts while the
        browser's background work (or anything else) holds the CPUs; the
        waiting is capped by ``quiet_wait_s`` over the whole run, and the
        notes tell how busy the machine was when the phases started."""
        while True:
            clock = time.monotonic()
            busy = machine_busy(0.25 if self._waited_s < self.settings.quiet_wait_s else 0.1)
            if busy is None:
                return
            if busy < self.QUIET or self._waited_s >= self.settings.quiet_wait_s:
                self._starts.append(busy)
                return
            self._waited_s += time.monotonic() - clock

    def finish(self) -> None:
        if self._browser is not None:
            self.facts["chromium"] = self._browser.version
            self._browser.check_clean()

    def close(self) -> None:
        if self._browser is not None:
            browser, self._browser, self._app = self._browser, None, None
            browser.close()

    # -- start-up ----------------------------------------------------------------------
    def visit(self, context: Any, app: bool, computer: bool = True, query: str = "", path: str = "") -> Visit:
        """Open the app (or the floor, or another page than the floor at
        ``path``) in a new tab of ``context`` and wait until it is ready.
        For the app, then check that a click on a cell
        lands (a mark appears), and with ``computer`` wait for the computer's
        answer: the worker starts after the board is ready, and its requests
        must be counted (and, on a cold visit, be in the cache for the warm
        one, with the player to move in the saved game)."""
        browser = self.browser()
        browser.server.take()
        page = context.new_page()
        try:
            page.goto(browser.server.url + (APP_PATH if app else (path or FLOOR_PATH) + query), wait_until="commit")
            page.wait_for_function("window.__bench && window.__bench.ready !== null", timeout=READY_TIMEOUT_MS)
            if app:
                marks = page.locator(".cell.x").count()
                cell = page.locator('.cell[aria-disabled="false"]')
                if cell.count() == 0:
                    raise BenchError("the app was ready but its board offered no cell to play")
                cell.first.click()
                page.wait_for_function(f"document.querySelectorAll('.cell.x').length > {marks}", timeout=10_000)
                if computer:
                    page.wait_for_function("performance.getEntriesByName('computer-ready').length > 0",
                                           timeout=READY_TIMEOUT_MS)
                    page.wait_for_function(MY_TURN_JS, timeout=THINK_TIMEOUT_MS)  # the computer answered
                    worker_state = page.evaluate(SERVICE_WORKER_JS)
                    if worker_state not in (None, "activated"):
                        raise BenchError(f"the app's service worker: {worker_state}")
                    self.facts["service_worker"] = worker_state is not None
            found = page.evaluate(VISIT_JS)
        finally:
            page.close()
        if found["paint"] is None:
            raise BenchError("no first-contentful-paint entry")
        return Visit(found["paint"] / 1000, found["ready"] / 1000,
                     None if found["computer"] is None else found["computer"] / 1000,
                     browser.server.take(), int(found["pageBytes"]), int(found["resources"]), int(found["fromCache"]),
                     found["longestTask"] / 1000)

    def startup_visits(self) -> dict[tuple[str, str], list[Visit]]:
        """Rounds of: the app, then the floor (the other way round every
        second round), each in a new profile (an empty cache on disk): a cold
        visit, then a warm one in a second tab; and a cold visit of the
        PyScript reference in a new profile, first, between or last in
        turn. The floor gets one more visit
        between them, not measured, that runs some Python for a while: V8
        keeps compiled WebAssembly in the cache only once enough of it has
        been optimised, which the app's first visit (two interpreters
        starting, the computer's first move) may do and a bare ``1 + 1`` may
        not; the floor's warm visit must find the best cache it can."""
        visits: dict[tuple[str, str], list[Visit]] = {(k, t): [] for k in ("app", "floor") for t in TEMPERATURES}
        visits["pyscript", "cold"] = []
        rounds = self.settings.startup_rounds
        for index in range(rounds):
            progress(f"start-up round {index + 1}/{rounds}")
            self.settle()
            kinds = ["app", "floor"] if index % 2 == 0 else ["floor", "app"]
            kinds.insert(index % 3, "pyscript")
            for kind in kinds:
                app = kind == "app"
                context = self.browser().profile(as_harness=False)  # a player's page, as players get it
                try:
                    if kind == "pyscript":  # the reference: a cold visit only
                        visits[kind, "cold"].append(self.visit(context, False, path=PYSCRIPT_FLOOR_PATH))
                        continue
                    visits[kind, "cold"].append(self.visit(context, app))
                    if not app:
                        self.visit(context, app, query="?prime")  # fills the compiled-code cache, as the app does
                    # The computer answers before the tab closes: the next visit finds the player to move.
                    visits[kind, "warm"].append(self.visit(context, app))
                    if self.settings.returning:
                        visits[kind, "returning"].append(self.visit(context, app, computer=self.settings.warm_computer))
                finally:
                    self.browser().close_profile(context)
        return visits

    # -- engine moves ------------------------------------------------------------------
    def move_timings(self, cases: Sequence[tuple[Position, str]]) -> list[Timings]:
        """Time ``ai.choose_move`` at each (position, level): under CPython,
        in the worker, and as a main-thread round trip. The three take turns
        (``passes`` times), each turn on a quiet machine, so that slow drift
        or a busy moment on the machine does not favour one of them. Cases
        already timed in this run are reused."""
        todo = list(dict.fromkeys(case for case in cases if case not in self._moves))
        if todo:
            s = self.settings
            games = [{"game": position.save(), "level": level} for position, level in todo]
            self.page()  # started and warmed up first, so it is idle while CPython is timed
            probe = self.cpython({"cases": [{**g, "batch": 1} for g in games], "seed": self.seed,
                                  "warmup": 2, "repeats": 7})
            batches = [batch_size(percentile(r["samples"], 50), s.batch_s) for r in probe["results"]]
            timed = {"seed": self.seed, "warmup": s.warmup, "repeats": s.repeats}
            request = {"cases": [{**g, "batch": b} for g, b in zip(games, batches)], **timed}
            timings = [Timings([], [], [], batch) for batch in batches]
            for _ in range(s.passes):
                self.settle()
                native = self.cpython(request)["results"]
                self.settle()
                inside = self.pyodide(request)["results"]
                self.settle()
                felt = self.round_trip({"cases": games, **timed})["results"]
                for (position, level), a, b, c, into in zip(todo, native, inside, felt, timings):
                    if a["moves"] != b["moves"]:
                        raise BenchError(f"CPython and Pyodide chose different moves at {level} in {position.label} "
                                         f"on {position.boards} boards: {a['moves']} != {b['moves']}")
                    into.cpython += a["samples"]
                    into.pyodide += b["samples"]
                    into.round_trip += c["samples"]
            self._moves.update(zip(todo, timings))
        return [self._moves[case] for case in cases]

    # -- playouts and searches -----------------------------------------------------------
    def paired(self, function: str, cases: Sequence[dict[str, Any]], size_key: str, probe_size: int,
               size_s: float, check: str, repeats: int | None = None, warmup: int | None = None,
               extra: str | None = None) -> list[Paired]:
        """Seconds per item (a playout, a search iteration) of each case under
        CPython and in the page's worker, running the same function of
        py/bench_worker.py (``function``: bench_playouts, bench_search) with the
        same seeds, taking turns as the move timings do; the replies' ``check``
        values (plies played, moves found) must be equal. Each case is first
        sized: ``size_key`` (a batch of playouts, a search's iterations) is
        the power of two lasting at least ``size_s`` under CPython, judged
        from a probe at ``probe_size``. ``repeats`` and ``warmup`` replace
        the settings' for long samples; with ``extra``, that list of each
        reply (one value a sample) is gathered too."""
        s = self.settings
        self.page()  # started and warmed up before anything is timed
        probe = self.here(function, {"cases": [{**c, size_key: probe_size} for c in cases],
                                     "seed": self.seed, "warmup": 1, "repeats": 3})
        sizes = [batch_size(percentile(r["samples"], 50), size_s) for r in probe["results"]]
        request = {"cases": [{**c, size_key: n} for c, n in zip(cases, sizes)], "seed": self.seed,
                   "warmup": s.warmup if warmup is None else warmup,
                   "repeats": s.repeats if repeats is None else repeats}
        out = [Paired([], [], n, [], []) for n in sizes]
        for _ in range(s.passes):
            self.settle()
            here = self.here(function, request)
            self.settle()
            inside = self.inside(function, request)
            for case, a, b, found in zip(cases, here["results"], inside["results"], out):
                if a[check] != b[check]:
                    raise BenchError(f"CPython and Pyodide differ in {function} on {case['game']}: "
                                     f"{check} {a[check]} != {b[check]}")
                found.cpython.extend(a["samples"])
                found.pyodide.extend(b["samples"])
                if extra is not None:
                    found.cpython_extra.extend(a[extra])
                    found.pyodide_extra.extend(b[extra])
        return out


class Paired(NamedTuple):
    """One case of ``Bench.paired``: seconds per item under CPython and in
    the worker, the batch or search size, and the replies' ``extra``
    values (empty without it), one per sample as the seconds."""

    cpython: list[float]
    pyodide: list[float]
    size: int
    cpython_extra: list[Any]
    pyodide_extra: list[Any]


def batch_size(per_call_s: float, batch_s: float) -> int:
    """The power of two of calls that lasts at least ``batch_s``."""
    if per_call_s <= 0:
        return MAX_BATCH
    return min(MAX_BATCH, 1 << max(0, math.ceil(math.log2(batch_s / per_call_s))))


def progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


# -- strength ---------------------------------------------------------------------------
RANDOM = "random"  # a player that picks uniformly among the legal moves


@dataclass
class Tally:
    """Results of one side of a match: [wins, draws, losses] as first and as
    second player."""

    first: list[int] = field(default_factory=lambda: [0, 0, 0])
    second: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, seat: int, winner: int | None) -> None:
        into = self.first if seat == FIRST else self.second
        into[1 if winner is None else 0 if winner == seat else 2] += 1

    @property
    def wins(self) -> int:
        return self.first[0] + self.second[0]

    @property
    def draws(self) -> int:
        return self.first[1] + self.second[1]

    @property
    def losses(self) -> int:
        return self.first[2] + self.second[2]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @staticmethod
    def score_of(record: Sequence[int]) -> float | None:
        games = sum(record)
        return None if games == 0 else (record[0] + record[1] / 2) / games

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def arena_move(state: GameState, player: str, rng: random.Random) -> int:
    """``player``'s move: a level of the game's AI, or ``RANDOM``."""
    if player == RANDOM:
        return rng.choice(state.legal_moves())
    return ai.choose_move(state, player, seed=rng.getrandbits(31))


def play_match(game: str, settings: dict[str, Any], ours: str, theirs: str, games: int, seed: int) -> Tally:
    """``games`` games of ``ours`` against ``theirs``, who alternate the first
    move (ours first in game 0); each game is seeded on its own."""
    tally = Tally()
    for index in range(games):
        seat = FIRST if index % 2 == 0 else SECOND
        rng = random.Random(f"arena|{game}|{json.dumps(settings, sort_keys=True)}|{ours}|{theirs}|{seed}|{index}")
        state = GAMES[game].from_settings(settings)
        while not state.is_over():
            state.push(arena_move(state, ours if state.turn == seat else theirs, rng))
        outcome = state.outcome()
        assert outcome is not None
        tally.add(seat, outcome.winner)
    return tally


# -- the measurements -------------------------------------------------------------------
STARTUP_TITLE = "Start-up, headless Chromium, local server: ms from navigation, median (p10–p90)"
BYTES_TITLE = "Bytes sent by the server on a cold first visit (the app until the computer is ready and has moved)"
RESPONSIVE_TITLE = "Responsiveness: the page's main thread during whole games against the perfect computer"
MEMORY_TITLE = "Memory: the page's JS heap (after a full GC) and each interpreter's WebAssembly memory"
THROUGHPUT_TITLE = "Engine throughput: random playouts per second from the start, median (p10–p90)"
STRENGTH_TITLE = "Strength: arena matches of the strongest level, colours alternating (CPython)"
OPENSPIEL_TITLE = ("Strength against a plain UCT search in C++ (OpenSpiel's MCTSBot, random playouts), colours "
                   "alternating (ours under CPython)")


#: The visits of each start-up round, in order, in one browser profile.
TEMPERATURES = {"cold": "cold (empty cache)", "warm": "warm (second visit)", "returning": "returning (third visit)"}


def startup(bench: Bench) -> list[Row]:
    """Start-up against the bare-Pyodide floor, and the bytes of a cold visit."""
    visits = bench.startup_visits()
    bench.facts["startup_visits"] = visits
    rows = []
    for temperature, label in TEMPERATURES.items():
        if not visits["app", temperature]:
            continue
        app, floor = visits["app", temperature], visits["floor", temperature]
        paint = Stat.of([v.paint_s for v in app])
        floor_paint = Stat.of([v.paint_s for v in floor])
        ratio = Ratio.of([a.ready_s / f.ready_s for a, f in zip(app, floor)])
        rows += [
            Row(STARTUP_TITLE, {"visit": label, "milestone": "the shell's first contentful paint", "app": paint,
                                "bare Pyodide (floor)": floor_paint, "app ÷ floor": None,
                                "target": f"p90 < {TARGET_PAINT_S * 1000:.0f} ms: {verdict(paint.p90 < TARGET_PAINT_S)}"}),
            Row(STARTUP_TITLE, {"visit": label, "milestone": "the first board accepts a move (floor: Pyodide ready)",
                                "app": Stat.of([v.ready_s for v in app]),
                                "bare Pyodide (floor)": Stat.of([v.ready_s for v in floor]), "app ÷ floor": ratio,
                                "target": f"≤ {TARGET_FLOOR_RATIO:.2f}×: {verdict(at_most(ratio.median, TARGET_FLOOR_RATIO))}"}),
            Row(STARTUP_TITLE, {"visit": label, "milestone": "its longest main-thread task before then",
                                "app": Stat.of([v.longest_task_s for v in app]),
                                "bare Pyodide (floor)": Stat.of([v.longest_task_s for v in floor])}),
        ]
        pairs = [(a.computer_s, f.ready_s) for a, f in zip(app, floor) if a.computer_s is not None]
        if pairs:
            ratio = Ratio.of([computer / ready for computer, ready in pairs])
            rows.append(Row(STARTUP_TITLE, {
                "visit": label, "milestone": "the computer is ready (floor: Pyodide ready)",
                "app": Stat.of([computer for computer, _ in pairs]),
                "bare Pyodide (floor)": Stat.of([ready for _, ready in pairs]), "app ÷ floor": ratio,
                "target": f"≤ {TARGET_COMPUTER_RATIO:.1f}×: {verdict(at_most(ratio.median, TARGET_COMPUTER_RATIO))}"}))
        reference = visits.get(("pyscript", temperature), [])
        if reference:
            rows.append(Row(STARTUP_TITLE, {
                "visit": label, "milestone": "reference, not the app: PyScript started with runtime.js alone ready",
                "app": Stat.of([v.ready_s for v in reference]),
                "bare Pyodide (floor)": Stat.of([v.ready_s for v in floor]),
                "app ÷ floor": Ratio.of([r.ready_s / f.ready_s for r, f in zip(reference, floor)])}))
    return rows + bytes_rows(bench, visits)


@functools.lru_cache(maxsize=None)
def gzip_size(path: str) -> int | None:
    """The file's size gzipped at level 6 (what a host that compresses would
    send, about), or None when it is not a file here."""
    parts = Path(urllib.parse.unquote(path).lstrip("/")).parts
    if ".." in parts:
        return None
    file = ROOT.joinpath(*parts)
    if file.is_dir():
        file = file / "index.html"
    if not file.is_file():
        return None
    return len(gzip.compress(file.read_bytes(), compresslevel=6, mtime=0))


def tally_sent(sent: Sequence[Sent]) -> dict[str, Any]:
    """Requests, distinct files, bytes sent and their gzip estimate (files
    sent with a body, each counted every time it was sent)."""
    bodies = [s for s in sent if s.status == 200]
    return {
        "requests": len(sent),
        "not modified": sum(1 for s in sent if s.status == 304),
        "files": len({s.path for s in bodies}),
        "bytes": sum(s.bytes for s in sent),
        "gzip": sum((gzip_size(s.path) or s.body_bytes) + s.header_bytes for s in bodies),
    }


def bytes_rows(bench: Bench, visits: dict[tuple[str, str], list[Visit]]) -> list[Row]:
    """From the first round; the other rounds' cold visits are compared with it."""
    cold = visits["app", "cold"][0]
    total = tally_sent(cold.sent)
    others = {tally_sent(v.sent)["bytes"] for v in visits["app", "cold"]}
    if len(others) > 1:
        bench.notes.append(f"The cold app visits of the {len(visits['app', 'cold'])} rounds did not send the same: "
                           f"{format_bytes(min(others))} to {format_bytes(max(others))} (the table shows the first).")
    rows = []
    for part in PARTS:
        counted = tally_sent([s for s in cold.sent if part_of(s.path) == part])
        rows.append(Row(BYTES_TITLE, {
            "what": f"app, cold: {part}", "requests": counted["requests"], "of them 304": counted["not modified"],
            "files": counted["files"],
            "sent": format_bytes(counted["bytes"]), "share": format_percent(counted["bytes"] / max(1, total["bytes"])),
            "if gzipped (estimate)": format_bytes(counted["gzip"])}))
    rows.append(Row(BYTES_TITLE, {"what": "app, cold: **all**", "requests": total["requests"],
                                  "of them 304": total["not modified"], "files": total["files"],
                                  "sent": format_bytes(total["bytes"]), "share": format_percent(1),
                                  "if gzipped (estimate)": format_bytes(total["gzip"])}))
    for kind, temperature in (("floor", "cold"), ("app", "warm"), ("floor", "warm")):
        counted = tally_sent(visits[kind, temperature][0].sent)
        name = "bare Pyodide (floor)" if kind == "floor" else "app"
        rows.append(Row(BYTES_TITLE, {"what": f"{name}, {temperature}", "requests": counted["requests"],
                                      "of them 304": counted["not modified"], "files": counted["files"],
                                      "sent": format_bytes(counted["bytes"]),
                                      "if gzipped (estimate)": format_bytes(counted["gzip"])}))
    return rows


def notakto_long_games(bench: Bench) -> list[Row]:
    """Whole games on 6 boards against the perfect computer, right after
    start-up (before any warm-up: a player's first games), the human's side
    clicking random moves that close no board while another move is
    possible (long games); every main-thread task meanwhile, the player's
    moves and the computer's turns alike, and the memory after them."""
    app = bench.app()
    page = app.page
    page.get_by_test_id("setting-opponent").select_option("computer:perfect")
    page.get_by_test_id("setting-boards").select_option("6")
    if page.locator(".nk-board").count() != 6:
        raise BenchError("the Notakto screen did not switch to 6 boards")
    rng = random.Random(f"bench|long games|{bench.seed}")
    games = bench.settings.long_games
    plies: list[int] = []
    humans = 0
    bench.settle()
    progress(f"playing {games} whole game(s) on 6 boards against the perfect computer")
    start = page.evaluate(PROBE_START_JS)
    for index in range(games):
        if index:
            page.get_by_test_id("result-new-game").click()
        for _ in range(200):
            page.wait_for_function(MY_TURN_JS, timeout=THINK_TIMEOUT_MS)
            texts = page.locator("[data-testid=move-list] .move-text").all_inner_texts()
            if page.get_by_test_id("result").is_visible():
                plies.append(len(texts))
                break
            state = NotaktoState(6).replay(texts)
            page.get_by_test_id(f"cell-{state.move_to_text(rng.choice(quiet_moves(state)))}").click()
            humans += 1
            page.wait_for_function(f"document.querySelectorAll('[data-testid=move-list] li').length > {len(texts)}",
                                   timeout=10_000)
        else:
            raise BenchError("a game on 6 boards did not end in 200 moves")
    end, worst_block_ms = page.evaluate(PROBE_STOP_JS)
    tasks = [duration for at, duration in page.evaluate("window.__bench.longTasks") if start <= at <= end]
    bench.facts["memory_after_games"] = app.memory()
    bench.facts["long_games"] = (games, sum(plies))
    return [Row(RESPONSIVE_TITLE, {
        "game": "Notakto, 6 boards", "games": games, "moves (player · computer)": f"{humans} · {sum(plies) - humans}",
        "seconds": f"{(end - start) / 1000:.1f}",
        "long tasks (≥ 50 ms)": len(tasks), "longest task": "—" if not tasks else f"{max(tasks):.0f} ms",
        "longest block (10 ms probe)": f"{worst_block_ms:.0f} ms",
        "none over 50 ms": verdict(not tasks),
    })] + memory_rows(bench, ("memory_after_start", "after start (the computer ready)"),
                      ("memory_after_games", f"after {games} whole game(s) on 6 boards"))


ANALYSIS_TITLE = ("Analysing a game in the page: every position of a 40-move Hex 11 x 11 game at the default "
                  "budget, in the worker, and the page's main thread meanwhile")
#: The game the analysis bench opens: 40 moves of Hex 11 x 11 between two
#: levels of our engine (seeded, so the same game every run).
ANALYSIS_MOVES = 40


def analysis_game(seed: int) -> HexState:
    """A 40-move Hex 11 x 11 game, unfinished, played by the casual level
    for both sides (a seeded, reproducible game with mistakes to find)."""
    state = HexState(11, swap=False)
    engine = ai.new_engine("hex")
    while len(state.moves) < ANALYSIS_MOVES:
        move = engine.choose_move(state, "casual", seed=seed + len(state.moves))
        state.push(move)
        if state.is_over():  # (not at 40 moves on 11 x 11; start again if ever)
            state = HexState(11, swap=False)
            seed += 1000
    return state


def hex_analysis(bench: Bench) -> list[Row]:
    """A player's "Analyse" on a 40-move Hex 11 x 11 game opened from a share
    link, at the default budget per position: how long until every position
    is judged, and every main-thread task meanwhile (the worker thinks; the
    page only draws each answer: the graph, the move list, the bar)."""
    from app.model.analysis import DEFAULT_BUDGET
    from app.model.transfer import share_payload

    app = bench.app()
    page = app.page
    state = analysis_game(bench.seed)
    page.goto(f"{bench.browser().server.url}#/hex?g={share_payload(state, None)}")
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("[data-testid=analyse]", state="visible", timeout=READY_TIMEOUT_MS)
    page.get_by_test_id("analysis-budget").select_option(str(DEFAULT_BUDGET))
    if page.locator("[data-testid=move-text]").count() != ANALYSIS_MOVES:
        raise BenchError("the share link did not open the 40-move game")
    bench.settle()
    progress(f"analysing a {ANALYSIS_MOVES}-move Hex 11 x 11 game at {DEFAULT_BUDGET} s a position")
    start = page.evaluate(PROBE_START_JS)
    page.get_by_test_id("analyse").click()
    limit_ms = int((ANALYSIS_MOVES + 1) * (DEFAULT_BUDGET * 4 + 2) * 1000)
    page.wait_for_function("document.getElementById('analysis-progress-row').hidden"
                           " && document.querySelector('[data-testid=analysis-graph]') !== null", timeout=limit_ms)
    end, worst_block_ms = page.evaluate(PROBE_STOP_JS)
    tasks = [duration for at, duration in page.evaluate("window.__bench.longTasks") if start <= at <= end]
    judged = page.locator("[data-judgement]").count()
    seconds = (end - start) / 1000
    return [Row(ANALYSIS_TITLE, {
        "game": f"Hex 11 x 11, {ANALYSIS_MOVES} moves", "budget": f"{DEFAULT_BUDGET} s a position",
        "positions": ANALYSIS_MOVES + 1, "seconds": f"{seconds:.1f}",
        "per position": f"{format_ms(seconds / (ANALYSIS_MOVES + 1))} ms", "moves marked": judged,
        "long tasks (≥ 50 ms)": len(tasks), "longest task": "—" if not tasks else f"{max(tasks):.0f} ms",
        "longest block (10 ms probe)": f"{worst_block_ms:.0f} ms",
        "none over 50 ms": verdict(not tasks),
    })]


def memory_rows(bench: Bench, *readings: tuple[str, str]) -> list[Row]:
    rows = []
    for key, label in readings:
        m = bench.facts[key]
        wasm = [m["main_wasm"], m["worker_wasm"]]
        rows.append(Row(MEMORY_TITLE, {
            "when": label, "page JS heap": format_bytes(m["page_js"]),
            "main interpreter (wasm)": format_bytes(m["main_wasm"]),
            "AI worker interpreter (wasm)": "—" if m["worker_wasm"] is None else format_bytes(m["worker_wasm"]),
            "sum": format_bytes(m["page_js"] + sum(w for w in wasm if w is not None))}))
    return rows


BIG_BOARDS_TITLE = ("Memory on the biggest boards: the AI worker's WebAssembly memory after the strongest level "
                    "played both sides, keeping its tree between moves as in a game")
#: The biggest board of each game the strongest level searches on (the
#: worker's memory must stay under ``BIG_BOARD_MEMORY`` there), swap off so
#: that every move is searched.
BIG_BOARDS: list[tuple[str, dict[str, Any]]] = [("hex", {"size": 19, "swap": False}), ("y", {"size": 19, "swap": False})]
BIG_BOARD_MEMORY = 200_000_000  # bytes (issue 16)


def big_board_memory(bench: Bench) -> list[Row]:
    """The strongest Hex and Y level playing ``big_moves`` moves of a game
    on the biggest board in the page's worker (``bench_game``), one engine
    for the whole game, as the app holds it; then the worker's WebAssembly
    memory, which only grows, so it is the most the worker has held."""
    s = bench.settings
    rows = []
    for game, settings in BIG_BOARDS:
        state = GAMES[game].from_settings(settings)
        level = ai.levels(game)[-1]
        request = {"game": state.to_dict(), "level": level, "moves": s.big_moves, "move_time": s.big_move_s,
                   "seed": bench.seed}
        label = game_label(game, settings)
        progress(f"{label}: {s.big_moves} moves of {level} at {s.big_move_s:g} s in the worker")
        bench.settle()
        before = bench.page().memory()["worker_wasm"]
        reply = bench.inside("bench_game", request)
        after = reply["wasm_bytes"]
        rows.append(Row(BIG_BOARDS_TITLE, {
            "game": label, "level": level, "moves": len(reply["moves"]),
            "seconds per move, mean": f"{sum(reply['seconds']) / max(1, len(reply['seconds'])):.2f}",
            "worker before": format_bytes(before), "worker after": format_bytes(after),
            f"under {BIG_BOARD_MEMORY // 1_000_000} MB": verdict(after < BIG_BOARD_MEMORY)}))
    return rows


def memory_at_end(bench: Bench) -> list[Row]:
    """The same figures once every engine measurement has run in the page."""
    if bench._app is None:
        return []
    bench.facts["memory_at_end"] = bench._app.memory()
    return memory_rows(bench, ("memory_at_end", "at the end of the bench (every engine measurement run)"))


ENGLISH = json.loads((ROOT / "i18n" / "en.json").read_text(encoding="utf-8"))


def board_of(game: str, size: int | None = None) -> dict[str, Any]:
    """The settings that size the game's board (``registry.Game.board_size``):
    ``size``, or the default; none for a board of one size."""
    setting = registry.GAMES[game].board_size
    if not isinstance(setting, str):
        return {}
    return {setting: registry.GAMES[game].setting(setting).default if size is None else size}


def game_label(game: str, settings: dict[str, Any]) -> str:
    """"Hex, 11 × 11": the game and its board's size as the app says them in English."""
    parts = [ENGLISH[f"games.{game}.name"]]
    for setting in registry.GAMES[game].settings:
        if setting.name in settings:
            key, params = setting.value_label(settings[setting.name])
            parts.append(ENGLISH[key].format(**params))
    return ", ".join(parts)


#: Random playouts from each game's start: (label, game, settings), every
#: game of the registry on its default board (each plays through its own push).
PLAYOUTS: list[tuple[str, str, dict[str, Any]]] = [
    (game_label(game, board_of(game)), game, board_of(game)) for game in registry.GAMES
]


def throughput(bench: Bench) -> list[Row]:
    cases = [{"game": game, "settings": settings} for _, game, settings in PLAYOUTS]
    rows = []
    timings = bench.paired("bench_playouts", cases, "batch", 4, bench.settings.playout_batch_s, "plies")
    for (label, _, _), (cpython, pyodide, batch, _, _) in zip(PLAYOUTS, timings):
        rows.append(rate_row(THROUGHPUT_TITLE, label, cpython, pyodide, {"playouts per sample": batch}))
    return rows


def rate_row(title: str, label: str, cpython: Sequence[float], pyodide: Sequence[float],
             extra: dict[str, Any]) -> Row:
    """A row of rates (from seconds per item) in both runtimes, with
    Pyodide's speed as a share of CPython's against the target."""
    native, inside = Stat.rates(cpython), Stat.rates(pyodide)
    speed = inside.median / native.median
    return Row(title, {
        "game": label, "CPython": native, "Pyodide worker": inside,
        "Pyodide speed ÷ CPython": Ratio(speed), f"≥ {TARGET_SPEED:g}×": verdict(at_least(speed, TARGET_SPEED)),
        **extra})


SEARCH_TITLE = ("Engine search from the start position: the engines' own MCTS iterations per second "
                "(their playout policies, trees and proofs), median (p10–p90)")
#: The searching engines (those with ``search``), each from its start
#: position on its default board: (label, game, settings).
SEARCHES: list[tuple[str, str, dict[str, Any]]] = [
    entry for entry in PLAYOUTS if hasattr(ai.engine(entry[1]), "search")
]


def level_budgets(game: str, rate: float) -> str:
    """Each level's budget (iterations and seconds, whichever ends first)
    and, at ``rate`` iterations per second, the seconds it thinks."""
    engine = ai.ENGINES[game]
    settings = engine.LEVEL_SETTINGS
    parts = []
    for name in engine.LEVELS:
        level = settings[name]
        seconds = level.seconds if level.iterations is None else min(level.seconds, level.iterations / rate)
        cap = "∞" if level.iterations is None else f"{level.iterations:,}"
        parts.append(f"{name} {cap} it / {level.seconds:g} s → {seconds:.2g} s")
    return "; ".join(parts)


def search_throughput(bench: Bench) -> list[Row]:
    cases = [{"game": GAMES[game].from_settings(settings).to_dict()} for _, game, settings in SEARCHES]
    timings = bench.paired("bench_search", cases, "iterations", 64, bench.settings.search_s, "moves")
    rows = []
    for (label, game, _), (cpython, pyodide, iterations, _, _) in zip(SEARCHES, timings):
        rows.append(rate_row(SEARCH_TITLE, label, cpython, pyodide, {
            "iterations per search": iterations,
            "levels: budget → thinking time in the worker": level_budgets(game, Stat.rates(pyodide).median)}))
    return rows


MASTER_TITLE = ("The master level's search from the start position (Ultimate Tic-Tac-Toe, Hex 11×11, Y side 13): "
                "playouts and tree nodes per second with its knowledge, median (p10–p90)")
#: The games whose master level searches with knowledge of its own (UTTT:
#: the evaluation's minimax at every node; Hex and Y: ``ai.connection``'s
#: selection, priors and H-search at the tree's nodes).
MASTER_SEARCHES = [entry for entry in SEARCHES if entry[1] in ("uttt", "hex", "y")]


def master_search(bench: Bench) -> list[Row]:
    """Master's own search (``bench_search`` with ``master``) for about a
    second or two: its playouts (iterations) and the tree nodes it creates
    per second, in both runtimes. The exact solver's tables are cleared
    before each search, so each does its own H-search work."""
    s = bench.settings
    cases = [{"game": GAMES[game].from_settings(settings).to_dict(), "master": True}
             for _, game, settings in MASTER_SEARCHES]
    timings = bench.paired("bench_search", cases, "iterations", 2048, s.master_search_s, "moves",
                           repeats=s.master_repeats, warmup=1, extra="nodes")
    rows = []
    for (label, _, _), (cpython, pyodide, iterations, here, inside) in zip(MASTER_SEARCHES, timings):
        # seconds per node: (seconds per iteration) / (nodes per iteration), sample by sample
        rows.append(rate_row(MASTER_TITLE, f"{label}, master", cpython, pyodide, {
            "iterations per search": iterations,
            "nodes/s CPython": Stat.rates([t / n for t, n in zip(cpython, here)]),
            "nodes/s Pyodide worker": Stat.rates([t / n for t, n in zip(pyodide, inside)])}))
    return rows


def engine_cells(timings: Sequence[Timings]) -> dict[str, Any]:
    """The columns every engine row shares, for one case or several pooled
    (``Stat.pooled``). Pyodide's speed ÷ CPython's is the ratio of those
    figures (CPython's time ÷ Pyodide's); the 50 ms target is judged on the
    round trip's p90."""
    native = Stat.pooled([x.cpython for x in timings])
    inside = Stat.pooled([x.pyodide for x in timings])
    felt = Stat.pooled([x.round_trip for x in timings])
    speed = native.median / inside.median
    return {
        "CPython": native,
        "Pyodide worker": inside,
        "Pyodide speed ÷ CPython": Ratio(speed),
        f"≥ {TARGET_SPEED:g}×": verdict(at_least(speed, TARGET_SPEED)),
        "round trip (felt)": felt,
        "< 50 ms": verdict(felt.p90 < TARGET_S),
    }


def notakto_perfect(bench: Bench) -> list[Row]:
    """The perfect level on 6 boards, position by position."""
    title = "Notakto, perfect level, 6 boards: time per move, ms, median (p10–p90)"
    positions = notakto_positions(6, bench.seed)
    timings = bench.move_timings([(position, "perfect") for position in positions])
    rows = [Row(title, {"position": p.label, "moves · live · empty": p.describe(), **engine_cells([t])})
            for p, t in zip(positions, timings)]
    rows.append(Row(title, {"position": f"all {len(positions)}: mean of medians", **engine_cells(timings)}))
    return rows


def notakto_levels(bench: Bench) -> list[Row]:
    """Every level on 3 and 6 boards (quick: 6), the positions pooled."""
    title = "Notakto, every level, the 7 positions pooled: time per move, ms, mean of medians (p10–p90)"
    groups = {(boards, level): [(position, level) for position in notakto_positions(boards, bench.seed)]
              for boards in bench.settings.level_boards for level in notakto_ai.LEVELS}
    timings = iter(bench.move_timings([case for cases in groups.values() for case in cases]))
    return [Row(title, {"level": level, "boards": boards, **engine_cells([next(timings) for _ in cases])})
            for (boards, level), cases in groups.items()]


#: Arena pairings played here, in CPython: (game label, game, settings, our
#: strongest level, its opponents): Notakto, which has no OpenSpiel match,
#: on its default and its largest board, against random play and each
#: weaker level.
_NOTAKTO = registry.GAMES["notakto"]
ARENA: list[tuple[str, str, dict[str, Any], str, tuple[str, ...]]] = [
    (game_label("notakto", board), "notakto", board, _NOTAKTO.levels.strongest, (RANDOM, *_NOTAKTO.levels.names[:-1]))
    for board in (board_of("notakto"), board_of("notakto", max(_NOTAKTO.setting("boards").values)))
]


def strength_row(game: str, ours: str, opponent: str, tally: Tally) -> Row:
    low, high = wilson(tally.wins + tally.draws / 2, tally.games)
    first, second = Tally.score_of(tally.first), Tally.score_of(tally.second)
    return Row(STRENGTH_TITLE, {
        "game": game, "ours": ours, "opponent": opponent, "games": tally.games,
        "W-D-L": f"{tally.wins}-{tally.draws}-{tally.losses}", "score": format_percent(tally.score),
        "95% CI": f"{format_percent(low)}–{format_percent(high)}",
        "score moving first · second": " · ".join("—" if x is None else format_percent(x) for x in (first, second)),
    })


def strength(bench: Bench) -> list[Row]:
    rows = []
    games = bench.settings.arena_games
    for label, game, settings, ours, opponents in ARENA:
        for opponent in opponents:
            progress(f"arena: {label}, {ours} vs {opponent}, {games} games")
            rows.append(strength_row(label, ours, opponent, play_match(game, settings, ours, opponent, games, bench.seed)))
    return rows


#: Matches against OpenSpiel's MCTSBot (tools/arena.py, in a subprocess):
#: (label, game, size or None) for each searching game (tools/arena.py
#: translates its moves), each at equal time and at half time. Boards of
#: side 11 (Hex's default; Y's is 13), as in the matches README reports.
OPENSPIEL_SIZE = 11
OPENSPIEL: list[tuple[str, str, int | None]] = [
    (game_label(game, board_of(game, OPENSPIEL_SIZE)), game, board_of(game, OPENSPIEL_SIZE).get("size"))
    for _, game, _ in SEARCHES
]
TARGET_EQUAL_TIME = 0.6  # the strongest level's score against OpenSpiel at equal time
TARGET_HALF_TIME = 0.5  # and with half OpenSpiel's time
#: A game's own time factors and targets, where they are not those two
#: (full mode; quick mode plays ``openspiel_factors`` and judges nothing):
#: Ultimate Tic-Tac-Toe at equal time and a quarter of it (issue 17).
OPENSPIEL_TARGETS: dict[str, tuple[tuple[float, float], ...]] = {"uttt": ((1.0, 0.75), (0.25, 0.6))}


def openspiel_plan(game: str, settings: Settings) -> tuple[tuple[float, float | None], ...]:
    """The matches of one game against OpenSpiel: (our time factor, the
    score it should reach or None). Full mode plays the game's own factors;
    quick mode plays ``settings.openspiel_factors`` (and judges nothing)."""
    own = OPENSPIEL_TARGETS.get(game, ((1.0, TARGET_EQUAL_TIME), (0.5, TARGET_HALF_TIME)))
    if settings.name != "quick":
        return own
    return tuple((factor, dict(own).get(factor)) for factor in settings.openspiel_factors)


def run_arena(game: str, size: int | None, games: int, move_time: float, factor: float, check_games: int,
              seed: int, calibration_sims: int = 2000) -> dict[str, Any]:
    """One match of tools/arena.py (our strongest level, CPython, against
    OpenSpiel's MCTSBot), its JSON summary."""
    command = [sys.executable, str(ROOT / "tools" / "arena.py"), "--game", game, "--games", str(games),
               "--move-time", str(move_time), "--our-time-factor", str(factor), "--check-games", str(check_games),
               "--seed", str(seed), "--jobs", str(min(2, os.cpu_count() or 1)), "--json",
               "--calibration-sims", str(calibration_sims)]
    if size is not None:
        command += ["--size", str(size)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"tools/arena.py --game {game} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout)


def openspiel_strength(bench: Bench) -> list[Row]:
    """The strongest level of each searching game against a plain UCT search
    in C++ (OpenSpiel's MCTSBot), at equal and at half time per move."""
    s = bench.settings
    if importlib.util.find_spec("pyspiel") is None:
        bench.notes.append("**OpenSpiel is not installed** (`pip install -r requirements-bench.txt`; `make bench` "
                           "does it): no matches against it were played.")
        return []
    rows = []
    for label, game, size in OPENSPIEL:
        for factor, target in openspiel_plan(game, s):
            progress(f"arena: {label} against OpenSpiel MCTSBot, our time ×{factor:g}, {s.openspiel_games} games")
            bench.settle()
            found = run_arena(game, size, s.openspiel_games, s.openspiel_move_s, factor, s.openspiel_check_games,
                              bench.seed, 2000 if s.name == "full" else 300)
            bench.facts.setdefault("openspiel", []).append(found)
            score = found["score"]
            rows.append(Row(OPENSPIEL_TITLE, {
                "game": label, "ours": f"{found['level']} ({factor:g}× time)",
                "opponent": f"OpenSpiel MCTSBot, {s.openspiel_move_s:g} s/move (~{found['sims_per_decision']:,.0f} "
                            "simulations)",
                "games": found["games"], "W-D-L": f"{found['wins']}-{found['draws']}-{found['losses']}",
                "score": format_percent(score),
                "95% CI": f"{format_percent(found['ci_low'])}–{format_percent(found['ci_high'])}",
                "s/move ours · theirs": f"{found['our_s_per_move']:.2f} · {found['their_s_per_move']:.2f}",
                "target": "—" if target is None else "not judged in quick mode" if s.name == "quick" else (
                    f"≥ {target:.0%}: {verdict(score >= target)}"
                    + (" (CI above)" if found["ci_low"] >= target else " (CI spans it)" if found["ci_high"] >= target
                       else " (CI below)")),
            }))
    return rows


PUZZLES_TITLE = "Hex puzzles: textbook positions with a single winning idea, solved by the strongest level"
SOLVER_TITLE = ("The exact solver proving Hex puzzles from scratch (a fresh solver each time): ms a proof, "
                "median (p10–p90), and proof-search nodes per second")


def solver_speed(bench: Bench) -> list[Row]:
    """The exact solver (``bench_solve``: ``ai.solver`` from scratch, no
    time share, no search) on some 6 x 6 puzzles, in both runtimes: the
    same nodes and move in each, so the ratio of the times is the ratio
    of the speeds on the solver's own work (H-search, nearly all of it),
    which sets how many puzzles the strongest level proves in its time."""
    s = bench.settings
    tool = _load_puzzles_tool()
    puzzles = [p for p in tool.load_puzzles() if p["id"] in s.solver_puzzles]
    states = [tool.puzzle_state(puzzle)[0] for puzzle in puzzles]
    request = {"cases": [{"game": state.to_dict()} for state in states], "repeats": s.solver_repeats,
               "seconds": s.solver_limit_s}
    progress(f"the exact solver: {len(puzzles)} puzzles, {s.solver_repeats} proofs each, in CPython and in the worker")
    bench.settle()
    native = bench.here("bench_solve", request)
    bench.settle()
    inside = bench.inside("bench_solve", request)
    rows: list[Row] = []
    native_sum = inside_sum = 0.0  # the medians, summed
    for puzzle, state, here, there in zip(puzzles, states, native["results"], inside["results"]):
        if (here["nodes"], here["moves"]) != (there["nodes"], there["moves"]):
            raise BenchError(f"CPython and Pyodide proved {puzzle['id']} differently: nodes {here['nodes']} and "
                             f"{there['nodes']}, moves {here['moves']} and {there['moves']}")
        nodes = here["nodes"][0]
        proven = {1: "won", -1: "lost"}.get(here["values"][0], f"not in {s.solver_limit_s:g} s")
        native_s, inside_s = percentile(here["samples"], 50), percentile(there["samples"], 50)
        native_sum += native_s
        inside_sum += inside_s
        rows.append(Row(SOLVER_TITLE, {
            "puzzle": puzzle["id"], "empty cells": state.owners().count(-1), "proof": proven, "nodes": nodes,
            "CPython": Stat.of(here["samples"]), "Pyodide worker": Stat.of(there["samples"]),
            "Pyodide speed ÷ CPython": Ratio(native_s / inside_s),
            "nodes/s CPython · worker": f"{nodes / native_s:,.0f} · {nodes / inside_s:,.0f}"}))
    if len(rows) > 1:
        rows.append(Row(SOLVER_TITLE, {
            "puzzle": f"all {len(rows)}: the medians summed", "empty cells": "", "proof": "",
            "nodes": sum(row.cells["nodes"] for row in rows), "CPython": format_ms(native_sum),
            "Pyodide worker": format_ms(inside_sum), "Pyodide speed ÷ CPython": Ratio(native_sum / inside_sum),
            "nodes/s CPython · worker": ""}))
    return rows


def _load_puzzles_tool() -> Any:
    """tools/puzzles.py: the puzzles, their positions and answers."""
    return load_module("puzzles", ROOT / "tools" / "puzzles.py")


def hex_puzzles(bench: Bench) -> list[Row]:
    """tests/data/hex_puzzles.json (tools/puzzles.py): the strongest Hex
    level given ``puzzle_s`` per puzzle, under CPython and in the page's
    worker: how many it solves (plays a winning move)."""
    s = bench.settings
    tool = _load_puzzles_tool()
    puzzles = tool.load_puzzles()
    level = ai.levels("hex")[-1]
    states = [tool.puzzle_state(puzzle) for puzzle in puzzles]
    # One request a puzzle, as the page asks its worker for one move at a
    # time: all 38 in one request (a task of over a minute in the worker)
    # ran at about 1.6 times the worker's usual time per puzzle in three
    # runs of six (2026-12-04: 27-31 solved; one request a puzzle: 28-31 in
    # seven runs, none slow; README, issue 16).
    requests = [{"cases": [{"game": state.to_dict(), "level": level, "seed": bench.seed, "move_time": s.puzzle_s}]}
                for state, _ in states]
    progress(f"hex puzzles: {len(puzzles)} at {s.puzzle_s:g} s each, in CPython and in the worker")
    bench.settle()
    runs = [("CPython", [bench.here("bench_choose", request)["results"][0] for request in requests])]
    if s.puzzles_in_browser:
        bench.settle()
        runs.append(("Pyodide worker", [bench.inside("bench_choose", request)["results"][0] for request in requests]))
    bench.facts["puzzles"] = (len(puzzles), sum(map(tool.made_here, puzzles)))  # (all, made here)
    rows = []
    for where, results in runs:
        by_size: dict[int, list[bool]] = {}
        published: list[bool] = []  # the puzzles from public collections (not made here)
        seconds = []
        for puzzle, (state, exchanged), result in zip(puzzles, states, results):
            solved = state.parse_move(result["move"]) in tool.answers(puzzle, exchanged)
            by_size.setdefault(puzzle["size"], []).append(solved)
            if not tool.made_here(puzzle):
                published.append(solved)
            seconds.append(result["seconds"])
        solved = sum(sum(flags) for flags in by_size.values())
        rows.append(Row(PUZZLES_TITLE, {
            "runtime": where, "level": level, "time per puzzle": f"{s.puzzle_s:g} s",
            **{f"{size}×{size}": f"{sum(flags)}/{len(flags)}" for size, flags in sorted(by_size.items())},
            "from public collections": f"{sum(published)}/{len(published)}",
            "solved": f"{solved}/{len(puzzles)} ({format_percent(solved / len(puzzles))})",
            "time used, median": f"{percentile(seconds, 50):.2f} s"}))
    return rows


#: Every measurement, in order. Each returns rows; add new figures here.
MEASUREMENTS: list[Callable[[Bench], list[Row]]] = [
    startup, notakto_long_games, hex_analysis, throughput, search_throughput, master_search, notakto_perfect,
    notakto_levels,
    hex_puzzles, solver_speed, big_board_memory, memory_at_end, strength, openspiel_strength,
]


# -- the report -------------------------------------------------------------------------
def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_revision() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "no git"
    return f"commit {head}{' + local changes' if dirty else ''}"


def pyodide_version() -> str:
    try:
        return json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "?"


def header(bench: Bench, started: datetime.datetime, load: float) -> str:
    s, facts = bench.settings, bench.facts
    pyodide = f"Pyodide {pyodide_version()} (Python {facts['pyodide_python']})" if "pyodide_python" in facts \
        else "Pyodide not used"
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30 if hasattr(os, "sysconf") else 0
    return (f"**Bench {started:%Y-%m-%d %H:%M} UTC** · {cpu_model()}, {os.cpu_count()} cores, {memory:.0f} GiB, "
            f"load {load:.2f} · CPython {platform.python_version()} · {pyodide}"
            f" · Chromium {facts.get('chromium', 'not used')} (headless) · {git_revision()}"
            f" · {s.name}: {s.samples} samples per engine case, {s.startup_rounds} start-up rounds, seed {bench.seed}")


def method_notes(bench: Bench, elapsed: float) -> list[str]:
    s, facts = bench.settings, bench.facts
    notes = []
    visits = facts.get("startup_visits")
    if visits:
        warm = visits["app", "warm"]
        cold = visits["app", "cold"][0]
        worker_bytes = tally_sent(cold.sent)["bytes"] - cold.page_bytes
        notes += [
            f"Start-up: {s.startup_rounds} rounds; in each, the app (`{APP_PATH}`, a player's page: no bench "
            f"hooks, the product's worker) and the floor (`{FLOOR_PATH}`: the "
            "same vendored Pyodide loaded as the app's runtime.js loads it, `loadPyodide({indexURL})`, one statement run, "
            "nothing else) take turns (A B, then B A), each in a new browser profile (an empty HTTP cache on disk, "
            "as a player's browser has it): a cold visit, then a warm one in a second tab, then a returning one in "
            "a third (the app's second visit is the first its service worker serves, see below; not in quick "
            "mode). Between the "
            "first two the floor "
            "gets one more visit, not measured (`?prime`: a second of ordinary Python, then 3 s idle): V8 keeps "
            "compiled WebAssembly in the cache only once enough code has been optimised, which the app's first "
            "visit (two interpreters starting, the computer's first move) may do and a bare `1 + 1` may not, and "
            "the floor must be the best bare Pyodide can do. The cold visits' reference row is a third page, "
            f"`{PYSCRIPT_FLOOR_PATH}`, visited cold in each round in a new profile (first, between or last in "
            "turn): PyScript started with the app's runtime.js and its start-up path preloaded as index.html "
            "preloads it, running a program that only marks the page ready; what any page built as the app is "
            "pays before its own code runs (its ratio: over the same round's cold floor). "
            "Same server, same Chromium, same flags. Times are "
            "from navigation start: the "
            "first-contentful-paint entry; the moment the page sets `body[data-ready]` (the app: Python ready "
            "and the board drawn; the floor: Pyodide ready); the app's `computer-ready` mark (its worker ready "
            "to answer, its engines imported; the floor column of that row is the floor's ready time again, the "
            "ratio the computer's time over it" + ("" if s.warm_computer else "; not timed on returning visits in "
                                                   "quick mode") + "). Longest task: the longest `longtask` entry (a main-thread task of 50 ms or more) that started "
            "before the page was ready: while it runs the shell can neither repaint nor answer. After each app "
            "visit a click on a cell was checked to land (a mark appeared). App ÷ floor: the "
            "median (p10–p90) of the ratios of the visits made side by side in each round.",
            "Caching: the bench's server is the end-to-end tests' (Python's http.server: Last-Modified, 304 for "
            f"If-Modified-Since) plus `Cache-Control: {CACHE_CONTROL}` on every file, as GitHub Pages sends, so a "
            f"second visit within ten minutes asks the server nothing: on the first warm visit the app's page took "
            f"{warm[0].from_cache} of {warm[0].resources} resources from its caches and the server sent "
            f"{format_bytes(tally_sent(warm[0].sent)['bytes'])} in {len(warm[0].sent)} requests. No request is "
            "routed (Playwright's routing turns the cache off); other hosts do not resolve (Chromium's "
            "`--host-resolver-rules`)." + (
                " The app registered a service worker: each cold visit waited until it was active (its precache "
                "requests count in the cold visit's bytes), and the later visits were served by it. V8 keeps the "
                "compiled WebAssembly with the response it compiled: the cold visit's code is cached with the HTTP "
                "cache's copy, which the service worker does not serve, so the warm visit compiles the interpreter "
                "again (from the service worker's cache) and the returning visit is the first that can skip it. "
                "The cold visit's worker kept a snapshot of its started interpreter (runtime.js), which the page "
                "and the worker of the later visits restored."
                if facts.get("service_worker") else ""),
            "Bytes: counted by the server (status line, headers and body of every response), so the worker's "
            "requests are in (they are not in the page's own network events or Resource Timing, which counts "
            f"{format_bytes(cold.page_bytes)} for the page; the worker's requests added "
            f"{format_bytes(max(0, worker_bytes))}: it found the runtime in the cache the page had just filled). "
            "The local server does not compress; "
            "\"if gzipped\" is each file gzipped at level 6, what a host that compresses everything would send, "
            "about (GitHub Pages compresses text; WebAssembly too, in our experience, but check).",
        ]
    if "long_games" in facts:
        games, plies = facts["long_games"]
        notes.append(
            f"Responsiveness: {games} whole game(s) against the perfect computer on 6 boards ({plies} moves), played "
            "in the page right after start-up (before the engine warm-up: a player's first games, with V8 still "
            "optimising; this page and the engine figures' are opened as the harness, `window.appHarness`: the "
            "bench hooks on the page, py/bench_worker.py in the worker, the same engine code as a player's), "
            "the player's moves clicked on the board: random moves that close no board while another "
            "is possible. Long tasks: the browser's `longtask` entries (main-thread tasks of 50 ms or more) between "
            "the first and the last move, during the player's moves and the computer's turns alike (so also "
            "during its thinking, its 350 ms pause included). Longest block: the largest delay of a 10 ms interval "
            "timer beyond its period, which sees blocks shorter than 50 ms too.")
    if "memory_after_start" in facts:
        notes.append(
            "Memory: `performance.memory.usedJSHeapSize` of the page (Chromium with `--enable-precise-memory-info`) "
            "after a full garbage collection (DevTools protocol `HeapProfiler.collectGarbage`; the worker's own JS "
            "heap is not reachable this way and is not counted); each interpreter's WebAssembly memory "
            "(`pyodide_js._module.HEAPU8.length`, read by Python in the main interpreter and in the worker: the "
            "whole Python heap, which grows and never shrinks).")
    if bench._moves:
        batches = sorted({t.batch for t in bench._moves.values()})
        resolution = ", ".join(f"{name} {facts[key] * 1e6:.3g} µs" for name, key in (
            ("CPython", "cpython_timer_s"), ("worker", "worker_timer_s"), ("page", "page_timer_s")) if key in facts)
        notes += [
            "Throughput: random playouts (uniform random legal moves through `push`, from the start position) per "
            "second, `bench_playouts` in py/bench_worker.py run by CPython here and by the worker's Pyodide, the same "
            "seeds in both, their plies checked equal; a sample is a batch of playouts lasting at least "
            f"{s.playout_batch_s * 1000:g} ms under CPython. Pyodide speed ÷ CPython: the ratio of the median "
            f"rates (of times, for moves); target ≥ {TARGET_SPEED:g}×.",
            "Move-time positions: the empty board, then early/middle/late positions (about 25/50/80 % into a game) "
            "from seeded random play in which nobody closes a board needlessly; won/lost is the result for the "
            "player to move under perfect play. Moves · live · empty: moves played, live boards, their empty "
            "cells. `tools/bench.py --positions` lists the moves.",
            "CPython and the Pyodide worker run the same function (`bench_moves`, py/bench_worker.py) on the same "
            "positions with the same seeds (call i uses seed + i); their chosen moves were checked to be equal.",
            f"A CPython or worker move sample is the mean time per call of a batch of calls ({batches[0]}–"
            f"{batches[-1]}, a power of two making the CPython batch last ≥ {s.batch_s * 1000:g} ms; the worker runs "
            f"the same batch), because the browser coarsens its clock (resolution: {resolution}).",
            "Round trip (felt): one move per sample, timed on the page's main thread around "
            "`await Engine.choose_move(...)` as the app calls it (JSON, messages to and from the worker, the "
            "worker's work; not the app's deliberate pause before the computer moves). < 50 ms: met when the "
            f"round trip's p90 is under {TARGET_S * 1000:g} ms.",
            f"Order: CPython, worker and round trips take turns, {s.passes} pass{'es' if s.passes > 1 else ''} "
            "of each; in a pass every case "
            f"first runs {s.warmup} warm-up batch{'es' if s.warmup > 1 else ''} (or round trips), dropped, then the cases take turns for "
            f"{s.repeats} kept samples each: {s.samples} samples per case in all. Pooled rows: the mean of the "
            "cases' medians, with the p10–p90 of all their samples.",
        ]
    warm = [(label, facts[key]) for label, key in (("worker", "warm_appBench"), ("page", "warm_appBenchRoundTrip"))
            if key in facts]
    if warm:
        parts = [f"{label} {seconds:.1f} s ({format_ms(first)} → {format_ms(last)} ms"
                 f"{'' if settled else ', NOT settled'})" for label, (seconds, first, last, settled) in warm]
        notes.append("Before the engine figures, the page was warmed up on perfect moves on 6 empty boards until "
                     "their speed settled (V8 first runs Pyodide's WebAssembly unoptimised and optimises the hot "
                     f"parts in the background): {'; '.join(parts)}.")
    solved = "; ".join(f"on {boards} boards the {'first' if outcome_of(NotaktoState(boards)) == 'won' else 'second'}"
                       " player wins"
                       for boards in sorted({settings["boards"] for _, game, settings, _, _ in ARENA
                                             if game == "notakto"}))
    notes.append(
        f"Strength: Notakto is solved (with perfect play {solved}), so the perfect "
        "level can lose only from a lost position, against an opponent who then makes no mistake. "
        f"{s.arena_games} games per pairing, in CPython (the moves are the same in Pyodide: checked "
        "above), colours alternating (ours first in even games), every game seeded on its own; a draw counts "
        "half. 95% CI: the Wilson score interval. `random` picks uniformly among the legal moves.")
    if "puzzles" in facts:
        count, made = facts["puzzles"]
        notes.append(
            f"Hex puzzles: the {count} positions of tests/data/hex_puzzles.json, each with its known winning "
            f"moves: {count - made} from public collections (Benzene's puzzle suite), {made} made here (random "
            "positions with a single winning move); tools/puzzles.py proves the small ones. Each was "
            f"given to the strongest level with `move_time` {s.puzzle_s:g} s and no tree kept from before "
            "(`bench_choose` in py/bench_worker.py, one request a puzzle as the page asks for one move at a time, "
            "the same seed in both runtimes); solved: it played a winning move.")
    if "openspiel" in facts:
        first_match: dict[str, dict[str, Any]] = {}  # each game's first match, with its rules check
        for match in facts["openspiel"]:
            first_match.setdefault(match["game"], match)
        checked = "; ".join(f"{game}: {m['rules_check_games']} games, {m['rules_check_positions']:,} positions"
                            for game, m in first_match.items())
        notes.append(
            "Against OpenSpiel: `tools/arena.py --json` per match (its module doc has the details): OpenSpiel "
            "2.0.2's MCTSBot (uct_c 2, one random rollout per simulation, no solver) gets the simulations that "
            f"fit {s.openspiel_move_s:g} s a move on this machine, its speed measured per stage of the game and "
            "tracked move by move; ours, the strongest level with `move_time` = that times the factor, tree "
            f"reuse on. {s.openspiel_games} games per match, two at a time (one per core), colours alternating, "
            "Hex and Y without the swap rule (OpenSpiel has none). Before each match random games went through "
            f"both engines and agreed on every legal move and result ({checked}). A free choice in OpenSpiel's "
            "Ultimate Tic-Tac-Toe is two decisions, each with the whole budget: there it thinks twice as long. "
            "Targets (issues 5 and 6): ≥ 60 % at equal time, ≥ 50 % at half time; Ultimate Tic-Tac-Toe (issue "
            "17): ≥ 75 % at equal time, ≥ 60 % with a quarter of the time."
            + (" Quick mode: a couple of very short games, to see that it all runs; the figures mean nothing."
               if s.name == "quick" else ""))
    if bench._starts:
        busy = [b for b in bench._starts if b >= Bench.QUIET]
        notes.append(f"Before each phase the bench waits for a quiet machine (under {Bench.QUIET:.0%} CPU busy), "
                     f"{s.quiet_wait_s:g} s at most in all; it waited {bench._waited_s:.0f} s; "
                     + (f"**{len(busy)} of {len(bench._starts)} phases started on a busy machine** (up to "
                        f"{max(busy):.0%} CPU: another process was running; the figures are noisier)." if busy
                        else f"all {len(bench._starts)} phases started on a quiet machine."))
    notes.append(f"The bench took {elapsed:.0f} s.")
    return notes + bench.notes


def list_positions(seed: int) -> str:
    lines = []
    for boards in (3, 6):
        for position in notakto_positions(boards, seed):
            lines.append(f"{boards} boards, {position.label}: {' '.join(position.moves) or '(no moves)'}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples and games (under two minutes)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="positions, move and game seeds")
    parser.add_argument("--positions", action="store_true", help="print the positions' moves and stop")
    args = parser.parse_args(argv)
    if args.positions:
        sys.stdout.write(list_positions(args.seed))
        return 0
    bench = Bench(QUICK if args.quick else FULL, args.seed)
    started = datetime.datetime.now(datetime.timezone.utc)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    clock = time.monotonic()
    rows: list[Row] = []
    try:
        for measure in MEASUREMENTS:
            progress(f"{measure.__name__} ({time.monotonic() - clock:.0f} s)")
            rows += measure(bench)
        bench.finish()
    except BenchError as error:
        print(f"bench: FAILED: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # noqa: BLE001 - any failure must fail the run, clearly
        import traceback

        traceback.print_exc()
        print(f"bench: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        bench.close()
    elapsed = time.monotonic() - clock
    sys.stdout.write(format_report(header(bench, started, load), rows, method_notes(bench, elapsed)))
    progress(f"done in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
