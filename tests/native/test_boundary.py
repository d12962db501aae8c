"""What crosses the Python/Rust boundary crosses by field name (issue 32, docs/NATIVE.md).

Views and positions come from Rust as dicts keyed by the Python classes' field names and
are built by keyword, views and raw events as the Python named tuples built by field name,
so a field added or moved on one side only fails here, not silently in play; positions,
views and options go to Rust as dicts, never JSON text; a native state's Rust
object is handed to the search as it is (``NativeState.native``), a Python state's is
built from its fields.
"""

from __future__ import annotations

import collections
import dataclasses
import importlib
import random
from typing import Any

import pytest

pytest.importorskip("pyramids._native")

from pyramids.analysis.bench import setup_of
from pyramids.bots import native_search
from pyramids.bots.ismcts import SearchSettings
from pyramids.bots.oracle import OracleMCTSBot
from pyramids.core.game import State
from pyramids.core.native import NativeState
from pyramids.flags import events as flags_events
from pyramids.flags.position import FlagsPosition
from pyramids.flags.view import FlagsView
from pyramids.flaming import events as flaming_events
from pyramids.flaming.position import FlamingPosition
from pyramids.flaming.view import FlamingView
from pyramids.games import descriptor, load_position, make_game, native_engine

GAMES = ("flaming", "flags")
VIEWS = {"flaming": FlamingView, "flags": FlagsView}

FLAMING_DERIVED = {"in_play", "spots", "embers", "candidates", "base_lo", "base_hi", "base_n"}
"""``FlamingPosition`` fields ``rebuild`` derives from the others (Rust does not send them)."""


def mid_game(name: str, engine: str, seed: int = 3, actions: int = 30) -> State:
    """A seeded state some random actions into a 3-player game of ``name``."""
    state = make_game(name, 3, engine=engine).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_rust_sends_exactly_the_view_fields_by_name(name: str) -> None:
    """The Rust view dict has every view field but ``options`` (the wrapper's), no other."""
    state = mid_game(name, "native")
    assert isinstance(state, NativeState)
    fields = set(VIEWS[name]._fields) - {"options"}
    for seat in (None, *range(state.num_players)):
        sent = state.native.view(seat)
        assert isinstance(sent, dict)
        assert set(sent) == fields, (seat, set(sent) ^ fields)


@pytest.mark.parametrize("name", GAMES)
def test_a_view_field_on_one_side_only_is_an_error(name: str) -> None:
    """A view class with a field Rust does not send, or without one it sends, is refused
    by name (never a view with shifted values)."""
    state = mid_game(name, "native")
    fields = VIEWS[name]._fields
    extra = collections.namedtuple("extra", [*fields, "colour"])  # type: ignore[misc]
    missing = collections.namedtuple("missing", [f for f in fields if f != "turn"])  # type: ignore[misc]
    native: Any = state.native  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="colour"):
        native.view_as(extra, {}, 0)
    with pytest.raises(TypeError, match="turn"):
        native.view_as(missing, {}, 0)
    assert native.view_as(VIEWS[name], {}, 0)._fields == fields


@pytest.mark.parametrize("name", GAMES)
def test_native_views_equal_the_python_engine_views(name: str) -> None:
    """Built by keyword, the native view equals the Python engine's, field for field."""
    native = mid_game(name, "native")
    python = mid_game(name, "python")
    for seat in (None, *range(native.num_players)):
        assert native.view(seat) == python.view(seat)


def test_rust_sends_exactly_the_flaming_position_fields() -> None:
    """``fields()`` names every stored ``FlamingPosition`` field (the derived ones rebuilt)."""
    state = mid_game("flaming", "native")
    stored = {f.name for f in dataclasses.fields(FlamingPosition)} - FLAMING_DERIVED
    assert set(state.native.fields()) == stored  # type: ignore[attr-defined]
    assert state.position == mid_game("flaming", "python").position  # type: ignore[attr-defined]


