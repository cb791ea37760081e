"""The bench's command line: every measurement in order, then the report."""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import tools.bench
from tools.bench import BenchError, progress
from tools.bench.analysis_board import engine_lines, explore_responsiveness
from tools.bench.engines import (
    hex_puzzles,
    master_search,
    notakto_levels,
    notakto_perfect,
    search_throughput,
    solver_speed,
    throughput,
)
from tools.bench.page import big_board_memory, first_replies, hex_analysis, memory_at_end, notakto_long_games
from tools.bench.places import Bench
from tools.bench.positions import notakto_positions
from tools.bench.report import header, method_notes, page
from tools.bench.settings import DEFAULT_SEED, FULL, QUICK
from tools.bench.startup import phone, startup
from tools.bench.strength import openspiel_strength, strength
from tools.bench.table import Row

#: Every measurement, in order. Each returns rows; add new figures here.
MEASUREMENTS: list[Callable[[Bench], list[Row]]] = [
    startup, phone, first_replies, notakto_long_games, hex_analysis, engine_lines, explore_responsiveness, throughput,
    search_throughput, master_search, notakto_perfect, notakto_levels,
    hex_puzzles, solver_speed, big_board_memory, memory_at_end, strength, openspiel_strength,
]


def list_positions(seed: int) -> str:
    lines = []
    for boards in (3, 6):
        for position in notakto_positions(boards, seed):
            lines.append(f"{boards} boards, {position.label}: {' '.join(position.moves) or '(no moves)'}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=tools.bench.__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples and games (under two minutes)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="positions, move and game seeds")
    parser.add_argument("--positions", action="store_true", help="print the positions' moves and stop")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="write the report to FILE (make bench: docs/benchmarks.md) instead of stdout")
    parser.add_argument("--only", metavar="NAMES",
                        help="run only these measurements (comma-separated names of run.MEASUREMENTS' functions, "
                             "e.g. engine_lines), the report on stdout")
    args = parser.parse_args(argv)
    measurements = MEASUREMENTS
    if args.only is not None:
        if args.write is not None:
            parser.error("--only makes a partial report: it goes to stdout, not to --write's file")
        names = [name.strip() for name in args.only.split(",") if name.strip()]
        known = {measure.__name__: measure for measure in MEASUREMENTS}
        unknown = [name for name in names if name not in known]
        if unknown or not names:
            parser.error(f"--only: no measurement {', '.join(unknown) or '(none named)'}; "
                         f"the measurements: {', '.join(known)}")
        measurements = [measure for measure in MEASUREMENTS if measure.__name__ in names]
    if args.positions:
        sys.stdout.write(list_positions(args.seed))
        return 0
    bench = Bench(QUICK if args.quick else FULL, args.seed)
    started = datetime.datetime.now(datetime.UTC)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    clock = time.monotonic()
    rows: list[Row] = []
    try:
        for measure in measurements:
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
    report = page(header(bench, started, load), rows, method_notes(bench, elapsed))
    if args.write is None:
        sys.stdout.write(report)
    else:
        args.write.write_text(report, encoding="utf-8")
    progress(f"done in {elapsed:.0f} s" + ("" if args.write is None else f"; the report is in {args.write}"))
    return 0
