"""The GTP engine (py/gtp.py): framing, every command, errors that change
nothing, garbage input, and the real process."""

from __future__ import annotations

import io
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import gtp
from ai import notakto as notakto_ai
from core.notakto import HAS_LINE, NotaktoState

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "py" / "gtp.py"


def engine(**kwargs) -> gtp.GtpEngine:
    kwargs.setdefault("settings", {"boards": 3})
    kwargs.setdefault("seed", 1)
    return gtp.GtpEngine("notakto", **kwargs)


def session(text: str, **kwargs) -> list[str]:
    """Run the engine over ``text``; the responses, each without its
    terminating empty line."""
    out = io.StringIO()
    gtp_engine = engine(stdin=io.StringIO(text), stdout=out, stderr=io.StringIO(), **kwargs)
    gtp_engine.run()
    raw = out.getvalue()
    assert raw == "" or raw.endswith("\n\n")
    return raw[:-2].split("\n\n") if raw else []


def ok(e: gtp.GtpEngine, line: str) -> str:
    response = e.execute(line)
    assert response is not None and response.startswith("=") and response.endswith("\n\n"), response
    return response[1:-2].lstrip(" ")


def fails(e: gtp.GtpEngine, line: str) -> str:
    before = (e.state.to_dict(), e.move_time)
    response = e.execute(line)
    assert response is not None and response.startswith("?") and response.endswith("\n\n"), response
    assert (e.state.to_dict(), e.move_time) == before  # nothing changed
    return response[1:-2].lstrip(" ")


# -- framing ------------------------------------------------------------------------
def test_framing_with_and_without_ids():
    assert session("1 protocol_version\nprotocol_version\n42 foo\nfoo\n") == [
        "=1 2", "= 2", "?42 unknown command: foo", "? unknown command: foo",
    ]


def test_blank_lines_and_comments_are_ignored():
    assert session("\n   \n# a comment\n\t\n7 name # trailing comment\n") == ["=7 four-abstract-games notakto"]


def test_tabs_and_control_characters_are_cleaned():
    assert session("protocol_version\t\n\x01pro\x02tocol_version\r\n") == ["= 2", "= 2"]


def test_id_without_command():
    assert session("5\n") == ["?5 missing command"]


def test_empty_results_have_no_trailing_space():
    e = engine()
    assert e.execute("3 play b 1a1") == "=3\n\n"
    assert e.execute("play w 2a1") == "=\n\n"


def test_quit_answers_then_stops_reading():
    assert session("2 quit\nname\n") == ["=2"]


def test_end_of_input_stops_quietly():
    assert session("name") == ["= four-abstract-games notakto"]


# -- simple commands ------------------------------------------------------------------------
def test_identity_commands():
    e = engine()
    assert ok(e, "protocol_version") == "2"
    assert ok(e, "name") == "four-abstract-games notakto"
    assert ok(e, "version") == gtp.VERSION


def test_list_and_known_commands():
    e = engine()
    listed = ok(e, "list_commands").split("\n")
    required = ["protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
                "clear_board", "play", "genmove", "undo", "all_legal_moves", "final_score",
                "showboard", "time_settings", "quit"]
    assert sorted(listed) == sorted(required)
    for command in listed:
        assert ok(e, f"known_command {command}") == "true"
    for other in ["foo", "PLAY", "kgs-genmove_cleanup", "loadsgf"]:
        assert ok(e, f"known_command {other}") == "false"
    assert fails(e, "known_command").startswith("syntax error")


def test_boardsize_sets_the_number_of_boards_and_clears():
    e = engine()
    ok(e, "play b 1a1")
    ok(e, "boardsize 5")
    assert e.state.settings() == {"boards": 5} and e.state.moves == []
    assert len(ok(e, "all_legal_moves").split()) == 45
    ok(e, "play b 5c3")
    for bad in ["boardsize 0", "boardsize 7", "boardsize -1"]:
        assert fails(e, bad).startswith("unacceptable size")
    for bad in ["boardsize", "boardsize x", "boardsize 3 4", "boardsize 2.5"]:
        assert fails(e, bad).startswith("syntax error")
    assert e.state.moves == [44]


def test_clear_board_keeps_the_settings():
    e = engine(settings={"boards": 2})
    ok(e, "play b 1a1")
    ok(e, "clear_board")
    assert e.state == NotaktoState(2)
    fails(e, "clear_board now")