def test_rust_sends_exactly_the_flags_position_fields() -> None:
    """``position_fields()`` names every ``FlagsPosition`` field but ``options``."""
    state = mid_game("flags", "native")
    stored = {f.name for f in dataclasses.fields(FlagsPosition)} - {"options"}
    assert set(state.native.position_fields()) == stored  # type: ignore[attr-defined]
    assert state.position == mid_game("flags", "python").position  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_positions_cross_as_dicts(name: str) -> None:
    """The Rust object exports and loads the position notation as a dict, never text."""
    state = mid_game(name, "native")
    data = state.native.to_json()  # type: ignore[attr-defined]
    assert isinstance(data, dict)
    assert data == mid_game(name, "python").to_json()
    again = load_position(descriptor(name), data, engine="native")
    assert again.to_json() == data  # (what seats learnt is not in the notation)


@pytest.mark.parametrize("name", GAMES)
def test_view_records_cross_as_dicts(name: str) -> None:
    """The exchange form of a view the search and determinize read is a dict."""
    state = mid_game(name, "native")
    record = native_engine(descriptor(name)).view_record(state.view(state.current_player()))
    assert isinstance(record, dict)
    assert set(VIEWS[name]._fields) <= set(record)


@pytest.mark.parametrize("name", GAMES)
def test_only_native_states_are_native_states(name: str) -> None:
    """Both wrappers expose their Rust object as ``native``; a Python state has none."""
    native = mid_game(name, "native")
    python = mid_game(name, "python")
    assert isinstance(native, NativeState)
    assert type(native.native).__module__ == "pyramids._native"
    assert not isinstance(python, NativeState)
    assert isinstance(native.clone(), NativeState)


class _Recorder:
    """Stands in for ``pyramids._native``: records the state ``search_state`` gets."""

    def __init__(self) -> None:
        self.states: list[Any] = []

    def search_state(self, game: str, state: Any, player: int, legal: list[int], *rest: Any) -> Any:
        self.states.append(state)
        return [(legal[0], 1, 1.0)], 1, 0.0, list(random.Random(0).getstate()[1])


