"""Board views: (state, options) -> a tree of what to draw.

A node is ``(tag, attrs, children)``; a child is a node or plain text. An
attribute value may be a ``Msg`` (catalog key and parameters) that the
browser layer translates, so views know no language and are tested without
a browser. Events go out through ``data-move`` (the move in notation).
This module has what every game's view shares.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from core.base import FIRST, SECOND, GameState
from core.uttt import DRAWN

from ..model.words import Msg

Node = tuple  # (tag, attrs, children)
Child = Node | str | Msg


def node(tag: str, attrs: dict[str, Any] | None = None, *children: Child) -> Node:
    return (tag, attrs or {}, list(children))


def named_move(state: GameState, move: int) -> Msg:
    """A move in words as its notation says it ("e5"): a game's
    ``describe`` unless its registry entry names another."""
    return Msg("move.cell", {"cell": state.move_to_text(move)})


#: The engine's suggested cell (a hint, or the better move in review)
#: carries this attribute; other cells none.
HINTED: dict[bool, dict[str, str]] = {True: {"data-hint": "true"}}


# -- the game list's card ------------------------------------------------------------
# What the card of an unfinished game draws (app/model/saves.py, ``board_preview``;
# the shell draws it, shell/cards.js): one character a cell, in the rules' order,
# and one a small board; the registry names each game's function (``card``).
CARD_MARKS = {None: ".", FIRST: "0", SECOND: "1", DRAWN: "-"}


class Card(NamedTuple):
    """``size``: the board's side (Notakto's number of boards); ``cells``:
    "0" the first player's, "1" the second's, "." empty; ``boards``: "."
    open, "0"/"1" won by, "-" drawn or closed (empty when the game has no
    small boards); ``last``: the last move's cell, or -1."""

    size: int
    cells: str
    boards: str
    last: int
