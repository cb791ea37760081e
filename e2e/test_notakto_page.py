"""Notakto end to end: against the computer (a loss, and a win found with
the safe-move hint), statistics, reload, two players, five boards, undo,
resignation, keyboard play; boards that stay where they are while they
close, in every language, and safe moves marked with round dots."""

from __future__ import annotations

import re
import sys

import pytest
from playwright.sync_api import Page, expect

from conftest import ROOT, AppServer, open_app, page_boxes, wait_computer_answered, wait_ready

sys.path.insert(0, str(ROOT / "py"))

import ai  # noqa: E402 - the real engine plays the human's side in some tests
from core.notakto import MAX_BOARDS, MIN_BOARDS, NotaktoState  # noqa: E402

THINK_MS = 30_000
CODES = ("en", "de", "pt", "id")
SCREENS = {"phone": {"width": 360, "height": 640}, "desktop": {"width": 1280, "height": 800}}


def open_notakto(page: Page, server: AppServer) -> Page:
    open_app(page, server, "#/notakto")
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()
    return page


def marks(page: Page) -> int:
    return page.locator(".cell.x").count()


def wait_my_turn(page: Page) -> None:
    """Until the human may move, or the game is over."""
    page.wait_for_function(
        "!document.querySelector('[data-testid=result]').hidden"
        " || document.querySelector('.cell[aria-disabled=\"false\"]') !== null",
        timeout=THINK_MS,
    )


def game_over(page: Page) -> bool:
    return page.get_by_test_id("result").is_visible()


def choose(page: Page, testid: str, value: str) -> None:
    page.get_by_test_id(testid).select_option(value)


def play_until_over(page: Page, pick) -> None:
    """Play the human's moves with ``pick(page) -> locator`` until the end."""
    for _ in range(60):
        wait_my_turn(page)
        if game_over(page):
            return
        pick(page).click()
    raise AssertionError("the game did not end")


def first_playable(page: Page):
    return page.locator('.cell[aria-disabled="false"]').first


def safe_or_first(page: Page):
    safe = page.locator('.cell.safe[aria-disabled="false"]')
    return safe.first if safe.count() else first_playable(page)


def test_a_lost_game_against_the_computer_counts(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "computer:perfect")
    choose(page, "setting-boards", "1")
    choose(page, "setting-starts", "away")  # the computer starts: one board is a first-player win
    expect(page.locator(".nk-board")).to_have_count(1)
    play_until_over(page, first_playable)
    expect(page.get_by_test_id("result-text")).to_have_text("You lost.")
    expect(page.get_by_test_id("result-reason")).to_have_text("You closed the last live board.")
    expect(page.get_by_test_id("status")).to_have_text("You lost.")  # who won, at the top
    expect(page.locator('.nk-board[data-closed="true"]')).to_have_count(1)
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-wins")).to_have_text("0")
    expect(page.get_by_test_id("stat-win_rate")).to_have_text("0%")
    expect(page.get_by_test_id("stat-current_streak")).to_have_text("1 day")
    expect(page.get_by_test_id("stat-rating")).not_to_have_text("—")
    # Cells of a finished game take no more moves.
    assert page.locator('.cell[aria-disabled="false"]').count() == 0


def test_the_hint_leads_to_a_win_against_perfect_play(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "computer:perfect")
    choose(page, "setting-starts", "home")  # three boards: the first player wins
    page.get_by_test_id("toggle-hints").check()
    expect(page.get_by_test_id("hint-text")).to_contain_text("marked")
    assert page.locator(".cell.safe").count() > 0

    def safe_move(p: Page):
        safe = p.locator('.cell.safe[aria-disabled="false"]')
        assert safe.count() > 0, "a won position must keep a safe move"
        return safe.first

    play_until_over(page, safe_move)
    expect(page.get_by_test_id("result-text")).to_have_text("You won!")
    expect(page.get_by_test_id("result-reason")).to_have_text("The computer closed the last live board.")
    # Hints were on: a game played, but not the player's own win.
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-wins")).to_have_text("0")
    expect(page.get_by_test_id("stat-win_rate")).to_have_text("—")
    expect(page.get_by_test_id("stat-rating")).to_have_text("—")
    expect(page.get_by_test_id("stat-fastest_win")).to_have_text("—")
    expect(page.get_by_test_id("stat-best_score")).to_have_text("—")