@pytest.mark.parametrize("name", GAMES)
def test_the_oracle_hands_the_native_object_over_without_a_reload(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A native state's own Rust object reaches the native search (no copy, no reload)."""
    recorder = _Recorder()
    monkeypatch.setattr(native_search, "_core", lambda: recorder)
    state = mid_game(name, "native")
    while state.current_player() < 0:
        state.apply(state.legal_actions()[0])
    bot = OracleMCTSBot(SearchSettings(iterations=3))
    bot.search_state(state, state.legal_actions(), random.Random(1))
    assert recorder.states == [state.native]  # type: ignore[attr-defined]
    assert recorder.states[0] is state.native  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_a_python_state_reaches_the_native_search_by_its_fields(name: str) -> None:
    """``native_of`` builds the Rust state of a Python state from its fields: the same
    position, and the same knowledge of hidden facts."""
    python = mid_game(name, "python")
    native = mid_game(name, "native")
    built = native_engine(descriptor(name)).native_of(python)
    assert type(built) is type(native.native)  # type: ignore[attr-defined]
    assert built.to_json() == native.native.to_json()  # type: ignore[attr-defined]
    if name == "flaming":
        assert built.fields() == native.native.fields()  # type: ignore[attr-defined]
    else:
        assert built.position_fields() == native.native.position_fields()  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_the_search_follows_the_state_engine(name: str) -> None:
    """``auto``: a native state searched natively, a Python state by the Python search."""
    desc = descriptor(name)
    rng = random.Random(0)
    assert native_search.runs_natively(desc, "auto", rng, state=mid_game(name, "native"))
    assert not native_search.runs_natively(desc, "auto", rng, state=mid_game(name, "python"))
    assert native_search.runs_natively(desc, "native", rng, state=mid_game(name, "python"))
    assert not native_search.runs_natively(desc, "python", rng, state=mid_game(name, "native"))
    assert not native_search.runs_natively(desc, "auto", rng, engine="python")
    assert native_search.runs_natively(desc, "auto", rng, engine="native")


RAW_EVENTS = {"flaming": flaming_events.RAW_EVENTS, "flags": flags_events.RAW_EVENTS}


def played(name: str, engine: str, seed: int) -> list[tuple[Any, ...]]:
    """Every raw event of a seeded random 3-player game of ``name``, in order."""
    state = make_game(name, 3, engine=engine).new_initial_state(seed)
    rng = random.Random(seed)
    events: list[tuple[Any, ...]] = list(state.raw_events())  # type: ignore[attr-defined]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        events.extend(state.raw_events())  # type: ignore[attr-defined]
    return events


@pytest.mark.parametrize("name", GAMES)
def test_raw_events_cross_as_their_declared_named_tuples(name: str) -> None:
    """Rust builds each raw event as its ``RAW_EVENTS`` class by field name; the Python
    rules' plain tuples follow the same declared order, so both engines' events are equal."""
    layouts = RAW_EVENTS[name]
    seen: set[str] = set()
    for seed in range(4):
        native = played(name, "native", seed)
        python = played(name, "python", seed)
        assert native == python
        for raw, plain in zip(native, python, strict=True):
            assert type(raw) is layouts[raw[0]], raw
            assert len(plain) == len(layouts[plain[0]]._fields), plain  # type: ignore[attr-defined]
            seen.add(raw[0])
    assert len(seen) > 3


@pytest.mark.parametrize("name", GAMES)
def test_a_raw_event_field_on_one_side_only_is_an_error(name: str) -> None:
    """A raw event class with a field Rust does not send, or without one it sends, is
    refused by name; a class with its fields in another order gets each value by name (as
    an instance, or as a plain tuple in the class's order for ``events()``)."""
    state = mid_game(name, "native")
    native: Any = state.native  # type: ignore[attr-defined]
    layouts = RAW_EVENTS[name]
    raw = native.raw_events(layouts)[-1]
    cls = layouts[raw.kind]
    fields = cls._fields  # type: ignore[attr-defined]
    last = fields[-1]
    extra = collections.namedtuple("extra", [*fields, "colour"])  # type: ignore[misc]
    missing = collections.namedtuple("missing", fields[:-1])  # type: ignore[misc]
    moved = collections.namedtuple("moved", fields[::-1])  # type: ignore[misc]
    for plain in (False, True):
        with pytest.raises(TypeError, match="colour"):
            native.raw_events({**layouts, raw.kind: extra}, plain=plain)
        with pytest.raises(TypeError, match=last):
            native.raw_events({**layouts, raw.kind: missing}, plain=plain)
    again = native.raw_events({**layouts, raw.kind: moved})[-1]
    assert again == tuple(reversed(raw))
    assert all(getattr(again, f) == getattr(raw, f) for f in fields)
    values = native.raw_events({**layouts, raw.kind: moved}, plain=True)[-1]
    assert type(values) is tuple and values == again
    without = {k: v for k, v in layouts.items() if k != raw.kind}
    with pytest.raises(TypeError, match=raw.kind):
        native.raw_events(without)
    assert native.raw_events(layouts)[-1] == raw
    assert native.raw_events(layouts, plain=True)[-1] == raw


@pytest.mark.parametrize("name", GAMES)
def test_self_play_and_training_take_the_options_dict(name: str) -> None:
    """The self-play, training and clone-timing bindings read the options and positions as
    dicts (never JSON text)."""
    core: Any = importlib.import_module("pyramids._native")
    game = make_game(name, 2, engine="python")
    options = dict(game.options)
    low, high = setup_of(name).turn_actions
    rngs = [list(random.Random(s).getstate()[1]) for s in (1, 2)]
    turns, _, _ = getattr(core, f"{name}_self_play")(2, options, 1, "random", *rngs, low, high)
    assert turns > 0
    batch = getattr(core, f"{name}_self_play_batch")
    assert batch(2, options, [1, 2], "random", low, high)[0] == 2
    rows, labels, _ = core.value_samples(name, 2, options, [1], 2)
    assert len(rows) == len(labels) > 0
    assert getattr(core, f"{name}_clone_ns")(game.new_initial_state(1).to_json(), 10) > 0
