"""The game being played and its settings: moves, undo, resigning, a new
game, the settings (those that wait for the next game and those that apply
at once, the sound), the end of a game (its statistics and its place in the
past games) and the save slot. Part of the screen's model (screen.py), which
decides when a command may run (not while the player looks back, not while
the computer thinks); this part knows nothing of review or the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import GameError, GameState

from .change import COMPUTER_SOUND, END_SOUND, LOSS_SOUND, MOVE_SOUND, NOTHING, WIN_SOUND, Change, Ticket
from .games import GameSpec, played_settings, split_opponent
from .keep import Saved, ScreenStore
from .parts import ALL, ARCHIVE, PLAY, Part
from .saves import SaveResult
from .session import COMPUTER, GameSession, Mode, next_home_seat, player_name, who
from .words import Msg


class Play:
    """The game on the board and the settings it was started with, and
    those of the next one. ``clock`` is wall time in seconds, ``today`` the
    local date (ISO) for the statistics' streaks."""

    def __init__(self, spec: GameSpec, store: ScreenStore, saved: Saved, clock: Callable[[], float],
                 today: Callable[[], str]) -> None:
        self.spec = spec
        self.game = spec.game
        self.store = store
        self.clock = clock
        self.today = today
        self.settings = saved.settings
        #: Settings chosen during a game, for the next one.
        self.pending = saved.pending
        #: The home player's seat in the last game, for "who starts" to alternate.
        self.last_home_seat = saved.last_home_seat
        #: The sounds of moves and game ends (one setting for the whole app).
        self.sound = saved.sound
        self.session = saved.session or self.fresh_session()

    def opened(self, restored: bool) -> None:
        """The screen is open: a new game is saved at once; a restored one's
        card is drawn again (a game saved before the game list drew
        previews gets one too)."""
        if restored:
            self.write_preview()
        else:
            self.save()

    # -- state -----------------------------------------------------------------
    def ticket(self) -> Ticket:
        return Ticket(self.session.game_id, tuple(self.session.state.moves))

    def next_settings(self) -> dict[str, Any]:
        """The settings the next game will use (pending ones included)."""
        return {**self.settings, **self.pending}

    def needs_computer(self) -> bool:
        """The computer's seat is to move, or a human's time ran out (then
        the computer moves for them)."""
        session = self.session
        return session.computer_to_move() or session.time_ran_out()

    def safe_moves(self) -> frozenset[int]:
        """Notakto's "show safe moves" hint for the human to move, if on."""
        session = self.session
        if not (self.settings.get("hints") and self.spec.safe_moves) or session.is_over():
            return frozenset()
        if session.is_computer_seat(session.state.turn):
            return frozenset()
        return frozenset(self.spec.safe_moves(session.state))

    # -- moves -------------------------------------------------------------------
    def move(self, text: str) -> Change:
        """A human's move (or "swap"); an illegal one changes nothing."""
        try:
            self.session.play(text)
        except GameError:
            return NOTHING
        return self.after_move(self.session.state.turn ^ 1, MOVE_SOUND)

    def computer_move(self, move: str) -> tuple[int, bool, Change]:
        """The engine's move played: the seat that moved, whether it was a
        human's (whose time ran out), and the change."""
        mover = self.session.state.turn
        self.session.play(move)
        timed_out = not self.session.is_computer_seat(mover)
        return mover, timed_out, self.after_move(mover, COMPUTER_SOUND, timed_out=timed_out)

    def undo(self) -> Change:
        session = self.session
        if session.is_over() or not session.can_undo():
            return NOTHING
        session.undo()
        return self.save() | Change(ALL, Msg("announce.undo"))

    def resign(self) -> Change:
        if self.session.is_over():
            return NOTHING
        self.session.resign()
        return self.finish() | Change(ALL)

    def start_new(self) -> Change:
        self.remember_home_seat(self.session)
        self.session = self.fresh_session()
        return self.save() | Change(ALL, Msg("announce.new_game"))

    def continue_from(self, state: GameState, opponent: str) -> Change:
        """A position (of a reviewed game) becomes the game being played;
        the player to move there is the home player. It counts, but as a
        game begun by someone else it sets no record (assisted)."""
        kind, level = split_opponent(self.next_settings()["opponent"])
        if opponent == COMPUTER and kind != COMPUTER:
            level = self.spec.entry.levels.default
        mode = Mode(opponent, level if opponent == COMPUTER else "", state.turn)
        self.remember_home_seat(self.session)
        self.session = GameSession(state, mode, clock=self.clock, time_limit_s=int(self.settings.get("time", 0)),
                                   assisted=True)
        self.adopt_settings(played_settings(self.session))
        return self.save() | Change(ALL, Msg("announce.continued"))

    def adopt_settings(self, game_settings: dict[str, Any]) -> None:
        """A game begun elsewhere is now played here: its settings are the
        game's in the settings panel, and the next game's too unless the
        player chose otherwise for it."""
        self.settings = self.spec.validate({**self.settings, **game_settings})
        self.pending = {name: value for name, value in self.pending.items() if self.settings[name] != value}
        self.store_settings()

    def after_move(self, mover: int, sound: str, timed_out: bool = False) -> Change:
        """A move was just played (``sound``: by a player, or by the computer)."""
        session = self.session
        move = session.state.moves[-1]
        key = "announce.timeout" if timed_out else "announce.move"
        if move == getattr(session.state, "swap_move", None):
            key = "announce.swap"
        announce = Msg(f"{key}.{who(session.mode, mover)}",
                       {"player": player_name(session.mode, mover), "move": self.spec.describe(session.state, move)})
        change = Change(PLAY, announce, sounds=(sound,))
        if session.is_over():
            return change | self.finish() | Change(frozenset({Part.STATS}))
        return change | self.save()

    def finish(self) -> Change:
        """Record the finished game (once, even across tabs) and clear the
        unfinished-game slot."""
        session = self.session
        record = session.record(self.today(), self.spec.rating(session.mode.level))
        if record is not None:
            self.store.record(session, record, self.spec.levels)
        self.remember_home_seat(session)
        # The finished game stays on screen, across a reload too, until the
        # player starts another one.
        return self.save() | Change(ARCHIVE, finished=session, sounds=(self.end_sound(),))

    def end_sound(self) -> str:
        """Against the computer a game is won or lost (or drawn); between two
        people it just ends."""
        session = self.session
        outcome = session.outcome()
        if session.mode.opponent != COMPUTER or outcome is None or outcome.winner is None:
            return END_SOUND
        return WIN_SOUND if outcome.winner == session.mode.home_seat else LOSS_SOUND

    # -- settings ------------------------------------------------------------------
    def change_settings(self, changes: dict[str, Any]) -> Change:
        """Before a human has moved, a change restarts the game at once (the
        same player starting, unless "who starts" itself changed); during a
        game it waits for the next one; after a game it simply applies."""
        valid = self.spec.validate(changes)
        changes = {name: value for name, value in changes.items() if name in valid and valid[name] == value}
        if not changes:
            return NOTHING
        session = self.session
        if not session.is_over() and not session.untouched():
            self.pending.update(changes)
            for name in [name for name, value in self.pending.items() if self.settings[name] == value]:
                del self.pending[name]
            self.store_settings()
            return Change(frozenset({Part.SETTINGS}))
        self.settings.update(changes)
        for name in changes:
            self.pending.pop(name, None)
        self.store_settings()
        if session.is_over():
            return Change(frozenset({Part.SETTINGS}))
        seat = next_home_seat(changes["starts"], self.last_home_seat) if "starts" in changes else session.mode.home_seat
        self.session = self.fresh_session(seat)
        return self.save() | Change(ALL)

    def chosen(self, name: str, text: str) -> dict[str, Any]:
        """A value picked in the settings form, as the menu's text: the
        change it asks for (none for a value the menu does not offer, or
        for a switch, which is no menu)."""
        choice = next((c for c in self.spec.choices if c.name == name and c.is_menu), None)
        by_text = {str(value): value for value in choice.values} if choice else {}
        return {name: by_text[text]} if text in by_text else {}

    def applies_now(self, name: str) -> bool:
        """Whether a setting changes what is shown at once (not the next game)."""
        return any(c.name == name and c.applies == "now" for c in self.spec.choices)

    def set_sound(self, on: bool) -> Change:
        """The sounds on or off, for every game (remembered)."""
        self.sound = on
        self.store.store_sound(on)
        return Change(frozenset({Part.TOGGLES}))

    def set_display(self, name: str, value: Any) -> Change:
        """A setting that applies at once: Notakto's hints, coordinates, the
        Hex board's orientation. A hint marks the game assisted (it counts,
        but sets no record)."""
        if not self.applies_now(name) or self.spec.validate({name: value})[name] != value:
            return NOTHING
        self.settings[name] = value
        self.store_settings()
        if name == "red_blue":  # the game list's card draws the stones in these colours too
            self.write_preview()
        # The colours' names are in the status and the move list too; a menu
        # (the orientation) has the line under it about the chosen value.
        menu = next(c for c in self.spec.choices if c.name == name).is_menu
        change = Change(frozenset({Part.BOARD, Part.TOGGLES, Part.EVAL} | ({Part.MOVES} if name == "red_blue" else set())
                                  | ({Part.SETTINGS} if menu else set())))
        if name in ("hints", "eval") and value is True and not self.session.is_over():
            self.session.mark_assisted()
            change = change | self.save()
        return change

    def fresh_session(self, home_seat: int | None = None) -> GameSession:
        """A new game with the next game's settings; the home player's seat
        follows "who starts" unless given."""
        self.settings = self.next_settings()
        self.pending = {}
        opponent, level = split_opponent(self.settings["opponent"])
        if home_seat is None:
            home_seat = next_home_seat(self.settings["starts"], self.last_home_seat)
        session = GameSession(self.spec.make_state(self.settings), Mode(opponent, level, home_seat),
                              clock=self.clock, time_limit_s=int(self.settings.get("time", 0)))
        if self.settings.get("hints") or self.settings.get("eval"):
            session.mark_assisted()
        return session

    def remember_home_seat(self, session: GameSession) -> None:
        self.last_home_seat = session.mode.home_seat
        self.store_settings()

    def store_settings(self) -> None:
        self.store.store_settings(self.settings, self.pending, self.last_home_seat)

    # -- the save slot -------------------------------------------------------------
    @property
    def red_blue(self) -> bool:
        """Hex's and Y's red and blue stones (the card draws them so too)."""
        return bool(self.settings.get("red_blue"))

    def save(self) -> Change:
        result = self.store.save(self.session, self.red_blue)
        return Change(conflict=True) if result == SaveResult.CONFLICT else NOTHING

    def write_preview(self) -> None:
        self.store.write_preview(self.session, self.red_blue)

    def take_over(self) -> None:
        """Continue the other tab's game (a new one if it cannot be read):
        restoring reloads the slot, so it becomes what this tab has seen."""
        self.session = self.store.restore(self.spec, self.clock) or self.fresh_session()

    def keep_mine(self) -> Change:
        """This tab's game over the other tab's."""
        self.store.force_save(self.session, self.red_blue)
        return NOTHING