# -- play -----------------------------------------------------------------------------------
def test_play_accepts_every_colour_spelling():
    e = engine()
    for colour, move in [("b", "1a1"), ("W", "1b2"), ("BLACK", "2a1"), ("white", "3c3"), ("Black", "2c3")]:
        ok(e, f"play {colour} {move}")
    assert e.state.move_texts() == ["1a1", "1b2", "2a1", "3c3", "2c3"]


def test_play_refusals_change_nothing():
    e = engine()
    for line in ["play b 1a1", "play w 1b1", "play b 1c1"]:  # board 1 closes
        ok(e, line)
    assert fails(e, "play b 2a1") == "illegal move: it is white's turn"
    assert fails(e, "play w 1b2") == "illegal move: board 1 is closed"
    ok(e, "play w 2a1")
    assert fails(e, "play b 2a1") == "illegal move: cell 2a1 is occupied"
    assert fails(e, "play b 4a1").startswith("illegal move: '4a1' is not a notakto move")
    assert fails(e, "play b pass").startswith("illegal move:")
    assert fails(e, "play x 2b2").startswith("syntax error: invalid colour")
    assert fails(e, "play b").startswith("syntax error")
    assert fails(e, "play").startswith("syntax error")
    assert fails(e, "play b 2b2 3b2").startswith("syntax error")


def finished(boards: int = 1) -> gtp.GtpEngine:
    e = engine(settings={"boards": boards})
    for line in ["play b 1a1", "play w 1b1", "play b 1c1"]:
        ok(e, line)
    return e


def test_play_after_the_end():
    assert fails(finished(), "play w 1b2") == "illegal move: the game is over"


# -- genmove --------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def player_to_move_wins(boards: tuple[int, ...]) -> bool:
    """Plain minimax on the live boards' masks (no symmetry, no theory)."""
    live = tuple(sorted(mask for mask in boards if not HAS_LINE[mask]))
    if not live:
        return True
    for index, mask in enumerate(live):
        for cell in range(9):
            if not mask >> cell & 1:
                child = live[:index] + (mask | 1 << cell,) + live[index + 1:]
                if not player_to_move_wins(tuple(sorted(child))):
                    return True
    return False


def test_genmove_on_one_board_takes_the_centre():
    for seed in range(5):
        e = engine(settings={"boards": 1}, seed=seed)
        assert ok(e, "genmove b") == "1b2"
        assert e.state.move_texts() == ["1b2"]


@pytest.mark.parametrize("opening", [[], ["1a1"], ["1b2", "2a1"], ["1a1", "2c3", "1c3"]])
def test_genmove_plays_perfectly_on_two_boards(opening):
    for seed in range(6):
        e = engine(settings={"boards": 2}, seed=seed)
        for text in opening:
            e.state.play(text)
        while not e.state.is_over():
            colour = "b" if e.state.turn == 0 else "w"
            before = e.state.boards
            winning = player_to_move_wins(before)
            text = ok(e, f"genmove {colour}")
            assert e.state.move_texts()[-1] == text
            if winning:
                assert not player_to_move_wins(e.state.boards), (opening, text)


def test_genmove_wins_three_boards_against_any_first_reply():
    for reply in NotaktoState(3).legal_moves():
        e = engine(seed=reply)
        first = ok(e, "genmove black")
        if reply == e.state.moves[0]:
            continue
        ok(e, f"play white {e.state.move_to_text(reply)}")
        while not e.state.is_over():
            if e.state.turn == 0:
                assert notakto_ai.safe_moves(e.state)  # black is still winning
                ok(e, "genmove b")
            else:
                ok(e, f"play w {e.state.move_to_text(e.state.legal_moves()[0])}")
        assert ok(e, "final_score") == "B+", first


def test_genmove_refusals():
    e = engine()
    assert fails(e, "genmove w") == "it is black's turn"
    assert fails(e, "genmove").startswith("syntax error")
    assert fails(e, "genmove green").startswith("syntax error")
    assert fails(finished(), "genmove w") == "the game is over"


def test_genmove_is_reproducible_per_seed_and_level():
    def game(seed: int, level: str) -> list[str]:
        e = engine(seed=seed, level=level, settings={"boards": 4})
        return [ok(e, f"genmove {'b' if e.state.turn == 0 else 'w'}") for _ in range(10)]

    assert game(3, "beginner") == game(3, "beginner")
    assert len({tuple(game(s, "beginner")) for s in range(6)}) > 1


