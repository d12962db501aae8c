"""``refused``: assert a refusal by its class, code and facts (never by its words)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pyramids.core.errors import PyramidsError


@contextmanager
def refused(cls: type[PyramidsError], code: str, **facts: Any) -> Iterator[None]:
    """The block raises ``cls`` with ``code`` and (at least) these facts."""
    with pytest.raises(cls) as info:
        yield
    assert info.value.code == code, info.value
    assert {k: info.value.data.get(k) for k in facts} == facts, info.value
