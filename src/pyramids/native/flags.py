"""Pyramids and Flags on the native core: ``NativeFlagsGame`` and ``NativeFlagsState``.

The rules run in Rust (``pyramids._native``, crate ``native/flags``); this module puts
them behind the ``pyramids.core`` protocol with the Python engine's exact behaviour: the
same action numbers, position JSON, typed events (the native engine hands back the
Python rules' raw events as their ``pyramids.flags.events.RAW_EVENTS`` named tuples, built
by field name, turned into events by ``from_raw``), views (``FlagsView``), errors
(``PositionError``, ``IllegalActionError``, ``ActionParseError`` with the same codes and
facts, raised by the native core itself) and determinization (drawn from the caller's
``random.Random`` word for word). ``tests/native/test_flags_differential.py`` proves it.

Positions, views, events and options cross the boundary as dicts or classes by field
name, never JSON text (docs/NATIVE.md, "The boundary"); the state's Rust object is ``state.native``
(``pyramids.core.native.NativeState``). ``ENGINE`` is the descriptor's ``native`` entry:
``make``, ``load_position``, ``view_record`` (the view as ``pyramids_flags::View`` reads
it) and ``native_of``.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Mapping
from typing import Any, Self

from pyramids.core.bits import bits_of
from pyramids.core.errors import IllegalActionError, PositionError
from pyramids.core.fields import json_fact
from pyramids.core.game import (
    Action,
    Event,
    Game,
    History,
    Outcome,
    State,
    View,
    history_list,
)
from pyramids.flags.actions import NUM_ACTIONS
from pyramids.flags.events import RAW_EVENTS, from_raw
from pyramids.flags.game import FlagsGame
from pyramids.flags.options import FlagsOptions
from pyramids.flags.position import FlagsPosition
from pyramids.flags.state import FlagsState
from pyramids.flags.svg import position_svg
from pyramids.flags.text import action_to_text, parse_action, position_to_json, read_position
from pyramids.flags.view import FlagsView

_native: Any = importlib.import_module("pyramids._native")
"""The extension module (its flags part: ``native/py/src/flags.rs``)."""

_MAX_ACTION = (1 << 64) - 1
_I64 = 1 << 63


def _plain_json(value: Any) -> bool:
    """Whether ``value`` survives ``json.dumps`` unchanged in type (dicts with str keys,
    lists, str, bool, None, finite floats, 64-bit ints): then the native parser sees
    exactly what the Python parser would."""
    if value is None or isinstance(value, (str, bool)):
        return True
    if isinstance(value, int):
        return -_I64 <= value < _I64
    if isinstance(value, float):
        return math.isfinite(value)
    if type(value) is list:
        return all(_plain_json(v) for v in value)
    if type(value) is dict:
        return all(isinstance(k, str) and _plain_json(v) for k, v in value.items())
    return False


def _inner_from_position(pos: FlagsPosition) -> Any:
    """A native state equal to the Python position ``pos`` (knowledge and options too)."""
    inner = _native.flags_from_json(position_to_json(pos))
    inner.set_known(list(pos.known))
    inner.set_first_player(pos.options.first_player)
    return inner


def _game_of(inner: Any) -> NativeFlagsGame:
    rules = inner.rules
    return NativeFlagsGame(inner.players, FlagsOptions(rules["actions"], rules["max_turns"]))


def load_position(data: Mapping[str, Any]) -> NativeFlagsState:
    """``position_from_json`` on the native engine: a state from the position notation,
    with the Python parser's refusals (PositionError, same code and facts)."""
    if not isinstance(data, Mapping):
        raise PositionError("position.not_an_object", field=None)
    if _plain_json(data):
        inner = _native.flags_from_json(data)
    else:
        # Tuples, other mappings, huge ints ...: the Python parser judges them exactly.
        inner = _inner_from_position(read_position(data))
    return NativeFlagsState(_game_of(inner), inner)


