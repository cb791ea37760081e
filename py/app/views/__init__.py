"""Each game's board as data (pure): what to draw, never how."""
