"""The bench (tools/bench/): its Notakto positions, its statistics and
table formatting, and the worker's bench hook under CPython. Fast, no
browser."""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from tools import harness
from tools import puzzles as puzzles_tool
from tools.bench.analysis_board import COUNT, EXPLORE_JS, engine_lines, explore_responsiveness, look, off_line
from tools.bench.browser import CACHE_CONTROL, FLOOR_PATH, PYSCRIPT_FLOOR_PATH, BenchServer, Sent, part_of
from tools.bench.engines import (
    MASTER_SEARCHES,
    PLAYOUTS,
    SEARCHES,
    hex_puzzles,
    level_budgets,
    master_search,
    search_throughput,
    solver_speed,
)
from tools.bench.page import BIG_BOARDS, big_board_memory
from tools.bench.places import batch_size
from tools.bench.positions import casual_game, notakto_positions, opening, outcome_of, quiet_moves, random_game
from tools.bench.run import MEASUREMENTS, list_positions
from tools.bench.settings import DEFAULT_SEED, FULL, MAX_BATCH, QUICK
from tools.bench.startup import gzip_size, tally_sent
from tools.bench.stats import Ratio, Stat, percentile
from tools.bench.strength import (
    ARENA,
    OPENSPIEL,
    RANDOM,
    STRENGTH_TITLE,
    openspiel_plan,
    openspiel_strength,
    play_match,
    strength_row,
)
from tools.bench.table import (
    Row,
    at_least,
    at_most,
    format_bytes,
    format_cell,
    format_ms,
    format_percent,
    format_rate,
    format_report,
    format_table,
)
from tools.matches import Z95, Tally, wilson

import ai
from ai import notakto as notakto_ai
from app.model.explore import FIRST_SLICE, SLICE
from core import FIRST, SECOND
from core.notakto import CELLS, HAS_LINE, NotaktoState
from registry import STATES as GAMES

ROOT = Path(__file__).resolve().parents[2]

# -- positions ------------------------------------------------------------------------
# Cells of a 3x3 board under its 8 symmetries, to keep the brute force small.
_SYMMETRIES = []
for _turns in range(4):
    for _mirror in (False, True):
        perm = []
        for cell in range(CELLS):
            row, col = divmod(cell, 3)
            for _ in range(_turns):
                row, col = col, 2 - row
            if _mirror:
                col = 2 - col
            perm.append(row * 3 + col)
        _SYMMETRIES.append(perm)
_CANON = [min(sum(1 << p[c] for c in range(CELLS) if m >> c & 1) for p in _SYMMETRIES) for m in range(512)]


@cache
def to_move_wins(live: tuple[int, ...]) -> bool:
    """Brute force: whether the player to move wins, given the live boards."""
    if not live:
        return True  # the opponent closed the last board
    for index, mask in enumerate(live):
        for cell in range(CELLS):
            if not mask >> cell & 1:
                new = mask | 1 << cell
                rest = live[:index] + live[index + 1:] + (() if HAS_LINE[new] else (_CANON[new],))
                if not to_move_wins(tuple(sorted(rest))):
                    return True
    return False


def brute_outcome(state: NotaktoState) -> str:
    live = tuple(sorted(_CANON[state.boards[i]] for i in state.live_boards))
    return "won" if to_move_wins(live) else "lost"


@pytest.mark.parametrize("boards", [3, 6])
def test_positions_are_the_empty_board_then_each_phase_won_and_lost(boards: int) -> None:
    positions = notakto_positions(boards)
    assert [(p.phase, p.outcome) for p in positions[1:]] == [
        ("early", "won"), ("early", "lost"), ("middle", "won"), ("middle", "lost"), ("late", "won"), ("late", "lost")]
    assert positions[0].phase == "empty" and positions[0].moves == ()
    for position in positions:
        assert position.boards == boards
        state = position.state()  # every move replays legally
        assert not state.is_over()
        assert position.save() == state.to_dict()
        assert NotaktoState.from_dict(position.save()) == state
        assert outcome_of(state) == position.outcome
    plies = {p.label: len(p.moves) for p in positions}
    for outcome in ("won", "lost"):
        assert 0 < plies[f"early, {outcome}"] < plies[f"middle, {outcome}"] < plies[f"late, {outcome}"]


