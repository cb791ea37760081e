"""Any GTP engine as the opponent.

A GTP opponent (``--opponent-gtp "CMD ARGS"``; Hex and Y, and Ultimate
Tic-Tac-Toe in our own dialect, e.g. ``py/gtp.py`` of an earlier commit
checked out elsewhere, to play the engine against its past self) is one
process for the match (started again should it die), or one per worker
process with ``--jobs N``. Each game it gets
``boardsize N``, ``clear_board``, its dialect's own setup and then the
commands of ``--opponent-setup`` (separated by ``;``; a refused one stops
the match). It is told every move with ``play`` and asked with ``genmove``;
the wall time of each ``genmove`` is its think time, and ours is the time
our ``choose_move`` (or ``genmove`` of ``py/gtp.py`` with ``--gtp``) takes.
Here ``--move-time`` is our time per move (times ``--our-time-factor``; 0:
our ``--level``'s own budget); the opponent's budget is whatever its setup
says. The swap rule is off.


The dialects (``--opponent-dialect``):

- ``ours``: ``docs/gtp.md``; ``b`` moves first; ``final_score`` answers
  ``B+``/``W+``. For ``py/gtp.py`` itself or any engine that speaks it.
- ``mohex``: MoHex 2.0 (Benzene), Hex only. The same cells as ours (letter
  the column, number the row from the top, black first and joining the
  top and bottom rows), ``final_score`` the same; ``param_game allow_swap
  0`` is sent first.
- ``morat``: Morat (``morat-hex``, ``morat-y``). Its first player is ``w``
  and its second ``b``; ``winner`` answers ``white``/``black``/``none``.
  Hex cells are ours. In Y its cell ``(x, y)`` has ``x + y < size`` with
  row ``y = 0`` the long edge, written ``letter(x)`` and ``y + 1``: our row
  ``r`` from the apex, position ``c`` is its ``x = c, y = size - 1 - r``,
  so our ``a1`` (the apex) is its ``a{size}`` and our bottom row its row 1.
"""

from __future__ import annotations

import queue
import random
import re
import shlex
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import FIRST, SECOND, GameError, GameState, YState
from core.y import cell_index, row_col

LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CELL_TEXT = re.compile(r"([a-z])([0-9]{1,2})")


class OpponentError(RuntimeError):
    """The opponent process stopped, timed out, or refused a command the
    harness needs (a setup command, one of our moves): not a move of its
    own, so the game is void, not lost."""


class Dialect:
    """How one family of GTP engines names colours and cells. ``to_text``
    writes one of our moves for it; ``from_text`` reads its answer to
    ``genmove`` (raises ValueError for text that names no cell)."""

    name = "ours"
    games: tuple[str, ...] = ("hex", "y", "uttt")
    first, second = "b", "w"  # the words for our FIRST and SECOND
    result_command: str | None = "final_score"
    setup: tuple[str, ...] = ()  # sent before the user's --opponent-setup

    def colour(self, player: int) -> str:
        return self.first if player == FIRST else self.second

    def to_text(self, state: GameState, move: int) -> str:
        return state.move_to_text(move)

    def from_text(self, state: GameState, text: str) -> int:
        clean = text.strip().lower()
        if clean in ("swap", "swap-pieces"):
            return state.parse_move("swap")
        if _CELL_TEXT.fullmatch(clean) is None:
            raise ValueError(f"{text!r} is no cell")
        try:
            return state.parse_move(clean)
        except GameError as error:
            raise ValueError(str(error)) from None

    def winner(self, answer: str) -> int | None | str:
        """Its answer to ``result_command`` as FIRST, SECOND, None (no
        winner), or the text itself when it cannot be read."""
        text = answer.strip().upper()
        if text == "0":  # a draw (Ultimate Tic-Tac-Toe)
            return None
        return FIRST if text.startswith("B+") else SECOND if text.startswith("W+") else answer


