"""What the board alone does not say, said on screen: a swap (who took
which stone, and where it went), a move the computer made for a player
whose time ran out, and at the end who won and why."""

from __future__ import annotations

from app.model.screen_view import screen_view
from app.model.session import COMPUTER, TWO_PLAYER
from app.model.words import Msg

from test_screen import Clock, answer, make, two_player

PLAYER_2 = Msg("player.numbered", {"number": 2})


def test_a_hex_swap_by_the_computer_is_said_and_shown_until_the_next_move() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:master", starts="home", size=7, swap=True)
    screen.move("c2")
    change = answer(screen, "swap")
    assert change.announce == Msg("announce.swap.computer", {"player": PLAYER_2, "move": Msg("move.swap")})
    view = screen_view(screen)
    assert view.note == Msg("note.swap_mirrored.computer", {"player": PLAYER_2, "from": "c2", "to": "b3"})
    board = str(view.board)
    assert "swapped-from" in board and "swap-ghost" in board  # the cell it came from is marked
    screen.move("d4")
    assert screen_view(screen).note is None and "swapped-from" not in str(screen_view(screen).board)


def test_a_y_swap_keeps_the_stone_in_place_and_says_so() -> None:
    screen = two_player("y", size=9, swap=True)
    screen.move("c5")
    assert screen_view(screen).swap_help == Msg("swap.offer.y")
    screen.swap()
    view = screen_view(screen)
    assert view.note == Msg("note.swap.player", {"player": PLAYER_2, "from": "c5", "to": "c5"})
    assert view.swap_help is None and "swapped-from" not in str(view.board)


def test_the_swap_button_explains_itself_while_offered() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:master", starts="away", size=7, swap=True)
    answer(screen, "d4")
    view = screen_view(screen)
    assert view.swap.shown and view.swap_help == Msg("swap.offer.hex")
    assert view.detail == Msg("swap.prompt")  # the status panel says it, beside the button
    screen.move("a1")
    assert screen_view(screen).swap_help is None and screen_view(screen).detail is None


def test_a_move_made_when_the_time_ran_out_is_said_until_that_player_moves() -> None:
    clock = Clock()
    screen = make("uttt", clock=clock, opponent=f"{COMPUTER}:master", starts="home", time=30)
    clock.now += 31
    screen.tick()
    change = answer(screen, "e5")
    assert change.announce.key == "announce.timeout.you"
    assert screen_view(screen).note == Msg("note.timeout.you", {"player": Msg("player.numbered", {"number": 1}),
                                                                "move": "e5"})
    answer(screen, "e4")  # the computer's reply: the note stays, to be read
    assert screen_view(screen).note.key == "note.timeout.you"
    state = screen.session.state
    assert screen.move(state.move_to_text(state.legal_moves()[0])).parts
    assert screen_view(screen).note is None


def test_a_new_game_forgets_the_time_out() -> None:
    clock = Clock()
    screen = make("hex", clock=clock, opponent=TWO_PLAYER, time=30, size=7)
    clock.now += 31
    answer(screen, "d4")
    assert screen_view(screen).note.key == "note.timeout.player"
    screen.start_new()
    screen.move("d4")
    assert screen_view(screen).note is None


def test_at_the_end_the_status_says_who_won_and_the_line_under_it_why() -> None:
    screen = two_player("hex", size=7, swap=False)
    for text in ("a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"):
        screen.move(text)
    view = screen_view(screen)
    player_1 = Msg("player.numbered", {"number": 1})
    # With the colour the board shows: red when the stones are red and blue.
    assert view.status == Msg("result.player_wins_mark", {"player": player_1, "mark": Msg("mark.blue")})
    assert view.detail == Msg("reason.connection_hex.player", {"player": player_1})
    screen.toggle("red_blue", True)
    assert screen_view(screen).status == Msg("result.player_wins_mark", {"player": player_1, "mark": Msg("mark.red")})


def test_at_the_end_of_notakto_between_two_players_the_player_alone_is_named() -> None:
    screen = two_player("notakto", boards=1)
    for text in ("1a1", "1b1", "1a2", "1c3", "1a3"):  # Player 1 closes the only board
        screen.move(text)
    assert screen_view(screen).status == Msg("result.player_wins", {"player": Msg("player.numbered", {"number": 2})})


def test_a_game_the_computer_played_for_you_at_any_point_adds_no_win() -> None:
    from app.model.play_view import stats_rows

    screen = make("notakto", opponent=f"{COMPUTER}:beginner", starts="home", boards=1)
    screen.toggle("takeover-0", True)
    answer(screen)  # the computer moves for you...
    screen.toggle("takeover-0", False)  # ...and you take your seat back
    assert screen.session.assisted
    while not screen.session.is_over():
        if screen.session.computer_to_move():
            answer(screen)
        else:
            state = screen.session.state
            screen.move(state.move_to_text(state.legal_moves()[0]))
    rows = {row.name: row.value for row in stats_rows(screen)}
    assert rows["games"] == 1 and rows["wins"] == 0 and rows["win_rate"] is None and rows["rating"] is None