def test_won_and_lost_agree_with_brute_force_on_three_boards() -> None:
    for position in notakto_positions(3):
        assert brute_outcome(position.state()) == position.outcome, position


def test_positions_depend_on_the_seed_alone() -> None:
    first = notakto_positions(6, seed=7)
    random.seed(12345)  # the global generator plays no part
    random.random()
    assert notakto_positions(6, seed=7) == first
    assert notakto_positions(6, seed=8) != first
    assert notakto_positions(3, seed=7) != first


def test_the_default_position_set_is_pinned() -> None:
    # The positions are part of the benchmark's definition: figures from two
    # runs compare only if they timed the same positions. Change this digest
    # only on purpose, and say so beside the new figures.
    text = list_positions(DEFAULT_SEED)
    assert text.count("\n") == 14
    assert text.startswith("3 boards, empty, won: (no moves)\n")
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "f6d5d797f4ef9030"


def test_random_games_close_a_board_only_when_forced() -> None:
    rng = random.Random(1)
    for _ in range(20):
        moves = random_game(6, rng)
        state = NotaktoState(6)
        for move in moves:
            closing = HAS_LINE[state.boards[move // CELLS] | 1 << move % CELLS]
            if closing:
                assert all(HAS_LINE[state.boards[m // CELLS] | 1 << m % CELLS] for m in state.legal_moves())
            state.push(move)
        assert state.is_over()


# -- statistics and formatting ----------------------------------------------------------
def test_percentiles_interpolate_between_ranks() -> None:
    values = [float(x) for x in range(11, 0, -1)]  # 11..1, unsorted on purpose
    assert percentile(values, 50) == 6
    assert percentile(values, 10) == 2
    assert percentile(values, 90) == 10
    assert percentile([1.0, 2.0], 50) == 1.5
    assert percentile([4.0], 90) == 4
    with pytest.raises(ValueError):
        percentile([], 50)
    stat = Stat.of(values)
    assert (stat.median, stat.p10, stat.p90, stat.n) == (6, 2, 10, 11)


def test_pooled_figures_average_the_medians() -> None:
    fast, slow = [1.0, 1.0, 1.0], [9.0, 10.0, 11.0]
    pooled = Stat.pooled([fast, slow, slow])
    assert pooled.median == pytest.approx((1 + 10 + 10) / 3)
    assert pooled.n == 9
    assert pooled.p10 == 1.0 and pooled.p90 == 11.0
    assert Stat.pooled([slow]) == Stat.of(slow)


def test_milliseconds_keep_about_three_significant_digits() -> None:
    assert format_ms(0.123456) == "123"
    assert format_ms(0.0123456) == "12.3"
    assert format_ms(0.00123456) == "1.23"
    assert format_ms(0.000123456) == "0.123"
    assert format_ms(0.0000123456) == "0.0123"
    assert format_cell(Stat(0.00025, 0.0002, 0.0004, 5)) == "0.250 (0.200–0.400)"
    assert format_cell(None) == "—"


def test_a_table_has_the_union_of_its_rows_columns_padded_and_aligned() -> None:
    stat = Stat(0.0015, 0.001, 0.002, 10)
    rows = [
        Row("Times", {"case": "a", "CPython": stat, "note": "x"}),
        Row("Times", {"case": "longer name", "CPython": stat, "extra": stat}),
    ]
    lines = format_table("Times", rows).splitlines()
    assert lines[0] == "### Times" and lines[1] == ""
    header, rule, first, second = lines[2:]
    assert [c.strip() for c in header.strip("|").split("|")] == ["case", "CPython", "note", "extra"]
    assert [c.strip() for c in rule.strip("|").split("|")] == ["-" * 11, "-" * 15 + ":", "----", "-" * 15 + ":"]
    assert [c.strip() for c in first.strip("|").split("|")] == ["a", "1.50 (1.00–2.00)", "x", "—"]
    assert [c.strip() for c in second.strip("|").split("|")] == ["longer name", "1.50 (1.00–2.00)", "—", "1.50 (1.00–2.00)"]
    assert len({len(line) for line in lines[2:]}) == 1  # padded to one width
    assert first.startswith("| a           | ")  # text to the left
    assert first.endswith(" x    | " + "—".rjust(16) + " |")  # numbers (and their gaps) to the right


def test_a_report_is_the_header_then_one_table_per_title_then_notes() -> None:
    rows = [Row("One", {"k": "1"}), Row("Two", {"k": "2"}), Row("One", {"k": "3"})]
    report = format_report("**header**", rows, ["a note"])
    parts = report.split("\n\n")
    assert parts[0] == "**header**"
    assert parts[1] == "### One" and parts[3] == "### Two"
    assert parts[2].splitlines()[2:] == ["| 1   |", "| 3   |"]
    assert parts[-1] == "- a note\n"
    assert format_report("h", []) == "h\n"


def test_batches_are_powers_of_two_that_last_long_enough() -> None:
    assert batch_size(0.001, 0.005) == 8
    assert batch_size(0.00125, 0.005) == 4
    assert batch_size(0.01, 0.005) == 1
    assert batch_size(1e-9, 0.005) == MAX_BATCH
    assert batch_size(0.0, 0.005) == MAX_BATCH


# -- the worker's bench hook, here under CPython -------------------------------------------
def test_the_worker_bench_hook_times_every_case_and_reports_its_moves() -> None:
    import bench_worker

    positions = notakto_positions(3)
    request = {"cases": [{"game": positions[3].save(), "level": "perfect", "batch": 2},
                         {"game": positions[4].save(), "level": "beginner", "batch": 1}],
               "seed": 5, "warmup": 1, "repeats": 3}
    reply = json.loads(bench_worker.bench_moves(json.dumps(request)))
    assert reply["platform"] == sys.platform and 0 < reply["timer_resolution_s"] < 0.01
    assert [len(r["samples"]) for r in reply["results"]] == [3, 3]
    assert all(s > 0 for r in reply["results"] for s in r["samples"])
    state = positions[3].state()
    assert reply["results"][0]["moves"] == [
        state.move_to_text(notakto_ai.choose_move(state, "perfect", seed=5 + i)) for i in range(bench_worker.BENCH_CHECK_MOVES)]
    assert json.loads(bench_worker.bench_moves(json.dumps({**request, "seed": 5})))["results"][1]["moves"] == reply["results"][1]["moves"]
    bad = json.loads(bench_worker.bench_moves(json.dumps({**request, "cases": [{"game": positions[1].save(), "level": "nope", "batch": 1}]})))
    assert "ValueError" in bad["error"]
    assert "error" in json.loads(bench_worker.bench_moves("{}"))


# -- new statistics and formatting ---------------------------------------------------------
def test_wilson_intervals_match_known_values_and_are_symmetric() -> None:
    assert wilson(0, 10) == (0.0, pytest.approx(0.27753, abs=1e-5))
    assert wilson(10, 10) == (pytest.approx(0.72247, abs=1e-5), 1.0)
    assert wilson(4, 4) == (pytest.approx(0.510, abs=0.001), 1.0)  # the arena's score of 4 wins in 4
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    for wins, games in ((3, 7), (91, 200), (1999, 2000)):
        low, high = wilson(wins, games)
        mirror_low, mirror_high = wilson(games - wins, games)
        assert low == pytest.approx(1 - mirror_high) and high == pytest.approx(1 - mirror_low)
        assert low < wins / games < high
    assert wilson(100, 400)[1] - wilson(100, 400)[0] < wilson(25, 100)[1] - wilson(25, 100)[0]
    assert wilson(7.5, 10) == wilson(15, 20, z=Z95 * math.sqrt(2))  # a draw is half a point
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_ratios_are_one_figure_or_a_median_with_its_spread() -> None:
    assert format_cell(Ratio(0.7251)) == "0.73×"
    several = Ratio.of([1.1, 1.3, 1.2, 1.0, 1.4])
    assert several.median == pytest.approx(1.2) and several.p10 == pytest.approx(1.04) and several.p90 == pytest.approx(1.36)
    assert format_cell(several) == "1.20× (1.04–1.36)"
    assert Ratio.of([0.9]) == Ratio(0.9)
    # Targets are judged at the precision shown.
    assert at_most(1.1549, 1.15) and not at_most(1.156, 1.15)
    assert at_least(0.5951, 0.6) and not at_least(0.594, 0.6)


def test_rates_bytes_and_percentages_read_well() -> None:
    assert format_rate(41234.5) == "41,200"
    assert format_rate(1234.5) == "1,230"
    assert format_rate(123.4) == "123"
    assert format_rate(12.345) == "12.3"
    assert format_rate(0.5) == "0.500"
    assert format_rate(0) == "0"
    assert format_bytes(13_871_234) == "13.87 MB"
    assert format_bytes(152_400) == "152.4 kB"
    assert format_bytes(0) == "0 B"
    assert format_percent(0.955) == "95.5%"
    rates = Stat.rates([0.001, 0.002, 0.0005])  # seconds per playout
    assert rates.unit == "/s" and rates.median == 1000 and rates.p10 == 600 and rates.p90 == 1800
    assert format_cell(rates) == "1,000 (600–1,800)"
    assert format_cell(Stat.of([1e6, 2e6], "B")) == "1.50 MB (1.10 MB–1.90 MB)"


def test_ratio_columns_are_numbers_aligned_right() -> None:
    rows = [Row("T", {"case": "a", "speed": Ratio(0.71)}), Row("T", {"case": "bb", "speed": None})]
    lines = format_table("T", rows).splitlines()
    assert lines[3].endswith("----: |")
    assert lines[4] == "| a    | 0.71× |"


# -- the server's accounting -----------------------------------------------------------------
def test_the_bench_server_counts_what_it_sends_and_lets_browsers_cache(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    (tmp_path / "vendor" / "pyodide").mkdir(parents=True)
    (tmp_path / "vendor" / "pyodide" / "x.wasm").write_bytes(b"\0" * 5000)
    (tmp_path / "index.html").write_text("<p>hi</p>")
    server = BenchServer(tmp_path, harness.QuietHandler)
    try:
        with urllib.request.urlopen(server.url + "vendor/pyodide/x.wasm?v=1") as response:
            assert response.read() == b"\0" * 5000
            assert response.headers["Cache-Control"] == CACHE_CONTROL
            modified = response.headers["Last-Modified"]
        with urllib.request.urlopen(server.url) as response:
            assert response.read() == b"<p>hi</p>"
        request = urllib.request.Request(server.url + "vendor/pyodide/x.wasm", headers={"If-Modified-Since": modified})
        with pytest.raises(urllib.error.HTTPError) as not_modified:
            urllib.request.urlopen(request)
        assert not_modified.value.code == 304
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(server.url + "missing.js")
        sent = server.take()
    finally:
        server.stop()
    assert [(s.path, s.status, s.body_bytes) for s in sent] == [
        ("/vendor/pyodide/x.wasm", 200, 5000), ("/", 200, 9), ("/vendor/pyodide/x.wasm", 304, 0),
        ("/missing.js", 404, sent[3].body_bytes)]
    assert all(100 < s.header_bytes < 400 for s in sent)
    assert sent[0].bytes == 5000 + sent[0].header_bytes
    assert server.take() == []


def test_sent_bytes_are_split_into_runtime_and_ours() -> None:
    assert part_of("/vendor/pyodide/pyodide.asm.wasm") == "runtime: Pyodide"
    assert part_of("/vendor/pyscript/core.js") == "runtime: PyScript"
    assert part_of("/py/core/notakto.py") == "ours"
    assert part_of("/vendor/python.zip") == part_of("/vendor/games.js") == "ours"
    assert part_of("/") == "ours"
    index = (ROOT / "index.html").stat().st_size
    sent = [Sent("/", 200, 200, index), Sent("/index.html", 304, 150, 0), Sent("/x", 404, 180, 400)]
    counted = tally_sent(sent)
    assert counted["requests"] == 3 and counted["not modified"] == 1 and counted["files"] == 1
    assert counted["bytes"] == 200 + index + 150 + 180 + 400
    assert counted["gzip"] == gzip_size("/") + 200 < index  # gzip estimates only files sent with a body
    assert gzip_size("/index.html") == gzip_size("/")
    assert gzip_size("/../etc/passwd") is None and gzip_size("/no/such/file") is None


def test_the_floor_page_loads_bare_pyodide_and_nothing_else() -> None:
    text = (ROOT / "tools" / "bench" / "floor.html").read_text()
    assert 'from "../../vendor/pyodide/pyodide.mjs"' in text
    assert "loadPyodide({ indexURL:" in text and "runPython(" in text
    assert 'document.body.dataset.ready = "true"' in text
    code = re.sub(r"<!--.*?-->", "", text, flags=re.S)  # the comment may name what the page leaves out
    assert "pyscript" not in code.lower() and "http" not in code
    assert code.count("<script") == 1 and code.count("<link") == 1 and 'href="data:,"' in code  # no favicon request
    assert FLOOR_PATH == "tools/bench/floor.html"


def test_the_pyscript_reference_page_starts_pyscript_with_the_apps_runtime_and_nothing_of_the_app() -> None:
    """tools/bench/pyscript-floor.html: the app's start-up path but none of
    the app. Its preloads are index.html's (so that the two change together
    when PyScript or Pyodide is updated) but for the page's own config and
    program and the shell's game list; its config is the app's but for
    where runtime.js is; its program only marks the page ready."""
    import tomllib
    from html.parser import HTMLParser

    class Page(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.preloads: set[str] = set()
            self.scripts: list[dict[str, str | None]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            values = dict(attrs)
            if tag == "link" and values.get("rel") in ("preload", "modulepreload"):
                self.preloads.add(values["href"] or "")
            if tag == "script":
                self.scripts.append(values)

    bench_dir = ROOT / "tools" / "bench"
    app, reference = Page(), Page()
    app.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    reference.feed((bench_dir / "pyscript-floor.html").read_text(encoding="utf-8"))
    own = {"./pyscript-floor.toml", "./pyscript_floor.py"}
    assert own <= reference.preloads
    assert {href.replace("../../", "./", 1) for href in reference.preloads - own} == \
        app.preloads - {"./pyscript.toml", "./py/main.py", "./vendor/games.js"}
    assert [script.get("src") for script in reference.scripts] == \
        ["../../runtime.js", "../../vendor/pyscript/core.js", "./pyscript_floor.py"]
    assert reference.scripts[2]["type"] == "py" and reference.scripts[2]["config"] == "./pyscript-floor.toml"
    config = tomllib.loads((bench_dir / "pyscript-floor.toml").read_text())
    app_config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert config == {"interpreter": "../../runtime.js", "plugins": app_config["plugins"]}
    assert app_config["interpreter"] == "./runtime.js"
    program = (bench_dir / "pyscript_floor.py").read_text()
    assert re.findall(r"^import (\w+)", program, flags=re.M) == ["js"] and "from " not in program
    assert 'js.document.body.dataset.ready = "true"' in program
    assert PYSCRIPT_FLOOR_PATH == "tools/bench/pyscript-floor.html"


# -- playouts, arena, settings -------------------------------------------------------------------
def test_the_worker_playout_hook_plays_the_same_games_for_the_same_seed() -> None:
    import bench_worker

    request = {"cases": [{"game": "notakto", "settings": {"boards": 3}, "batch": 3},
                         {"game": "notakto", "settings": {"boards": 1}, "batch": 2}],
               "seed": 11, "warmup": 1, "repeats": 2}
    reply = json.loads(bench_worker.bench_playouts(json.dumps(request)))
    assert reply["platform"] == sys.platform
    assert [len(r["samples"]) for r in reply["results"]] == [2, 2]
    assert all(s > 0 for r in reply["results"] for s in r["samples"])
    rng = random.Random(11)  # the first case's playouts, replayed: 3 x (1 warm-up + 2 kept)
    assert reply["results"][0]["plies"] == sum(bench_worker.random_playout(NotaktoState(3), rng) for _ in range(9))
    assert json.loads(bench_worker.bench_playouts(json.dumps(request)))["results"][1]["plies"] == reply["results"][1]["plies"]
    bad = json.loads(bench_worker.bench_playouts(json.dumps({**request, "cases": [{"game": "chess", "settings": {}, "batch": 1}]})))
    assert "KeyError" in bad["error"]
    assert json.loads(bench_worker.bench_memory("{}")) == {"wasm_bytes": None}  # not in Pyodide


def test_the_worker_search_hook_runs_each_engine_reproducibly() -> None:
    import bench_worker

    cases = [{"game": GAMES[game].from_settings(settings).to_dict(), "iterations": 64}
             for _, game, settings in SEARCHES]
    request = {"cases": cases, "seed": 5, "warmup": 1, "repeats": 2}
    reply = json.loads(bench_worker.bench_search(json.dumps(request)))
    assert [len(r["samples"]) for r in reply["results"]] == [2, 2, 2]
    assert all(s > 0 for r in reply["results"] for s in r["samples"])
    again = json.loads(bench_worker.bench_search(json.dumps(request)))
    assert [r["moves"] for r in again["results"]] == [r["moves"] for r in reply["results"]]
    for (_, game, settings), result in zip(SEARCHES, reply["results"]):
        state = GAMES[game].from_settings(settings)
        assert all(state.parse_move(move) in state.legal_moves() for move in result["moves"])
    notakto = {**request, "cases": [{"game": NotaktoState(1).to_dict(), "iterations": 8}]}
    assert "does not search" in json.loads(bench_worker.bench_search(json.dumps(notakto)))["error"]


def test_the_worker_search_hook_times_the_master_search_with_its_nodes() -> None:
    import bench_worker

    assert [game for _, game, _ in MASTER_SEARCHES] == ["uttt", "hex", "y"]
    assert master_search in MEASUREMENTS
    cases = [{"game": GAMES[game].from_settings(settings).to_dict(), "iterations": 64, "master": master}
             for _, game, settings in MASTER_SEARCHES for master in (True, False)]
    request = {"cases": cases, "seed": 5, "warmup": 0, "repeats": 2}
    reply = json.loads(bench_worker.bench_search(json.dumps(request)))
    for (_, game, _), result in zip([entry for entry in MASTER_SEARCHES for _ in (0, 1)], reply["results"]):
        assert len(result["nodes"]) == 2
        if game == "uttt":  # all of a node's children at once, on its second visit
            assert all(1 < n < 10 for n in result["nodes"])
        else:
            assert all(0 < n < 1 for n in result["nodes"])  # a node every few playouts
    again = json.loads(bench_worker.bench_search(json.dumps(request)))
    assert [r["moves"] for r in again["results"]] == [r["moves"] for r in reply["results"]]


def test_the_worker_choose_hook_plays_what_the_ai_plays() -> None:
    import bench_worker

    tool = puzzles_tool
    puzzle = next(p for p in tool.load_puzzles() if p["size"] == 5)
    state, exchanged = tool.puzzle_state(puzzle)
    case = {"game": state.to_dict(), "level": "beginner", "seed": 3, "move_time": None}
    reply = json.loads(bench_worker.bench_choose(json.dumps({"cases": [case, case]})))
    first, second = reply["results"]
    assert first["move"] == second["move"] == state.move_to_text(ai.choose_move(state, "beginner", seed=3))
    assert first["seconds"] > 0
    bad = json.loads(bench_worker.bench_choose(json.dumps({"cases": [{**case, "level": "grandmaster"}]})))
    assert "grandmaster" in bad["error"]


def test_the_worker_solve_hook_proves_puzzles_from_scratch_each_time() -> None:
    import bench_worker

    assert solver_speed in MEASUREMENTS
    tool = puzzles_tool
    puzzle = next(p for p in tool.load_puzzles() if p["id"] == "5x5-hein-06")
    state, exchanged = tool.puzzle_state(puzzle)
    request = {"cases": [{"game": state.to_dict()}], "repeats": 2, "seconds": 30.0}
    reply = json.loads(bench_worker.bench_solve(json.dumps(request)))
    (result,) = reply["results"]
    assert result["values"] == [1, 1] and all(seconds > 0 for seconds in result["samples"])
    # A fresh solver each time: the same proof, node for node, with one of the answers.
    assert result["nodes"][0] == result["nodes"][1] > 1
    assert {state.parse_move(move) for move in result["moves"]} <= tool.answers(puzzle, exchanged)
    # No time at all: not proven, and said so.
    quick = json.loads(bench_worker.bench_solve(json.dumps({**request, "repeats": 1, "seconds": 0.0})))
    assert quick["results"][0]["values"] == [0] and quick["results"][0]["moves"] == [None]
    uttt = {**request, "cases": [{"game": GAMES["uttt"].from_settings({}).to_dict()}]}
    assert "no solver" in json.loads(bench_worker.bench_solve(json.dumps(uttt)))["error"]


def test_the_worker_game_hook_plays_a_whole_game_with_one_engine() -> None:
    import bench_worker

    assert {game for game, _ in BIG_BOARDS} == {"hex", "y"}
    assert big_board_memory in MEASUREMENTS
    state = GAMES["hex"].from_settings({"size": 5, "swap": False})
    request = {"game": state.to_dict(), "level": "master", "moves": 40, "move_time": 0.05, "seed": 1}
    reply = json.loads(bench_worker.bench_game(json.dumps(request)))
    assert reply["wasm_bytes"] is None  # not in Pyodide
    for move in reply["moves"]:
        state.push(state.parse_move(move))  # every move legal, in turn
    assert state.is_over() and len(reply["seconds"]) == len(reply["moves"]) < 25  # it stopped at the end
    bad = json.loads(bench_worker.bench_game(json.dumps({**request, "level": "grandmaster"})))
    assert "grandmaster" in bad["error"]


def test_every_searching_level_has_a_budget_the_bench_can_show() -> None:
    for _, game, _ in SEARCHES:
        text = level_budgets(game, 1000.0)
        assert all(level in text for level in ai.levels(game))


def test_a_random_playout_plays_to_the_end_through_push() -> None:
    state = NotaktoState(4)
    plies = __import__("bench_worker").random_playout(state, random.Random(3))
    assert state.is_over() and plies == len(state.moves) >= 12


def test_quiet_moves_close_no_board_unless_every_move_does() -> None:
    state = NotaktoState(2).replay(["1a1", "1b1"])  # 1c1 would close board 1
    quiet = quiet_moves(state)
    assert state.parse_move("1c1") not in quiet and len(quiet) == len(state.legal_moves()) - 1
    last = NotaktoState(1).replay(["1a1", "1c1", "1a3", "1c3"])  # every empty cell closes the board
    assert quiet_moves(last) == last.legal_moves()


def test_an_arena_match_alternates_colours_and_is_reproducible() -> None:
    tally = play_match("notakto", {"boards": 3}, "perfect", RANDOM, 20, seed=1)
    assert tally.games == 20 and tally.draws == 0
    assert tally.first == [10, 0, 0]  # three boards: the first player wins, and perfect play does
    assert play_match("notakto", {"boards": 3}, "perfect", RANDOM, 20, seed=1) == tally
    weak = play_match("notakto", {"boards": 1}, RANDOM, RANDOM, 40, seed=2)
    assert sum(weak.first) == sum(weak.second) == 20 and 0 < weak.wins < 40
    row = strength_row("Notakto, 1 board", "random", "random", weak)
    assert row.table == STRENGTH_TITLE and row.cells["games"] == 40
    assert row.cells["W-D-L"] == f"{weak.wins}-0-{weak.losses}"
    low, high = wilson(weak.wins, 40)
    assert row.cells["95% CI"] == f"{format_percent(low)}–{format_percent(high)}"
    assert Tally.score_of([3, 2, 5]) == 0.4 and Tally.score_of([0, 0, 0]) is None


def test_tallies_count_each_seat_apart() -> None:
    tally = Tally()
    tally.add(FIRST, FIRST)
    tally.add(SECOND, FIRST)
    tally.add(SECOND, None)
    assert tally.first == [1, 0, 0] and tally.second == [0, 1, 1]
    assert (tally.wins, tally.draws, tally.losses, tally.games) == (1, 1, 1, 3)
    assert tally.score == 0.5


def test_quick_mode_does_less_of_everything_and_every_game_has_its_rows() -> None:
    for name in ("passes", "repeats", "startup_rounds", "long_games", "arena_games", "quiet_wait_s", "warm_max_s",
                 "openspiel_games", "openspiel_move_s", "openspiel_check_games", "big_moves", "big_move_s"):
        assert getattr(QUICK, name) <= getattr(FULL, name), name
    assert QUICK.startup_rounds >= 2  # both orders of the A/B pair
    assert FULL.openspiel_factors == (1.0, 0.5)  # equal time and half time, as the game issues ask
    # Ultimate Tic-Tac-Toe's own (issue 17): equal time and a quarter of it.
    assert openspiel_plan("uttt", FULL) == ((1.0, 0.75), (0.25, 0.6))
    assert openspiel_plan("hex", FULL) == ((1.0, 0.6), (0.5, 0.5))
    assert openspiel_plan("uttt", QUICK) == ((1.0, 0.75),)  # quick mode plays, judges nothing
    assert openspiel_strength in MEASUREMENTS and search_throughput in MEASUREMENTS
    assert {game for _, game, _ in PLAYOUTS} == set(GAMES)
    assert hex_puzzles in MEASUREMENTS and QUICK.puzzle_s < FULL.puzzle_s == 2.0
    assert {game for _, game, _ in SEARCHES} == {game for _, game, _ in OPENSPIEL} == {"uttt", "hex", "y"}
    assert all(game in GAMES for _, game, _, _, _ in ARENA)


# -- the analysis board ---------------------------------------------------------------------
class WorkerInCPython:
    """A stand-in for the page in ``analysis_board.ask``: the worker's
    ``explore`` run here, its requests noted."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def evaluate(self, script: str, arg: list[Any]) -> list[Any]:
        import worker

        assert script == EXPLORE_JS
        request, _timeout = arg
        self.requests.append(json.loads(request))
        return [1.0, worker.explore(request)]


def test_the_analysis_board_bench_asks_as_the_model_does() -> None:
    assert engine_lines in MEASUREMENTS and explore_responsiveness in MEASUREMENTS
    for name in ("explore_rounds", "explore_clicks", "explore_autoplay_s"):
        assert getattr(QUICK, name) < getattr(FULL, name), name
    page = WorkerInCPython()
    state = opening(casual_game("uttt", {}, 12, seed=3), 12)
    found = look(page, state)
    # The first question is the model's short first look, the next a slice, as Engine.explore sends them.
    assert [r["seconds"] for r in page.requests] == [FIRST_SLICE, SLICE]
    assert all(r["game"] == state.to_dict() and r["count"] == COUNT for r in page.requests)
    assert found.answers == 1 and 1 <= found.lines <= COUNT and found.first_s == found.next_s == 0.001


def test_a_position_on_the_line_asked_before_is_preceded_by_one_off_it() -> None:
    game = casual_game("hex", {"size": 5, "swap": False}, 6, seed=1)
    later, earlier = opening(game, 6), opening(game, 3)
    assert off_line(earlier, later.moves) is None and off_line(later, None) is None
    for state, before in ((later, earlier.moves), (earlier, []), (opening(game, 0), [])):
        reset = off_line(state, before)
        assert reset is not None and len(reset.moves) == 1 and reset.moves[:1] != state.moves[:1]
        assert off_line(state, reset.moves) is None  # the explorer then starts afresh on ``state``
    assert [m.__name__ for m in MEASUREMENTS].index("engine_lines") > [m.__name__ for m in MEASUREMENTS].index(
        "hex_analysis")


def test_only_runs_the_named_measurements_and_refuses_unknown_names() -> None:
    from tools.bench.run import main

    with pytest.raises(SystemExit):
        main(["--only", "no_such_table"])
    with pytest.raises(SystemExit):
        main(["--only", "engine_lines", "--write", "x.md"])


def test_a_position_solved_at_once_gets_no_next_slice() -> None:
    page = WorkerInCPython()
    state = GAMES["hex"].from_settings({"size": 5, "swap": False})
    for move in ("c3", "b3"):  # the first player's win on 5 x 5, which the solver proves at once
        state.push(state.parse_move(move))
    found = look(page, state)
    assert [r["seconds"] for r in page.requests] == [FIRST_SLICE] and found.next_s is None
