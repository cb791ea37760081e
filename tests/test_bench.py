"""The bench (tools/bench.py): its Notakto positions, its statistics and
table formatting, and the worker's bench hook under CPython. Fast, no
browser."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from core.notakto import CELLS, HAS_LINE, NotaktoState

ROOT = Path(__file__).resolve().parent.parent


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "tools" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


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


@lru_cache(maxsize=None)
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
    positions = bench.notakto_positions(boards)
    assert [(p.phase, p.outcome) for p in positions[1:]] == [
        ("early", "won"), ("early", "lost"), ("middle", "won"), ("middle", "lost"), ("late", "won"), ("late", "lost")]
    assert positions[0].phase == "empty" and positions[0].moves == ()
    for position in positions:
        assert position.boards == boards
        state = position.state()  # every move replays legally
        assert not state.is_over()
        assert position.save() == state.to_dict()
        assert NotaktoState.from_dict(position.save()) == state
        assert bench.outcome_of(state) == position.outcome
    plies = {p.label: len(p.moves) for p in positions}
    for outcome in ("won", "lost"):
        assert 0 < plies[f"early, {outcome}"] < plies[f"middle, {outcome}"] < plies[f"late, {outcome}"]


def test_won_and_lost_agree_with_brute_force_on_three_boards() -> None:
    for position in bench.notakto_positions(3):
        assert brute_outcome(position.state()) == position.outcome, position


def test_positions_depend_on_the_seed_alone() -> None:
    first = bench.notakto_positions(6, seed=7)
    random.seed(12345)  # the global generator plays no part
    random.random()
    assert bench.notakto_positions(6, seed=7) == first
    assert bench.notakto_positions(6, seed=8) != first
    assert bench.notakto_positions(3, seed=7) != first


def test_the_default_position_set_is_pinned() -> None:
    # The positions are part of the benchmark's definition: figures from two
    # runs compare only if they timed the same positions. Change this digest
    # only on purpose, and say so beside the new figures.
    text = bench.list_positions(bench.DEFAULT_SEED)
    assert text.count("\n") == 14
    assert text.startswith("3 boards, empty, won: (no moves)\n")
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "f6d5d797f4ef9030"


def test_random_games_close_a_board_only_when_forced() -> None:
    rng = random.Random(1)
    for _ in range(20):
        moves = bench.random_game(6, rng)
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
    assert bench.percentile(values, 50) == 6
    assert bench.percentile(values, 10) == 2
    assert bench.percentile(values, 90) == 10
    assert bench.percentile([1.0, 2.0], 50) == 1.5
    assert bench.percentile([4.0], 90) == 4
    with pytest.raises(ValueError):
        bench.percentile([], 50)
    stat = bench.Stat.of(values)
    assert (stat.median, stat.p10, stat.p90, stat.n) == (6, 2, 10, 11)


def test_pooled_figures_average_the_medians() -> None:
    fast, slow = [1.0, 1.0, 1.0], [9.0, 10.0, 11.0]
    pooled = bench.Stat.pooled([fast, slow, slow])
    assert pooled.median == pytest.approx((1 + 10 + 10) / 3)
    assert pooled.n == 9
    assert pooled.p10 == 1.0 and pooled.p90 == 11.0
    assert bench.Stat.pooled([slow]) == bench.Stat.of(slow)


def test_milliseconds_keep_about_three_significant_digits() -> None:
    assert bench.format_ms(0.123456) == "123"
    assert bench.format_ms(0.0123456) == "12.3"
    assert bench.format_ms(0.00123456) == "1.23"
    assert bench.format_ms(0.000123456) == "0.123"
    assert bench.format_ms(0.0000123456) == "0.0123"
    assert bench.format_cell(bench.Stat(0.00025, 0.0002, 0.0004, 5)) == "0.250 (0.200–0.400)"
    assert bench.format_cell(None) == "—"


def test_a_table_has_the_union_of_its_rows_columns_padded_and_aligned() -> None:
    stat = bench.Stat(0.0015, 0.001, 0.002, 10)
    rows = [
        bench.Row("Times", {"case": "a", "CPython": stat, "note": "x"}),
        bench.Row("Times", {"case": "longer name", "CPython": stat, "extra": stat}),
    ]
    lines = bench.format_table("Times", rows).splitlines()
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
    rows = [bench.Row("One", {"k": "1"}), bench.Row("Two", {"k": "2"}), bench.Row("One", {"k": "3"})]
    report = bench.format_report("**header**", rows, ["a note"])
    parts = report.split("\n\n")
    assert parts[0] == "**header**"
    assert parts[1] == "### One" and parts[3] == "### Two"
    assert parts[2].splitlines()[2:] == ["| 1   |", "| 3   |"]
    assert parts[-1] == "- a note\n"
    assert bench.format_report("h", []) == "h\n"


def test_batches_are_powers_of_two_that_last_long_enough() -> None:
    assert bench.batch_size(0.001, 0.005) == 8
    assert bench.batch_size(0.00125, 0.005) == 4
    assert bench.batch_size(0.01, 0.005) == 1
    assert bench.batch_size(1e-9, 0.005) == bench.MAX_BATCH
    assert bench.batch_size(0.0, 0.005) == bench.MAX_BATCH


# -- the worker's bench hook, here under CPython -------------------------------------------
def test_the_worker_bench_hook_times_every_case_and_reports_its_moves() -> None:
    import worker

    positions = bench.notakto_positions(3)
    request = {"cases": [{"game": positions[3].save(), "level": "perfect", "batch": 2},
                         {"game": positions[4].save(), "level": "beginner", "batch": 1}],
               "seed": 5, "warmup": 1, "repeats": 3}
    reply = json.loads(worker.bench_moves(json.dumps(request)))
    assert reply["platform"] == sys.platform and 0 < reply["timer_resolution_s"] < 0.01
    assert [len(r["samples"]) for r in reply["results"]] == [3, 3]
    assert all(s > 0 for r in reply["results"] for s in r["samples"])
    state = positions[3].state()
    assert reply["results"][0]["moves"] == [
        state.move_to_text(bench.notakto_ai.choose_move(state, "perfect", seed=5 + i)) for i in range(worker.BENCH_CHECK_MOVES)]
    assert json.loads(worker.bench_moves(json.dumps({**request, "seed": 5})))["results"][1]["moves"] == reply["results"][1]["moves"]
    bad = json.loads(worker.bench_moves(json.dumps({**request, "cases": [{"game": positions[1].save(), "level": "nope", "batch": 1}]})))
    assert "ValueError" in bad["error"]
    assert "error" in json.loads(worker.bench_moves("{}"))
