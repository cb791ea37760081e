"""What the move clock shows (clock.py): the time the player to move has
left, as text, and whether it runs low. Plain data for the renderer."""

from __future__ import annotations

from dataclasses import dataclass

from .session import GameSession


@dataclass(frozen=True)
class ClockView:
    """The time the player to move has left for this move."""

    text: str  # "0:27"
    low: bool  # ten seconds or less


def clock_view(session: GameSession) -> ClockView | None:
    """The countdown of a timed move (None without a time limit)."""
    left = session.time_left_ms()
    if left is None:
        return None
    seconds = max(0, -(-left // 1000))  # whole seconds, rounded up
    return ClockView(f"{seconds // 60}:{seconds % 60:02d}", seconds <= 10)
