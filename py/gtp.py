"""The engines as GTP (Go Text Protocol v2) programs, for every game.

    python3 py/gtp.py --game notakto --boards 3 [--level perfect] [--seed 1]

``docs/gtp.md`` describes exactly what it speaks. Commands come on standard
input, responses go to standard output and nothing else does; diagnostics go
to standard error. A bad command gets a ``?`` response and changes nothing.
``GtpEngine`` can also be driven in-process (``execute`` one line, or ``run``
over any pair of text streams).
"""

from __future__ import annotations

import argparse
import math
import sys
import traceback
from collections.abc import Callable
from typing import Any, TextIO

import ai
from ai import connection
from core import FIRST, SECOND, GameError, GameState, IllegalMoveError, NotationError
from core.hex import LETTERS
from registry import GAMES, STATES

NAME = "four-abstract-games"
VERSION = "0.1.0"

COLOURS = {"b": FIRST, "black": FIRST, "w": SECOND, "white": SECOND}
COLOUR_NAMES = {FIRST: "black", SECOND: "white"}


class CommandError(Exception):
    """A command that fails: its message becomes the ``?`` response."""


def draw_notakto(state: Any) -> str:
    """The boards side by side; X and '.', a closed board's dead cells '-'."""
    width = 12
    header, columns, rows = "", "", ["", "", ""]
    for board, mask in enumerate(state.boards):
        closed = state.is_closed(board)
        header += f"   {board + 1}{' closed' if closed else ''}".ljust(width)
        columns += "   a b c".ljust(width)
        for row in range(3):
            cells = []
            for col in range(3):
                if mask >> (row * 3 + col) & 1:
                    cells.append("X")
                else:
                    cells.append("-" if closed else ".")
            rows[row] += f" {row + 1} {' '.join(cells)}".ljust(width)
    return "\n".join(line.rstrip() for line in (header, columns, *rows))


def draw_uttt(state: Any) -> str:
    """The 9 x 9 grid with X, O and '.'; a decided board's empty cells '-';
    then the small boards the side to move may play in."""
    from core.uttt import CELL_BOARD, board_span

    results = state.small_board_results()
    lines = ["    a b c   d e f   g h i"]
    for row in range(9):
        if row and row % 3 == 0:
            lines.append("   -------+-------+-------")
        cells = []
        for col in range(9):
            cell = row * 9 + col
            owner = state.cell_owner(cell)
            if owner is not None:
                cells.append("XO"[owner])
            else:
                cells.append("." if results[CELL_BOARD[cell]] is None else "-")
        groups = [" ".join(cells[start:start + 3]) for start in (0, 3, 6)]
        lines.append(f" {row + 1}  " + " | ".join(groups))
    forced = state.forced_board
    if not state.is_over():
        where = "any open board" if forced is None else f"board {forced + 1} ({board_span(forced)})"
        lines.append(f"play in: {where}")
    return "\n".join(lines)


def draw_hex(state: Any) -> str:
    """The rhombus, each row shifted half a cell right; X black, O white."""
    size = state.size
    lines = ["    " + " ".join(LETTERS[:size])]
    for row in range(size):
        owners = (state.cell_owner(row * size + col) for col in range(size))
        cells = " ".join("." if owner is None else "XO"[owner] for owner in owners)
        lines.append(f"{' ' * row}{row + 1:2}  {cells}")
    return "\n".join(lines)


def draw_y(state: Any) -> str:
    """The triangle, apex on top, cells named from the left; X black, O white."""
    size = state.size
    lines = []
    for row in range(size):
        first = row * (row + 1) // 2
        owners = (state.cell_owner(first + col) for col in range(row + 1))
        cells = " ".join("." if owner is None else "XO"[owner] for owner in owners)
        lines.append(f"{row + 1:2} {' ' * (size - 1 - row)}{cells}")
    lines.append("   " + " ".join(LETTERS[:size]))  # positions in the bottom row
    return "\n".join(lines)


