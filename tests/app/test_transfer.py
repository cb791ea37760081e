"""Share links, export text and import (py/app/model/transfer.py): exact round
trips for every game and setting, HexGui's SGF, and a precise error for
every kind of bad input."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from app.model import transfer
from app.model.replay import KINDS
from app.model.transfer import (MAX_CHARS, TransferError, Transferred, export_filename, export_text,
                          import_text, read_share, share_fragment, share_payload)
from core.base import GameState
from registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = json.loads((ROOT / "i18n" / "en.json").read_text(encoding="utf-8"))
URL_SAFE = re.compile(r"[A-Za-z0-9._~-]+")


def every_setting() -> list[tuple[str, dict[str, Any]]]:
    """Every game with every value its rules accept (Hex/Y 5..19 with and
    without swap, Notakto 1..6 boards, uttt alone)."""
    choices: list[tuple[str, dict[str, Any]]] = [("uttt", {})]
    for boards in GAMES["notakto"].setting("boards").accepted:
        choices.append(("notakto", {"boards": boards}))
    for game in ("hex", "y"):
        for size in GAMES[game].setting("size").accepted:
            for swap in (True, False):
                choices.append((game, {"size": size, "swap": swap}))
    return choices


SETTINGS = every_setting()


def new(game: str, chosen: dict[str, Any]) -> GameState:
    return GAMES[game].state.from_settings(chosen)


def random_game(game: str, chosen: dict[str, Any], rng: random.Random, length: int | None = None,
                swap: bool = False) -> GameState:
    """Random legal moves until the end or ``length`` moves; ``swap`` makes
    the second move a swap where the rules allow it."""
    state = new(game, chosen)
    while not state.is_over() and (length is None or len(state.moves) < length):
        moves = state.legal_moves()
        move = moves[-1] if swap and len(state.moves) == 1 and getattr(state, "can_swap", lambda: False)() \
            else rng.choice(moves)
        state.play(move)
    return state


def unfinished(state: GameState) -> GameState:
    """The game one move before its end, if it ended (to resign in)."""
    if state.is_over():
        state.pop()
    return state


def assert_same_game(result: Transferred, state: GameState, resigned: int | None) -> None:
    assert result.game == state.game
    assert result.state.settings() == state.settings()
    assert result.state.moves == state.moves
    assert result.resigned == resigned


def assert_round_trips(state: GameState, resigned: int | None) -> None:
    payload = share_payload(state, resigned)
    assert URL_SAFE.fullmatch(payload), payload
    shared = read_share(state.game, payload)
    assert_same_game(shared, state, resigned)
    assert share_payload(shared.state, shared.resigned) == payload
    text = export_text(state, resigned)
    imported = import_text(text)
    assert_same_game(imported, state, resigned)
    assert export_text(imported.state, imported.resigned) == text


def sign(game: str, body: str) -> str:
    """A hand-made payload with a correct check."""
    return f"{body}~{transfer._checksum(game, body)}"


def error(call, *args, **kwargs) -> TransferError:
    with pytest.raises(TransferError) as caught:
        call(*args, **kwargs)
    return caught.value


def assert_every_cut_is_truncated(read, game: str, payload: str) -> None:
    for cut in range(1, len(payload)):
        check_message(error(read, game, payload[:cut]), "truncated")


def assert_every_edit_is_damaged(read, game: str, payload: str, others: str) -> None:
    """Each character of ``payload`` replaced by each of ``others``: the
    check fails (or, the ``~`` gone, the payload is cut)."""
    for index, char in enumerate(payload):
        for other in others:
            if other != char:
                edited = payload[:index] + other + payload[index + 1:]
                assert error(read, game, edited).kind in ("damaged", "truncated")


# -- round trips ----------------------------------------------------------------------

@pytest.mark.parametrize("game,chosen", SETTINGS, ids=[f"{g}-{'-'.join(map(str, c.values()))}" for g, c in SETTINGS])
def test_every_setting_round_trips_with_and_without_swap_and_resignation(game: str, chosen: dict[str, Any]) -> None:
    rng = random.Random(f"{game}{chosen}")
    assert_round_trips(new(game, chosen), None)
    assert_round_trips(new(game, chosen), 1)
    finished = random_game(game, chosen, rng)
    assert finished.is_over()
    assert_round_trips(finished, None)
    for resigned in (0, 1):
        length = rng.randrange(1, len(finished.moves))
        assert_round_trips(unfinished(random_game(game, chosen, rng, length)), resigned)
    if chosen.get("swap"):
        swapped = random_game(game, chosen, rng, 6, swap=True)
        assert swapped.move_texts()[1] == "swap"
        assert_round_trips(swapped, None)
        assert_round_trips(unfinished(swapped), 0)
        assert_round_trips(random_game(game, chosen, rng, 2, swap=True), 1)
        assert_round_trips(random_game(game, chosen, rng, swap=True), None)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_legal_games_round_trip(data: st.DataObject) -> None:
    game, chosen = data.draw(st.sampled_from(SETTINGS))
    state = new(game, chosen)
    length = data.draw(st.integers(0, 400))
    while not state.is_over() and len(state.moves) < length:
        moves = state.legal_moves()
        state.play(moves[data.draw(st.integers(0, len(moves) - 1))])
    resigned = None if state.is_over() else data.draw(st.sampled_from([None, 0, 1]))
    assert_round_trips(state, resigned)


def test_the_formats_look_as_documented() -> None:
    y = new("y", {"size": 13, "swap": True})
    for move in ("e5", "swap", "c3"):
        y.play(move)
    assert export_text(y, 0) == "[abstract-games 1] game=y size=13 swap=on\nmoves: e5 swap c3\nresigned: first\n"
    assert share_payload(y).startswith("1.13-1.e5swapc3~")
    hex_game = new("hex", {"size": 11, "swap": True})
    for move in ("c2", "swap", "e7", "d8"):
        hex_game.play(move)
    assert share_fragment("hex", share_payload(hex_game, 1)) == "#/hex?g=1.11-1.c2swape7d8.r1~93dcft"  # docs/formats.md
    assert export_text(hex_game, 1) == (
        "(;FF[4]GM[11]SZ[11]AP[abstract-games:1]RU[swap]RE[W+Resign]\n;B[c2];W[swap-pieces];W[g5];B[h4])\n")
    uttt = new("uttt", {})
    assert export_text(uttt) == "[abstract-games 1] game=uttt\nmoves:\n"
    assert share_payload(uttt).startswith("1..~")
    notakto = new("notakto", {"boards": 3})
    notakto.play("1b2")
    assert share_payload(notakto).startswith("1.3.1b2~")


def test_long_hex_records_wrap_between_nodes_like_hexgui() -> None:
    state = random_game("hex", {"size": 19, "swap": False}, random.Random(3))
    text = export_text(state)
    assert all(len(line) <= 72 for line in text.splitlines()[1:])
    assert import_text(text.replace("\n", "\r\n\n  ")).state.moves == state.moves


def test_share_fragment_and_file_names() -> None:
    assert share_fragment("hex", "1.11-1.~abc123") == "#/hex?g=1.11-1.~abc123"
    assert export_filename(new("hex", {"size": 11})) == "hex-11x11.sgf"
    assert export_filename(new("y", {"size": 13})) == "y-13.txt"
    assert export_filename(new("notakto", {"boards": 3})) == "notakto-3.txt"
    assert export_filename(new("uttt", {})) == "uttt.txt"


def test_a_pasted_share_link_is_imported() -> None:
    state = unfinished(random_game("y", {"size": 9, "swap": True}, random.Random(1), 10))
    link = "https://example.org/games/" + share_fragment("y", share_payload(state, 0))
    assert_same_game(import_text(f"  {link}\n"), state, 0)


def test_import_is_lenient_about_whitespace_crlf_and_case() -> None:
    text = ("\r\n\r\n  [Abstract-Games 1]   GAME=Y  size=9 Swap=ON \r\n\r\n"
            " MOVES:  E5   swap\tC3 \r\n RESIGNED: Second\r\n\r\n")
    result = import_text(text)
    assert result.state.move_texts() == ["e5", "swap", "c3"]
    assert result.state.settings() == {"size": 9, "swap": True}
    assert result.resigned == 1


def test_a_record_with_variations_imports_as_its_main_line() -> None:
    text = "[abstract-games 1] game=y size=9 swap=on\nmoves: e5 (c3 d4) swap (a1) C3\nresigned: second\n"
    result = import_text(text)
    assert result.state.move_texts() == ["e5", "swap", "c3"] and result.resigned == 1
    check_message(error(import_text, "[abstract-games 1] game=y size=9 swap=on\n moves: e5 (c3"), "format",  # the ")" missing at its end
                  line=2, column=15)


def test_a_set_up_position_is_no_game_to_import() -> None:
    text = "[abstract-games 1] game=uttt\nsetup: e5 d4\nmoves: f6\n"
    check_message(error(import_text, text), "analysis_only", line=2)
    check_message(error(import_text, "[abstract-games 1] game=uttt\nsetup: e5 d4\n"), "format", line=3, column=1)


# -- HexGui's SGF ---------------------------------------------------------------------

def moves_of(text: str) -> list[str]:
    return import_text(text).state.move_texts()


def test_hexgui_file_with_its_properties_and_swap_pieces() -> None:
    text = ("(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[11]PB[alice]PW[bob]\nDT[2024-05-01]KM[0]CA[UTF-8]GN[one]\n"
            "C[a comment; with (parens) and an escaped \\] bracket]\n;B[f6];W[swap-pieces]\n;W[e7]\n\n;B[D8]C[]\n)\n")
    result = import_text(text)
    # After HexGui's swap the stone stays and the same player, now white,
    # moves: in our rules that is the mirrored game.
    assert result.state.move_texts() == ["f6", "swap", "g5", "h4"]
    assert result.state.settings() == {"size": 11, "swap": True}
    assert result.resigned is None


def test_swap_sides_and_plain_swap_read_like_swap_pieces() -> None:
    assert moves_of("(;GM[11]SZ[7];b[c2];w[swap-sides];w[a5])") == ["c2", "swap", "e1"]
    assert moves_of("(;GM[11]SZ[7];B[c2];W[SWAP];W[a5])") == ["c2", "swap", "e1"]


def test_a_swap_followed_by_black_is_the_stone_moving_convention() -> None:
    assert moves_of("(;FF[4]GM[11]SZ[7];B[c2];W[swap-pieces];B[a5];W[b5])") == ["c2", "swap", "a5", "b5"]


def test_resignations_and_results() -> None:
    assert import_text("(;GM[11]SZ[7]RE[B+Resign];B[a1];W[b2])").resigned == 1
    assert import_text("(;GM[11]SZ[7]RE[w+r];B[a1];W[b2])").resigned == 0
    assert import_text("(;GM[11]SZ[7]RE[B+];B[a1];W[b2])").resigned is None
    assert import_text("(;GM[11]SZ[7];B[a1];W[b2];B[resign])").resigned == 0
    # After HexGui's swap, black is the player who swapped (the second seat).
    assert import_text("(;GM[11]SZ[7]RE[W+Resign];B[a1];W[swap-pieces];W[c3])").resigned == 1
    assert import_text("(;GM[11]SZ[7];B[a1];W[swap-pieces];B[resign])").resigned == 1


def test_only_the_main_line_counts() -> None:
    text = "(;FF[4]GM[11]SZ[7];B[a1](;W[b2](;B[c3])(;B[d4]))(;W[e5];B[f6]))"
    assert moves_of(text) == ["a1", "b2", "c3"]


def test_defaults_square_sizes_and_go_style_points() -> None:
    assert import_text("(;FF[4]GM[11];B[k11])").state.settings() == {"size": 11, "swap": False}
    assert import_text("(;SZ[9:9];B[a1])").state.settings() == {"size": 9, "swap": False}
    assert moves_of("(;GM[11]SZ[5];B[cb];W[ae])") == ["c2", "a5"]
    assert import_text("(;GM[11]SZ[5]RU[swap])").state.settings() == {"size": 5, "swap": True}


# -- errors ---------------------------------------------------------------------------

def check_message(caught: TransferError, kind: str, **params: Any) -> None:
    assert caught.kind == kind
    assert caught.message.key == f"transfer.{kind}"
    assert caught.message.params == params
    assert set(re.findall(r"\{(\w+)\}", ENGLISH[caught.message.key])) == set(params)


def test_every_kind_has_its_message_in_the_catalog() -> None:
    assert {f"transfer.{kind}" for kind in KINDS} <= set(ENGLISH)
    for kind in ("empty", "unknown_game", "bad_settings", "notation", "illegal_move", "truncated", "damaged",
                 "format", "too_long", "setup", "after_end"):
        assert kind in KINDS


def test_empty() -> None:
    check_message(error(import_text, " \r\n\t"), "empty")
    check_message(error(read_share, "hex", ""), "empty")


def test_too_long() -> None:
    check_message(error(import_text, "(" + ";" * MAX_CHARS), "too_long", limit=MAX_CHARS)
    check_message(error(read_share, "hex", "1" * (MAX_CHARS + 1)), "too_long", limit=MAX_CHARS)


def test_format_names_the_line_and_character() -> None:
    check_message(error(import_text, "just some words"), "format", line=1, column=1)
    check_message(error(import_text, "(;FF[4]\nGM[11]\nSZ[5];B[a1]W)"), "format", line=3, column=13)
    check_message(error(import_text, "(;FF[4]GM[11]SZ[5];B[a1"), "format", line=1, column=24)
    text = "[abstract-games 1] game=y size=9 swap=off\nmoves: a1\n\njunk here\n"
    check_message(error(import_text, text), "format", line=4, column=1)
    check_message(error(import_text, "[abstract-games 1] game=y size=9 swap=off\n"), "format", line=2, column=1)
    check_message(error(import_text, "[abstract-games 1] game=y size\nmoves:"), "format", line=1, column=27)
    check_message(error(read_share, "y", sign("y", "1.9-0.a1.resign")), "format", line=1, column=10)


def test_version() -> None:
    check_message(error(import_text, "[abstract-games 2] game=y size=9 swap=off\nmoves:"), "version")
    check_message(error(read_share, "y", sign("y", "2.9-0.a1")), "version")


def test_unknown_game() -> None:
    check_message(error(read_share, "chess", "1..~000000"), "unknown_game", name="chess")
    check_message(error(import_text, "(;FF[4]GM[1]SZ[19];B[pd])"), "unknown_game", name="GM[1]")
    check_message(error(import_text, "[abstract-games 1] game=chess\nmoves: e4"), "unknown_game", name="chess")


def test_bad_settings_name_the_setting() -> None:
    check_message(error(import_text, "(;FF[4]GM[11]SZ[11:9];B[a1])"), "bad_settings", setting="SZ[11:9]")
    check_message(error(import_text, "(;GM[11]SZ[25])"), "bad_settings", setting="SZ[25]")
    check_message(error(read_share, "hex", sign("hex", "1.4-1.a1")), "bad_settings", setting="size=4")
    check_message(error(read_share, "hex", sign("hex", "1.11.a1")), "bad_settings", setting="11")
    check_message(error(read_share, "notakto", sign("notakto", "1.9.1a1")), "bad_settings", setting="boards=9")
    check_message(error(import_text, "[abstract-games 1] game=y size=9\nmoves:"), "bad_settings", setting="swap")
    check_message(error(import_text, "[abstract-games 1] game=uttt colour=red\nmoves:"), "bad_settings",
                  setting="colour")
    check_message(error(import_text, "[abstract-games 1] game=y size=9 swap=maybe\nmoves:"), "bad_settings",
                  setting="swap=maybe")


def test_setup_stones_are_refused_with_their_line() -> None:
    check_message(error(import_text, "(;FF[4]GM[11]SZ[11]\n;AB[a1][b2]\n;W[c3])"), "setup", line=2)
    check_message(error(import_text, "(;GM[11]SZ[11]AE[a1])"), "setup", line=1)


def test_notation_names_the_move_and_its_text() -> None:
    text = "[abstract-games 1] game=y size=9 swap=off\nmoves: e5 zz9 c3\n"
    check_message(error(import_text, text), "notation", move=2, text="zz9")
    check_message(error(import_text, "(;GM[11]SZ[5];B[a1];W[z1])"), "notation", move=2, text="W[z1]")
    check_message(error(read_share, "hex", sign("hex", "1.5-0.a1q7")), "notation", move=2, text="q7")
    text = "[abstract-games 1] game=notakto boards=2\nmoves: 1a1 3a1\n"
    check_message(error(import_text, text), "notation", move=2, text="3a1")


def test_illegal_move_names_the_move_and_its_text() -> None:
    text = "[abstract-games 1] game=uttt\nmoves: e5 e5\n"
    caught = error(import_text, text)
    check_message(caught, "illegal_move", move=2, text="e5")
    assert "occupied" in str(caught)
    check_message(error(import_text, "(;GM[11]SZ[5];B[a1];B[b1])"), "illegal_move", move=2, text="B[b1]")
    check_message(error(read_share, "hex", sign("hex", "1.5-0.a1a1")), "illegal_move", move=2, text="a1")
    check_message(error(read_share, "hex", sign("hex", "1.5-0.a1swap")), "illegal_move", move=2, text="swap")
    text = "[abstract-games 1] game=y size=9 swap=on\nmoves: a1 b2 swap\n"
    check_message(error(import_text, text), "illegal_move", move=3, text="swap")


def test_after_end() -> None:
    state = random_game("notakto", {"boards": 1}, random.Random(2))
    text = export_text(state)
    extra = next(f"1{c}{r}" for r in "123" for c in "abc" if f"1{c}{r}" not in state.move_texts())
    number = len(state.moves) + 1
    header, moves = text.splitlines()
    check_message(error(import_text, f"{header}\n{moves} {extra}\n"), "after_end", move=number, text=extra)
    check_message(error(import_text, text + "resigned: first\n"), "after_end", move=number, text="resigned: first")
    payload_body = share_payload(state).rpartition("~")[0]
    check_message(error(read_share, "notakto", sign("notakto", payload_body + ".r1")), "after_end",
                  move=number, text="r1")
    check_message(error(import_text, "(;GM[11]SZ[5];B[a1];W[resign];B[b2])"), "after_end", move=2, text="B[b2]")


def test_every_cut_of_a_payload_is_truncated() -> None:
    rng = random.Random(7)
    for game, chosen in [("hex", {"size": 11, "swap": True}), ("y", {"size": 13, "swap": False}),
                         ("notakto", {"boards": 6}), ("uttt", {})]:
        state = unfinished(random_game(game, chosen, rng, 30))
        assert_every_cut_is_truncated(read_share, game, share_payload(state, 1))


def test_cutting_one_digit_off_the_last_cell_is_caught() -> None:
    state = new("hex", {"size": 11, "swap": False})
    for move in ("b2", "a11"):
        state.play(move)
    body, _, check = share_payload(state).rpartition("~")
    assert body.endswith("a11")
    check_message(error(read_share, "hex", f"{body[:-1]}~{check}"), "damaged")


def test_every_edit_of_a_payload_is_damaged() -> None:
    state = unfinished(random_game("y", {"size": 9, "swap": True}, random.Random(5), 12))
    payload = share_payload(state, 0)
    assert_every_edit_is_damaged(read_share, "y", payload, "0a~.-z9")
    check_message(error(read_share, "hex", payload), "damaged")  # another game's route
    check_message(error(read_share, "y", payload + "0"), "damaged")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-~", max_size=40), st.sampled_from(sorted(GAMES)))
def test_no_random_payload_is_read_by_accident(payload: str, game: str) -> None:
    with pytest.raises(TransferError):
        read_share(game, payload)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_either_imports_or_raises_a_transfer_error(text: str) -> None:
    assert_reads_or_refuses(import_text, Transferred, [
        text, "(" + text, "[abstract-games 1] game=y size=9 swap=on\nmoves: " + text, "(;GM[11]SZ[5]" + text])


def assert_reads_or_refuses(read, result: type, candidates: list[str]) -> None:
    """Each text is read as a ``result`` or refused with a TransferError, never a crash."""
    for candidate in candidates:
        try:
            read_back = read(candidate)
        except TransferError as caught:
            assert caught.kind in KINDS
        else:
            assert isinstance(read_back, result)


def test_resigned_must_be_a_seat_of_an_unfinished_game() -> None:
    finished = random_game("uttt", {}, random.Random(4))
    with pytest.raises(ValueError):
        share_payload(finished, 0)
    with pytest.raises(ValueError):
        export_text(new("uttt", {}), 2)


def test_the_module_is_pure() -> None:
    source = (ROOT / "py" / "app" / "model" / "transfer.py").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|from)\s+(js|pyodide|pyscript)\b", source, re.MULTILINE)


def hexgui_board(sgf: str, size: int) -> dict[tuple[int, int], str]:
    """The position as HexGui shows it: each B/W move puts a stone of that
    colour; ``swap-pieces`` changes nothing on a Hex board."""
    board = {}
    for colour, value in re.findall(r";([BW])\[([^\]]*)\]", sgf):
        if value != "swap-pieces":
            board[(int(value[1:]) - 1, ord(value[0]) - ord("a"))] = colour
    return board


def connects(board: dict[tuple[int, int], str], colour: str, size: int) -> bool:
    """Whether ``colour`` joins its edges in HexGui (black: row 1 to the
    last row; white: column a to the last column)."""
    along = 0 if colour == "B" else 1
    todo = [cell for cell, owner in board.items() if owner == colour and cell[along] == 0]
    seen = set(todo)
    while todo:
        row, col = todo.pop()
        if (row, col)[along] == size - 1:
            return True
        for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)):
            near = (row + dr, col + dc)
            if board.get(near) == colour and near not in seen:
                seen.add(near)
                todo.append(near)
    return False


@pytest.mark.parametrize("seed", range(12))
def test_an_exported_hex_game_is_the_same_game_in_hexgui(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([5, 7, 11])
    state = random_game("hex", {"size": size, "swap": True}, rng, swap=seed % 3 != 0)
    text = export_text(state)
    board = hexgui_board(text, size)
    mirrored = state.swapped
    for cell in range(size * size):
        owner = state.cell_owner(cell)
        row, col = divmod(cell, size)
        shown = board.get((col, row) if mirrored else (row, col))
        assert shown == (None if owner is None else "BW"[owner ^ mirrored])
    winner = re.search(r"RE\[([BW])\+\]", text)[1]
    assert connects(board, winner, size) and not connects(board, "WB"["BW".index(winner)], size)
