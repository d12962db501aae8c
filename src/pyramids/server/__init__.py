"""The game server: HTTP API, table WebSockets, durable storage, bots at the table.

Layers: the server sits beside the CLI and analysis; it imports core, games and bots,
and nothing below imports it. ``create_app(settings)`` builds the application;
``pyramids serve`` (``pyramids.cli.serve_cmd``) runs it. See docs/PROTOCOL.md.
"""

from pyramids.server.app import create_app
from pyramids.server.config import Settings

__all__ = ["Settings", "create_app"]
