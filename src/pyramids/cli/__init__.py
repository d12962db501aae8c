"""The ``pyramids`` command line (typer): play, replay, apply/show positions, simulate, bench."""
