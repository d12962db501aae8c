"""`pyramids bench` (placeholder)."""


def bench() -> None:
    """Benchmark the engine."""
