"""The engines' speed, CPython against the page's Pyodide worker: random
playouts, the engines' own searches, the master level's, Notakto's move
times at every level, the exact solver, and the Hex puzzles."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import ai
import registry
from ai import notakto as notakto_ai
from registry import STATES as GAMES
from tools import puzzles as puzzles_tool
from tools.bench import ROOT, BenchError, progress
from tools.bench.places import Bench, Timings
from tools.bench.positions import notakto_positions
from tools.bench.settings import TARGET_S, TARGET_SPEED
from tools.bench.stats import Ratio, Stat, percentile
from tools.bench.table import Row, at_least, format_ms, format_percent, verdict

THROUGHPUT_TITLE = "Engine throughput: random playouts per second from the start, median (p10–p90)"
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

PUZZLES_TITLE = "Hex puzzles: textbook positions with a single winning idea, solved by the strongest level"
SOLVER_TITLE = ("The exact solver proving Hex puzzles from scratch (a fresh solver each time): ms a proof, "
                "median (p10–p90), and proof-search nodes per second")


def solver_speed(bench: Bench) -> list[Row]:
    """The exact solver (``bench_solve``: ``ai.connection.solver`` from scratch, no
    time share, no search) on some 6 x 6 puzzles, in both runtimes: the
    same nodes and move in each, so the ratio of the times is the ratio
    of the speeds on the solver's own work (H-search, nearly all of it),
    which sets how many puzzles the strongest level proves in its time."""
    s = bench.settings
    tool = puzzles_tool
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


def hex_puzzles(bench: Bench) -> list[Row]:
    """tests/data/hex_puzzles.json (tools/puzzles.py): the strongest Hex
    level given ``puzzle_s`` per puzzle, under CPython and in the page's
    worker: how many it solves (plays a winning move)."""
    s = bench.settings
    tool = puzzles_tool
    puzzles = tool.load_puzzles()
    level = ai.levels("hex")[-1]
    states = [tool.puzzle_state(puzzle) for puzzle in puzzles]
    # One request a puzzle, as the page asks its worker for one move at a
    # time: all 38 in one request (a task of over a minute in the worker)
    # ran at about 1.6 times the worker's usual time per puzzle in three
    # runs of six (2026-12-04: 27-31 solved; one request a puzzle: 28-31 in
    # seven runs, none slow).
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
        count = sum(sum(flags) for flags in by_size.values())
        rows.append(Row(PUZZLES_TITLE, {
            "runtime": where, "level": level, "time per puzzle": f"{s.puzzle_s:g} s",
            **{f"{size}×{size}": f"{sum(flags)}/{len(flags)}" for size, flags in sorted(by_size.items())},
            "from public collections": f"{sum(published)}/{len(published)}",
            "solved": f"{count}/{len(puzzles)} ({format_percent(count / len(puzzles))})",
            "time used, median": f"{percentile(seconds, 50):.2f} s"}))
    return rows
