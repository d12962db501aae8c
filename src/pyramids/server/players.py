"""A player's page and the leaderboards (docs/PLAYERS.md).

(Being written: see /work/spec/players.md, part H2.)
"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["players"])