def view_record(view: View) -> dict[str, Any]:
    """The view as ``pyramids_flags::View`` reads it: the ``FlagsView`` fields by name,
    options as an object, cards and pieces as numbers (a dict, never text)."""
    if not isinstance(view, FlagsView):
        raise TypeError("a Pyramids and Flags view is needed")
    data = view._asdict()
    data["options"] = dict(view.options)
    data["pending"] = dict(view.pending)
    return data


class NativeFlagsGame(FlagsGame):
    """``FlagsGame`` whose states run on the native core (same options, equality, info)."""

    # The overrides return native states, which offer FlagsState's API without being one.
    def new_initial_state(self, seed: int) -> NativeFlagsState:  # type: ignore[override]
        """PF-SETUP: the deal of ``FlagsPosition.from_seed(seed, ...)``, drawn natively."""
        if isinstance(seed, int) and not isinstance(seed, bool) and -(1 << 127) < seed < 1 << 127:
            inner = _native.flags_new_game(self.num_players, self.options_obj.to_record(), seed)
        else:
            inner = _inner_from_position(
                FlagsPosition.from_seed(seed, self.num_players, self.options_obj)
            )
        return NativeFlagsState(self, inner)

    def state_from_json(self, data: Mapping[str, Any]) -> NativeFlagsState:  # type: ignore[override]
        """A state from the position notation (PF-NOTE-2); PositionError when inconsistent."""
        state = load_position(data)
        if state.num_players != self.num_players:
            raise PositionError(
                "game.position_players",
                players=self.num_players,
                position_players=state.num_players,
            )
        return state

    def determinize(self, view: View, rng: random.Random) -> NativeFlagsState:  # type: ignore[override]
        """A full state consistent with ``view`` (PF-VIEW-5), drawn from ``rng`` exactly as
        the Python engine draws."""
        if not isinstance(view, FlagsView):
            raise TypeError("a Pyramids and Flags game determinizes Pyramids and Flags views")
        if view.players != self.num_players:
            raise PositionError(
                "game.view_players", players=self.num_players, view_players=view.players
            )
        version, words, gauss = rng.getstate()
        inner, after = _native.flags_determinize(view_record(view), list(words))
        rng.setstate((version, tuple(after), gauss))
        return NativeFlagsState(self, inner)


def _restore(
    game_data: tuple[int, dict[str, Any]],
    data: dict[str, Any],
    known: list[int],
    stale: tuple[int, str],
    history: list[Action],
) -> Any:
    """Unpickle a ``NativeFlagsState`` (see ``NativeFlagsState.__reduce__``)."""
    game = NativeFlagsGame.from_options(*game_data)
    inner = _native.flags_from_json(data)
    inner.set_known(known)
    inner.set_first_player(game.options_obj.first_player)
    inner.set_stale(*stale)
    state = NativeFlagsState(game, inner)
    for action in history:
        state._history = (action, state._history)
    return state