class MohexDialect(Dialect):
    """MoHex 2.0 (Benzene): Hex only, our notation (letter the column, number
    the row, black first and joining row 1 to the last row), ``final_score``
    as ours; the swap rule is switched off first."""

    name = "mohex"
    games = ("hex",)
    setup = ("param_game allow_swap 0",)


class MoratDialect(Dialect):
    """Morat (morat-hex, morat-y): its first player is ``w``, the second
    ``b``; ``winner`` answers ``white``, ``black`` or ``none``.

    - Hex: cells as ours (letter ``x`` the column, number ``y + 1`` the row,
      its first player joins ``y = 0`` to the last row, as our black).
    - Y: its cells are ``(x, y)`` with ``x + y < size``, row ``y = 0`` the
      long edge; our row ``r`` from the apex, position ``c``, is its
      ``x = c, y = size - 1 - r``: the text is our letter with the number
      ``size - r`` (our apex ``a1`` is its ``a{size}``, our bottom row its
      row 1). The three edges (x = 0, y = 0, x + y = size - 1) are our
      left, bottom and right edges."""

    name = "morat"
    games = ("hex", "y")
    first, second = "w", "b"
    result_command = "winner"

    def to_text(self, state: GameState, move: int) -> str:
        if not isinstance(state, YState):
            return super().to_text(state, move)
        row, col = row_col(state.size)[move]
        return f"{LETTERS[col]}{state.size - row}"

    def from_text(self, state: GameState, text: str) -> int:
        if not isinstance(state, YState):
            return super().from_text(state, text)
        match = _CELL_TEXT.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(f"{text!r} is no cell")
        x, y = LETTERS.index(match[1]), int(match[2]) - 1
        if not (0 <= y < state.size and x + y < state.size):
            raise ValueError(f"{text!r} is no cell of Y {state.size}")
        return cell_index(state.size - 1 - y, x)

    def winner(self, answer: str) -> int | None | str:
        text = answer.strip().lower()
        return {"white": FIRST, "black": SECOND, "none": None}.get(text, answer)


DIALECTS: dict[str, type[Dialect]] = {"ours": Dialect, "mohex": MohexDialect, "morat": MoratDialect}


