"""The `postgres_url` fixture: a wiped PostgreSQL database for the PostgreSQL-path tests.

The database comes from env ``PYRAMIDS_TEST_POSTGRES`` (a ``postgresql://`` URL to a
database whose ``public`` schema may be dropped; `.ci/run` starts one). Without it the
tests are skipped, except under CI (env ``CI`` set), where they fail: CI must run them.
Tests using it hold a PostgreSQL advisory lock for their whole run, so parallel pytest
workers (and parallel runs on the same database) take turns instead of wiping each
other's tables.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

ENV = "PYRAMIDS_TEST_POSTGRES"
LOCK_KEY = 0x50595241  # "PYRA": any fixed 64-bit number, the same for every worker


def postgres_test_url() -> str | None:
    """The test database URL from the environment, or None (after skip/fail under pytest)."""
    url = os.environ.get(ENV, "").strip()
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail(
            f"{ENV} is not set but CI is: the PostgreSQL tests must run in CI "
            "(.ci/run starts a throwaway cluster and sets it)",
            pytrace=False,
        )
    pytest.skip(f"set {ENV}=postgresql://USER@HOST:PORT/DB to run the PostgreSQL tests")
    return None  # pragma: no cover - skip raises


def _libpq_url(url: str) -> str:
    """The URL psycopg itself accepts (no SQLAlchemy driver suffix)."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url.removeprefix(prefix)
    return url


def wipe_schema(url: str) -> None:
    """Drop and recreate the ``public`` schema: every table, type and sequence goes."""
    import psycopg

    with psycopg.connect(_libpq_url(url), autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A ``postgresql://`` URL to an empty database, exclusively ours for the test."""
    url = postgres_test_url()
    assert url is not None
    import psycopg

    try:
        lock = psycopg.connect(_libpq_url(url), autocommit=True)
    except psycopg.Error as exc:
        pytest.fail(f"cannot connect to {ENV}={url}: {exc}", pytrace=False)
    with lock:
        lock.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        wipe_schema(url)
        yield url
