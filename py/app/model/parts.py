"""The parts of a game's screen, one vocabulary for the models that say
what changed (``Change.parts``) and the renderer that draws it."""

from __future__ import annotations

from enum import StrEnum


class Part(StrEnum):
    """A part of the game screen the renderer draws on its own. A str enum,
    so a part's name is its value (``Part.BOARD == "board"``)."""

    BOARD = "board"
    STATUS = "status"  # with the buttons under it (undo, resign, swap)
    CLOCK = "clock"  # the move's countdown (drawn with the status too)
    RESULT = "result"
    MOVES = "moves"
    REVIEW = "review"
    HINT = "hint"  # the engine's hint
    EVAL = "eval"  # the evaluation bar
    ANALYSIS = "analysis"
    SETTINGS = "settings"  # the next game's menus
    TOGGLES = "toggles"  # the switches that apply at once
    STATS = "stats"
    CONFIRM = "confirm"  # the question waiting for yes or no
    ARCHIVE = "archive"  # the past games list


#: Every part: a screen opening, the language changing.
EVERY = frozenset(Part)
#: What a move can change.
PLAY = frozenset({Part.BOARD, Part.STATUS, Part.RESULT, Part.MOVES, Part.REVIEW, Part.HINT, Part.EVAL, Part.ANALYSIS})
#: A new game, an undo, a setting that restarts the game: every part but
#: the clock (drawn with the status), the question (drawn when one is asked
#: or answered) and the past games (drawn when the list changes: it reads
#: every record from storage).
ALL = PLAY | {Part.SETTINGS, Part.TOGGLES, Part.STATS}
#: What an answer of the engine's analysis can change: a hint marks the
#: board; a position of an analysis adds a point to the graph and may judge
#: a move (and the board, when it marks a better move); the bar its value.
INSIGHT = frozenset({Part.HINT, Part.EVAL, Part.ANALYSIS, Part.MOVES, Part.BOARD})
#: The parts the insight view model covers (drawn without the rest of the
#: screen: the board and the settings stay as they are).
INSIGHT_VIEW = frozenset({Part.MOVES, Part.HINT, Part.EVAL, Part.ANALYSIS})
ARCHIVE = frozenset({Part.ARCHIVE})
