"""Accounts: sign up, log in and out, change name or password, delete (docs/PLAYERS.md).

(Being written: see /work/spec/players.md, part H1.)
"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["accounts"])
