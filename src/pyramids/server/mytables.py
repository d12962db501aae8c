"""A logged-in player's running and open tables, those waiting for them first.

(Being written: see /work/spec/players.md, part H4.)
"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["lobby"])