def perfect_pick(page: Page):
    """The human's move chosen by the engine itself (run here, in CPython,
    from the move list the page shows)."""
    boards = page.locator(".nk-board").count()
    state = NotaktoState.from_settings({"boards": boards})
    state.replay(page.locator("[data-testid=move-list] .move-text").all_inner_texts())
    return page.get_by_test_id(f"cell-{state.move_to_text(ai.choose_move(state, 'perfect', seed=1))}")


def test_an_unassisted_win_sets_records(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "computer:strong")
    choose(page, "setting-starts", "home")
    play_until_over(page, perfect_pick)
    expect(page.get_by_test_id("result-text")).to_have_text("You won!")
    expect(page.get_by_test_id("stat-fewest_moves")).to_have_text(re.compile(r"^\d+$"))
    expect(page.get_by_test_id("stat-fastest_win")).to_have_text(re.compile(r"second|min"))
    expect(page.get_by_test_id("stat-best_score")).to_have_text(re.compile(r"^\d+$"))


def test_reload_in_mid_game_restores_the_position(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-starts", "home")
    page.get_by_test_id("cell-2b2").click()
    wait_my_turn(page)
    expect(page.locator(".cell.x")).to_have_count(2)
    # The computer's reply is random: take the first of these cells it left empty.
    second = next(cell for cell in ("3a1", "3c3")
                  if "x" not in (page.get_by_test_id(f"cell-{cell}").get_attribute("class") or "").split())
    page.get_by_test_id(f"cell-{second}").click()
    wait_my_turn(page)
    expect(page.locator(".cell.x")).to_have_count(4)
    moves = page.get_by_test_id("move-list").inner_text()
    page.reload()
    wait_ready(page)
    expect(page.locator(".cell.x")).to_have_count(4)
    assert page.get_by_test_id("move-list").inner_text() == moves
    expect(page.get_by_test_id("cell-2b2")).to_have_class(re.compile(r"\bx\b"))
    expect(page.get_by_test_id(f"cell-{second}")).to_have_class(re.compile(r"\bx\b"))
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    expect(page.locator(".cell.last")).to_have_count(1)


def test_two_players_on_one_device(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "two_player")
    choose(page, "setting-boards", "1")
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move")
    for cell, next_status in (("1a1", "Player 2 to move"), ("1b1", "Player 1 to move"), ("1a2", "Player 2 to move"),
                              ("1c3", "Player 1 to move")):
        page.get_by_test_id(f"cell-{cell}").click()
        expect(page.get_by_test_id("status")).to_have_text(next_status)
    page.get_by_test_id("cell-1a3").click()  # Player 1 completes the a-column and closes the only board
    expect(page.get_by_test_id("result-text")).to_have_text("Player 2 wins!")
    expect(page.get_by_test_id("result-reason")).to_have_text("Player 1 closed the last live board.")
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-wins")).to_have_text("0")
    expect(page.get_by_test_id("stat-win_rate")).to_have_text("—")
    # Alternation: Player 2 starts the next game.
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")


def test_five_boards_and_closing_a_board_is_not_a_loss(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "two_player")
    choose(page, "setting-boards", "5")
    expect(page.locator(".nk-board")).to_have_count(5)
    for cell in ("5a1", "5b1", "5c1"):
        page.get_by_test_id(f"cell-{cell}").click()
    expect(page.get_by_test_id("board-5")).to_have_attribute("data-closed", "true")
    expect(page.get_by_test_id("board-5")).to_have_attribute("aria-label", "Board 5, closed")
    expect(page.get_by_test_id("result")).to_be_hidden()
    expect(page.get_by_test_id("cell-5b2")).to_have_attribute("aria-disabled", "true")
    page.get_by_test_id("cell-5b2").click(force=True)
    expect(page.locator(".cell.x")).to_have_count(3)
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")


def test_undo_and_resign_against_the_computer(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-starts", "home")
    page.get_by_test_id("cell-1b2").click()
    wait_my_turn(page)
    expect(page.locator(".cell.x")).to_have_count(2)
    expect(page.get_by_test_id("undo")).to_be_enabled()
    page.get_by_test_id("undo").click()
    expect(page.locator(".cell.x")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    page.get_by_test_id("cell-2a1").click()
    wait_my_turn(page)
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("confirm")).to_be_visible()
    page.get_by_test_id("confirm-no").click()
    expect(page.get_by_test_id("result")).to_be_hidden()
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("result-text")).to_have_text("You lost.")
    expect(page.get_by_test_id("result-reason")).to_have_text("You resigned.")
    expect(page.get_by_test_id("stat-games")).to_have_text("1")


def test_a_new_game_in_the_middle_counts_as_a_loss_and_starts_at_once(page: Page, server: AppServer) -> None:
    # The end of the resigned game reaches the page's controller after the
    # new game has replaced it on the screen (a failed check here once
    # showed the error panel instead).
    open_notakto(page, server)
    page.get_by_test_id("cell-1a1").click()
    wait_my_turn(page)
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    page.get_by_test_id("new-game").click()
    expect(page.locator("#confirm-text")).to_have_text("Start a new game? The current game counts as a loss.")
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-wins")).to_have_text("0")
    wait_my_turn(page)
    expect(page.get_by_test_id("result")).to_be_hidden()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)  # the computer starts this one
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_keyboard_play_and_accessible_names(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "two_player")
    first = page.get_by_test_id("cell-1a1")
    expect(first).to_have_attribute("aria-label", "a1, empty")
    expect(first).to_have_attribute("tabindex", "0")
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("cell-1b2")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("cell-1b2")).to_have_attribute("aria-label", "b2, X, last move")
    expect(page.get_by_test_id("live")).to_have_text("Player 1 played board 1, b2.")
    expect(page.get_by_test_id("cell-1b2")).to_be_focused()
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("cell-2a2")).to_be_focused()  # across to the next board
    page.keyboard.press(" ")
    expect(page.get_by_test_id("cell-2a2")).to_have_class(re.compile(r"\bx\b"))
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move")