class NativeFlagsState(State):
    """A Pyramids and Flags game in progress on the native core (the ``FlagsState`` API)."""

    __slots__ = ("_history", "game", "native")

    game: FlagsGame

    def __init__(self, game: FlagsGame, native: Any, history: History = None) -> None:
        self.game = game
        self.native = native
        """The Rust state (``_native.PyFlagsState``; ``pyramids.core.native.NativeState``)."""
        self._history: History = history

    # --- the protocol -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return int(self.native.players)

    def is_terminal(self) -> bool:
        """Whether someone has won or a safeguard ended the game."""
        return bool(self.native.is_terminal())

    def current_player(self) -> int:
        """The deciding seat, CHANCE, or TERMINAL."""
        return int(self.native.current_player())

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes at a chance point)."""
        return list(self.native.legal_actions())

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes of a pirate's steal or of the next card of a new start's deal."""
        return list(self.native.chance_outcomes())

    def apply(self, action: Action) -> None:
        """Apply one action or chance outcome; IllegalActionError (changing nothing) if illegal."""
        if (
            not isinstance(action, int)
            or isinstance(action, bool)
            or not 0 <= action <= _MAX_ACTION
        ):
            refused = self.illegal_reason(action)
            raise refused or IllegalActionError("flags.not_an_action", value=json_fact(action))
        self.native.apply(action)
        self._history = (action, self._history)

    def illegal_reason(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is illegal here (the refusal, not raised), or None when it is legal."""
        if self.native.is_terminal():
            return IllegalActionError("flags.game_over")
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            return IllegalActionError("flags.not_an_action", value=json_fact(action))
        refused: IllegalActionError | None = self.native.illegal_reason(min(action, _MAX_ACTION))
        return refused

    def outcome(self) -> Outcome:
        """Won by a seat, ranked after a safeguard ending, or ongoing."""
        winner = self.native.winner
        if winner is not None:
            return Outcome.won_by(winner, self.num_players)
        ranking = self.native.ranking
        if ranking is not None:
            return Outcome.ranked(list(ranking))
        return Outcome.ongoing()

    def returns(self) -> list[float]:
        """Each seat's result in [0, 1]."""
        return list(self.native.returns())

    def history(self) -> list[Action]:
        """Every action and chance outcome applied since this state was dealt or loaded."""
        return history_list(self._history)

    def clone(self) -> Self:
        """An independent copy (history shared: it is immutable)."""
        c = object.__new__(type(self))
        c.game = self.game
        c.native = self.native.clone()
        c._history = self._history
        return c

    def __copy__(self) -> Self:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        f = self.native.position_fields()
        stale = (f["player"], f["colour"])
        game = (self.game.num_players, dict(self.game.options))
        return (_restore, (game, self.native.to_json(), f["known"], stale, self.history()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NativeFlagsState):
            return self.game == other.game and bool(self.native.equals(other.native))
        if isinstance(other, FlagsState):
            return self.game == other.game and self.position == other.position
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable state

    def view(self, player: int | None) -> FlagsView:
        """What ``player`` may know (PF-VIEW); None for a spectator."""
        view: FlagsView = self.native.view_as(FlagsView, self.game.options, player)
        return view

    def action_to_string(self, action: Action) -> str:
        """The action in the notation (PF-NOTE-1)."""
        return action_to_text(action)

    def action_text_for(self, action: Action, viewer: int | None) -> str:
        """The action as ``viewer`` sees it: other players' hidden cards as ``?`` (PF-VIEW-4)."""
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return action_to_text(action)
        return str(self.native.action_text_for(action, viewer))

    def parse_action(self, text: str) -> Action:
        """Parse and check an action here; ActionParseError or IllegalActionError (with why)."""
        action = parse_action(text, self.num_players)
        refused = self.illegal_reason(action)
        if refused is not None:
            raise refused
        return action

    def raw_events(self) -> list[tuple[Any, ...]]:
        """The last apply's raw events, each its ``RAW_EVENTS`` named tuple (built in Rust by
        field name; equal to the Python rules' raw tuples)."""
        events: list[tuple[Any, ...]] = self.native.raw_events(RAW_EVENTS)
        return events

    def events(self) -> list[Event]:
        """The last apply's events with their reasons (every card named)."""
        return [from_raw(e, None) for e in self.native.raw_events(RAW_EVENTS, plain=True)]

    def events_for(self, viewer: int | None) -> list[Event]:
        """The last apply's events as ``viewer`` may see them (hidden cards as ``?``)."""
        return [
            from_raw(e, viewer, masked=True) for e in self.native.raw_events(RAW_EVENTS, plain=True)
        ]

    def to_json(self) -> dict[str, Any]:
        """The position in the contract's JSON notation (PF-NOTE-2)."""
        data: dict[str, Any] = self.native.to_json()
        return data

    # --- read-only accessors of FlagsState ------------------------------------------------

    @property
    def position(self) -> FlagsPosition:
        """The position as the Python engine's dataclass (built on demand: a copy)."""
        data = self.native.position_fields()
        if data["ranking"] is not None:
            data["ranking"] = list(data["ranking"])
        return FlagsPosition(self._options(), **data)

    def _options(self) -> FlagsOptions:
        """The position's options: the game's (as the Python state's position holds)."""
        return self.game.options_obj

    @property
    def bank(self) -> list[int]:
        """Scoring pieces in the bank, in piece order."""
        return bits_of(self.native.bank_mask)

    def scoring(self, seat: int) -> list[int]:
        """Seat's scoring pieces, in piece order."""
        return bits_of(self.native.scoring_mask(seat))

    def points(self, seat: int) -> int:
        """Seat's points under best-trio scoring (PF-WIN-3)."""
        return int(self.native.points(seat))

    def hand(self, seat: int) -> list[int]:
        """Seat's hidden cards in the order they came into the hand."""
        return list(self.native.hand(seat))

    def scored(self, seat: int) -> list[int]:
        """Seat's face-up cards, in the order they were scored."""
        return list(self.native.scored(seat))

    @property
    def deck(self) -> list[int]:
        """The deck, top first."""
        return list(self.native.deck)

    @property
    def to_deal(self) -> tuple[int, ...]:
        """The cards of a new start still to deal, in card order."""
        return tuple(self.native.to_deal)

    @property
    def last_moved(self) -> tuple[int, ...]:
        """The pieces the last move moved, bottom to top."""
        return tuple(self.native.last_moved)

    def below(self, piece: int) -> int:
        """The piece directly under ``piece`` (-1: it stands on the table)."""
        return int(self.native.below(piece))

    def above(self, piece: int) -> int:
        """The piece directly on ``piece`` (-1: it is a top)."""
        return int(self.native.above(piece))

    def towers(self) -> list[list[int]]:
        """The towers, each bottom to top, in piece order of their bottoms."""
        return [list(t) for t in self.native.towers()]

    def is_built(self, card: int) -> bool:
        """Whether the card's flag stands on the table (PF-FLAG-1)."""
        return bool(self.native.is_built(card))

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return int(self.native.to_move)

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return int(self.native.turn)

    @property
    def pending(self) -> int:
        """NONE, CAPTURE, ACTION, STEAL or DEAL."""
        return int(self.native.pending)

    @property
    def pending_info(self) -> dict[str, Any]:
        """The pending decision as the position notation's ``pending`` object ({} if none)."""
        data: dict[str, Any] = self.native.pending_info()
        return data

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        w = self.native.winner
        return None if w is None else int(w)

    @property
    def ranking(self) -> list[int] | None:
        """A rank per seat after a safeguard ending (1 the best, ties sharing)."""
        r = self.native.ranking
        return None if r is None else list(r)

    def known_cards(self, seat: int) -> int:
        """Bit mask of the hidden cards (not in seat's hand) whose place seat knows."""
        return int(self.native.known_cards(seat))

    def __repr__(self) -> str:
        return f"NativeFlagsState({self.to_json()!r})"

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, as the Python engine's state draws it (``flags.svg``)."""
        return position_svg(self.position)


class _Engine:
    """The descriptor's ``native`` entry for Pyramids and Flags."""

    def make(self, players: int, options: Mapping[str, Any]) -> Game:
        """A game on the native core (the same checks as ``FlagsGame.from_options``)."""
        return NativeFlagsGame.from_options(players, options)

    def load_position(self, data: Mapping[str, Any]) -> State:
        """A native state from the position notation (the Python parser's refusals)."""
        return load_position(data)

    def view_record(self, view: View) -> dict[str, Any]:
        """The view in the exchange form ``pyramids_flags::View`` reads (a dict by name)."""
        return view_record(view)

    def native_of(self, state: State) -> Any:
        """The Rust state of a native or Python Pyramids and Flags state (``native_of``)."""
        return native_of(state)


def native_of(state: State) -> Any:
    """The Rust state (``_native.PyFlagsState``) of ``state``: a native state's own (no
    copy), a Python ``FlagsState``'s built from its position's fields, knowledge and
    options included (never through text)."""
    if isinstance(state, NativeFlagsState):
        return state.native
    if not isinstance(state, FlagsState):
        raise TypeError(f"not a Pyramids and Flags state: {type(state).__name__}")
    return _inner_from_position(state.position)


ENGINE = _Engine()
"""``pyramids.flags.DESCRIPTOR.native`` points here."""
