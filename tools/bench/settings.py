"""How much the bench measures (full and quick), its targets and time-outs."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_SEED = 2024
TARGET_S = 0.050  # a computer move within 50 ms in the browser; no main-thread task over 50 ms
TARGET_PAINT_S = 0.5  # the shell paints within 0.5 s
TARGET_FLOOR_RATIO = 1.10  # interactive within 1.10x of the bare-Pyodide floor
TARGET_COMPUTER_RATIO = 1.3  # the computer ready within 1.3x of the floor
TARGET_REFERENCE_RATIO = 1.10  # a cold visit's board within 1.10x of the PyScript reference (the same runtime)
TARGET_BYTES_RATIO = 0.75  # a first visit sends at most 0.75x the bytes of bare Pyodide's own files, gzipped
TARGET_PHONE_BOARD_RATIO = 1.0  # on the emulated phone's connection, the board no later than bare Pyodide is ready
TARGET_PHONE_COMPUTER_RATIO = 1.2  # and the computer ready within 1.2x of that
#: The emulated phone's connection (DevTools' network conditions) and the slowed processor.
PHONE_NETWORK = {"offline": False, "latency": 80, "downloadThroughput": 20e6 / 8, "uploadThroughput": 5e6 / 8}
PHONE_SLOWDOWN = 4
TARGET_FIRST_REPLY_RATIO = 1.10  # the computer's first reply after the page loads as quick as its later ones (within noise)
TARGET_SPEED = 0.6  # Pyodide at least 0.6x as fast as CPython on the same code


@dataclass(frozen=True)
class Settings:
    name: str
    passes: int  # CPython, worker and round trips take turns this many times
    quiet_wait_s: float  # at most this long in all waiting for the machine to be quiet
    warmup: int  # per pass: batches (or round trips) of each case run and thrown away first
    repeats: int  # per pass: samples of each case kept
    batch_s: float  # a timed batch of moves lasts at least this long under CPython
    startup_rounds: int  # rounds of visits: the app and the floor, each cold then warm
    long_games: int  # whole games against the perfect computer on 6 boards
    arena_games: int  # games per strength pairing
    warm_computer: bool = True  # time the computer's start on warm visits too
    returning: bool = True  # a third visit in each start-up round
    level_boards: tuple[int, ...] = (3, 6)  # Notakto boards on which every level is timed
    warm_max_s: float = 30.0  # at most this long warming up the page before the engine figures
    playout_batch_s: float = 0.02  # a timed batch of playouts lasts at least this long under CPython
    search_s: float = 0.1  # a timed search lasts at least this long under CPython
    #: a timed search of the master level lasts at least about this long under CPython, as judged from a
    #: probe of 2,048 iterations, which its root analysis slows (4,096 iterations, 1.1 s, on 2026-12-03)
    master_search_s: float = 2.0
    master_repeats: int = 3  # per pass: samples kept of each master search (one warm-up search first)
    openspiel_games: int = 40  # games per match against OpenSpiel (python -m tools.arena)
    openspiel_move_s: float = 0.25  # OpenSpiel's seconds per move; ours is this times a factor
    openspiel_factors: tuple[float, ...] = (1.0, 0.5)  # our time x this; per game: OPENSPIEL_TARGETS
    openspiel_check_games: int = 200  # random games through both engines first, the rules compared
    puzzle_s: float = 2.0  # the strongest Hex level's time per puzzle
    puzzles_in_browser: bool = True  # the puzzles in the page's worker too
    #: the puzzles the exact solver proves from scratch in both runtimes (``solver_speed``), each this many
    #: times, within this many seconds
    solver_puzzles: tuple[str, ...] = ("6x6-henderson-04", "6x6-henderson-13", "6x6-henderson-17",
                                       "6x6-henderson-19", "6x6-henderson-21")
    solver_repeats: int = 3
    solver_limit_s: float = 60.0
    big_moves: int = 24  # moves of the strongest level's game on each biggest board, in the worker
    big_move_s: float = 2.0  # its seconds per move there
    first_reply_rounds: int = 5  # first visits, each then reloaded, timing the computer's first replies
    phone_rounds: int = 5  # rounds of cold visits (the app, the floor) over an emulated phone's connection
    phone_slow_rounds: int = 3  # of them, the first this many again with the processor slowed down too
    explore_rounds: int = 5  # casual games per game whose openings the analysis board's engine is asked about
    explore_clicks: int = 6  # moves clicked on each analysis board while its main thread is watched
    explore_autoplay_s: float = 10.0  # and how long AutoPlay then plays

    @property
    def samples(self) -> int:
        return self.passes * self.repeats


FULL = Settings("full", passes=4, quiet_wait_s=90, warmup=3, repeats=15, batch_s=0.005,
                startup_rounds=7, long_games=3, arena_games=2000)
QUICK = Settings("quick", passes=2, quiet_wait_s=5, warmup=1, repeats=3, batch_s=0.005,
                 startup_rounds=2, long_games=1, arena_games=200, warm_computer=False, warm_max_s=8.0,
                 openspiel_games=2, openspiel_move_s=0.05, openspiel_factors=(1.0,), openspiel_check_games=20,
                 puzzle_s=0.1, puzzles_in_browser=False, returning=False, level_boards=(6,), big_moves=4,
                 big_move_s=0.3, first_reply_rounds=1, phone_rounds=1, phone_slow_rounds=1,
                 master_search_s=0.2, master_repeats=1, solver_puzzles=("6x6-henderson-02",),
                 solver_repeats=1, explore_rounds=1, explore_clicks=3, explore_autoplay_s=4.0)
MAX_BATCH = 4096
WARM_WORKER_S = 3.0  # at least this long warming up the worker, until its speed settles
WARM_PAGE_S = 1.0  # and the main thread's round trips
CALL_TIMEOUT_MS = 300_000  # one call into the page (a whole pass of cases)
READY_TIMEOUT_MS = 90_000
THINK_TIMEOUT_MS = 30_000
