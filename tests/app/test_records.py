"""The analysis board's records (py/app/model/records.py, hex_import.py):
the exploration link's exact round trips in every game, its length, what a
cut or an edit does to it; text records with variations and set-up
positions; and every kind of record read back, HexWorld's and PlayHex's
links and plain Hex move lists included, with a precise error for bad input."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st
from test_setup import placement_of
from test_transfer import (
    assert_every_cut_is_truncated,
    assert_every_edit_is_damaged,
    assert_reads_or_refuses,
    check_message,
    error,
    sign,
)

from app.model import records
from app.model.explore import Exploration
from app.model.records import (
    EXPLORE_PARAM,
    ExploreRecord,
    exploration_text,
    explore_fragment,
    explore_payload,
    read_exploration,
    read_explore,
)
from app.model.replay import KINDS
from setups import build
from app.model.transfer import export_text, import_text, share_fragment, share_payload
from app.model.variations import Tree, from_text, state_at, to_text
from core.base import GameState
from registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = {code: json.loads((ROOT / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
            for code in ("en", "de", "pt", "id")}
ENGLISH = CATALOGS["en"]
URL_SAFE = re.compile(r"[A-Za-z0-9._~-]+")


def hex_game(moves: str = "", size: int = 11, swap: bool = True) -> GameState:
    state = GAMES["hex"].new_state({"size": size, "swap": swap})
    for move in moves.split():
        state.play(move)
    return state


def grow(start: GameState, rng: random.Random, branches: int, length: int = 8) -> Tree:
    """A tree of legal moves from ``start``: random lines from random nodes."""
    tree = Tree()
    for _ in range(branches):
        path = rng.choice([path for path, _ in tree.walk()])
        state = state_at(tree, start, path)
        for _ in range(rng.randint(1, length)):
            if state.is_over():
                break
            move = state.move_to_text(rng.choice(state.legal_moves()))
            path = tree.play(path, move)
            state.play(move)
    return tree


def random_settings(game: str, rng: random.Random) -> dict[str, Any]:
    return {setting.name: rng.choice(list(setting.accepted)) for setting in GAMES[game].settings}


def random_start(game: str, rng: random.Random, chosen: dict[str, Any], set_up: bool) -> GameState:
    """A position of ``game`` some random moves in; as a set-up position
    (``setup.build`` of what is on the board, so no swap) if ``set_up``."""
    state = GAMES[game].new_state(chosen)
    for _ in range(rng.randint(0, 12)):
        moves = [move for move in state.legal_moves() if not (set_up and state.move_to_text(move) == "swap")]
        if state.is_over() or not moves:
            break
        state.play(rng.choice(moves))
    if state.is_over():
        state.pop()
    return build(placement_of(state)) if set_up else state


def payload_of(fields: list[tuple[int, int]]) -> str:
    """A hand-made payload body of bit fields (value, width)."""
    bits = records._Bits()
    for value, width in fields:
        bits.put(value, width)
    return f"1.{bits.text()}"


def same(record: ExploreRecord, start: GameState, tree: Tree, setup: bool, cursor: tuple[int, ...]) -> None:
    assert record.game == start.game
    assert record.start.settings() == start.settings() and record.start.moves == start.moves
    assert record.tree == tree and record.setup == setup and record.cursor == cursor


def prefixed(start: GameState, tree: Tree) -> Tree:
    """The tree with the moves to ``start`` before it (how a record from a
    position reached by play reads back)."""
    return from_text(" ".join(part for part in (" ".join(start.move_texts()), to_text(tree)) if part))


# -- the link ------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), branches=st.integers(0, 6),
       set_up=st.booleans())
def test_every_games_explorations_round_trip_through_the_link_exactly(game, seed, branches, set_up):
    rng = random.Random(seed)
    start = random_start(game, rng, random_settings(game, rng), set_up)
    tree = grow(start, rng, branches)
    cursor = rng.choice([path for path, _ in tree.walk()])
    payload = explore_payload(start, tree, set_up, cursor)
    assert URL_SAFE.fullmatch(payload), payload
    record = read_explore(game, payload)
    same(record, start, tree, set_up, cursor)
    assert explore_payload(record.start, record.tree, record.setup, record.cursor) == payload
    # What the analysis board is given back is what it takes.
    board = Exploration(record.start, record.tree, record.setup)
    board.go(record.cursor)
    assert board.moves() == tree.moves(cursor)


def test_the_link_route_and_the_payload_look_as_documented():
    start = hex_game()
    payload = explore_payload(start, from_text("e5 swap (f6 g7) c3"), False, (0, 1, 0))
    assert re.fullmatch(r"1\.[A-Za-z0-9_-]+~[0-9a-z]{6}", payload)
    assert explore_fragment("hex", payload) == f"#/hex/explore?{EXPLORE_PARAM}={payload}"
    assert EXPLORE_PARAM == "x"
    # An empty tree on the empty board: just the settings, the setup bit and two ENDs.
    assert explore_payload(GAMES["uttt"].new_state(), Tree(), False).startswith("1.")


def main_line_with_variations(length: int, variations: int, moves: int) -> tuple[GameState, Tree, tuple[int, ...]]:
    """A Hex 11 game of ``length`` moves with ``variations`` lines of ``moves``
    moves branching from it (every move its own, so that none merge)."""
    start = hex_game(swap=False)
    cells = [start.move_to_text(cell) for cell in range(121)]
    rng = random.Random(1)
    rng.shuffle(cells)
    tree = Tree()
    path: tuple[int, ...] = ()
    for cell in cells[:length]:
        path = tree.play(path, cell)
    spare = iter(cells[length:])
    for variation in range(variations):
        branch = path[:10 + 15 * variation]
        for _ in range(moves):
            branch = tree.play(branch, next(spare))
    return start, tree, path


def test_a_sixty_move_hex_game_with_three_variations_of_five_moves_is_a_short_link():
    start, tree, end = main_line_with_variations(60, 3, 5)
    assert tree.size() == 75 and to_text(tree).count("(") == 3
    payload = explore_payload(start, tree, False, end)
    # 75 moves, 6 parentheses and 2 ENDs of 7 bits, the settings, the set-up
    # bit and the cursor: 99 characters of data. The tree's text alone is
    # about 250 characters; deflated and in base64 it would be about 220.
    assert len(payload) == 108
    assert len(explore_fragment("hex", payload)) == 124
    same(read_explore("hex", payload), start, tree, False, end)


def test_every_cut_of_a_link_is_truncated_and_every_edit_damaged():
    rng = random.Random(3)
    start = random_start("uttt", rng, {}, False)
    payload = explore_payload(start, grow(start, rng, 3), False)
    assert_every_cut_is_truncated(read_explore, "uttt", payload)
    assert_every_edit_is_damaged(read_explore, "uttt", payload, "aZ0-_~.")
    check_message(error(read_explore, "hex", payload), "damaged")  # another game's route
    check_message(error(read_explore, "uttt", ""), "empty")


def test_a_newer_or_unreadable_payload_says_so():
    check_message(error(read_explore, "uttt", sign("uttt", "2.AAAA")), "version")
    check_message(error(read_explore, "uttt", sign("uttt", "x.AAAA")), "format", line=1, column=1)
    check_message(error(read_explore, "uttt", sign("uttt", "1.AA*A")), "format", line=1, column=5)
    # uttt: no settings, the setup bit, then a token of 7 bits that is no
    # move and no END (83 is the first value past them), then nothing.
    check_message(error(read_explore, "uttt", sign("uttt", payload_of([(0, 1), (84, 7)]))), "format",
                  line=1, column=3)
    check_message(error(read_explore, "uttt", sign("uttt", "1.")), "format", line=1, column=3)
    check_message(error(read_explore, "chess", sign("chess", "1.AA")), "unknown_game", name="chess")


def test_a_hand_made_payload_is_checked_like_any_record():
    def hex_payload(*fields: tuple[int, int], size: int = 6) -> str:
        return sign("hex", payload_of([(size, 4), (1, 1), (0, 1), *fields]))  # 11 x 11, swap off, no setup
    end, opening, closing = 124, 122, 123
    a1, b1 = 0, 1
    check_message(error(read_explore, "hex", hex_payload(size=15)), "bad_settings", setting="size")
    # A start of a1 a1: the second is taken.
    check_message(error(read_explore, "hex", hex_payload((a1, 7), (a1, 7), (end, 7))), "illegal_move", move=2, text="a1")
    # The tree a1 (b1 b1): the variation's second move is on its first.
    check_message(error(read_explore, "hex", hex_payload((end, 7), (a1, 7), (opening, 7), (b1, 7), (b1, 7),
                                                          (closing, 7), (end, 7), (0, 2))),
                  "illegal_variation", move=2, text="b1", line="b1 b1")
    # The tree a1 b1 has three nodes (the start, a1, b1): no fourth for the cursor.
    check_message(error(read_explore, "hex", hex_payload((end, 7), (a1, 7), (b1, 7), (end, 7), (3, 2))), "format",
                  line=1, column=8)
    assert read_explore("hex", hex_payload((end, 7), (a1, 7), (b1, 7), (end, 7), (2, 2))).cursor == (0, 0)
    # Nothing may follow the cursor but the last character's filling.
    check_message(error(read_explore, "hex", hex_payload((end, 7), (a1, 7), (b1, 7), (end, 7), (2, 2), (1, 6))),
                  "format", line=1, column=9)


def test_the_payload_refuses_a_cursor_on_no_node():
    with pytest.raises(ValueError):
        explore_payload(hex_game(), from_text("a1"), False, (0, 0))


# -- text records ----------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), branches=st.integers(0, 6),
       set_up=st.booleans())
def test_every_games_explorations_round_trip_through_text(game, seed, branches, set_up):
    rng = random.Random(seed)
    chosen = random_settings(game, rng)
    if game == "hex" and set_up:
        chosen["swap"] = False  # SGF's set-up stones carry no swap rule
    start = random_start(game, rng, chosen, set_up)
    tree = grow(start, rng, branches)
    text = exploration_text(start, tree, set_up)
    record = read_exploration(text)
    expected = tree if set_up else prefixed(start, tree)
    # An empty set-up in SGF is no AB or AW: the empty board.
    kept = set_up and (game != "hex" or bool(start.moves))
    assert record.game == game and record.setup == kept
    assert record.tree == expected
    assert record.start.moves == (start.moves if set_up else [])
    assert record.start.settings() == start.settings()
    assert record.cursor == expected.main_line()
    if kept == set_up:
        assert exploration_text(record.start, record.tree, record.setup) == text


def test_the_line_format_with_variations_and_a_set_up_position():
    start = build(placement_of(GAMES["uttt"].new_state().replay(["e5", "e4", "e2"])))
    text = exploration_text(start, from_text("d4 (d5 a4) a1"), True)
    assert text == "[abstract-games 1] game=uttt\nsetup: e5 e4 e2\nmoves: d4 (d5 a4) a1\n"
    record = read_exploration(text)
    assert record.setup and record.start.move_texts() == ["e5", "e4", "e2"]
    assert to_text(record.tree) == "d4 (d5 a4) a1" and record.cursor == (0, 0)
    # From a position reached by play, its moves begin the main line.
    played = GAMES["y"].new_state({"size": 9, "swap": True}).replay(["e5", "swap"])
    assert exploration_text(played, from_text("c3 (d4 a1) b2"), False) == (
        "[abstract-games 1] game=y size=9 swap=on\nmoves: e5 swap c3 (d4 a1) b2\n")
    assert exploration_text(GAMES["notakto"].new_state({"boards": 2}), Tree(), False) == (
        "[abstract-games 1] game=notakto boards=2\nmoves:\n")


def test_hex_explorations_are_sgf_with_variations():
    text = exploration_text(hex_game("e5", size=9), from_text("d6 (f4 g3) c7"), False)
    assert text == "(;FF[4]GM[11]SZ[9]AP[abstract-games:1]RU[swap];B[e5](;W[d6];B[c7])(;W[f4];B[g3]))\n"
    record = read_exploration(text)
    assert to_text(record.tree) == "e5 d6 (f4 g3) c7" and record.cursor == (0, 0, 0)


def test_reading_forgives_what_a_game_record_forgives_and_names_the_rest():
    text = "\ufeff\r\n [Abstract-Games 1] GAME=Notakto boards=1\r\n SETUP: 1A1 \r\n\r\nMoves: 1B1 (1c3 1B2) 1c1\r\n"
    record = read_exploration(text)
    assert record.setup and record.start.move_texts() == ["1a1"] and to_text(record.tree) == "1b1 (1c3 1b2) 1c1"
    lines = "[abstract-games 1] game=y size=9 swap=on\n"
    check_message(error(read_exploration, lines + "moves: e5 (c3))"), "format", line=2, column=15)
    check_message(error(read_exploration, lines + "moves: e5 e5"), "illegal_move", move=2, text="e5")
    # In a variation (c3 instead of d4), e5 is taken.
    check_message(error(read_exploration, lines + "moves: e5 d4 (c3 e5)"), "illegal_variation", move=3, text="e5",
                  line="e5 c3 e5")
    check_message(error(read_exploration, lines + "setup: e5 e5\nmoves:"), "illegal_move", move=2, text="e5")
    # After a set-up position the tree's moves count from its start.
    check_message(error(read_exploration, lines + "setup: e5\nmoves: d4 (c3 d4 d4)"), "illegal_variation",
                  move=3, text="d4", line="c3 d4 d4")
    check_message(error(read_exploration, lines + "moves: e5\nresigned: nobody"), "format", line=3, column=1)


def test_a_move_after_the_end_is_named_on_the_main_line_and_in_a_variation():
    # One Notakto board: a1 b1 c1 closes it, and with it the game.
    lines = "[abstract-games 1] game=notakto boards=1\nmoves: "
    check_message(error(read_exploration, lines + "1a1 1b1 1c1 1b2"), "after_end", move=4, text="1b2")
    check_message(error(read_exploration, lines + "1a1 1b2 (1b1 1c1 1c3) 1c3"), "illegal_variation", move=4,
                  text="1c3", line="1a1 1b1 1c1 1c3")
    check_message(error(read_exploration, "a1 " * 40_000), "too_long", limit=100_000)
    check_message(error(read_exploration, " \r\n"), "empty")


def test_a_game_record_reads_as_its_line_and_keeps_reading_as_a_game():
    game = GAMES["y"].new_state({"size": 9, "swap": True}).replay(["e5", "swap", "c3"])
    text = export_text(game, 0)
    assert import_text(text).state.moves == game.moves  # as ever
    record = read_exploration(text)  # the resignation is left: an exploration has no result
    assert to_text(record.tree) == "e5 swap c3" and record.start.moves == [] and record.cursor == (0, 0, 0)


# -- links and other records ---------------------------------------------------------------------

def test_links_are_read_whole_or_as_their_fragment():
    start = hex_game("e5")
    tree = from_text("d6 (f4) c7")
    payload = explore_payload(start, tree, False, (1,))
    for text in (f"https://example.org/play/{explore_fragment('hex', payload)}\n", explore_fragment("hex", payload)):
        same(read_exploration(text), start, tree, False, (1,))
    game = GAMES["uttt"].new_state().replay(["e5", "e4"])
    record = read_exploration("  https://example.org/" + share_fragment("uttt", share_payload(game, 1)))
    # A shared game: its moves are the main line from the empty board, the cursor at its end.
    assert to_text(record.tree) == "e5 e4" and record.start.moves == [] and record.cursor == (0, 0)
    assert not record.setup


@pytest.mark.parametrize("text, size, moves", [
    ("a1 b2 c3", 11, "a1 b2 c3"),
    ("1. a1 2. b2 3. C3", 11, "a1 b2 c3"),
    ("1.e5 2.swap-pieces\n3.d4", 11, "e5 swap d4"),
    ("1) f6, e7; g5\r\n", 11, "f6 e7 g5"),
    ("a1b2c3", 11, "a1 b2 c3"),
    ("a5 swap-pieces d4 f7", 11, "a5 swap d4 f7"),  # PlayHex's raw moves
    ("l1 a1", 13, "l1 a1"),
    ("a12", 13, "a12"),
    ("n3", 14, "n3"),
    ("a1 o15", 15, "a1 o15"),
    ("p2 swap-sides", 19, "p2 swap"),
])
def test_a_plain_hex_move_list_is_read_on_the_smallest_board_that_holds_it(text, size, moves):
    record = read_exploration(text)
    assert record.game == "hex" and record.start.settings() == {"size": size, "swap": True}
    assert to_text(record.tree) == moves and record.cursor == (0,) * len(moves.split())


def test_a_plain_list_with_a_size_and_its_errors():
    assert read_exploration("a1 b2", size=7).start.settings() == {"size": 7, "swap": True}
    check_message(error(read_exploration, "a1 b2 h8", size=7), "notation", move=3, text="h8")
    check_message(error(read_exploration, "a1 b2", size=25), "bad_settings", setting="size=25")
    check_message(error(read_exploration, "a1 t20"), "bad_settings", setting="size=20")
    check_message(error(read_exploration, "a1 a1"), "illegal_move", move=2, text="a1")
    check_message(error(read_exploration, "1. a1 2. pass"), "format", line=1, column=10)
    check_message(error(read_exploration, "a1 b2\nc3 d4!"), "format", line=2, column=6)
    check_message(error(read_exploration, "just some words"), "format", line=1, column=1)


# The examples come from PlayHex's source (its HexWorld importer and link
# writer, github.com/alcalyn/hex) and from HexWorld-compatible boards.
@pytest.mark.parametrize("link, size, moves, cursor", [
    ("https://hexworld.org/board/#11r9c1,b4:sh4g8i8h3g4g3i3j1j3k1i2i1", 11,
     "b4 swap h4 g8 i8 h3 g4 g3 i3 j1 j3 k1 i2 i1", None),
    ("https://hexworld.org/board/#15c1,e6:sf7i8g10j10l6i4h3b4c13h13l10l9l8m8m9n8k12o8", 15,
     "e6 swap f7 i8 g10 j10 l6 i4 h3 b4 c13 h13 l10 l9 l8 m8 m9 n8 k12 o8", None),
    ("https://hexworld.org/board/#9r9c1,b3:sc6:rw", 9, "b3 swap c6", None),
    ("https://hexworld.org/board/#11r9c1,b3c11:fb", 11, "b3 c11", None),
    ("hexworld.org/board/#13,d10j9,d5", 13, "d10 j9 d5", 2),
    ("https://www.hexworld.org/board/#13n,,d10j9d5", 13, "d10 j9 d5", 0),
    ("https://hexworld.org/board/#13x13,d10:Sj9", 13, "d10 j9", None),
    ("https://hexworld.org/board/#13", 13, "", None),
    ("https://playhex.org/hexplorer#11c1,h4e7f9,b9c3", 11, "h4 e7 f9 b9 c3", 3),
    ("https://playhex.org/hexplorer#14c1,a3%3Asd4", 14, "a3 swap d4", None),
    ("11r9c1,b4:sh4", 11, "b4 swap h4", None),
    ("#11c1,e6", 11, "e6", None),
])
def test_hexworld_and_hexplorer_links(link, size, moves, cursor):
    record = read_exploration(link)
    assert record.start.settings() == {"size": size, "swap": True}
    assert to_text(record.tree) == moves
    assert record.cursor == (0,) * (len(moves.split()) if cursor is None else cursor)


def test_what_a_hexworld_link_cannot_carry_is_named():
    check_message(error(read_exploration, "https://hexworld.org/board/#11c1,e6:p"), "notation", move=2, text=":p")
    check_message(error(read_exploration, "https://hexworld.org/board/#11x13c1,e6"), "bad_settings",
                  setting="size=11x13")
    check_message(error(read_exploration, "https://hexworld.org/board/#27c1,aa1"), "bad_settings", setting="size=27")
    check_message(error(read_exploration, "https://hexworld.org/board/#11c1,e6,f7,g8"), "format", line=1, column=39)
    check_message(error(read_exploration, "https://hexworld.org/board/#11c1,e6*f7"), "format", line=1, column=36)
    check_message(error(read_exploration, "https://hexworld.org/board/#r9c1,e6"), "format", line=1, column=29)
    check_message(error(read_exploration, "https://hexworld.org/board/#11c1,E6:P"), "format", line=1, column=36)
    check_message(error(read_exploration, "https://hexworld.org/board/#11c1,e6e6"), "illegal_move", move=2, text="e6")
    check_message(error(read_exploration, "https://hexworld.org/board/#11c1,e6f7:s"), "illegal_move", move=3,
                  text="swap")


def test_a_playhex_game_page_keeps_its_moves_on_the_server():
    for link in ("https://playhex.org/games/0d1f8e8c-3000-49ff-831a-84c20e514528",
                 "playhex.org/games/0d1f8e8c-3000-49ff-831a-84c20e514528/"):
        check_message(error(read_exploration, link), "remote_game", site="PlayHex")


def test_sgf_with_set_up_stones_reads_as_a_set_up_exploration():
    record = read_exploration("(;FF[4]GM[11]SZ[7]AB[d4][e2]AW[c5]PL[W];W[b6](;B[e5])(;B[a1]))")
    assert record.setup and to_text(record.tree) == "b6 e5 (a1)" and record.cursor == (0, 0)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_either_reads_or_raises_a_transfer_error(text):
    assert_reads_or_refuses(read_exploration, ExploreRecord, [
        text, "(" + text, "[abstract-games 1] game=uttt\nmoves: " + text, "a1 " + text,
        "https://hexworld.org/board/#11," + text, "#/hex/explore?x=1." + text])


# -- messages ----------------------------------------------------------------------------------

def test_every_kind_has_its_message_in_every_catalog():
    for kind in KINDS:
        for catalog in CATALOGS.values():
            assert f"transfer.{kind}" in catalog


def test_every_setup_error_has_its_message_with_the_params_it_always_carries():
    """Each SetupError kind that setups.py raises has ``setup.<kind>`` in the
    catalogs, whose placeholders every raise of that kind fills."""
    source = (ROOT / "py" / "setups.py").read_text(encoding="utf-8")
    carried: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "SetupError":
            kind = node.args[0].value
            names = {keyword.arg for keyword in node.keywords}
            carried[kind] = carried.get(kind, names) & names
    assert set(carried) == {"counts", "two_winners", "board_two_lines", "won_before", "forced_closed",
                            "forced_unreachable", "unreachable", "too_complex"}
    for kind, names in carried.items():
        for catalog in CATALOGS.values():
            assert set(re.findall(r"\{(\w+)\}", catalog[f"setup.{kind}"])) <= names, kind