#: game -> text drawing of a position; other games fall back to a one-liner
#: (their ``position_text``), so a new game needs none. (The text boards
#: share nothing with the pictures of app/views/ and the shell: GTP's
#: conventions, X and O on rows of characters, are their own.)
DRAWINGS: dict[str, Callable[[Any], str]] = {
    "notakto": draw_notakto, "uttt": draw_uttt, "hex": draw_hex, "y": draw_y,
}


class GtpEngine:
    """One game under GTP control.

    ``settings`` are the game's (``GameState.settings()`` shape); ``level``,
    ``seed`` and ``move_time`` go to the game's engine (``ai.new_engine``,
    kept for the session, with ``parts`` of its knowledge) on ``genmove``."""

    def __init__(
        self,
        game: str,
        settings: dict[str, Any] | None = None,
        level: str | None = None,
        seed: int | None = None,
        move_time: float | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        parts: frozenset[str] | None = None,
    ) -> None:
        if game not in STATES:
            raise ValueError(f"unknown game {game!r} (available: {', '.join(STATES)})")
        self.game_class: type[GameState] = STATES[game]
        self.state = self.game_class.from_settings(
            settings if settings is not None else default_settings(self.game_class)
        )
        self.level = level
        self.seed = seed
        self.computer = ai.new_engine(game, parts)  # one for the session: it thinks on across a game's moves
        self.move_time = move_time
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        self.running = True
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": self.cmd_protocol_version,
            "name": self.cmd_name,
            "version": self.cmd_version,
            "known_command": self.cmd_known_command,
            "list_commands": self.cmd_list_commands,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "undo": self.cmd_undo,
            "all_legal_moves": self.cmd_all_legal_moves,
            "final_score": self.cmd_final_score,
            "showboard": self.cmd_showboard,
            "time_settings": self.cmd_time_settings,
            "quit": self.cmd_quit,
        }

    @property
    def game(self) -> str:
        return self.game_class.game

    # -- framing ----------------------------------------------------------------
    def run(self) -> None:
        """Answer commands from ``stdin`` until ``quit`` or end of input."""
        for line in self.stdin:
            response = self.execute(line)
            if response is not None:
                self.stdout.write(response)
                self.stdout.flush()
            if not self.running:
                break

    def execute(self, line: str) -> str | None:
        """The full response to one input line (None for a blank or comment
        line). Never raises: anything unexpected is a ``?`` response, logged
        to stderr, with the game as it was."""
        words = _clean(line).split()
        if not words:
            return None
        command_id = ""
        if words[0].isascii() and words[0].isdigit():
            command_id = words.pop(0)
            if not words:
                return f"?{command_id} missing command\n\n"
        name, args = words[0], words[1:]
        handler = self.commands.get(name)
        if handler is None:
            return f"?{command_id} unknown command: {name}\n\n"
        saved = self.state.copy()
        try:
            result = handler(args)
        except CommandError as error:  # raised before anything changed
            return f"?{command_id} {error}\n\n"
        except Exception as error:  # noqa: BLE001 - the engine must keep running
            self.state = saved  # whatever the failing command did is undone
            print(f"internal error on {line.strip()!r}:", file=self.stderr)
            traceback.print_exc(file=self.stderr)
            return f"?{command_id} internal error: {error}\n\n"
        if not result:
            return f"={command_id}\n\n"
        separator = "" if result.startswith("\n") else " "
        return f"={command_id}{separator}{result}\n\n"

    # -- helpers ------------------------------------------------------------------
    def _args(self, args: list[str], count: int, usage: str) -> list[str]:
        if len(args) != count:
            raise CommandError(f"syntax error: expected {usage}")
        return args

    def _colour(self, text: str) -> int:
        try:
            return COLOURS[text.lower()]
        except KeyError:
            raise CommandError(f"syntax error: invalid colour {text!r} (b, black, w or white)") from None

    def _new_game(self, settings: dict[str, Any]) -> None:
        try:
            self.state = self.game_class.from_settings(settings)
        except GameError as error:
            raise CommandError(f"unacceptable size: {error}") from None

    # -- commands -----------------------------------------------------------------
    def cmd_protocol_version(self, args: list[str]) -> str:
        self._args(args, 0, "protocol_version")
        return "2"

    def cmd_name(self, args: list[str]) -> str:
        self._args(args, 0, "name")
        return f"{NAME} {self.game}"

    def cmd_version(self, args: list[str]) -> str:
        self._args(args, 0, "version")
        return VERSION

    def cmd_known_command(self, args: list[str]) -> str:
        (name,) = self._args(args, 1, "known_command COMMAND")
        return "true" if name in self.commands else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        self._args(args, 0, "list_commands")
        return "\n".join(self.commands)

    def cmd_boardsize(self, args: list[str]) -> str:
        (text,) = self._args(args, 1, "boardsize N")
        try:
            size = int(text)
        except ValueError:
            raise CommandError(f"syntax error: board size {text!r} is not a number") from None
        # The registry says what boardsize means: a setting, or the one size.
        board_size = GAMES[self.game].board_size
        if isinstance(board_size, int):
            if size != board_size:
                raise CommandError(f"unacceptable size: {self.game} is played on size {board_size} only")
            self._new_game(self.state.settings())
        else:
            self._new_game({**self.state.settings(), board_size: size})
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._args(args, 0, "clear_board")
        self._new_game(self.state.settings())
        return ""

    def cmd_play(self, args: list[str]) -> str:
        colour_text, move_text = self._args(args, 2, "play COLOUR MOVE")
        colour = self._colour(colour_text)
        if self.state.is_over():
            raise CommandError("illegal move: the game is over")
        if colour != self.state.turn:
            raise CommandError(f"illegal move: it is {COLOUR_NAMES[self.state.turn]}'s turn")
        try:
            self.state.play(move_text)
        except IllegalMoveError as error:
            raise CommandError(f"illegal move: {error.why}") from None
        except NotationError as error:
            raise CommandError(f"illegal move: {error}") from None
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        (colour_text,) = self._args(args, 1, "genmove COLOUR")
        colour = self._colour(colour_text)
        if self.state.is_over():
            raise CommandError("the game is over")
        if colour != self.state.turn:
            raise CommandError(f"it is {COLOUR_NAMES[self.state.turn]}'s turn")
        level = self.level or ai.DEFAULT_LEVEL.get(self.game, "")
        try:
            move = self.computer.choose_move(self.state, level, seed=self.seed, move_time=self.move_time)
        except ValueError as error:
            raise CommandError(str(error)) from None
        text = self.state.move_to_text(move)
        self.state.play(move)
        return text

    def cmd_undo(self, args: list[str]) -> str:
        self._args(args, 0, "undo")
        if not self.state.moves:
            raise CommandError("cannot undo: no move has been played")
        self.state.pop()
        return ""

    def cmd_all_legal_moves(self, args: list[str]) -> str:
        self._args(args, 0, "all_legal_moves")
        return " ".join(self.state.move_to_text(move) for move in self.state.legal_moves())

    def cmd_final_score(self, args: list[str]) -> str:
        self._args(args, 0, "final_score")
        outcome = self.state.outcome()
        if outcome is None:
            raise CommandError("game not over")
        if outcome.winner is None:
            return "0"
        return "B+" if outcome.winner == FIRST else "W+"

    def cmd_showboard(self, args: list[str]) -> str:
        self._args(args, 0, "showboard")
        draw = DRAWINGS.get(self.game)
        drawing = draw(self.state) if draw else self.state.position_text()
        outcome = self.state.outcome()
        if outcome is None:
            status = f"{COLOUR_NAMES[self.state.turn]} to move"
        else:
            status = "game over: " + self.cmd_final_score([])
        return f"\n{drawing}\n{status}"

    def cmd_time_settings(self, args: list[str]) -> str:
        texts = self._args(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
        try:
            main_time, byo_yomi, stones = (float(text) for text in texts)
        except ValueError:
            raise CommandError("syntax error: time_settings takes three numbers") from None
        if not all(map(math.isfinite, (main_time, byo_yomi, stones))):
            raise CommandError("syntax error: time_settings takes three finite numbers")
        if main_time == 0 and byo_yomi == 0 and stones == 0:
            self.move_time = None  # GTP's "no time limit": each level's own budget
        elif main_time == 0 and stones == 1 and byo_yomi > 0:
            self.move_time = byo_yomi
        else:
            raise CommandError("only time_settings 0 B 1 (B seconds per move) is supported")
        return ""

    def cmd_quit(self, args: list[str]) -> str:
        self.running = False
        return ""


def default_settings(game_class: type[GameState]) -> dict[str, Any]:
    """A game's settings when nothing is chosen."""
    try:
        return game_class().settings()
    except TypeError:  # a game whose constructor needs arguments
        return game_class.from_settings({}).settings()


def _clean(line: str) -> str:
    """GTP preprocessing: drop the comment, control characters become
    nothing (tabs become spaces)."""
    line = line.split("#", 1)[0].replace("\t", " ")
    return "".join(ch for ch in line if ch >= " " and ch != "\x7f")


def _games_with(setting: str) -> list[str]:
    return [name for name, game in GAMES.items() if game.has_setting(setting)]


def _defaults_of(setting: str) -> str:
    """``hex 11, y 13``: each game's default for the setting."""
    return ", ".join(f"{name} {GAMES[name].setting(setting).default}" for name in _games_with(setting))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gtp.py", description="Play a game of this repository over GTP v2 on stdin/stdout."
    )
    parser.add_argument("--game", required=True, help=f"one of {', '.join(GAMES)}")
    parser.add_argument("--size", type=int, help=f"the board's side (default: {_defaults_of('size')})")
    parser.add_argument("--boards", type=int, help=f"the number of boards (default: {_defaults_of('boards')})")
    parser.add_argument("--swap", action="store_true", help=f"{', '.join(_games_with('swap'))}: the swap rule is on")
    parser.add_argument("--move-time", type=float, help="seconds per genmove at full strength")
    parser.add_argument("--level", help="the computer's level, by the app's name")
    parser.add_argument("--seed", type=int, help="makes the computer's choices reproducible")
    parser.add_argument("--without", default="", metavar="PARTS",
                        help="hex, y: parts of the engine's knowledge switched off, comma-separated "
                             "(for ablation matches; see ai.connection.KNOWN_PARTS)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    options = parser.parse_args(argv)

    def fail(message: str) -> int:
        print(f"gtp.py: {message}", file=sys.stderr)
        return 2

    game = options.game.lower()
    if game not in GAMES:
        return fail(f"unknown game {options.game!r} (games: {', '.join(GAMES)})")
    defaults = default_settings(STATES[game])
    settings = dict(defaults)
    for key, value in (("size", options.size), ("boards", options.boards)):
        if key in defaults:
            if value is not None:
                settings[key] = value
        elif value is not None:
            print(f"gtp.py: --{key} does not apply to {game}; ignored", file=sys.stderr)
    if "swap" in defaults:
        settings["swap"] = options.swap  # off here unless asked for, whatever the app's default
    elif options.swap:
        print(f"gtp.py: --swap does not apply to {game}; ignored", file=sys.stderr)
    if options.level is not None:
        try:
            known = ai.levels(game)
        except ValueError as error:
            return fail(str(error))
        if options.level not in known:
            return fail(f"unknown level {options.level!r} for {game} (levels: {', '.join(known)})")
    # inf would let genmove think forever (time_settings refuses it too).
    if options.move_time is not None and not 0 < options.move_time < math.inf:
        return fail("--move-time must be a positive, finite number of seconds")
    try:
        parts = connection.choose_parts(without=options.without) if options.without else None
    except ValueError as error:
        return fail(f"--without: {error}")
    try:
        engine = GtpEngine(game, settings, options.level, options.seed, options.move_time, parts=parts)
    except GameError as error:
        return fail(f"invalid settings: {error}")
    # Garbage bytes must not stop the engine, whatever the locale says.
    for stream in (sys.stdin, sys.stdout):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")
    engine.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
