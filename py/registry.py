"""One description per game: the one place a game's facts are written.

An entry (``Game``) gives a game's name (its ``GameState.game``, its route,
storage names and catalog keys), its rules (the ``core`` state class), the
settings of its rules a player chooses (the values offered, the default, the
range the rules accept), what it offers (the swap rule, a time per move,
safe-move hints, a board that stands upright on a phone), the
computer's levels (names weakest first, their ratings, the level a new
player meets, and how tools/ladder.py measures them), the ``ai`` module that
plays it, the ``app.views`` functions that draw it and its card, and the
board's geometry the shell draws from (``Cells``, ``card_art``).

Everything else derives from here: ``ai.MODULES`` and the level names, the
app's ``GameSpec`` (app/model/games.py), GTP's games and ``boardsize`` (gtp.py),
the self-check (selfcheck.py), the ladder, the arena and the bench's tables
(tools/), and the shell's game list, vendor/games.js, which
tools/build_site.py writes for shell/cards.js and shell/figures.js (the cards' and the
guide's drawings take the board's geometry from it). tests/core/test_registry.py
checks every entry against the rules, the engines, the views and the
catalogs. docs/architecture.md ("Adding a game") lists what a new
game needs.

Why a top-level module: an entry holds more than rules (ratings, catalog
keys, which view draws the board, a picture), so it does not belong in
``core``, which holds only rules; and the engines, GTP, the worker and the
tools read it, so it cannot live in ``app``. It imports only the standard
library and ``core``; ``ai`` and ``app`` import it, ``core`` never does
(tests/layout/test_layout.py). Engines and views are named, not imported:
``ai.engine`` imports an engine when it is first needed, ``app.model.games``
resolves the views and ``app.model.saves`` the card's, so reading the registry
adds nothing to the page's start-up beyond the rules it loads anyway.
"""

from __future__ import annotations

import json
import math
import pkgutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core import hex as hex_rules, notakto as notakto_rules, y as y_rules
from core.base import GameState
from core.hex import HexState
from core.notakto import NotaktoState
from core.uttt import UtttState
from core.y import YState


@dataclass(frozen=True)
class Setting:
    """A setting of the rules: one key of the state's ``settings()``.

    ``values`` are offered in the menu, in its order; ``default`` is what a
    new player gets (the rules' own default, for a save or a GTP session that
    names none, may differ: the swap rule is off there). ``accepts`` is what
    the rules accept (a save, GTP), when more than the values offered. The
    catalog names value ``v`` ``<name>.<v>`` (``boards.3``, ``swap.true``),
    or, with ``value_message``, one message names every value through a
    ``{<name>}`` placeholder (``size.hex``: "{size} × {size}"). Its label
    is ``settings.<name>``.
    """

    name: str
    values: tuple[Any, ...]
    default: Any
    accepts: Sequence[Any] = ()
    value_message: str = ""

    @property
    def accepted(self) -> Sequence[Any]:
        """Every value the rules accept."""
        return self.accepts or self.values

    @property
    def label(self) -> str:
        """The catalog key of the setting's name in the settings form."""
        return f"settings.{self.name}"

    @property
    def value_labels(self) -> str:
        """The catalog's name for the values: a key prefix, or the one message."""
        return self.value_message or self.name

    def value_label(self, value: Any) -> tuple[str, dict[str, Any]]:
        """The catalog key that names ``value``, and its parameters."""
        if self.value_message:
            return self.value_message, {self.name: value}
        return f"{self.name}.{str(value).lower()}", {}


@dataclass(frozen=True)
class Levels:
    """The computer's levels: ``names`` weakest first, each with its fixed
    Elo-style rating (the player's rating is measured against them), and
    ``default``, the level a new player meets. The ratings are measured
    (``measured_levels``), not written here; ``provisional`` while the
    ratings file has none for the game yet."""

    names: tuple[str, ...]
    ratings: tuple[int, ...]
    default: str
    provisional: bool = False

    @property
    def strongest(self) -> str:
        return self.names[-1]

    def rating(self, level: str) -> int | None:
        """The level's rating, None for a name that is no level."""
        return dict(zip(self.names, self.ratings)).get(level)


