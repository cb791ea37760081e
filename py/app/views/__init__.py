"""Each game's board as data (pure): what to draw, never how. The registry
names these functions (``view``, ``describe``, ``detail``); app.model.games
looks them up here."""

from ..model.words import Msg
from .connection import connection_board, connection_move, hex_geometry, swapped_stone, y_geometry
from .notakto import notakto_board, notakto_move
from .tree import Node, named_move, node
from .uttt import uttt_board, uttt_move, uttt_target

__all__ = ["Msg", "Node", "connection_board", "connection_move", "hex_geometry", "named_move", "node",
           "notakto_board", "notakto_move", "swapped_stone", "uttt_board", "uttt_move", "uttt_target", "y_geometry"]
