"""Measure, in one run on one machine, what decides whether the app feels
fast and plays strong, and print it as Markdown tables with the ratios that
matter (absolute times on shared machines are noisy; ratios measured side by
side are not).

    python -m tools.bench [--quick] [--seed N] [--positions] [--write FILE] [--only NAMES]

(`make bench` installs what it needs first and writes docs/benchmarks.md;
`make bench-quick` prints its report.) The report goes to stdout, or with
``--write`` to that file, from the template tools/bench/report.md;
progress goes to stderr; the exit status is non-zero, with a message, when
anything fails; ``--only engine_lines,startup`` runs just those measurements
(``run.MEASUREMENTS``' function names), the report on stdout. What is
measured, in this order:

1. Start-up in headless Chromium, cold (empty cache) and warm (second visit):
   the shell's first paint, the first board accepting a move, the computer
   ready; against the floor, a page that loads nothing but bare Pyodide
   (tools/bench/floor.html), the two taking turns.
2. Bytes the server sent on a cold first visit, the runtime apart from ours.
3. Responsiveness and memory: whole games against the perfect computer on 6
   boards, the page's long tasks; the JS heap and both interpreters' heaps;
   the worker's heap after the strongest level's game on the biggest Hex and
   Y boards (under 200 MB).
   The analysis board's engine (``analysis_board``): the time to its first
   lines on a new position, asked as the board's model asks (its short
   first slice), and to the next slice, Hex 11 x 11 and UTTT, in the
   worker; and the page's main thread while a player explores on the board
   (the switches, clicks, keys, AutoPlay).
4. Engine throughput: random playouts per second (every game), the engines'
   own search iterations per second (UTTT, Hex, Y), the master level's playouts
   and tree nodes per second with its knowledge (UTTT, Hex, Y), the AI's move times at
   every Notakto level, under native CPython and in the page's Pyodide
   worker, the same functions in both (py/bench_worker.py: ``bench_playouts``,
   ``bench_search``, ``bench_moves``; reached through the page's bench hooks
   in py/app/page/harness.py), with their results checked equal.
5. Strength: arena matches of each game's strongest level (CPython) against
   baselines: Notakto's weaker levels and random play here, and for UTTT, Hex
   and Y a plain UCT search in C++ (OpenSpiel's MCTSBot, ``python -m tools.arena``) at
   equal and at half time (UTTT: at a quarter of the time); with Wilson 95 %
   intervals.

The package, by concern: ``settings`` (full and quick, targets), ``stats``
and ``table`` (figures and their Markdown), ``browser`` (the server and
Chromium), ``places`` (``Bench``: CPython, the worker and the page side by
side), ``positions`` (Notakto's), the measurements ``startup``, ``page``
(responsiveness, memory), ``analysis_board``, ``engines`` (speed) and ``strength``, then
``report`` and ``run``.

To add figures, write a function ``(Bench) -> list[Row]`` and append it to
``run.MEASUREMENTS``: each row names its table and fills some columns. A new
game gets its lines in ``PLAYOUTS``, ``SEARCHES`` and ``OPENSPIEL`` from its
entry in py/registry.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))  # the app's modules: ai, core, registry, bench_worker


class BenchError(Exception):
    """A measurement could not be made (or made honestly)."""


def progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)