@dataclass(frozen=True)
class Ladder:
    """How tools/ladder.py measures the levels' ratings: ``plan``, games per
    pairing up the ladder (random mover v. the weakest level first, one
    number per level), and ``speed``, the browser worker's speed over
    CPython's for this engine (the levels' time caps are scaled by it, so
    that a level plays as strong as it does in the page)."""

    plan: tuple[int, ...]
    speed: float = 1.0


@dataclass(frozen=True)
class Cells:
    """A board of hexagonal cells of side ``n``, as the app and the shell
    draw it (app.views' board, shell/cards.js's card, shell/figures.js's figures).

    ``shape``: "rhombus" (``n`` rows of ``n`` cells) or "triangle" (row
    ``r`` has ``r + 1`` cells); the cells in the rules' order, row by row.
    A cell's centre, for row ``r`` and column ``c``, is ``x[0] * (x[1] * r
    + x[2] * c)`` across and ``y[0] * (y[1] * r + y[2] * c)`` down, hexagons
    of circumradius 1 (``hexagon``: 0 flat-topped, 30 pointy-topped).
    ``corners`` are corner cells as (row, column) in units of ``n - 1``,
    in order round the board, and ``edges[k]`` the colour of the side from
    corner ``k`` to the next: the first player's ("blue"), the second's
    ("green"), or "neutral" (every side is everyone's)."""

    shape: str
    x: tuple[float, float, float]
    y: tuple[float, float, float]
    hexagon: int
    corners: tuple[tuple[int, int], ...]
    edges: tuple[str, ...]

    def rows(self, side: int) -> list[range]:
        """The columns of each row."""
        return [range(side if self.shape == "rhombus" else row + 1) for row in range(side)]

    def centres(self, side: int) -> tuple[tuple[float, float], ...]:
        """Every cell's centre, in the rules' order."""
        (sx, xr, xc), (sy, yr, yc) = self.x, self.y
        return tuple((sx * (xr * r + xc * c), sy * (yr * r + yc * c))
                     for r, columns in enumerate(self.rows(side)) for c in columns)


#: Hex's and Y's hexagons: sqrt(3) apart along a row of pointy-topped cells
ROOT3 = math.sqrt(3)