def test_the_computer_can_take_over_a_seat_and_give_it_back(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    choose(page, "setting-opponent", "two_player")
    page.get_by_test_id("toggle-takeover-1").check()  # the computer plays for Player 2
    page.get_by_test_id("cell-1b2").click()
    expect(page.locator(".cell.x")).to_have_count(2, timeout=THINK_MS)
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move")
    page.get_by_test_id("toggle-takeover-1").uncheck()
    first_playable(page).click()
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")
    wait_computer_answered(page)  # a move the computer was still asked for would be in
    expect(page.locator(".cell.x")).to_have_count(3)
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")


def test_alternating_first_move_against_the_computer(page: Page, server: AppServer) -> None:
    open_notakto(page, server)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    # A setting changed before the first move restarts the game, same starter.
    page.get_by_test_id("setting-boards").select_option("2")
    expect(page.locator(".nk-board")).to_have_count(2)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    page.get_by_test_id("new-game").click()
    # The computer starts the second game, and still does after a reload.
    expect(page.locator(".cell.x")).to_have_count(1, timeout=THINK_MS)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    page.reload()
    wait_ready(page)
    expect(page.locator(".cell.x")).to_have_count(1)
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("confirm")).to_be_hidden()  # no human move yet: nothing to lose
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    expect(page.locator(".cell.x")).to_have_count(0)


def close_board(page: Page, board: int) -> None:
    """Its top row: three X in a line."""
    for cell in ("a1", "b1", "c1"):
        page.get_by_test_id(f"cell-{board}{cell}").click()
    expect(page.get_by_test_id(f"board-{board}")).to_have_attribute("data-closed", "true")


def same_arrangement(before: list[list[int]], after: list[list[int]]) -> bool:
    """Whether the boxes stand as they stood beside the first one, at the
    same sizes, wherever the first one is now (to a pixel: the boxes are
    rounded one by one)."""
    def placed(boxes: list[list[int]]) -> list[list[int]]:
        return [[x - boxes[0][0], y - boxes[0][1], width, height] for x, y, width, height in boxes]
    return len(before) == len(after) and all(abs(a - b) <= 1 for one, other in zip(placed(before), placed(after))
                                             for a, b in zip(one, other))


