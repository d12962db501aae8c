"""What the table routers receive from the application: FastAPI dependencies.

``create_app`` keeps the process's parts on ``app.state`` (the table manager, the settings,
the per-address limits); a route names the part it needs as a parameter annotated with one
of the types below, and FastAPI hands it over, for an HTTP request and a WebSocket alike.
None of them shows in the OpenAPI schema. ``address_of`` is the key a client's limits are
counted under.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from pyramids.server.config import Settings
from pyramids.server.limits import ClientLimits, client_key
from pyramids.server.tables import TableManager


def manager_of(connection: HTTPConnection) -> TableManager:
    """The process's table manager."""
    manager: TableManager = connection.app.state.manager
    return manager


def settings_of(connection: HTTPConnection) -> Settings:
    """The server's settings."""
    settings: Settings = connection.app.state.settings
    return settings


def limits_of(connection: HTTPConnection) -> ClientLimits:
    """The process's per-address rates and caps."""
    limits: ClientLimits = connection.app.state.client_limits
    return limits


def address_of(connection: HTTPConnection) -> str:
    """The key a client's limits are counted under (its address; see ``limits.client_key``)."""
    client = connection.client
    return client_key(client.host if client is not None else None)


Manager = Annotated[TableManager, Depends(manager_of)]
"""A route parameter that receives the table manager."""
ServerSettings = Annotated[Settings, Depends(settings_of)]
"""A route parameter that receives the settings."""
Limits = Annotated[ClientLimits, Depends(limits_of)]
"""A route parameter that receives the per-address limits."""
