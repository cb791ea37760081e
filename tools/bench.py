"""Measure the engines, under native CPython and inside Pyodide in the page's
AI worker, in one run on one machine, and print the figures as Markdown.

    python tools/bench.py [--quick] [--seed N] [--positions]

(`make bench` / `make bench-quick` install what it needs first.) The tables go
to stdout, progress to stderr; the exit status is non-zero, with a message,
when anything fails.

Both runtimes run the same function, ``bench_moves`` in py/worker.py (in this
process for CPython; in the served app's worker, through the page's
``appBench`` hook, for Pyodide), on the same positions with the same seeds,
and must choose the same moves. The page's ``appBenchRoundTrip`` hook times
what a player waits for: ``Engine.choose_move`` on the main thread, JSON and
worker messages included.

To add figures, write a function ``(Bench) -> list[Row]`` and append it to
``MEASUREMENTS``: each row names its table and fills some columns.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

import worker  # noqa: E402 - the worker's own module, run here under CPython
from ai import notakto as notakto_ai  # noqa: E402
from core.notakto import CELLS, HAS_LINE, NotaktoState  # noqa: E402

DEFAULT_SEED = 2024
TARGET_S = 0.050  # the target: a computer move within 50 ms in the browser


class BenchError(Exception):
    """A measurement could not be made (or made honestly)."""


# -- statistics and the table ------------------------------------------------------
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
    """Median and p10-p90 of timings in seconds, and how many (for pooled
    cases the first figure is the mean of their medians: see ``pooled``)."""

    median: float
    p10: float
    p90: float
    n: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Stat:
        return cls(percentile(samples, 50), percentile(samples, 10), percentile(samples, 90), len(samples))

    @classmethod
    def pooled(cls, groups: Sequence[Sequence[float]]) -> Stat:
        """Several cases as one figure: the mean of their medians (what a
        move costs on average over the cases: stable where the median of
        all samples would jump between fast and slow cases), with the p10
        and p90 of all their samples."""
        if len(groups) == 1:
            return cls.of(groups[0])
        every = [x for group in groups for x in group]
        center = sum(percentile(group, 50) for group in groups) / len(groups)
        return cls(center, percentile(every, 10), percentile(every, 90), len(every))


def format_ms(seconds: float) -> str:
    """Milliseconds with about three significant digits."""
    ms = seconds * 1000
    for limit, decimals in ((100, 0), (10, 1), (1, 2), (0.1, 3)):
        if ms >= limit:
            return f"{ms:.{decimals}f}"
    return f"{ms:.4f}"


def format_cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, Stat):
        return f"{format_ms(value.median)} ({format_ms(value.p10)}–{format_ms(value.p90)})"
    return str(value)


@dataclass
class Row:
    """One line of one table: ``cells`` maps column names to values (Stat, or
    anything printable); the first column names the row. A table's columns are
    those of its rows, in the order first met; a missing cell prints as —."""

    table: str
    cells: dict[str, Any]


def format_table(title: str, rows: Sequence[Row]) -> str:
    columns: list[str] = []
    for row in rows:
        columns += [name for name in row.cells if name not in columns]
    body = [[format_cell(row.cells.get(name)) for name in columns] for row in rows]
    numeric = [
        index > 0 and all(isinstance(row.cells.get(name), (Stat, int, float)) or row.cells.get(name) is None
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


# -- running the measurements -------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    name: str
    passes: int  # CPython, worker and round trips take turns this many times
    quiet_wait_s: float  # at most this long in all waiting for the machine to be quiet
    warmup: int  # per pass: batches (or round trips) of each case run and thrown away first
    repeats: int  # per pass: samples of each case kept
    batch_s: float  # a timed batch of calls lasts at least this long under CPython

    @property
    def samples(self) -> int:
        return self.passes * self.repeats


FULL = Settings("full", passes=4, quiet_wait_s=90, warmup=3, repeats=15, batch_s=0.005)
QUICK = Settings("quick", passes=2, quiet_wait_s=15, warmup=2, repeats=6, batch_s=0.005)
MAX_BATCH = 4096
WARM_WORKER_S = 3.0  # at least this long warming up the worker, until its speed settles
WARM_PAGE_S = 1.0  # and the main thread's round trips
WARM_MAX_S = 30.0
CALL_TIMEOUT_MS = 300_000  # one call into the page (a whole pass of cases)


def _load_e2e_harness() -> Any:
    """e2e/conftest.py, for its AppServer, LAUNCH_ARGS, chromium_path and page
    watch: the bench serves and opens the app exactly as the browser tests do.
    Loaded under its own name so pytest's ``conftest`` is never shadowed."""
    spec = importlib.util.spec_from_file_location("_bench_e2e_harness", ROOT / "e2e" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Page:
    """The real app, served from this checkout, open in headless Chromium."""

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

    def __init__(self) -> None:
        if not (ROOT / "vendor" / "pyodide" / "pyodide.asm.wasm").exists():
            raise BenchError("the runtime is not vendored: run `make bench` (or `python3 tools/vendor.py`)")
        harness = _load_e2e_harness()
        from playwright.sync_api import sync_playwright

        self.browser: Any = None
        self.runner: Any = None
        self.server = harness.AppServer(ROOT)
        try:
            self.runner = sync_playwright().start()
            self.browser = self.runner.chromium.launch(
                executable_path=harness.chromium_path(), args=harness.LAUNCH_ARGS, headless=True)
            self.context = self.browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
            self.watch = harness.Watch()
            harness.watch_context(self.context, self.watch)
            self.page = self.context.new_page()
            self.page.goto(self.server.url)
            harness.wait_ready(self.page)
            self.chromium = self.browser.version
            self.timer_resolution_s = float(self.page.evaluate(self.TIMER_RESOLUTION_JS))
        except BaseException:
            self.close()
            raise

    def call(self, hook: str, request: dict[str, Any]) -> dict[str, Any]:
        """Await ``window.<hook>(request JSON)`` in the page (evaluate has no
        timeout of its own: a hung worker must fail the run, not stall it)."""
        script = f"""request => Promise.race([
            {hook}(request),
            new Promise((_, reject) => setTimeout(() => reject(new Error("{hook} timed out")), {CALL_TIMEOUT_MS})),
        ])"""
        reply = json.loads(self.page.evaluate(script, json.dumps(request)))
        if "error" in reply:
            raise BenchError(f"{hook} in the page: {reply['error']}")
        return reply

    def check_clean(self) -> None:
        if self.watch.foreign:
            raise BenchError(f"the page asked another origin: {self.watch.foreign}")
        if self.watch.errors:
            raise BenchError(f"console errors in the page: {self.watch.errors}")

    def close(self) -> None:
        try:
            if self.browser is not None:
                self.browser.close()
            if self.runner is not None:
                self.runner.stop()
        finally:
            self.server.stop()


@dataclass
class Timings:
    """One engine case's samples (seconds per move) in each place."""

    cpython: list[float]
    pyodide: list[float]
    round_trip: list[float]
    batch: int


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


@dataclass
class Bench:
    """What the measurement functions share: settings, the three places that
    run the engines (CPython here, the worker, the page's main thread), notes."""

    settings: Settings
    seed: int = DEFAULT_SEED
    notes: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    _page: Page | None = None
    _moves: dict[tuple[Any, ...], Timings] = field(default_factory=dict)

    QUIET = 0.10  # the machine counts as quiet below this share of CPU busy
    _waited_s: float = 0.0
    _starts: list[float] = field(default_factory=list)  # CPU busy when each phase started

    # -- the three places ----------------------------------------------------------
    def cpython(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = json.loads(worker.bench_moves(json.dumps(request)))
        if "error" in reply:
            raise BenchError(f"bench_moves under CPython: {reply['error']}")
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

    def page(self) -> Page:
        """The app in Chromium, started on first use, then warmed up: V8
        first runs Pyodide's WebAssembly unoptimised and recompiles the hot
        parts in the background over the first seconds of heavy use, so
        measuring at once would time the compiler, not the engines."""
        if self._page is None:
            progress("starting the app in headless Chromium")
            self._page = Page()
            self.facts["chromium"] = self._page.chromium
            self.facts["page_timer_s"] = self._page.timer_resolution_s
            self._warm_up()
        return self._page

    def _warm_up(self) -> None:
        position = notakto_positions(6, self.seed)[0]
        case = {"game": position.save(), "level": "perfect"}
        for hook, request, min_s in (
            ("appBench", {"cases": [{**case, "batch": 32}], "repeats": 10}, WARM_WORKER_S),
            ("appBenchRoundTrip", {"cases": [case], "repeats": 40}, WARM_PAGE_S),
        ):
            progress(f"warming up {hook}")
            assert self._page is not None
            clock, medians = time.monotonic(), []
            while True:
                reply = self._page.call(hook, {**request, "seed": len(medians) * 10_000, "warmup": 0})
                medians.append(percentile(reply["results"][0]["samples"], 50))
                elapsed = time.monotonic() - clock
                last = medians[-4:]
                if elapsed >= min_s and len(last) == 4 and max(last) <= 1.1 * min(last):
                    settled = True
                    break
                if elapsed >= WARM_MAX_S:
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
            busy = machine_busy()
            if busy is None:
                return
            if busy < self.QUIET or self._waited_s >= self.settings.quiet_wait_s:
                self._starts.append(busy)
                return
            self._waited_s += time.monotonic() - clock

    def finish(self) -> None:
        if self._page is not None:
            self._page.check_clean()

    def close(self) -> None:
        if self._page is not None:
            page, self._page = self._page, None
            page.close()

    # -- engine moves ----------------------------------------------------------------
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


def batch_size(per_call_s: float, batch_s: float) -> int:
    """The power of two of calls that lasts at least ``batch_s``."""
    if per_call_s <= 0:
        return MAX_BATCH
    return min(MAX_BATCH, 1 << max(0, math.ceil(math.log2(batch_s / per_call_s))))


def progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


# -- the measurements -----------------------------------------------------------------
def engine_cells(timings: Sequence[Timings]) -> dict[str, Any]:
    """The columns every engine row shares, for one case or several pooled
    (``Stat.pooled``). Pyodide ÷ CPython is the ratio of those figures, and
    the target is judged on the round trip's p90."""
    native = Stat.pooled([x.cpython for x in timings])
    inside = Stat.pooled([x.pyodide for x in timings])
    felt = Stat.pooled([x.round_trip for x in timings])
    return {
        "CPython": native,
        "Pyodide worker": inside,
        "Pyodide ÷ CPython": f"{inside.median / native.median:.2f}×",
        "round trip (felt)": felt,
        "< 50 ms": "yes" if felt.p90 < TARGET_S else "**NO**",
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
    """Every level on 3 and 6 boards, the positions pooled."""
    title = "Notakto, every level, the 7 positions pooled: time per move, ms, mean of medians (p10–p90)"
    groups = {(boards, level): [(position, level) for position in notakto_positions(boards, bench.seed)]
              for boards in (3, 6) for level in notakto_ai.LEVELS}
    timings = iter(bench.move_timings([case for cases in groups.values() for case in cases]))
    return [Row(title, {"level": level, "boards": boards, **engine_cells([next(timings) for _ in cases])})
            for (boards, level), cases in groups.items()]


#: Every measurement, in order. Each returns rows; add new figures here.
MEASUREMENTS: list[Callable[[Bench], list[Row]]] = [notakto_perfect, notakto_levels]


# -- the report ---------------------------------------------------------------------------
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
    return (f"**Bench {started:%Y-%m-%d %H:%M} UTC** · {cpu_model()}, {os.cpu_count()} cores, load {load:.2f}"
            f" · CPython {platform.python_version()} · {pyodide}"
            f" · Chromium {facts.get('chromium', 'not used')} · {git_revision()}"
            f" · {s.name}: {s.samples} samples per case, seed {bench.seed}")


def method_notes(bench: Bench, elapsed: float) -> list[str]:
    s, facts = bench.settings, bench.facts
    batches = sorted({t.batch for t in bench._moves.values()})
    resolution = ", ".join(f"{name} {facts[key] * 1e6:.3g} µs" for name, key in (
        ("CPython", "cpython_timer_s"), ("worker", "worker_timer_s"), ("page", "page_timer_s")) if key in facts)
    notes = [
        "Positions: the empty board, then early/middle/late positions (about 25/50/80 % into a game) from "
        "seeded random play in which nobody closes a board needlessly; won/lost is the result for the player "
        "to move under perfect play. Moves · live · empty: moves played, live boards, their empty cells. "
        "`tools/bench.py --positions` lists the moves.",
        "CPython and the Pyodide worker run the same function (`bench_moves`, py/worker.py) on the same "
        "positions with the same seeds (call i uses seed + i); their chosen moves were checked to be equal.",
        f"A CPython or worker sample is the mean time per call of a batch of calls ({batches[0]}–{batches[-1]}, "
        f"a power of two making the CPython batch last ≥ {s.batch_s * 1000:g} ms; the worker runs the same "
        f"batch), because the browser coarsens its clock (resolution: {resolution}).",
        "Round trip (felt): one move per sample, timed on the page's main thread around "
        "`await Engine.choose_move(...)` as the app calls it (JSON, messages to and from the worker, the "
        "worker's work; not the app's deliberate pause before the computer moves).",
        f"Order: CPython, worker and round trips take turns, {s.passes} passes of each; in a pass every case "
        f"first runs {s.warmup} warm-up batches (or round trips), dropped, then the cases take turns for "
        f"{s.repeats} kept samples each: {s.samples} samples per case in all. Pooled rows: the mean of the cases' "
        "medians, with the p10–p90 of all their samples.",
        f"Pyodide ÷ CPython: ratio of the medians. < 50 ms: the issue's target, met when the round trip's p90 "
        f"is under {TARGET_S * 1000:g} ms. The bench took {elapsed:.0f} s.",
    ]
    warm = [(label, facts[key]) for label, key in (("worker", "warm_appBench"), ("page", "warm_appBenchRoundTrip"))
            if key in facts]
    if warm:
        parts = [f"{label} {seconds:.1f} s ({format_ms(first)} → {format_ms(last)} ms"
                 f"{'' if settled else ', NOT settled'})" for label, (seconds, first, last, settled) in warm]
        notes.append("Before measuring, the page was warmed up on perfect moves on 6 empty boards until their speed "
                     "settled (V8 first runs Pyodide's WebAssembly unoptimised and optimises the hot parts in the "
                     f"background): {'; '.join(parts)}. Before each phase (CPython, worker, round trips) the bench waits "
                     f"for the machine to be quiet (under {Bench.QUIET:.0%} CPU busy).")
    if bench._starts:
        busy = [b for b in bench._starts if b >= Bench.QUIET]
        notes.append(f"Waited {bench._waited_s:.0f} s in all for a quiet machine; "
                     + (f"**{len(busy)} of {len(bench._starts)} phases started on a busy machine** (up to "
                        f"{max(busy):.0%} CPU: another process was running; the figures are noisier)." if busy
                        else f"all {len(bench._starts)} phases started on a quiet machine."))
    return notes + bench.notes


def list_positions(seed: int) -> str:
    lines = []
    for boards in (3, 6):
        for position in notakto_positions(boards, seed):
            lines.append(f"{boards} boards, {position.label}: {' '.join(position.moves) or '(no moves)'}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (under two minutes)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="positions and move seeds")
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
