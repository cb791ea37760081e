"""What the analysis board shows (py/app/model/explore_view.py) and its
set-up editor (py/app/model/setup_board.py): the move list with variations
and paths, the engine's candidates numbered on the board and listed for the
side to move, the heat on every valued cell, and a position set up by hand
turned into a game or refused with its reason."""

from __future__ import annotations

from app.model.explore import Exploration
from app.model.explore_view import explore_view, shades
from app.model.games import SPECS
from app.model.setup_board import SetupBoard
from app.model.words import Msg
from core.base import FIRST, SECOND
from registry import GAMES


def new(game: str, **settings):
    return GAMES[game].new_state(settings)


def view(board: Exploration, setup: SetupBoard | None = None):
    return explore_view(SPECS[board.game], board, setup, {}, SPECS[board.game].defaults())


def nodes(tree, test=lambda attrs: True):
    """Every element of a view tree whose attributes pass ``test``, in order."""
    found, stack = [], [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            if test(item[1]):
                found.append(item)
            stack.extend(reversed(item[2]))
    return found


def cells(tree):
    return {attrs["data-move"]: (tag, attrs, children) for tag, attrs, children in nodes(tree, lambda a: "data-move" in a)}


def reply(moves: list[str], chances: list[float], proofs=None, heat=None) -> dict:
    proofs = proofs or [None] * len(moves)
    return {"verdict": {}, "heat": heat or {},
            "lines": [{"move": m, "chance": c, "proof": p, "visits": 10, "line": [m, "a1", "b1"]}
                      for m, c, p in zip(moves, chances, proofs)]}


def answered(board: Exploration, answer: dict) -> None:
    board.engine_on = True
    assert board.answer(board.request(), answer)


def test_a_game_opens_as_the_main_line_at_the_move_shown_and_is_not_touched():
    game = new("hex", size=7)
    for move in "d4 c5 e3 b6".split():
        game.play(move)
    board = Exploration.of_game(game, 2)
    assert board.state().move_texts() == ["d4", "c5"]
    assert board.tree.moves(board.tree.main_line()) == ["d4", "c5", "e3", "b6"]
    board.play("a1")
    assert game.move_texts() == ["d4", "c5", "e3", "b6"]


def test_the_move_list_shows_variations_indented_after_the_move_they_replace_with_their_paths():
    board = Exploration(new("hex", size=7))
    for move in ("d4", "c5", "e3"):
        board.play(move)
    board.go((0,))
    board.play("b2")  # instead of c5
    board.play("f6")
    board.go((0, 0))
    tree = view(board).moves
    moves = nodes(tree, lambda a: a.get("data-testid") == "variation")
    assert [(m[1]["data-path"], m[2][1][2][0]) for m in moves] == [
        ("0", "d4"), ("0.0", "c5"), ("0.1", "b2"), ("0.1.0", "f6"), ("0.0.0", "e3")]
    assert [m[1]["data-path"] for m in moves if m[1].get("aria-current")] == ["0.0"]
    branches = nodes(tree, lambda a: a.get("class") == "vt-branches")
    assert len(branches) == 1
    assert [m[1]["data-path"] for m in nodes(branches[0], lambda a: "data-path" in a)] == ["0.1", "0.1.0"]
    numbers = [m[2][0][2][0] for m in moves]
    assert numbers == ["1.", "2.", "2.", "3.", "3."]


def test_the_engine_s_three_moves_are_numbered_on_the_board_and_listed_for_the_side_to_move():
    board = Exploration(new("hex", size=7))
    board.play("d4")  # the second player to move
    answered(board, reply(["c5", "e3", "b2"], [0.30, 0.45, 0.9], [None, None, "first"]))
    shown = view(board)
    marked = {move: attrs["data-candidate"] for move, (_, attrs, _) in cells(shown.board).items()
              if "data-candidate" in attrs}
    assert marked == {"c5": "1", "e3": "2", "b2": "3"}
    texts = [child for child in nodes(cells(shown.board)["c5"])[0][2] if isinstance(child, tuple)]
    assert texts[-1][0] == "text" and texts[-1][2] == ["1"]
    items = nodes(shown.lines, lambda a: a.get("data-testid") == "engine-line")
    values = [nodes(item, lambda a: a.get("class") == "line-value")[0][2][0] for item in items]
    # The second player's chances (the reply gives the first player's), and a proven loss for it.
    assert values == [Msg("explore.chance", {"percent": 70}), Msg("explore.chance", {"percent": 55}),
                      Msg("explore.proof_loss")]
    assert [nodes(item, lambda a: "data-line-move" in a)[0][1]["data-line-move"] for item in items] == ["c5", "e3", "b2"]
    assert shown.enabled["best"]


def test_the_heat_map_marks_every_valued_cell_and_shades_the_best_the_most():
    board = Exploration(new("uttt"))
    heat = {move: 40 for move in ("a1", "b2", "e5")} | {"c3": 70, "i9": None}
    answered(board, reply(["c3"], [0.7], heat=heat))
    assert "data-heat" not in cells(view(board).board)["c3"][1]  # off
    board.toggle_heat()
    drawn = cells(view(board).board)
    assert {move: attrs["data-heat"] for move, (_, attrs, _) in drawn.items() if "data-heat" in attrs} == {
        "a1": "40", "b2": "40", "e5": "40", "c3": "70"}
    assert drawn["c3"][1]["data-shade"] == "10" and drawn["a1"][1]["data-shade"] == "0"
    assert shades({"a": 10, "b": 10}) == {"a": 100, "b": 100}


def test_the_status_names_the_side_to_move_and_the_winner():
    board = Exploration(new("notakto", boards=1))
    assert view(board).status == Msg("explore.to_move", {"side": Msg("player.numbered", {"number": 1})})
    for move in ("1a1", "1b2", "1a2", "1a3"):
        board.play(move)
    assert view(board).status == Msg("explore.wins", {"side": Msg("player.numbered", {"number": 1})})


def test_setting_up_a_hex_position_by_clicks_then_exploring_from_it():
    board = Exploration(new("hex", size=7))
    setup = SetupBoard(board.state())
    for move in ("d4", "c5", "c5"):  # d4 blue, c5 blue then green
        setup.click(move)
    setup.click("e3")
    setup.choose_turn(FIRST)
    drawn = cells(view(board, setup).board)
    assert drawn["d4"][1]["class"].split()[1] == "blue" and drawn["c5"][1]["class"].split()[1] == "green"
    assert all(attrs["aria-disabled"] == "false" for _, attrs, _ in drawn.values())  # stones can be clicked too
    assert setup.done() is None and setup.error == Msg("setup.counts", {"first": 2, "second": 1, "turn": FIRST})
    setup.choose_turn(SECOND)
    state = setup.done()
    assert state is not None and state.turn == SECOND and setup.error is None
    assert {state.move_to_text(c) for c in range(49) if state.cell_owner(c) == FIRST} == {"d4", "e3"}
    setup.click("e3")  # now green: one blue and two green stones, which no side to move can have
    assert setup.done() is None and setup.error.key == "setup.counts"


def test_setting_up_uttt_with_a_forced_board_and_notakto_whose_marks_say_who_moves():
    setup = SetupBoard(new("uttt"))
    setup.click("e5")  # X in the centre of the centre board
    setup.choose_turn(SECOND)
    setup.choose_board(4)
    state = setup.done()
    assert state is not None and state.forced_board == 4 and state.turn == SECOND
    setup.choose_board(0)  # no X move in board 5's... sends play to board 1
    assert setup.done() is None and setup.error.key == "setup.forced_unreachable"
    notakto = SetupBoard(new("notakto", boards=2))
    notakto.click("1a1")
    notakto.click("2b2")
    notakto.click("2b2")  # taken away: one mark
    assert notakto.side_to_move() == SECOND and not notakto.chooses_turn
    assert notakto.done().turn == SECOND
