"""`pyramids play` and `pyramids replay` (placeholder until the CLI lands)."""


def play() -> None:
    """Play a game in the terminal."""


def replay() -> None:
    """Step through a recorded game."""
