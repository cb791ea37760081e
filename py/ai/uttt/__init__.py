"""Ultimate Tic-Tac-Toe by Monte Carlo tree search.

The package: ``position`` (the position during search: moves, the playout),
``evaluation`` (the small-board table and the evaluation), ``uct`` (the
tree and the search), ``book`` (the master's opening book) and ``engine``
(levels, the player and its verdicts). Here: the engine's interface, as
``ai`` and the tools use it.

``Search`` is UCT over the position's 9-bit boards, with:

- playouts that finish the game at random, except that a cell that wins the
  small board is taken and else one the opponent needs to win it is blocked
  (two lookups in ``WINNING_CELLS``); a playout ends as a draw as soon as no
  line of boards is possible for either side (``LINE_POSSIBLE``);
- priors: a new child starts with ``Prior.visits`` virtual playouts whose
  mean rewards winning or blocking a small board and penalises sending the
  opponent to a board they can win at once or to a free choice; a node is
  expanded (all its children at once) on its second visit;
- an MCTS-solver: game ends, dead positions (drawn whatever is played) and
  positions where the side to move wins at once are proven, and proofs go up
  the tree; a move proven lost is never chosen, a proven win is played at
  once, and the search stops when the root is solved;
- at the master level, an evaluation backed up by minimax beside the
  playouts' mean ("implicit minimax backups", after Lanctot, Winands,
  Pepels and Sturtevant, 2014): when a node is expanded, every child gets
  ``evaluate`` of its position (``Node.ev``, for the child's mover); each
  playout's way back sets every node on its path to the best of its
  children's values, seen from the other side; a child is chosen by half
  its playouts' mean and half that minimax value, plus UCT's bonus. The
  evaluation (see "the evaluation" below) is a good judge of which of two
  sibling moves is better and a poor judge of the position's absolute
  value (the tactics between boards are beyond it), so it serves as minimax
  over the tree, not as the playouts' replacement; where it replaced the
  playouts, or was averaged into them, the search got weaker;
- at the master level, transpositions merged: a position the search meets
  again by another order of moves gets the list of children it got the
  first time (``Search.merged``, by the position's marks and forced board),
  so what was learnt below it serves both ways in; each node keeps its own
  visits and mean, the statistics of the move into it. Rare in this game:
  in 20,000-iteration searches from random games after 10, 20 and 30 moves,
  9, 17 and 89 of some 8,000 expansions were merged, for about 1.5 % of the
  iterations a second;
- tree reuse: the strongest level, and any search given ``move_time``, keeps
  its tree in the ``Engine`` that searched (see ``ai.search``). Its next
  request whose move list extends that one starts from the matching node,
  so the web worker and the GTP engine, which hold one engine for the game,
  think on across moves;
- the master's opening book (``OPENING_BOOK``): X's first move, O's reply
  to each first move, and X's second move after each reply to the book's
  first, each the choice of a 300,000-iteration search by the master itself
  (``tools/uttt_book.py``), found up to the grid's eight symmetries. The
  opening is where a short search is least sure: at 0.25 s a move, six
  seeded searches in each of the book's 18 positions chose the book's move
  (or a symmetric one) 51 times in 108.

``Engine.evaluate`` (the hint, the evaluation bar, the analysis of a game)
answers a win at once, a forced block (the only move after which the
opponent cannot win at once) and an only move without thinking about the
move, and otherwise searches like master for the time given, from the tree
its previous evaluation kept; a proven result comes with its length in
plies when the proven tree ends in finished games.

Everything is seeded: for a given seed and position a playout-capped search
is reproducible; a timed one depends on the machine's speed.

Levels (``LEVELS``, weakest first). A level "slips" with the given chance
and plays a random legal move instead of searching; every level takes a win
on the spot and answers at once when there is only one legal move.

    ========  ==========  ============  =====  ================================
    level     playouts    time cap      slips  tree kept between moves
    ========  ==========  ============  =====  ================================
    beginner  40          0.5 s         30 %   no
    casual    300         0.5 s         10 %   no
    strong    3000        1.0 s         0 %    no
    master    no cap      2.0 s         0 %    yes
    ========  ==========  ============  =====  ================================

The caps make the weak levels equally weak on every device; master is
limited by time only: 2 s in the browser's worker, which runs at about 0.6x
CPython, is about 1.2 s of CPython's work. ``move_time`` replaces the budget
with that many seconds at master's full strength. Only master evaluates
(``Level.minimax_weight``), with exploration 0.5; the others search as
before, so their measured ratings stand.

Tuning (self-play at equal playouts, 2000-3000 a move, 40-60 games each,
so +-8 %): win/block playouts beat plain random ones (62 %) and win-only
ones (66 %); also avoiding sending the opponent to a board they can win made
them worse (30 %); choosing a winnable board on a free choice made them
better (62 %). Priors beat none (62 %); doubling their weight and visits
added a little (60 %). Exploration 0.7 beat 0.5 (63 %) and 0.4 (56 %);
1.0 was level (51 %).

The evaluation's minimax (issue 17), by ``python -m tools.arena`` against the
master of commit 0b8cc0d (``py/gtp.py`` of that commit as the opponent),
100 games a match at 0.0625 s a move each, colours alternating: share 0.5
with exploration 0.7 scored 68.5 %, with exploration 0.5 71 %, 0.35
65.5 %, 1.0 60.5 %; shares 0.3 and 0.7 (exploration 0.7) 64.5 % and
61.5 %; halving the priors' weight 70 %; the evaluation mixed into each
playout's result (0.3 of it) 63.5 %. At 3,000 playouts a move each (the
time left out; a first version of the table, exploration 0.7) shares 0.3
and 0.6 scored 73 % and 75 %: a search with it makes about 0.75 times the
playouts a second. Before the minimax, the evaluation in other roles lost
or broke even against the same opponent (60 games each): as the playouts'
replacement 22-44 % (with 2.5 times the iterations), as the children's
priors 43-51 %, as the policy of a PUCT selection 33-45 %, cut-off
playouts (10 plies, then the evaluation) 50 %, half of each playout's
result 52 %.

Against OpenSpiel's MCTSBot (plain UCT in C++, random rollouts, about 2-6
times our playouts in the same time), ``python -m tools.arena``, before the
evaluation: 40 games each at 0.5 s a move on a shared 2-core machine:
67.5 % (22 wins, 10 draws, 8 losses; 95 % interval 52-80 %) at equal time
and 58.8 % (18-11-11; 43-73 %) with half the time; 60 games each at 0.25 s
a move: 61.7 % (29-16-15; 49-73 %) and 55.8 % (24-19-17; 43-68 %).
docs/strength.md has the latest figures.
"""

from __future__ import annotations

from .book import OPENING_BOOK, book_key, book_move
from .engine import LEVEL_SETTINGS, LEVELS, MAX_REUSED_NODES, Engine, Level, choose_move, search, trivial_move
from .uct import SearchResult

__all__ = ["LEVELS", "LEVEL_SETTINGS", "MAX_REUSED_NODES", "OPENING_BOOK", "Engine", "Level", "SearchResult",
           "book_key", "book_move", "choose_move", "search", "trivial_move"]