def test_genmove_thinks_on_from_the_last_moves_tree():
    """The session holds one engine, so the strongest level's search after
    the opponent's reply starts from the node its last search reached."""
    e = gtp.GtpEngine("uttt", {}, level="master", seed=1, move_time=0.1)
    for colour, cell in zip("bwbw", ("e5", "e4", "e2", "d6")):  # out of the opening book
        ok(e, f"play {colour} {e.state.move_to_text(e.state.parse_move(cell))}")
    ok(e, "genmove b")
    node = e.computer.kept_root(e.state)  # after our move, in the tree that chose it
    assert node is not None
    reply = max(node.children, key=lambda child: child.visits)
    ok(e, f"play w {e.state.move_to_text(reply.move)}")
    asked, inherited = e.state.copy(), reply.visits
    ok(e, "genmove b")
    assert e.computer.kept_root(asked) is reply and reply.visits > inherited
    # A new game on the same engine: nothing of the old tree is used.
    ok(e, "clear_board")
    assert e.computer.kept_root(e.state) is None


# -- undo, moves, score, board -----------------------------------------------------------------
def test_undo():
    e = engine()
    assert fails(e, "undo") == "cannot undo: no move has been played"
    ok(e, "play b 1a1")
    ok(e, "genmove w")
    ok(e, "undo")
    assert e.state.move_texts() == ["1a1"]
    ok(e, "undo")
    assert e.state == NotaktoState(3)
    fails(e, "undo 2")


def test_undo_reopens_the_game():
    e = finished()
    ok(e, "undo")
    assert not e.state.is_over()
    assert fails(e, "final_score") == "game not over"


def test_all_legal_moves():
    e = engine(settings={"boards": 2})
    everything = ok(e, "all_legal_moves").split(" ")
    assert everything == [e.state.move_to_text(m) for m in range(18)]
    assert everything[:4] == ["1a1", "1b1", "1c1", "1a2"]
    for line in ["play b 1a1", "play w 1b1", "play b 1c1"]:
        ok(e, line)
    assert ok(e, "all_legal_moves") == " ".join(f"2{c}{r}" for r in "123" for c in "abc")
    ok(e, "play w 2a1")
    assert "2a1" not in ok(e, "all_legal_moves").split()
    assert ok(finished(), "all_legal_moves") == ""
    fails(e, "all_legal_moves now")


def test_final_score():
    e = engine()
    assert fails(e, "final_score") == "game not over"
    assert ok(finished(1), "final_score") == "W+"  # black closed the last board
    e = engine(settings={"boards": 1})
    for line in ["play b 1a1", "play w 1b1", "play b 1a2", "play w 1c2", "play b 1b3"]:
        ok(e, line)
    assert fails(e, "final_score") == "game not over"
    ok(e, "play w 1b2")  # white completes row 2, the last board
    assert ok(e, "final_score") == "B+"


def test_showboard():
    e = engine()
    for line in ["play b 1a1", "play w 1b1", "play b 1c1", "play w 2b2"]:
        ok(e, line)
    response = e.execute("showboard")
    assert response.startswith("=\n") and response.endswith("\n\n")
    lines = response[2:-2].split("\n")
    assert lines[0].split() == ["1", "closed", "2", "3"]
    assert lines[2].split() == ["1", "X", "X", "X", "1", ".", ".", ".", "1", ".", ".", "."]
    assert lines[3].split() == ["2", "-", "-", "-", "2", ".", "X", ".", "2", ".", ".", "."]
    assert lines[-1] == "black to move"
    assert "game over: W+" in ok(finished(), "showboard")
    fails(e, "showboard 1")


def test_time_settings():
    e = engine()
    ok(e, "time_settings 0 5 1")
    assert e.move_time == 5
    ok(e, "time_settings 0 0 0")  # GTP's "no limit"
    assert e.move_time is None
    for refused in ["time_settings 300 30 5", "time_settings 0 10 2", "time_settings 1 0 0"]:
        assert fails(e, refused).startswith("only time_settings 0 B 1")
    for bad in ["time_settings", "time_settings 0 1", "time_settings a b c", "time_settings 0 inf 1"]:
        assert fails(e, bad).startswith("syntax error")


