"""`pyramids flaming apply|show` (placeholder until the CLI lands)."""

import typer

app = typer.Typer(help="Flaming Pyramids positions: apply actions, draw the pyramid.")