class GtpProcess:
    """A GTP engine in a subprocess; its answers read by a thread, so that a
    silent engine times out instead of hanging the match."""

    def __init__(self, command: str, timeout: float, stderr: Any = subprocess.DEVNULL) -> None:
        self.command = command
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=stderr, text=True, bufsize=1)
        except (OSError, ValueError) as error:
            raise OpponentError(f"cannot start {command!r}: {error}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, command: str, timeout: float | None = None) -> tuple[bool, str]:
        """(success, the answer's text without ``=``/``?`` and id)."""
        assert self.process.stdin
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise OpponentError(f"the opponent has stopped (before {command!r})") from None
        lines: list[str] = []
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise OpponentError(f"no answer to {command!r} in {self.timeout:g} s") from None
            if line is None:
                raise OpponentError(f"the opponent stopped on {command!r}")
            line = line.rstrip("\r\n")
            if not line.strip():
                if lines:
                    break
                continue  # blank lines before an answer
            lines.append(line)
        text = "\n".join(lines)
        match = re.match(r"([=?])[0-9]*\s?", text)
        if match is None:
            raise OpponentError(f"not a GTP answer to {command!r}: {text!r}")
        return match[1] == "=", text[match.end():].strip()

    def close(self) -> None:
        try:
            self.send("quit", timeout=5)
        except OpponentError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class OpponentMove:
    """The opponent's answer to ``genmove``: a legal ``move``, or a
    ``forfeit`` (its text and why it is no legal move), or a resignation."""

    text: str
    seconds: float
    move: int | None = None
    forfeit: str | None = None
    resigned: bool = False


class GtpOpponent:
    """Any GTP engine, one process for the match (started again if it dies),
    a new game by ``boardsize`` and ``clear_board`` and the setup commands."""

    def __init__(self, command: str, dialect: Dialect, game: str, size: int, setup: list[str],
                 timeout: float = 120.0, stderr: Any = subprocess.DEVNULL) -> None:
        if game not in dialect.games:
            raise ValueError(f"the {dialect.name} dialect has no {game}")
        self.command, self.dialect, self.game, self.size = command, dialect, game, size
        self.setup = list(dialect.setup) + setup
        self.timeout, self.stderr = timeout, stderr
        self.process: GtpProcess | None = None
        self.told = 0

    def ask(self, command: str) -> str:
        assert self.process is not None
        ok, text = self.process.send(command)
        if not ok:
            raise OpponentError(f"the opponent refused {command!r}: {text}")
        return text

    def new_game(self) -> None:
        if self.process is None or self.process.process.poll() is not None:
            self.process = GtpProcess(self.command, self.timeout, self.stderr)
        self.ask(f"boardsize {self.size}")
        self.ask("clear_board")
        for command in self.setup:
            self.ask(command)
        self.told = 0

    def tell(self, state: GameState) -> None:
        """Play the moves it has not seen."""
        for ply in range(self.told, len(state.moves)):
            player = FIRST if ply % 2 == 0 else SECOND
            self.ask(f"play {self.dialect.colour(player)} {self.dialect.to_text(state, state.moves[ply])}")
        self.told = len(state.moves)

    def choose(self, state: GameState) -> OpponentMove:
        """Its move for the side to move in ``state``, checked by our rules."""
        self.tell(state)
        assert self.process is not None
        start = time.perf_counter()
        ok, text = self.process.send(f"genmove {self.dialect.colour(state.turn)}")
        answer = OpponentMove(text, time.perf_counter() - start)
        if not ok:
            answer.forfeit = f"genmove failed: {text}"
        elif text.strip().lower() == "resign":
            answer.resigned = True
        else:
            try:
                move = self.dialect.from_text(state, text)
            except ValueError as error:
                answer.forfeit = f"{text!r} cannot be read ({error})"
            else:
                if move in state.legal_moves():
                    answer.move = move
                    self.told = len(state.moves) + 1
                else:
                    answer.forfeit = f"{text!r} is not legal here"
        return answer

    def result(self, state: GameState) -> int | None | str:
        """Its own verdict on the finished game (after our last move)."""
        if self.dialect.result_command is None:
            return "not asked"
        self.tell(state)
        return self.dialect.winner(self.ask(self.dialect.result_command))

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None


def check_dialect(opponent: GtpOpponent, new_state: Callable[[], GameState], games: int, seed: int) -> int:
    """Random games told to the opponent move by move; at each end its own
    verdict must be ours (where its dialect can ask). Raises OpponentError
    on a refused move or a different verdict. Returns the games compared."""
    if opponent.dialect.result_command is None:
        return 0
    rng = random.Random(seed)
    for number in range(games):
        state = new_state()
        opponent.new_game()
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
        verdict, outcome = opponent.result(state), state.outcome()
        assert outcome is not None
        if verdict != outcome.winner:
            moves = " ".join(opponent.dialect.to_text(state, move) for move in state.moves)
            raise OpponentError(f"random game {number + 1}: it scores {verdict!r}, our rules "
                                f"{outcome.winner!r} (its moves: {moves})")
    return games


def opening_cells(spec: str, state: GameState, seed: int) -> list[int | None]:
    """The first stones of the game pairs: ``random`` (every cell once, in a
    seeded order), ``all`` (every cell in order), ``none`` (no forced first
    stone) or a comma-separated list of cells in our notation."""
    cells = list(state.legal_moves())
    if spec == "none":
        return [None]
    if spec == "all":
        return list(cells)
    if spec == "random":
        random.Random(seed).shuffle(cells)
        return list(cells)
    return [state.parse_move(text) for text in spec.split(",") if text.strip()]