# -- garbage --------------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_line_gets_a_framed_answer_or_none(line):
    e = engine()
    e.state.play("1a1")
    before = e.state.to_dict()
    response = e.execute(line)
    if response is None:
        return
    assert response[0] in "=?" and response.endswith("\n\n")
    assert "\n\n" not in response[:-2]
    if response[0] == "?":
        assert e.state.to_dict() == before


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["play", "genmove", "undo", "b", "w", "white", "1a1", "2b2", "3c3",
                                 "9z9", "boardsize", "4", "0", "clear_board", "final_score", "#", "12"]),
                max_size=5))
def test_command_soup_never_crashes(words):
    e = engine()
    e.stderr = io.StringIO()
    e.execute(" ".join(words))
    assert "Traceback" not in e.stderr.getvalue()
    NotaktoState.from_dict(e.state.to_dict())  # the state is still consistent


class FaultyEngine(gtp.GtpEngine):
    """An engine with one command that fails halfway, as a bug would."""

    def __init__(self, **kwargs) -> None:
        super().__init__("notakto", {"boards": 3}, stderr=io.StringIO(), **kwargs)
        self.commands["half_move"] = self.cmd_half_move

    def cmd_half_move(self, args: list[str]) -> str:
        self.state.play("2b2")
        raise RuntimeError("broken halfway")


def test_an_internal_error_is_reported_and_undone():
    e = FaultyEngine()
    ok(e, "play b 1a1")
    assert e.execute("9 half_move") == "?9 internal error: broken halfway\n\n"
    assert e.state.move_texts() == ["1a1"]
    assert "Traceback" in e.stderr.getvalue() and "broken halfway" in e.stderr.getvalue()
    assert ok(e, "all_legal_moves").split()[:2] == ["1b1", "1c1"]  # still serving


# -- the real process --------------------------------------------------------------------------
def run_script(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], input=stdin, capture_output=True, timeout=60, cwd=ROOT,
    )


def test_subprocess_session():
    commands = b"1 protocol_version\nboardsize 1\n2 genmove b\nplay w 1a1\nplay w 1c1\n\x00\xff\xfe garbage\nquit\n"
    result = run_script("--game", "notakto", "--boards", "3", "--seed", "4", stdin=commands)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().split("\n\n")[:-1] == [
        "=1 2", "=", "=2 1b2", "=", "? illegal move: it is black's turn", "? unknown command: \ufffd\ufffd",
        "=",
    ]
    assert b"Traceback" not in result.stderr


def test_subprocess_level_and_seed_are_used():
    commands = b"genmove b\ngenmove w\ngenmove b\ngenmove w\nquit\n"
    first = run_script("--game", "notakto", "--boards", "6", "--level", "beginner", "--seed", "9", stdin=commands)
    again = run_script("--game", "notakto", "--boards", "6", "--level", "beginner", "--seed", "9", stdin=commands)
    assert first.returncode == 0 and first.stdout == again.stdout
    assert first.stdout.count(b"=") == 5


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "hex", "--size", "4"], b"size"),
        (["--game", "chess"], b"unknown game 'chess'"),
        (["--game", "notakto", "--boards", "9"], b"number of boards must be 1 to 6"),
        (["--game", "notakto", "--level", "godlike"], b"unknown level 'godlike'"),
        (["--game", "notakto", "--move-time", "0"], b"--move-time must be a positive"),
        (["--game", "uttt", "--move-time", "inf"], b"--move-time must be a positive, finite"),
        (["--game", "hex", "--move-time", "nan"], b"--move-time must be a positive, finite"),
        ([], b"--game"),
    ],
)
def test_subprocess_refuses_bad_arguments(args, message):
    result = run_script(*args, stdin=b"name\n")
    assert result.returncode != 0
    assert result.stdout == b""
    assert message in result.stderr


def test_the_protocol_document_covers_every_command_and_option():
    document = (ROOT / "docs" / "gtp.md").read_text(encoding="utf-8")
    for command in engine().commands:
        assert f"| `{command}" in document, command
    for option in gtp._parser()._option_string_actions:
        assert f"`{option}" in document or option == "-h", option
    for game in gtp.GAMES:
        assert f"`{game}`" in document, game


def test_subprocess_warns_about_options_of_other_games():
    result = run_script("--game", "notakto", "--size", "11", "--swap", stdin=b"name\n")
    assert result.returncode == 0
    assert result.stdout == b"= four-abstract-games notakto\n\n"
    assert b"--size does not apply to notakto" in result.stderr
