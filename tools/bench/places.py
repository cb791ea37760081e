"""The places that run the engines, side by side: CPython here, the page's
Pyodide worker and the page's main thread (``Bench``), and the start-up
visits of the app and its floors."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import bench_worker  # the harness's worker module, run here under CPython
from tools.bench import BenchError, progress
from tools.bench.browser import (
    APP_PATH,
    FLOOR_PATH,
    MY_TURN_JS,
    PYSCRIPT_FLOOR_PATH,
    SERVICE_WORKER_JS,
    VISIT_JS,
    AppPage,
    Browser,
    Visit,
)
from tools.bench.positions import Position, notakto_positions
from tools.bench.settings import (
    DEFAULT_SEED,
    MAX_BATCH,
    PHONE_NETWORK,
    PHONE_SLOWDOWN,
    READY_TIMEOUT_MS,
    THINK_TIMEOUT_MS,
    WARM_PAGE_S,
    WARM_WORKER_S,
    Settings,
)
from tools.bench.stats import percentile

#: The visits of each start-up round, in order, in one browser profile.
TEMPERATURES = {"cold": "cold (empty cache)", "warm": "warm (second visit)", "returning": "returning (third visit)"}


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
            clock = time.monotonic()
            medians: list[float] = []
            while True:
                reply = app.call(hook, {**request, "seed": len(medians) * 10_000, "warmup": 0})
                if hook == "appBench":  # the header names the worker's Python even when nothing else asks it
                    self.facts.setdefault("pyodide_python", reply["python"].split()[0])
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
    def visit(self, context: Any, app: bool, computer: bool = True, query: str = "", path: str = "",
              slowdown: float | None = None) -> Visit:
        """Open the app (or the floor, or another page than the floor at
        ``path``) in a new tab of ``context`` and wait until it is ready.
        For the app, then check that a click on a cell
        lands (a mark appears), and with ``computer`` wait for the computer's
        answer: the worker starts after the board is ready, and its requests
        must be counted (and, on a cold visit, be in the cache for the warm
        one, with the player to move in the saved game). With ``slowdown``,
        over the emulated phone's connection (``PHONE_NETWORK``) and with the
        processor slowed that many times (1: not slowed)."""
        browser = self.browser()
        browser.server.take()
        page = context.new_page()
        if slowdown is not None:
            devtools = context.new_cdp_session(page)
            devtools.send("Network.enable")
            devtools.send("Network.emulateNetworkConditions", PHONE_NETWORK)
            devtools.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
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

    def phone_visits(self) -> dict[tuple[str, float], list[Visit]]:
        """Rounds of cold visits over the emulated phone's connection, the
        server sending files gzipped as GitHub Pages does: the app and the
        floor (the other way round every second round), each in a new
        profile; the first ``phone_slow_rounds`` rounds then again with the
        processor slowed ``PHONE_SLOWDOWN`` times. Keyed by (kind, slowdown)."""
        visits: dict[tuple[str, float], list[Visit]] = {}
        server = self.browser().server
        plan = [(index, 1.0) for index in range(self.settings.phone_rounds)]
        plan += [(index, float(PHONE_SLOWDOWN)) for index in range(self.settings.phone_slow_rounds)]
        server.compress = True
        try:
            for number, (index, slowdown) in enumerate(plan):
                progress(f"phone round {number + 1}/{len(plan)} (processor {slowdown:g}x slower)")
                self.settle()
                for kind in (["app", "floor"] if index % 2 == 0 else ["floor", "app"]):
                    context = self.browser().profile(as_harness=False)
                    try:
                        visits.setdefault((kind, slowdown), []).append(
                            self.visit(context, kind == "app", slowdown=slowdown))
                    finally:
                        self.browser().close_profile(context)
        finally:
            server.compress = False
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
