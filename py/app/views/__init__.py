"""Each game's board as data (pure): what to draw, never how. The registry
names these functions (``view``, ``describe``, ``detail``, ``card``); app.model.games
looks them up here."""

from ..model.words import Msg
from .connection import connection_board, connection_card, connection_move, hex_geometry, swapped_stone, y_geometry
from .notakto import notakto_board, notakto_card, notakto_move
from .tree import Card, Node, named_move, node
from .uttt import uttt_board, uttt_card, uttt_move, uttt_target

__all__ = ["Card", "Msg", "Node", "connection_board", "connection_card", "connection_move", "hex_geometry", "named_move",
           "node", "notakto_board", "notakto_card", "notakto_move", "swapped_stone", "uttt_board", "uttt_card", "uttt_move",
           "uttt_target", "y_geometry"]
