"""The project's tools: the bench (``python -m tools.bench``), the arena
(``python -m tools.arena``), the ladder (``python -m tools.ladder``) and the
build scripts, run from the repository's root."""
