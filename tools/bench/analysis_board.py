"""The analysis board (issue 44): how soon its engine's first lines come
back from the page's worker, and the page's main thread while a player
explores on it."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.model.explore import FIRST_SLICE, SLICE, Exploration
from core import GameState
from registry import GAMES
from tools.bench import BenchError, progress
from tools.bench.browser import PROBE_START_JS, PROBE_STOP_JS, TaskTrace
from tools.bench.engines import game_label
from tools.bench.page import TIME_WORKER_CALLS_JS, WORKER_IDLE_JS
from tools.bench.places import Bench
from tools.bench.positions import casual_game, opening
from tools.bench.settings import READY_TIMEOUT_MS, TARGET_S, THINK_TIMEOUT_MS
from tools.bench.stats import Stat
from tools.bench.table import Row, verdict

LINES_TITLE = ("The analysis board's engine: time to its first lines on a new position, and to its next "
               "slice, in the page's worker (from the page's call to the answer), ms, median (p10–p90)")
#: The boards asked about: Hex 11 x 11 without the swap (every move
#: searched; the swap changes only the second move) and UTTT.
BOARDS: tuple[tuple[str, dict[str, Any]], ...] = (("hex", {"size": 11, "swap": False}), ("uttt", {}))
#: The positions asked about in each casual game: after these many moves,
#: longest first, so that none extends the one asked about before it (the
#: worker's explorer would think on in the tree it kept for that one).
PLIES = (24, 16, 8, 0)
#: How many lines the page asks for (``Engine.explore``'s default).
COUNT = 3
#: The most answers waited for a position's first lines.
MAX_ANSWERS = 5
#: The seconds of a question about a position off the next one's line, so
#: that the explorer forgets the tree it would otherwise think on in.
RESET_S = 0.05

#: The shell's call of the worker's ``explore``, as the page's Engine.explore
#: makes it, timed in the page: [ms, the reply's JSON text].
EXPLORE_JS = """async ([request, timeout]) => {
  const start = performance.now();
  const reply = await Promise.race([
    window.appShell.engine.call("explore", request),
    new Promise((_, reject) => setTimeout(() => reject(new Error("explore timed out")), timeout)),
  ]);
  return [performance.now() - start, String(reply)];
}"""


@dataclass(frozen=True)
class Look:
    """The analysis board's engine on one new position: seconds until the
    first answer with lines (the answers before it summed), how many
    answers that took, how many lines it had and how many search
    iterations; then the next slice's seconds (None: the model asked none,
    every line being proven)."""

    first_s: float
    answers: int
    lines: int
    iterations: int
    next_s: float | None


def ask(page: Any, state: GameState, seconds: float) -> tuple[float, dict[str, Any]]:
    """The worker's ``explore`` on ``state`` for ``seconds``, the request
    the page's Engine.explore sends: (seconds from call to answer, reply)."""
    request = json.dumps({"game": state.to_dict(), "seconds": seconds, "count": COUNT})
    ms, text = page.evaluate(EXPLORE_JS, [request, THINK_TIMEOUT_MS])
    reply = json.loads(text)
    if "error" in reply:
        raise BenchError(f"explore in the worker: {reply['error']}")
    return ms / 1000, reply


def look(page: Any, state: GameState) -> Look:
    """Ask about ``state`` as the analysis board's model does (its
    ``request`` and ``answer``: ``FIRST_SLICE`` on a new position, then
    ``SLICE``) until an answer has lines, then one slice more unless the
    model asks none (its lines all proven)."""
    board = Exploration(state)
    board.toggle_engine()
    waited = 0.0
    for answers in range(1, MAX_ANSWERS + 1):
        request = board.request()
        if request is None or request.seconds != (FIRST_SLICE if answers == 1 else SLICE):
            raise BenchError(f"the analysis board's model asked {request} about a new position")
        seconds, reply = ask(page, request.state, request.seconds)
        waited += seconds
        if not board.answer(request, reply):
            raise BenchError("the analysis board's model dropped the answer about its own position")
        if board.lines():
            break
    else:
        raise BenchError(f"no lines in {MAX_ANSWERS} answers about {state.position_text()}")
    first = Look(waited, answers, len(reply["lines"]), int(reply["verdict"]["iterations"]), None)
    follow = board.request()
    if follow is None:
        if not all(line["proof"] is not None for line in board.lines()):
            raise BenchError(f"the analysis board's model stopped asking about {state.position_text()} unsolved")
        return first
    if follow.seconds != SLICE:
        raise BenchError(f"the analysis board's model asked {follow} after its first answer")
    next_s, reply = ask(page, follow.state, follow.seconds)
    if not board.answer(follow, reply) or not board.lines():
        raise BenchError(f"the next slice about {state.position_text()} had no lines")
    return dataclasses.replace(first, next_s=next_s)


def off_line(state: GameState, before: Sequence[int] | None) -> GameState | None:
    """When ``state``'s moves extend ``before`` (the position the explorer
    was last asked about, whose tree it keeps), a position to ask about
    first so that it forgets that tree: one move played, not ``state``'s
    first. Else None."""
    if before is None or list(state.moves[: len(before)]) != list(before):
        return None
    reset = opening(state, 0)
    reset.push(next(move for move in reset.legal_moves() if state.moves[:1] != [move]))
    return reset


