"""The page while a player plays: its main thread during whole games and a
game's analysis, and the memory of the page and its interpreters."""

from __future__ import annotations

import random
import statistics
from typing import Any

import ai
import registry
from core import GameState
from core.notakto import NotaktoState
from registry import STATES as GAMES
from tools.bench import BenchError, progress
from tools.bench.browser import MY_TURN_JS, PROBE_START_JS, PROBE_STOP_JS
from tools.bench.engines import SEARCHES, game_label
from tools.bench.places import Bench
from tools.bench.positions import casual_game, quiet_moves
from tools.bench.settings import READY_TIMEOUT_MS, TARGET_FIRST_REPLY_RATIO, THINK_TIMEOUT_MS
from tools.bench.stats import Ratio, Stat
from tools.bench.table import Row, at_most, format_bytes, format_ms, verdict

RESPONSIVE_TITLE = "Responsiveness: the page's main thread during whole games against the perfect computer"
MEMORY_TITLE = "Memory: the page's JS heap (after a full GC) and each interpreter's WebAssembly memory"


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
            page.get_by_test_id("new-game").click()
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


def analysis_game(seed: int) -> GameState:
    """A 40-move Hex 11 x 11 game, unfinished, played by the casual level
    for both sides (a seeded, reproducible game with mistakes to find)."""
    return casual_game("hex", {"size": 11, "swap": False}, ANALYSIS_MOVES, seed)


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


FIRST_REPLY_TITLE = ("The computer's first reply after the page loads against its later ones: Hex 11 x 11 against "
                     "the default level, the worker's time for each reply, ms, median (p10–p90)")
#: Replies timed in each game: the first, and the later ones it is compared with.
REPLIES = 4
#: The player's cells, the first still free each time (the computer answers elsewhere).
PLAYER_CELLS = ("c3", "i9", "c9", "i3", "e5", "g7", "a1", "k11")
#: Times every call the page makes to the worker, from the call to its answer.
TIME_WORKER_CALLS_JS = """() => {
  const engine = window.appShell.engine;
  const call = engine.call;
  window.workerTimes = [];
  engine.call = (name, request) => {
    const posted = performance.now();
    return call(name, request).then((reply) => {
      window.workerTimes.push([name, performance.now() - posted]);
      return reply;
    });
  };
}"""
#: Answers once the worker has answered every call made so far (it answers
#: in order): the harness's cheapest call.
WORKER_IDLE_JS = "() => appBenchWorker('bench_memory', '{}')"
#: The player may move on the Hex board.
HEX_TURN_JS = "document.querySelector('[data-testid^=\"cell-\"][aria-disabled=\"false\"]') !== null"


def computer_replies(page: Any) -> list[float]:
    """Play ``REPLIES`` moves against the computer, each once the worker is
    idle (so that neither its warm-up nor the computer's pause before asking
    counts), and return the worker's time for each reply, in seconds."""
    page.evaluate(TIME_WORKER_CALLS_JS)
    moves = page.locator("[data-testid=move-list] li")
    for _ in range(REPLIES):
        page.evaluate(WORKER_IDLE_JS)
        page.wait_for_function(HEX_TURN_JS, timeout=THINK_TIMEOUT_MS)
        played = moves.count()
        free = next((cell for cell in PLAYER_CELLS
                     if page.get_by_test_id(f"cell-{cell}").get_attribute("aria-disabled") == "false"), None)
        if free is None:
            raise BenchError("none of the player's cells was free")
        page.get_by_test_id(f"cell-{free}").click()
        page.wait_for_function(f"document.querySelectorAll('[data-testid=move-list] li').length >= {played + 2}",
                               timeout=THINK_TIMEOUT_MS)
    replies = [ms / 1000 for name, ms in page.evaluate("window.workerTimes") if name == "choose_move"]
    if len(replies) != REPLIES:
        raise BenchError(f"{len(replies)} replies of the computer timed, not {REPLIES}")
    return replies


def first_replies(bench: Bench) -> list[Row]:
    """Rounds of a first visit (a new profile) opening Hex 11 x 11 against
    the default level and playing ``REPLIES`` moves, then a reload (which
    restores the kept interpreters) and a new game of as many: is the
    computer's first reply as quick as its later ones (the worker warms up
    for the game on screen while the player looks at the board)?"""
    browser = bench.browser()
    found: dict[str, list[list[float]]] = {"first visit": [], "reloaded (interpreters restored)": []}
    rounds = bench.settings.first_reply_rounds
    for index in range(rounds):
        progress(f"first replies, round {index + 1}/{rounds}")
        bench.settle()
        context = browser.profile(as_harness=True)
        try:
            page = context.new_page()
            page.goto(browser.server.url + "#/hex/no-swap")
            page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
            page.get_by_test_id("setting-starts").select_option("home")
            found["first visit"].append(computer_replies(page))
            page.reload()
            page.wait_for_function("document.body.dataset.ready === 'true'"
                                   " && performance.getEntriesByName('computer-restored').length > 0",
                                   timeout=READY_TIMEOUT_MS)
            page.get_by_test_id("new-game").click()
            if page.get_by_test_id("confirm-yes").is_visible():
                page.get_by_test_id("confirm-yes").click()
            page.wait_for_function("document.querySelectorAll('[data-testid=move-list] li').length === 0",
                                   timeout=10_000)
            found["reloaded (interpreters restored)"].append(computer_replies(page))
        finally:
            browser.close_profile(context)
    bench.facts["first_replies"] = rounds
    rows = []
    for visit, games in found.items():
        ratio = Ratio.of([game[0] / statistics.median(game[1:]) for game in games])
        rows.append(Row(FIRST_REPLY_TITLE, {
            "visit": visit, "games": len(games), "first reply": Stat.of([game[0] for game in games]),
            "later replies": Stat.of([ms for game in games for ms in game[1:]]),
            "first ÷ its game's later (median)": ratio,
            "target": f"≤ {TARGET_FIRST_REPLY_RATIO:.2f}×: {verdict(at_most(ratio.median, TARGET_FIRST_REPLY_RATIO))}",
        }))
    return rows


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
#: The biggest board of each searching game with a board size, as the
#: registry has it (the strongest level searches on it; the worker's memory
#: must stay under ``BIG_BOARD_MEMORY`` there), swap off so that every move
#: is searched: Hex 19 x 19 and Y side 19.
BIG_BOARDS: list[tuple[str, dict[str, Any]]] = [
    (game, {"size": max(registry.GAMES[game].setting("size").values), "swap": False})
    for _, game, _ in SEARCHES if registry.GAMES[game].has_setting("size")
]
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
