"""The page's hooks for the harness: the end-to-end tests and the bench
(tools/bench/). Imported only when the harness opened the page: it sets
``window.appHarness = true`` before the page's scripts run (tools/harness.py,
``HARNESS_FLAG_JS``). A player's page never has any of these functions, and
its worker (py/worker.py) exports only what the app calls.

With the flag the AI worker runs py/bench_worker.py instead (shell/boot.js
chooses it): the app's own ``choose_move`` plus the self-check and the bench
functions, on the same engine code in the same kind of worker.
"""

from __future__ import annotations

import asyncio
import json
import time

import js
from pyodide.ffi import create_proxy

from registry import STATES

from . import dom
from .host import HarnessHost


def install(app: HarnessHost) -> None:
    """Put the hooks on ``window`` (``app``: the page, as the harness sees
    it); call it before ``app.start()``."""

    def page_check() -> str:
        import selfcheck

        return json.dumps(selfcheck.run())

    async def worker_check() -> str:
        await app.engine.ready()
        return str(await app.engine.worker.self_check())

    # appSelfCheck and appWorkerSelfCheck: the engines' self-check on the page
    # and in the worker (e2e/test_platform.py compares them with CPython's).
    js.window.appSelfCheck = create_proxy(page_check)
    # appStdlib: what the page imported of the standard library (the
    # worker's: appBenchWorker("bench_stdlib")), for tools/stdlib.py.
    def stdlib(request_json: str) -> str:
        """{"import": names} -> py/selfcheck.py's ``imported_stdlib``."""
        from selfcheck import imported_stdlib

        return json.dumps(imported_stdlib(json.loads(request_json).get("import", ())))

    js.window.appStdlib = create_proxy(lambda request: stdlib(str(request)))
    # appLiveProxies: the listeners and timers our code holds (dom.Listeners),
    # for e2e/test_navigation.py's check that renders leak none.
    js.window.appLiveProxies = create_proxy(lambda: dom.Listeners.LIVE)
    js.window.appAdvanceClock = create_proxy(app.advance_clock)
    js.window.appWorkerSelfCheck = create_proxy(lambda: asyncio.ensure_future(worker_check()))

    # Bench hooks for tools/bench/ (`make bench`), JSON in and out.
    # appBench: the worker's own timing of the engines (its bench_moves).
    # appBenchRoundTrip: what a player waits for, timed on this thread around
    # Engine.choose_move exactly as computer_turn calls it (JSON, messaging,
    # the worker's work; not the deliberate COMPUTER_PAUSE_S).
    async def worker_bench(request_json: str) -> str:
        await app.engine.ready()
        if app.engine.worker is None:
            return json.dumps({"error": "the AI worker did not start"})
        return str(await app.engine.worker.bench_moves(request_json))

    async def round_trip_bench(request_json: str) -> str:
        """{"cases": [{"game": <save dict>, "level": str}], "seed": int,
        "warmup": int, "repeats": int} -> {"results": [{"samples": [s]}]}
        or {"error": message}. Call i of a case uses seed ``seed + i``; the
        cases take turns, as in the worker's bench_moves."""
        await app.engine.ready()
        if app.engine.worker is None:
            return json.dumps({"error": "the AI worker did not start"})
        request = json.loads(request_json)
        seed, warmup, repeats = int(request["seed"]), int(request["warmup"]), int(request["repeats"])
        cases = [(STATES[case["game"]["game"]].from_dict(case["game"]), case["level"]) for case in request["cases"]]
        samples: list[list[float]] = [[] for _ in cases]
        for index in range(warmup + repeats):
            for (state, level), kept in zip(cases, samples):
                start = time.perf_counter()
                await app.engine.choose_move(state.copy(), level, seed + index)
                if index >= warmup:
                    kept.append(time.perf_counter() - start)
        return json.dumps({"results": [{"samples": kept} for kept in samples]})

    # appBenchWorker: any bench_* export of the worker. appMemory: both
    # interpreters' WebAssembly memory (their heaps), once the worker is ready.
    async def worker_call(name: str, request_json: str) -> str:
        await app.engine.ready()
        if app.engine.worker is None or not name.startswith("bench_"):
            return json.dumps({"error": f"no worker bench function {name!r}"})
        return str(await getattr(app.engine.worker, name)(request_json))

    async def memory() -> str:
        import pyodide_js

        worker = json.loads(await worker_call("bench_memory", "{}"))
        return json.dumps({"main_wasm_bytes": int(pyodide_js._module.HEAPU8.length), "worker_wasm_bytes": worker.get("wasm_bytes")})

    js.window.appBenchWorker = create_proxy(lambda name, request: asyncio.ensure_future(worker_call(str(name), str(request))))
    js.window.appMemory = create_proxy(lambda: asyncio.ensure_future(memory()))
    js.window.appBench = create_proxy(lambda request: asyncio.ensure_future(worker_bench(str(request))))
    js.window.appBenchRoundTrip = create_proxy(lambda request: asyncio.ensure_future(round_trip_bench(str(request))))