def captions_cut(page: Page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll('.nk-caption > span')]
        .filter((line) => line.scrollWidth > line.clientWidth).map((line) => line.textContent)""")


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("code", CODES)
def test_no_board_moves_while_boards_close_whatever_their_captions_say(page: Page, server: AppServer, code: str,
                                                                       screen: str) -> None:
    """Every number of boards the settings offer: closing a board makes its
    caption say so ("Spielbrett 1, geschlossen"), and no board moves or
    changes size for it; at the end the boards keep their arrangement."""
    page.set_viewport_size(SCREENS[screen])
    open_app(page, server, f"?lang={code}#/notakto?vs=two_player")
    result = page.get_by_test_id("result")
    for count in range(MIN_BOARDS, MAX_BOARDS + 1):
        choose(page, "setting-boards", str(count))
        if result.is_visible():
            page.get_by_test_id("new-game").click()
        expect(page.locator(".nk-board")).to_have_count(count)
        expect(page.locator('.nk-board[data-closed="true"]')).to_have_count(0)
        start = page_boxes(page, ".nk-board")
        for board in range(1, count):
            close_board(page, board)
            assert page_boxes(page, ".nk-board") == start, (code, screen, count, board)
        close_board(page, count)  # the last live board: the game is over
        expect(result).to_be_visible()
        # The result is said above the boards (wherever it is said, the
        # boards stand as they stood, side by side as before).
        end = page_boxes(page, ".nk-board")
        assert same_arrangement(start, end), (code, screen, count, start, end)
        assert captions_cut(page) == [], (code, screen, count)


@pytest.mark.parametrize("screen", SCREENS)
def test_safe_moves_are_marked_with_round_dots_in_the_middle_of_their_cells(page: Page, server: AppServer,
                                                                            screen: str) -> None:
    page.set_viewport_size(SCREENS[screen])
    open_app(page, server, "#/notakto?vs=two_player")
    page.get_by_test_id("toggle-hints").check()
    expect(page.get_by_test_id("hint-text")).to_contain_text("dot")
    for cell in ("1b2", "2a1"):  # Player 1 to move again, with 18 safe moves of 24
        page.get_by_test_id(f"cell-{cell}").click()
    safe = page.locator(".cell.safe")
    expect(safe.first).to_be_visible()
    assert 0 < safe.count() < page.locator('.cell[aria-disabled="false"]').count()
    assert page.locator(".safe-dot").count() == safe.count()
    for index in range(safe.count()):
        cell = safe.nth(index).bounding_box()
        dot = safe.nth(index).locator(".safe-dot").bounding_box()
        assert abs(dot["width"] - dot["height"]) < 0.5, dot  # round, not squashed
        assert 0.2 * cell["width"] < dot["width"] < 0.5 * cell["width"], (dot, cell)
        middle = (cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2)
        assert abs(dot["x"] + dot["width"] / 2 - middle[0]) < 1 and abs(dot["y"] + dot["height"] / 2 - middle[1]) < 1, \
            (dot, cell)


# The boards and the buttons under a player's finger during a game.
STILL = ".nk-board, [data-testid=new-game], [data-testid=undo], [data-testid=resign]"


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("code", ["en", "de"])
def test_the_layout_never_moves_during_a_game(page: Page, server: AppServer, code: str, screen: str) -> None:
    """A whole game between two players: a first move, a board closing, the
    Resign and the New game questions opened and cancelled, the end. The
    boards and the New game, Undo and Resign buttons stay where they were
    when the game began."""
    page.set_viewport_size(SCREENS[screen])
    open_app(page, server, f"?lang={code}#/notakto?vs=two_player&boards=3")
    start = page_boxes(page, STILL)
    assert len(start) == 6

    def still(step: str) -> None:
        assert page_boxes(page, STILL) == start, (code, screen, step)

    page.get_by_test_id("cell-1a1").click()
    still("the first move")
    for cell in ("1b1", "1c1"):
        page.get_by_test_id(f"cell-{cell}").click()
    expect(page.get_by_test_id("board-1")).to_have_attribute("data-closed", "true")
    still("board 1 closed")
    for question in ("resign", "new-game"):
        page.get_by_test_id(question).click()
        expect(page.get_by_test_id("confirm")).to_be_visible()
        still(f"the {question} question asked")
        page.get_by_test_id("confirm-no").click()
        expect(page.get_by_test_id("confirm")).to_be_hidden()
        still(f"the {question} question cancelled")
    close_board(page, 2)
    close_board(page, 3)
    expect(page.get_by_test_id("result")).to_be_visible()
    still("the game's end")
