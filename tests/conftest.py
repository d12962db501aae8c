"""Shared test configuration: the Hypothesis profiles and the `postgres_url` fixture.

``ci`` (the default) is derandomized and has no deadline, so the suite is deterministic
and never fails on a slow machine; ``dev`` explores more examples at random. Choose
with ``HYPOTHESIS_PROFILE=dev pytest`` or ``pytest --hypothesis-profile=dev``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from tests.postgres import postgres_url  # the fixture for the PostgreSQL-path tests

__all__ = ["postgres_url"]

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    max_examples=50,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=300,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