def spread(values: Sequence[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}–{high}"


def engine_lines(bench: Bench) -> list[Row]:
    """For Hex 11 x 11 and UTTT, the openings (``PLIES``) of
    ``explore_rounds`` casual games, each asked about in the page's worker
    as the analysis board asks about a new position (``look``): the time
    to its first lines, at the model's ``FIRST_SLICE``, and to the next
    ``SLICE``. The page is warmed up first (``Bench.page``), and each
    board's engine by one position asked about the same way."""
    page = bench.page().page
    rounds = bench.settings.explore_rounds
    rows = []
    for game, settings in BOARDS:
        label = game_label(game, {key: value for key, value in settings.items() if key == "size"})
        played = [casual_game(game, settings, max(PLIES), bench.seed + 7919 * index) for index in range(rounds)]
        page.evaluate(WORKER_IDLE_JS)
        warm = opening(played[0], 0)
        warm.push(warm.legal_moves()[len(warm.legal_moves()) // 2])
        progress(f"{label}: warming up the analysis board's engine")
        look(page, warm)
        before: Sequence[int] | None = warm.moves
        looks = []
        for index, moves in enumerate(played):
            progress(f"{label}: the analysis board's first lines, game {index + 1}/{rounds}")
            bench.settle()
            for plies in PLIES:
                state = opening(moves, plies)
                reset = off_line(state, before)
                if reset is not None:
                    ask(page, reset, RESET_S)
                looks.append(look(page, state))
                before = state.moves
        nexts = [x.next_s for x in looks if x.next_s is not None]
        rows.append(Row(LINES_TITLE, {
            "board": label,
            "positions": f"{len(looks)} ({rounds} game{'s' if rounds > 1 else ''} × {len(PLIES)})",
            f"first lines (asking {FIRST_SLICE:g} s)": Stat.of([x.first_s for x in looks]),
            "answers until lines": spread([x.answers for x in looks]),
            f"lines (of {COUNT})": spread([x.lines for x in looks]),
            "search iterations in it, median": sorted(x.iterations for x in looks)[len(looks) // 2],
            f"next slice (asking {SLICE:g} s)": Stat.of(nexts) if nexts else None,
            "solved at once (no next slice)": len(looks) - len(nexts),
        }))
    bench.facts["explore_lines"] = rounds
    return rows


RESPONSIVE_TITLE = ("The analysis board's page: its main thread while a player explores (the engine and the "
                    "heat map on, moves clicked, the keys, AutoPlay), target: no task over 50 ms")
#: The analysis boards opened, as a player opens an empty one: (game, the
#: page's route, the board's cells at the game's default settings).
ROUTES: tuple[tuple[str, str, int], ...] = (("hex", "#/hex/explore", 121), ("uttt", "#/uttt/explore", 81))
#: The keys pressed on each board, in order, each once the engine has
#: answered (the page's: ← → through the line, Home and End).
KEYS = ("ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowRight", "ArrowRight", "ArrowRight", "Home", "End")
#: A player's pause after each answer before the next action, ms.
PAUSE_MS = 300
BOARD = "[data-testid=explore-board]"
CELLS = f'{BOARD} [data-testid^="cell-"]'
#: The engine's lines on screen as text (empty: none yet).
LINES_TEXT_JS = """() => Array.from(document.querySelectorAll("[data-testid=engine-lines] [data-testid=engine-line]"))
  .map((line) => line.textContent).join("\\n")"""
NOW_JS = "() => performance.now()"
#: The parts of a session (``explore_session``), in order.
PHASES = ("switches", "clicks", "keys", "AutoPlay")
#: How many moves the tree on screen has.
VARIATIONS_JS = "() => document.querySelectorAll('[data-testid=variation]').length"


def wait_for_new_lines(page: Any, before: str) -> str:
    """Wait until the engine's lines are on screen and not ``before``
    (those of the position left), then a player's pause; the new lines."""
    page.wait_for_function(f"(before) => {{ const now = ({LINES_TEXT_JS})(); return now !== '' && now !== before; }}",
                           arg=before, timeout=THINK_TIMEOUT_MS)
    page.wait_for_timeout(PAUSE_MS)
    return str(page.evaluate(LINES_TEXT_JS))


def explore_session(page: Any, state: GameState, clicks: int, autoplay_s: float,
                    rng: random.Random) -> dict[str, Any]:
    """What a player does on the analysis board on screen, whose position
    is ``state`` (changed as the moves are played): the engine on, the
    heat map on, ``clicks`` moves clicked on the board (random legal ones
    among its cells), the keys (``KEYS``), AutoPlay for ``autoplay_s``
    seconds, then the engine off; each step once the engine has answered.
    Counts of what was done, and when (the page's clock) each of
    ``PHASES`` but the last ended."""
    page.get_by_test_id("engine-toggle").check()
    page.get_by_test_id("heatmap-toggle").check()
    lines = wait_for_new_lines(page, "")
    ends = [page.evaluate(NOW_JS)]
    played = 0
    while played < clicks and not state.is_over():
        on_board = set(page.locator(CELLS).evaluate_all("(cells) => cells.map((cell) => cell.dataset.move)"))
        legal = [move for move in state.legal_moves() if state.move_to_text(move) in on_board]
        if not legal:
            raise BenchError(f"no legal move of {state.position_text()} among the analysis board's cells")
        move = rng.choice(legal)
        page.locator(f'{CELLS}[data-move="{state.move_to_text(move)}"]').click()
        state.push(move)
        played += 1
        lines = wait_for_new_lines(page, lines)
    ends.append(page.evaluate(NOW_JS))
    for key in KEYS:  # the focus is on the board (a click on a cell puts it there), where the keys walk the tree
        page.keyboard.press(key)
        lines = wait_for_new_lines(page, lines)
    ends.append(page.evaluate(NOW_JS))
    nodes = page.evaluate(VARIATIONS_JS)
    page.get_by_test_id("autoplay").click()
    page.wait_for_timeout(int(autoplay_s * 1000))
    page.get_by_test_id("autoplay").click()
    page.get_by_test_id("engine-toggle").uncheck()  # it would think on: the next board's first answer would wait
    autoplayed = int(page.evaluate(VARIATIONS_JS)) - nodes
    if autoplayed <= 0 and not state.is_over():
        raise BenchError(f"AutoPlay played no move in {autoplay_s:g} s on the {state.game} analysis board")
    return {"clicks": played, "keys": len(KEYS), "autoplayed": autoplayed, "ends": ends}


def longest(tasks: Sequence[float]) -> str:
    return "—" if not tasks else f"{max(tasks):.0f} ms"


def explore_responsiveness(bench: Bench) -> list[Row]:
    """A player's session on a new analysis board of Hex 11 x 11 and of
    UTTT (``explore_session``), the worker thinking all along, in the page
    warmed up (``Bench.page``): every main-thread task meanwhile (the
    page draws each answer: the lines, the heat map, the move list); apart,
    those while the board opens (the game's screen and the board drawn)."""
    app = bench.page()
    page = app.page
    s = bench.settings
    rows = []
    for game, route, cells in ROUTES:
        state = GAMES[game].new_state()  # an empty analysis board: the game's default settings
        label = game_label(game, {key: value for key, value in state.settings().items() if key == "size"})
        page.evaluate(WORKER_IDLE_JS)
        bench.settle()
        progress(f"{label}: exploring on the analysis board")
        opened = page.evaluate(NOW_JS)
        page.goto(f"{bench.browser().server.url}{route}")
        page.wait_for_function(f"document.querySelectorAll('{CELLS}').length === {cells}", timeout=READY_TIMEOUT_MS)
        if page.evaluate("Array.isArray(window.workerTimes)"):
            page.evaluate("window.workerTimes = []")  # the calls are timed already (once: on the board before)
        else:
            page.evaluate(TIME_WORKER_CALLS_JS)
        trace = TaskTrace(app.cdp)
        start = page.evaluate(PROBE_START_JS)
        done = explore_session(page, state, s.explore_clicks, s.explore_autoplay_s,
                               random.Random(f"bench|explore|{game}|{bench.seed}"))
        end, worst_block_ms = page.evaluate(PROBE_STOP_JS)
        traced = trace.stop(page)
        cpu_long = [cpu for _, cpu in traced if cpu >= TARGET_S * 1000]
        every = page.evaluate("window.__bench.longTasks")
        opening_tasks = [duration for at, duration in every if opened <= at < start]
        tasks = [duration for at, duration in every if start <= at <= end]
        answers = [ms for name, ms in page.evaluate("window.workerTimes") if name == "explore"]
        bounds = [start, *done["ends"], end]
        by_phase = [sum(1 for at, duration in every if low <= at < high)
                    for low, high in zip(bounds, bounds[1:])]
        rows.append(Row(RESPONSIVE_TITLE, {
            "board": label, "seconds": f"{(end - start) / 1000:.1f}",
            "moves clicked · keys · AutoPlay's moves": f"{done['clicks']} · {done['keys']} · {done['autoplayed']}",
            "engine answers": len(answers),
            "the first (its lines on screen)": f"{answers[0]:.0f} ms" if answers else "—",
            "long tasks (≥ 50 ms)": len(tasks), "longest task": longest(tasks),
            "longest block (10 ms probe)": f"{worst_block_ms:.0f} ms",
            "the most CPU time a task took (trace)": f"{max(cpu for _, cpu in traced):.0f} ms",
            f"none over {TARGET_S * 1000:.0f} ms (wall · CPU)": f"{verdict(not tasks)} · {verdict(not cpu_long)}",
            f"long tasks by part ({' · '.join(PHASES)})": " · ".join(map(str, by_phase)),
            "opening the board: long tasks, longest": f"{len(opening_tasks)}, {longest(opening_tasks)}",
        }))
    bench.facts["explore_responsiveness"] = (s.explore_clicks, len(KEYS), s.explore_autoplay_s)
    return rows
