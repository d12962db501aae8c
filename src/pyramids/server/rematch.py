"""Rematch: the same seats and options, the first player one seat to the left; match score.

(Being written: see /work/spec/players.md, part H3.)
"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["rematch"])