@dataclass(frozen=True)
class Game:
    """Everything the layers know about one game (see the module doc)."""

    name: str
    state: type[GameState]
    #: the module of ``ai`` that plays it
    engine: str
    levels: Levels
    #: the function of ``app.views`` that draws the board
    view: str
    #: the drawing of the board on the game's card in the game list: the
    #: name of one of the shell's drawings (shell/cards.js, ``BOARD_DRAWINGS``:
    #: "grids", tic-tac-toe boards side by side; "nested_grid", a board of
    #: small boards; "cells", hexagonal cells, from ``cells``), drawn empty
    #: at the default size, or with the unfinished game on it
    card_art: str
    #: the function of ``app.views`` that says what the card draws of an
    #: unfinished game (``app.model.saves.board_preview``)
    card: str
    #: how tools/ladder.py measures the levels
    ladder: Ladder
    settings: tuple[Setting, ...] = ()
    #: what GTP's ``boardsize N`` sets: a setting's name, or the board's only size
    board_size: str | int = ""
    #: the function of ``app.views`` that says a move in words ("board 2, b2")
    describe: str = "named_move"
    #: the function of ``app.views`` that says where the side to move may play, if any
    detail: str = ""
    #: the marks the two seats play, for games where they differ: symbols
    #: that read the same in every language ("X", "O"), or the catalog keys
    #: of their names (``mark_names``: blue, green)
    marks: tuple[str, ...] = ()
    mark_names: tuple[str, ...] = ()
    #: the names of the stones' other colours, a display setting beside the
    #: seed's (``red_blue``: red first, blue second, as PlayHex draws them)
    red_blue_names: tuple[str, ...] = ()
    #: outcome reasons under another catalog name ("connection" is said
    #: differently in Hex and in Y)
    reason_names: Mapping[str, str] = field(default_factory=dict)
    #: a time per move can be chosen
    timed: bool = False
    #: the board can show which moves are safe (its engine's ``safe_moves``)
    hints: bool = False
    #: the board stands upright on a narrow portrait screen (the view's ``tall``)
    upright: bool = False
    #: the board's hexagonal cells, for games played on them
    cells: Cells | None = None

    @property
    def swap(self) -> bool:
        """Whether the game has the swap rule (a setting, and variants in
        the game list)."""
        return self.has_setting("swap")

    def has_setting(self, name: str) -> bool:
        return any(setting.name == name for setting in self.settings)

    def setting(self, name: str) -> Setting:
        """The rules setting called ``name`` (KeyError if there is none)."""
        for setting in self.settings:
            if setting.name == name:
                return setting
        raise KeyError(f"{self.name} has no setting {name!r}")

    def defaults(self) -> dict[str, Any]:
        """The rules settings a new player gets."""
        return {setting.name: setting.default for setting in self.settings}

    def new_state(self, settings: Mapping[str, Any] | None = None) -> GameState:
        """A new game with ``settings`` (any that are not the rules' are
        left out; missing ones take their defaults). Raises ``SaveError``
        for a value the rules refuse."""
        chosen = settings or {}
        return self.state.from_settings({name: chosen.get(name, default) for name, default in self.defaults().items()})


#: The levels' measured ratings: level_ratings.json beside this module,
#: written by tools/ladder.py from matches between the levels and a random
#: mover (docs/levels.md); the page and the AI worker get it in the
#: archive of the app's Python (vendor/python.zip), so it is read as the
#: module's data, not as a path.
RATINGS_FILE = "level_ratings.json"


#: A new game's ratings before the ladder has measured them
#: (``provisional_ratings``): the weakest level this far above the random
#: mover's (the ladder's anchor, 500), each next level this far above it.
PROVISIONAL_FIRST, PROVISIONAL_STEP = 300, 300


def provisional_ratings(names: tuple[str, ...]) -> tuple[int, ...]:
    """Ratings for levels nothing has measured yet: evenly spaced upward
    from the ladder's anchor, so that a new game plays and keeps its
    statistics at once; tools/ladder.py then measures them."""
    anchor = int(_RATINGS.get("anchor", 500))
    return tuple(anchor + PROVISIONAL_FIRST + PROVISIONAL_STEP * k for k in range(len(names)))


def measured_levels(game: str, names: tuple[str, ...], default: str) -> Levels:
    """``game``'s levels with the ratings measured for them; provisional
    ratings for a game the ratings file does not have yet (a new game,
    until ``tools/ladder.py --game <game> --write`` measures it);
    ValueError when the file has the game but lacks a level (the levels
    changed since: measure them again)."""
    if game not in _MEASURED:
        return Levels(names, provisional_ratings(names), default, provisional=True)
    measured = _MEASURED[game].get("ratings", {})
    missing = [name for name in names if name not in measured]
    if missing:
        raise ValueError(f"{RATINGS_FILE} has no rating for {game}'s {', '.join(missing)}: "
                         f"run tools/ladder.py --game {game} --write")
    return Levels(names, tuple(int(measured[name]) for name in names), default)


_RATINGS: dict[str, Any] = json.loads(pkgutil.get_data(__name__, RATINGS_FILE) or b"")
_MEASURED: dict[str, Any] = _RATINGS["games"]


# -- the games, in the order of the game list ----------------------------------------

_CONNECTION_LEVEL_NAMES = ("beginner", "casual", "strong", "master")
_SIZES = range(hex_rules.MIN_SIZE, hex_rules.MAX_SIZE + 1)


