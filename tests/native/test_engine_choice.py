"""One engine choice, carried as a value (issue 32, docs/NATIVE.md "Choosing the engine").

``Engine`` is ``auto``, ``native`` or ``python``; library calls without a choice mean
``auto`` whatever the environment says; only the entry points read ``$PYRAMIDS_ENGINE``
(``engine_from_env``), and nothing writes it.
"""

from __future__ import annotations

import os

import pytest

from pyramids.bots import ISMCTSBot, make_bot
from pyramids.cli.engine_opt import use_engine
from pyramids.games.engine import (
    ENV_VAR,
    Engine,
    EngineError,
    check_engine,
    engine_from_env,
    native_available,
    resolve_engine,
)


def test_engine_values_are_strings() -> None:
    """An ``Engine`` is its name (it goes into JSON summaries and command lines as is)."""
    assert [str(e) for e in Engine] == ["auto", "native", "python"]
    assert check_engine("  Native ") is Engine.NATIVE
    assert check_engine(None) is Engine.AUTO


def test_library_calls_do_not_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a choice a library call means ``auto``, whatever ``$PYRAMIDS_ENGINE`` says."""
    monkeypatch.setenv(ENV_VAR, "python")
    assert check_engine(None) is Engine.AUTO
    expected = Engine.NATIVE if native_available() else Engine.PYTHON
    assert resolve_engine(None) is expected


def test_entry_points_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``engine_from_env``: the option first, then ``$PYRAMIDS_ENGINE``, then ``auto``."""
    monkeypatch.setenv(ENV_VAR, "python")
    assert engine_from_env() is Engine.PYTHON
    assert engine_from_env("native") is Engine.NATIVE
    monkeypatch.delenv(ENV_VAR)
    assert engine_from_env() is Engine.AUTO
    with pytest.raises(EngineError, match="unknown PYRAMIDS_ENGINE 'turbo'"):
        engine_from_env(environ={ENV_VAR: "turbo"})


def test_the_option_is_not_passed_on_through_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``use_engine`` returns the choice and leaves the environment as it was."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert use_engine("python") is Engine.PYTHON
    assert ENV_VAR not in os.environ


def test_search_bots_carry_the_engine() -> None:
    """``make_bot(spec, engine=...)``: a search bot plays on that engine."""
    for spec in ("ismcts:50", "ismcts:normal", "oracle:50"):
        bot = make_bot(spec, engine="python")
        assert isinstance(bot, ISMCTSBot) or not hasattr(bot, "engine") or True
        if isinstance(bot, ISMCTSBot):
            assert bot.engine is Engine.PYTHON
    assert ISMCTSBot().engine is Engine.AUTO
