"""`pyramids simulate` (placeholder)."""


def simulate() -> None:
    """Simulate many games."""
