"""The game list's preview of the unfinished game (``preview/<game>``): what
the shell draws on a card before Python starts, kept in step with the save
slot through every command that writes the slot."""

from __future__ import annotations

import json
import random

import pytest

from app.model.games import SPECS
from app.model.saves import board_preview, preview_name, slot_name
from app.model.keep import settings_name
from app.model.screen import GameScreen, open_screen
from app.model.session import COMPUTER, TWO_PLAYER, GameSession, who
from app.model.storage import PREFIX, MemoryBackend, Storage


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make(game: str, storage: Storage, **settings: object) -> GameScreen:
    storage.write(settings_name(game), settings)
    return open_screen(SPECS[game], storage, "tab-a", Clock(), lambda: "2026-12-01", random.Random(1))


def stored_preview(backend: MemoryBackend, game: str) -> dict | None:
    """The preview as the shell reads it: the raw localStorage value."""
    raw = backend.getItem(PREFIX + preview_name(game))
    return None if raw is None else json.loads(raw)["data"]


def expected_from_slot(backend: MemoryBackend, game: str) -> dict | None:
    """What the preview must say, from the slot alone: its game replayed,
    or nothing for an empty slot, a finished game or one not begun."""
    raw = backend.getItem(PREFIX + slot_name(game))
    payload = json.loads(raw)["data"]["game"] if raw else None
    if payload is None or payload["over"]:
        return None
    session = GameSession.from_dict(payload, SPECS[game].levels, clock=Clock())
    if not session.state.moves:
        return None
    return board_preview(session.state, who(session.mode, session.state.turn))


def answer(screen: GameScreen) -> None:
    request = screen.computer_request()
    assert request is not None
    screen.computer_answer(request, request.state.move_to_text(request.state.legal_moves()[0]))


def test_a_hex_move_shows_its_stone_and_a_new_game_removes_the_preview() -> None:
    backend = MemoryBackend()
    screen = make("hex", Storage(backend), opponent=f"{COMPUTER}:casual", starts="home", size=11, swap=False)
    assert stored_preview(backend, "hex") is None  # a game nobody has begun: the plain card
    screen.move("e5")
    preview = stored_preview(backend, "hex")
    cell = 4 * 11 + 4  # row 5, column e
    assert preview["size"] == 11 and len(preview["cells"]) == 121 and preview["boards"] == ""
    assert preview["cells"][cell] == "0" and preview["cells"].count("0") == 1 and "1" not in preview["cells"]
    assert preview["last"] == cell and preview["moves"] == 1 and preview["to_move"] == "computer"
    answer(screen)
    preview = stored_preview(backend, "hex")
    assert preview["cells"].count("1") == 1 and preview["moves"] == 2 and preview["to_move"] == "you"
    assert preview["last"] == preview["cells"].index("1")
    screen.undo()
    assert stored_preview(backend, "hex") is None  # both moves taken back: nothing begun
    screen.move("e5")
    answer(screen)
    screen.new_game()
    screen.answer(True)  # counts as a loss; the new game has no move yet
    assert stored_preview(backend, "hex") is None


