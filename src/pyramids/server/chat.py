"""Table chat: the seats' channel and the spectators' channel (docs/PLAYERS.md).

(Being written: see /work/spec/players.md, part H3.)
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from pyramids.server.live import Client, LiveTable
from pyramids.server.tables import TableManager

router = APIRouter(tags=["chat"])

MESSAGE_TYPES = frozenset({"chat", "chat_settings"})
"""The WebSocket message types this module answers."""


async def on_connect(manager: TableManager, table: LiveTable, client: Client) -> None:
    """After hello and state: send the connection the chat it may read."""


async def handle(
    manager: TableManager,
    table: LiveTable,
    client: Client,
    data: dict[str, Any],
    *,
    msg_id: Any,
    key: str,
) -> None:
    """One chat WebSocket message of ``client`` (a type in MESSAGE_TYPES)."""
