"""Feel: which sound each step of a game asks for (and which steps ask for
none), the one remembered sound setting, and Hex's and Y's red/blue colours
with every name of the players following them. No browser: the model and
the view model (tests/app/test_screen.py has the helpers' originals)."""

from __future__ import annotations

import random

import pytest

from app.model.games import SPECS
from app.model.keep import settings_name
from app.model.screen import GameScreen, open_screen
from app.model.screen_view import screen_view
from app.model.session import COMPUTER, TWO_PLAYER
from app.model.storage import MemoryBackend, Storage
from app.model.words import Msg


def make(game: str, storage: Storage | None = None, **settings: object) -> GameScreen:
    storage = storage or Storage(MemoryBackend())
    if settings:
        storage.write(settings_name(game), settings)
    return open_screen(SPECS[game], storage, "tab-a", lambda: 1_000_000.0, lambda: "2026-12-01", random.Random(1))


def answer(screen: GameScreen, move: str):
    request = screen.computer_request()
    assert request is not None
    return screen.computer_answer(request, move)


# -- sounds ---------------------------------------------------------------------------
def test_a_move_the_computers_reply_and_a_lost_game_each_ask_for_their_sound() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:beginner", starts="home", size=7)
    assert screen.move("d4").sounds == ("move",)
    assert answer(screen, "c5").sounds == ("computer",)
    assert screen.resign().sounds == ()  # only the question
    assert screen.answer(True).sounds == ("loss",)


def test_the_computer_closing_the_last_board_is_a_won_game() -> None:
    screen = make("notakto", opponent=f"{COMPUTER}:beginner", starts="home", boards=1)
    screen.move("1a1")
    answer(screen, "1a2")
    screen.move("1c3")
    change = answer(screen, "1a3")  # a1 a2 a3: the computer closed the only board
    assert screen.session.is_over() and change.sounds == ("computer", "win")


def test_two_people_hear_their_moves_and_the_end_of_the_game() -> None:
    screen = make("notakto", opponent=TWO_PLAYER, boards=1)
    assert [screen.move(cell).sounds for cell in ("1a1", "1b1")] == [("move",), ("move",)]
    assert screen.move("1c1").sounds == ("move", "end")


def test_no_sound_for_a_redraw_a_step_through_the_game_a_refused_move_or_a_restored_save() -> None:
    storage = Storage(MemoryBackend())
    screen = make("y", storage, opponent=TWO_PLAYER, size=9)
    for cell in ("e5", "c3", "d7"):
        screen.move(cell)
    assert screen.move("e5").sounds == ()  # taken: nothing happens
    steps = [screen.step(-1), screen.step_first(), screen.step(+1), screen.step_last()]
    assert all(change.sounds == () for change in steps) and not screen.reviewing
    assert screen.play.set_display("coordinates", False).sounds == ()
    assert screen.undo().sounds == ()
    again = make("y", storage)  # the page reloaded: the saved game is back, silently
    assert again.session.state.move_texts() == screen.session.state.move_texts()
    assert again.apply_link_settings({}).sounds == () and again.step(-1).sounds == ()


def test_the_computers_move_held_during_a_look_back_sounds_when_it_is_played() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:beginner", starts="home", size=7)
    screen.move("d4")
    request = screen.computer_request()
    screen.step_first()
    assert screen.computer_answer(request, "c5").sounds == ()  # held, not played yet
    assert screen.back_to_live().sounds == ("computer",)


def test_the_sound_is_off_by_default_one_switch_for_every_game_and_remembered() -> None:
    storage = Storage(MemoryBackend())
    screen = make("uttt", storage)
    toggle = next(t for t in screen_view(screen).toggles if t.name == "sound")
    assert not screen.play.sound and not toggle.checked and toggle.label == Msg("settings.sound")
    change = screen.toggle("sound", True)
    assert "toggles" in change.parts and change.sounds == ()
    assert next(t for t in screen_view(screen).toggles if t.name == "sound").checked
    other = make("hex", storage)  # another game, the same setting
    assert other.play.sound and next(t for t in screen_view(other).toggles if t.name == "sound").checked
    other.toggle("sound", False)
    assert not make("notakto", storage).play.sound


# -- red and blue ------------------------------------------------------------------------
def stones(board) -> dict[str, str]:
    """cell -> the class of its group (e.g. "hx red last")."""
    return {attrs["data-move"]: attrs["class"] for tag, attrs, _ in board[2] if tag == "g" and "data-move" in attrs}


@pytest.mark.parametrize(("game", "first", "second"), [("hex", "d4", "c5"), ("y", "e5", "c3")])
def test_red_and_blue_name_the_players_everywhere_and_blue_and_green_stay_the_default(
        game: str, first: str, second: str) -> None:
    storage = Storage(MemoryBackend())
    screen = make(game, storage, opponent=TWO_PLAYER, size=9)
    screen.move(first)
    screen.move(second)
    view = screen_view(screen)
    assert view.status.params["mark"] == Msg("mark.blue")  # the first player's turn again
    assert [entry.mark for entry in view.moves] == [Msg("mark.blue"), Msg("mark.green")]
    cells = stones(view.board)
    assert cells[first].split()[1] == "blue" and cells[second].split()[1] == "green"
    assert "red-blue" not in view.board[1]["class"]

    change = screen.toggle("red_blue", True)
    assert {"board", "moves", "toggles"} <= change.parts
    view = screen_view(screen)
    assert view.status == Msg("status.turn_mark.player", {"player": Msg("player.numbered", {"number": 1}),
                                                          "mark": Msg("mark.red")})
    assert [entry.mark for entry in view.moves] == [Msg("mark.red"), Msg("mark.blue")]
    cells = stones(view.board)
    assert cells[first].split()[1] == "red" and cells[second].split()[1] == "blue"
    assert "red-blue" in view.board[1]["class"]
    labels = {attrs["data-move"]: attrs["aria-label"] for _, attrs, _ in view.board[2] if "data-move" in attrs}
    assert labels[first].params["content"] == Msg("cell.red") and labels[second].params["content"] == Msg("cell.blue")
    if game == "hex":  # the first player's edges are red, the second's blue
        edges = {attrs["data-testid"]: attrs["class"] for tag, attrs, _ in view.board[2] if tag == "polygon"}
        assert edges["edge-top-left"] == "edge red" and edges["edge-top-right"] == "edge blue"
    screen.move("a1")
    assert screen_view(screen).status.params["mark"] == Msg("mark.blue")

    again = make(game, storage)  # remembered for this game
    assert again.settings["red_blue"] and screen_view(again).moves[0].mark == Msg("mark.red")
    assert not make("y" if game == "hex" else "hex", storage).settings["red_blue"]  # not for the other


def test_only_hex_and_y_offer_red_and_blue() -> None:
    assert [game for game, spec in SPECS.items() if any(c.name == "red_blue" for c in spec.choices)] == ["hex", "y"]
    screen = make("uttt")
    assert screen.toggle("red_blue", True).parts == frozenset() and "red_blue" not in screen.settings