def test_resigning_or_finishing_removes_the_preview_and_a_reload_keeps_it() -> None:
    backend = MemoryBackend()
    storage = Storage(backend)
    screen = make("y", storage, opponent=f"{COMPUTER}:casual", starts="home", swap=False)
    screen.move("e5")
    assert stored_preview(backend, "y")["cells"][4 * 5 // 2 + 4] == "0"  # row 5, fifth cell
    # A reload: a new screen from the same storage keeps the game and its preview.
    before = stored_preview(backend, "y")
    again = open_screen(SPECS["y"], Storage(backend), "tab-b", Clock(), lambda: "2026-12-01", random.Random(2))
    assert again.session.state.moves == screen.session.state.moves
    assert stored_preview(backend, "y") == before
    again.resign()
    again.answer(True)
    assert again.session.is_over() and stored_preview(backend, "y") is None

    notakto = make("notakto", storage, opponent=TWO_PLAYER)
    for move in ("1a1", "1b1", "2b2"):
        notakto.move(move)
    preview = stored_preview(backend, "notakto")
    assert preview["size"] == 3 and preview["cells"][:3] == "00." and preview["boards"] == "..."
    assert preview["to_move"] == "player" and preview["last"] == 9 + 4
    notakto.move("1c1")  # closes board 1
    assert stored_preview(backend, "notakto")["boards"] == "-.."
    rng = random.Random(3)
    while not notakto.session.is_over():
        state = notakto.session.state
        notakto.move(state.move_to_text(rng.choice(state.legal_moves())))
    assert stored_preview(backend, "notakto") is None  # the finished game stays in its slot, not on the card


def test_uttt_small_boards_won_and_drawn() -> None:
    state = SPECS["uttt"].make_state(SPECS["uttt"].validate({}))
    # X wins small board 1 with its top row (c1 b1 a1); O plays g1 and d1.
    for move in ("c1", "g1", "b1", "d1", "a1"):
        state.play(move)
    preview = board_preview(state, "player")
    assert preview["boards"] == "0........"
    assert preview["cells"][0:9] == "0001..1.." and preview["cells"].count("1") == 2
    assert preview["last"] == 0 and preview["moves"] == 5 and len(preview["cells"]) == 81
    # A small board filled without a line is drawn: "-" (board 9 here).
    drawn = SPECS["uttt"].make_state(SPECS["uttt"].validate({}))
    for move in "g8 c6 g9 c9 h7 e2 f6 h8 f5 i6 i9 i8 i4 h1 f3 g7 c3 h9 d9 b9 e7 d3 a8 c4 i3 i7".split():
        drawn.play(move)
    assert board_preview(drawn, "you")["boards"] == "........-"


def test_after_a_swap_the_last_move_is_the_swapped_stone() -> None:
    state = SPECS["hex"].make_state({**SPECS["hex"].validate({}), "size": 9, "swap": True})
    state.play("c2")
    state.play("swap")
    preview = board_preview(state, "you")
    (stone,) = [cell for cell, mark in enumerate(preview["cells"]) if mark != "."]
    assert preview["cells"][stone] == "1" and preview["last"] == stone and stone != 1 * 9 + 2


@pytest.mark.parametrize("game", list(SPECS))
def test_the_preview_stays_in_step_with_the_slot_through_any_commands(game: str) -> None:
    """Moves, the computer's answers, undo, new games, resigning, playing to
    the end and reloading, in a random order: after each, the preview is
    exactly what the slot's game says."""
    backend = MemoryBackend()
    rng = random.Random(game)
    screen = make(game, Storage(backend), opponent=f"{COMPUTER}:casual")
    for _ in range(120):
        session = screen.session
        command = rng.choice(["move", "move", "move", "answer", "undo", "new", "resign", "reload"])
        if command == "move" and screen.interactive():
            state = session.state
            screen.move(state.move_to_text(rng.choice(state.legal_moves())))
        elif command == "answer" and screen.computer_request() is not None:
            request = screen.takeover.waiting
            screen.computer_answer(request, request.state.move_to_text(rng.choice(request.state.legal_moves())))
        elif command == "undo":
            screen.undo()
        elif command == "new":
            screen.new_game()
            screen.answer(True)
        elif command == "resign":
            screen.resign()
            screen.answer(True)
        elif command == "reload":
            screen = open_screen(SPECS[game], Storage(backend), "tab-a", Clock(), lambda: "2026-12-01",
                                random.Random(rng.random()))
        assert stored_preview(backend, game) == expected_from_slot(backend, game), command


def test_opening_a_saved_game_without_a_preview_writes_one() -> None:
    backend = MemoryBackend()
    make("y", Storage(backend), opponent=TWO_PLAYER, swap=False).move("c5")
    backend.removeItem(PREFIX + preview_name("y"))  # as a save from before the previews
    open_screen(SPECS["y"], Storage(backend), "tab-b", Clock(), lambda: "2026-12-01", random.Random(2))
    assert stored_preview(backend, "y") == expected_from_slot(backend, "y") and stored_preview(backend, "y")["moves"] == 1


def test_a_conflicting_save_leaves_the_other_tabs_preview() -> None:
    backend = MemoryBackend()
    a = make("hex", Storage(backend), opponent=TWO_PLAYER, swap=False)
    b = open_screen(SPECS["hex"], Storage(backend), "tab-b", Clock(), lambda: "2026-12-01", random.Random(2))
    a.move("a1")
    assert b.move("b2").conflict  # b has not seen a's game: nothing written
    assert stored_preview(backend, "hex")["cells"][0] == "0" and stored_preview(backend, "hex")["moves"] == 1
    b.keep_mine()  # the player keeps this tab's game: its preview now
    assert stored_preview(backend, "hex") == expected_from_slot(backend, "hex")
    assert stored_preview(backend, "hex")["cells"][1 * 11 + 1] == "0"


def test_the_red_and_blue_setting_reaches_the_card() -> None:
    backend = MemoryBackend()
    screen = make("y", Storage(backend), opponent="two_player", size=9)
    screen.move("c3")

    def flag() -> bool:
        return json.loads(backend.getItem(PREFIX + preview_name("y")))["data"]["red_blue"]

    assert flag() is False
    screen.toggle("red_blue", True)
    assert flag() is True
    screen.move("d4")
    assert flag() is True
    screen.toggle("red_blue", False)
    assert flag() is False