def _connection(name: str, state: type[GameState], sizes: tuple[int, ...], default_size: int, cells: Cells,
                upright: bool) -> Game:
    """Hex and Y: a size, the swap rule (on by default: the fair way to
    play), a time per move; blue and green stones, or red and
    blue."""
    return Game(
        name=name,
        state=state,
        engine=f"connection.{name}",
        # Hex and Y share their engine's levels (ai/connection/), each rated in its own game.
        levels=measured_levels(name, _CONNECTION_LEVEL_NAMES, "casual"),
        view="connection_board",
        describe="connection_move",
        card_art="cells",
        card="connection_card",
        cells=cells,
        # The browser's worker runs the engine at about 0.69 x CPython's speed (the bench's engine search).
        ladder=Ladder(plan=(30, 30, 12, 8), speed=0.69),
        settings=(Setting("size", sizes, default_size, _SIZES, value_message=f"size.{name}"),
                  Setting("swap", (True, False), True)),
        board_size="size",
        mark_names=("mark.blue", "mark.green"),
        red_blue_names=("mark.red", "mark.blue"),
        reason_names={"connection": f"connection_{name}"},
        timed=True,
        upright=upright,
    )


_GAMES = (
    Game(
        name="notakto",
        state=NotaktoState,
        engine="notakto",
        levels=measured_levels("notakto", ("beginner", "casual", "strong", "perfect"), "casual"),
        view="notakto_board",
        describe="notakto_move",
        card_art="grids",
        card="notakto_card",
        # Untimed levels: many games per pairing, no speed to scale.
        ladder=Ladder(plan=(400, 400, 400, 400)),
        settings=(Setting("boards", tuple(range(notakto_rules.MIN_BOARDS, notakto_rules.MAX_BOARDS + 1)),
                          notakto_rules.DEFAULT_BOARDS),),
        board_size="boards",
        hints=True,
    ),
    Game(
        name="uttt",
        state=UtttState,
        engine="uttt",
        levels=measured_levels("uttt", ("beginner", "casual", "strong", "master"), "casual"),
        view="uttt_board",
        describe="uttt_move",
        detail="uttt_target",
        card_art="nested_grid",
        card="uttt_card",
        # The browser's worker runs the engine at about 0.78 x CPython's speed.
        ladder=Ladder(plan=(40, 40, 20, 8), speed=0.78),
        board_size=9,
        marks=("X", "O"),
        timed=True,
    ),
    _connection(
        "hex", HexState, (7, 9, 11, 13, 14, 15, 19), hex_rules.DEFAULT_SIZE,
        # A rhombus, its acute corners left and right (flat-topped cells);
        # the first player owns the top-left and bottom-right sides.
        Cells("rhombus", x=(1.5, 1, 1), y=(ROOT3 / 2, 1, -1), hexagon=0,
              corners=((0, 0), (0, 1), (1, 1), (1, 0)), edges=("blue", "green", "blue", "green")),
        # The rhombus is twice as wide as high: upright, its cells are larger on a phone.
        upright=True,
    ),
    _connection(
        "y", YState, (9, 11, 13, 15, 17, 19), y_rules.DEFAULT_SIZE,
        # A triangle, its apex at the top (pointy-topped cells); corners:
        # apex, bottom right, bottom left.
        Cells("triangle", x=(ROOT3, -0.5, 1), y=(1.5, 1, 0), hexagon=30,
              corners=((0, 0), (1, 1), (1, 0)), edges=("neutral", "neutral", "neutral")),
        upright=False,
    ),
)

#: game name -> its entry, in the order of the game list
GAMES: dict[str, Game] = {game.name: game for game in _GAMES}

#: game name -> the state class of its rules (what ``core.GAMES`` was)
STATES: dict[str, type[GameState]] = {name: game.state for name, game in GAMES.items()}


def game(name: str) -> Game:
    """The entry of the game called ``name``; ValueError, naming the games
    there are, for any other name."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
