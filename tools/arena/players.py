"""Our side of a match: our engine in this process, or our GTP engine
(py/gtp.py) in a subprocess."""

from __future__ import annotations

import subprocess
import sys

import ai
from core import FIRST, GameState
from tools.arena import ROOT


class InProcessPlayer:
    """Our engine in this process, one per game (its tree kept between moves)."""

    def __init__(self, game: str, move_time: float | None, seed: int, level: str | None = None,
                 parts: frozenset[str] | None = None) -> None:
        self.engine = ai.new_engine(game, parts)
        self.level = ai.levels(game)[-1] if level is None else level
        self.move_time = move_time
        self.seed = seed

    def choose(self, state: GameState) -> int:
        return self.engine.choose_move(state, self.level, seed=self.seed + len(state.moves),
                                       move_time=self.move_time)

    def close(self) -> None:
        self.engine.forget()  # its tree's memory goes now, not when the player does


class GtpPlayer:
    """Our GTP engine in a subprocess, told every move it has not seen (an
    opening stone too)."""

    def __init__(self, game: str, size: int | None, move_time: float | None, seed: int,
                 level: str | None = None) -> None:
        command = [sys.executable, str(ROOT / "py" / "gtp.py"), "--game", game, "--seed", str(seed)]
        if move_time is not None:
            command += ["--move-time", str(move_time)]
        if level is not None:
            command += ["--level", level]
        if size is not None:
            command += ["--size", str(size)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.told = 0  # moves of the game it knows

    def send(self, command: str) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the GTP engine stopped on {command!r}")
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        response = "\n".join(lines)
        if not response.startswith("="):
            raise RuntimeError(f"GTP {command!r}: {response}")
        return response[1:].strip()

    def choose(self, state: GameState) -> int:
        for ply in range(self.told, len(state.moves)):
            colour = "b" if ply % 2 == 0 else "w"
            self.send(f"play {colour} {state.move_to_text(state.moves[ply])}")
        colour = "b" if state.turn == FIRST else "w"
        move = state.parse_move(self.send(f"genmove {colour}"))
        self.told = len(state.moves) + 1
        return move

    def close(self) -> None:
        try:
            self.send("quit")
        finally:
            self.process.wait(timeout=10)
