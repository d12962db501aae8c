"""Flaming Pyramids on the native core: ``pyramids._native``'s engine behind the game protocol.

``NativeFlamingGame`` is the Python ``FlamingGame`` (same options, equality, info) dealing
native states; ``NativeFlamingState`` wraps the Rust state (``_native.FlamingState``) and
offers the whole ``pyramids.core.game.State`` protocol plus the public accessors of the
Python ``FlamingState`` that host code reads (``board``, ``hand``, ``pending`` ...;
``position`` builds the Python position from the native fields). Refusals are the Python
engine's: ``pyramids._native`` raises the same ``pyramids.core.errors`` class with the same
code and facts (nothing is rewrapped here); events are the Python engine's typed events,
made by its ``from_raw`` from the native raw events (its ``RAW_EVENTS`` named tuples, built
in Rust by field name); views are the Python ``FlamingView``, built in Rust by field name.
Positions, snapshots, views and options cross the boundary as dicts, never JSON text (docs/NATIVE.md, "The boundary"). ``ENGINE`` is what the descriptor's ``native``
names (``pyramids.games.engine``); the state's Rust object is ``state.native``
(``pyramids.core.native.NativeState``).
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from pyramids.core.errors import IllegalActionError, PositionError
from pyramids.core.game import Action, Event, Game, History, Outcome, State, View, history_list
from pyramids.flaming.actions import action_to_text, parse_action
from pyramids.flaming.events import RAW_EVENTS, from_raw
from pyramids.flaming.game import FlamingGame, position_from_json
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.position import CHECK, FlamingPosition, rebuild
from pyramids.flaming.rules import illegal_reason as py_illegal_reason
from pyramids.flaming.svg import position_svg
from pyramids.flaming.view import FlamingView
from pyramids.flaming.view import determinize as py_determinize

_native: Any = importlib.import_module("pyramids._native")
"""The extension module (no stubs: its functions are typed at their use here)."""

_I128 = 1 << 127
_I64 = 1 << 63


def _options(game: FlamingGame) -> dict[str, Any]:
    return dict(game.options)


def _is_json_data(value: object) -> bool:
    """Whether ``value`` is plain JSON data (what ``json.dumps`` writes and Rust reads alike)."""
    if value is None or isinstance(value, bool) or type(value) is str:
        return True
    if isinstance(value, int) and type(value) is int:
        return -_I64 <= value < _I64
    if isinstance(value, float) and type(value) is float:
        return math.isfinite(value)
    if isinstance(value, list) and type(value) is list:
        return all(_is_json_data(v) for v in value)
    if isinstance(value, dict) and type(value) is dict:
        return all(type(k) is str and _is_json_data(v) for k, v in value.items())
    return False


def snapshot_of(pos: FlamingPosition, options: FlamingOptions) -> dict[str, Any]:
    """Every field of a Python position in the native snapshot form (``snapshot.rs``)."""
    return {
        "options": options.to_record(),
        "players": len(pos.hands),
        "board": [[k, t] for k, t in pos.board.items()],
        "hands": pos.hands,
        "piles": pos.piles,
        "hidden": pos.hidden,
        "known": pos.known,
        "out": pos.out,
        "quenched": [[e, m] for e, m in sorted(pos.quenched.items())],
        "to_move": pos.to_move,
        "turn": pos.turn,
        "responsible": pos.responsible,
        "pending": pos.pending,
        "pending_key": pos.pending_key,
        "winner": pos.winner,
        "ranking": pos.ranking,
        "overlooked": pos.overlooked,
        "candidates": sorted(pos.candidates),
    }


class NativeFlamingState(State):
    """A Flaming Pyramids game in progress on the native engine (all hidden facts included)."""

    __slots__ = ("_s", "_trail", "game", "options")
    flaming_engine = "native"
    """Marks a native state for ``pyramids.games.flaming.evaluation.is_flaming_state``."""

    def __init__(self, game: FlamingGame, native: Any, trail: History = None) -> None:
        self.game = game
        self.options: FlamingOptions = game.options_obj
        self._s = native
        self._trail = trail

    # --- the protocol -----------------------------------------------------------------

    @property
    def native(self) -> Any:
        """The ``_native.FlamingState`` (for the native policy and search)."""
        return self._s

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return int(self._s.num_players)

    def is_terminal(self) -> bool:
        """Whether someone has won or max_turns has ended the game."""
        return bool(self._s.is_terminal())

    def current_player(self) -> int:
        """The deciding seat: the active player, P for a fall, CHANCE for a die roll."""
        return int(self._s.current_player())

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions: placements (spot, then tile), fall sides, or die faces."""
        return list(self._s.legal_actions())

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The six die faces, each 1/6, while a fire-die roll is pending (FP-DIE-1)."""
        return list(self._s.chance_outcomes())

    def apply(self, action: Action) -> None:
        """Apply a placement, fall side or die face, then run the mayhem that follows."""
        if not -_I128 <= action < _I128:
            raise self.illegal_reason(action) or IllegalActionError("flaming.illegal_action")
        self._s.apply(action)  # raises the Python engine's IllegalActionError
        self._trail = (action, self._trail)

    def illegal_reason(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is illegal here (the refusal, with its code and facts), or None."""
        if not -_I128 <= action < _I128:
            return py_illegal_reason(self.position, action)
        refusal: IllegalActionError | None = self._s.illegal_reason(action)
        return refusal

    def outcome(self) -> Outcome:
        """Won by a seat, ranked after the turn limit, or ongoing (FP-END-5 returns)."""
        winner = self._s.winner
        if winner is not None:
            return Outcome.won_by(int(winner), self.num_players)
        ranking = self._s.ranking
        if ranking is not None:
            return Outcome.ranked(list(ranking))
        return Outcome.ongoing()

    def history(self) -> list[Action]:
        """Every action and chance outcome applied since dealt or loaded, oldest first."""
        return history_list(self._trail)

    def clone(self) -> Self:
        """An independent copy (the native state is plain data: one memcpy)."""
        return type(self)(self.game, self._s.clone(), self._trail)  # type: ignore[arg-type]

    def __copy__(self) -> Self:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        return {
            "players": self.game.num_players,
            "options": dict(self.game.options),
            "snapshot": self._s.to_snapshot(),
            "history": self.history(),
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        game = NativeFlamingGame.from_options(data["players"], data["options"])
        trail: History = None
        for a in data["history"]:
            trail = (a, trail)
        self.game = game
        self.options = game.options_obj
        self._s = _native.flaming_from_snapshot(data["snapshot"])
        self._trail = trail

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NativeFlamingState):
            return self.game == other.game and bool(self._s.same_position(other._s))
        if isinstance(other, State) and hasattr(other, "position"):
            return self.game == other.game and self.position == other.position
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the Python state

    def placement_spots(self) -> list[int]:
        """The spots the active player may play on, in scan order (FP-PLACE)."""
        return list(self._s.placement_spots())

    # --- read-only accessors (the Python FlamingState's) --------------------------------

    @property
    def position(self) -> FlamingPosition:
        """A Python ``FlamingPosition`` with this state's fields (a new copy each time)."""
        pos = FlamingPosition(**self._s.fields())
        rebuild(pos)
        return pos

    @property
    def board(self) -> dict[int, int]:
        """Position key -> tile (a copy)."""
        board: dict[int, int] = self._s.board()
        return board

    def hand(self, seat: int) -> list[int]:
        """Seat's hand in the order the tiles came into it (a copy)."""
        return list(self._s.hand(seat))

    def pile(self, seat: int) -> list[int]:
        """Seat's draw pile, top first (a copy)."""
        return list(self._s.pile(seat))

    @property
    def to_move(self) -> int:
        """The active player."""
        return int(self._s.to_move)

    @property
    def responsible(self) -> int:
        """P: the player who suffers this turn's mayhem (FP-MAYHEM-3, FP-CURSE-3)."""
        return int(self._s.responsible)

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return int(self._s.turn)

    @property
    def pending(self) -> tuple[int, int]:
        """(NONE/FALL/DIE/CHECK, key of the falling tile or the rolling ember)."""
        return int(self._s.pending), int(self._s.pending_key)

    @property
    def checker(self) -> int | None:
        """The seat whose check is pending (FP-CALL-2), or None."""
        if self._s.pending == CHECK and not self.is_terminal():
            return (int(self._s.to_move) + 1) % self.num_players
        return None

    @property
    def overlooked(self) -> bool:
        """Whether overlooked mayhem stands (FP-CALL-5)."""
        return bool(self._s.overlooked)

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        w = self._s.winner
        return None if w is None else int(w)

    @property
    def ranking(self) -> list[int] | None:
        """A rank per seat after max_turns (1 the best, ties sharing)."""
        r = self._s.ranking
        return None if r is None else list(r)

    @property
    def out(self) -> list[int]:
        """Tiles removed from the game during play, in order."""
        return list(self._s.out)

    @property
    def quenched(self) -> dict[int, int]:
        """Quenched ember -> bit mask of the tiles it touched at the roll (FP-DIE-6)."""
        return dict(self._s.quenched)

    @property
    def in_play(self) -> int:
        """Bit mask of the tiles still in the game (pyramid, hands and piles)."""
        return int(self._s.in_play)

    def raw_events(self) -> list[tuple[Any, ...]]:
        """The last apply's raw events, each its ``RAW_EVENTS`` named tuple (built in Rust by
        field name; equal to the Python engine's raw tuples)."""
        events: list[tuple[Any, ...]] = self._s.raw_events(RAW_EVENTS)
        return events

    # --- text --------------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """``TILE@row,col``, ``left``/``right``, ``die:N``, ``ok`` or ``call:r,c``."""
        return action_to_text(action)

    def parse_action(self, text: str) -> Action:
        """Parse and check an action in this state (see ``actions.parse_action``)."""
        action = parse_action(text)
        refusal = self.illegal_reason(action)
        if refusal is not None:
            raise refusal
        return action

    def events(self) -> list[Event]:
        """The last apply's events with their reasons."""
        return [from_raw(e) for e in self._s.raw_events(RAW_EVENTS, plain=True)]

    def to_json(self) -> dict[str, Any]:
        """The position in the contract's JSON notation (FP-NOTE-3, FP-NOTE-4, FP-NOTE-5)."""
        data: dict[str, Any] = self._s.to_json()
        return data

    def view(self, player: int | None) -> FlamingView:
        """What ``player`` may know (FP-VIEW-1); None for a spectator."""
        view: FlamingView = self._s.view_as(FlamingView, self.game.options, player)
        return view

    def __repr__(self) -> str:
        return f"NativeFlamingState({self.to_json()!r})"

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, as the Python engine's state draws it (``flaming.svg``)."""
        return position_svg(self.position)


class NativeFlamingGame(FlamingGame):
    """Flaming Pyramids for ``players`` seats under ``options``, on the native engine."""

    def new_initial_state(self, seed: int) -> NativeFlamingState:  # type: ignore[override]
        """FP-SETUP-1..4: shuffle with ``random.Random(seed)``, then deal (natively)."""
        if type(seed) is int and -_I128 < seed < _I128:
            native = _native.flaming_new_game(self.num_players, _options(self), seed)
        else:
            tiles = sorted(self.options_obj.tiles)
            random.Random(seed).shuffle(tiles)
            native = _native.flaming_deal(self.num_players, _options(self), tiles)
        return NativeFlamingState(self, native)

    def state_from_json(self, data: Mapping[str, Any]) -> NativeFlamingState:  # type: ignore[override]
        """A state from the position notation (FP-NOTE-3); PositionError when inconsistent."""
        state = load_position(data)
        if state.num_players != self.num_players:
            raise PositionError(
                "game.position_players",
                players=self.num_players,
                position_players=state.num_players,
            )
        return state

    def determinize(self, view: View, rng: random.Random) -> NativeFlamingState:  # type: ignore[override]
        """A full state consistent with ``view``: unseen tiles dealt at random, drawn from
        ``rng`` exactly as the Python engine draws."""
        if not isinstance(view, FlamingView):
            raise TypeError("a Flaming Pyramids game determinizes Flaming Pyramids views")
        if view.players != self.num_players:
            raise PositionError(
                "game.view_players", players=self.num_players, view_players=view.players
            )
        if type(rng) is not random.Random:
            pos = py_determinize(view, rng)
            return NativeFlamingState(
                self, _native.flaming_from_snapshot(snapshot_of(pos, self.options_obj))
            )
        version, internal, gauss = rng.getstate()
        try:
            native, after = _native.flaming_determinize(view_record(view), list(internal))
        except ValueError:
            pos = py_determinize(view, rng)  # raises what the Python engine raises
            return NativeFlamingState(
                self, _native.flaming_from_snapshot(snapshot_of(pos, self.options_obj))
            )
        rng.setstate((version, tuple(after), gauss))
        return NativeFlamingState(self, native)

    def __repr__(self) -> str:
        return f"NativeFlamingGame({self.num_players}, {self.options_obj!r})"


def view_record(view: FlamingView) -> dict[str, Any]:
    """``view`` in the exchange form the Rust ``View`` reads, by field name (``overlooked``
    included): a dict, never text."""
    return {
        "player": view.player,
        "players": view.players,
        "options": dict(view.options),
        "to_move": view.to_move,
        "turn": view.turn,
        "responsible": view.responsible,
        "pending": view.pending,
        "pending_key": view.pending_key,
        "board": [[k, t] for k, t in view.board.items()],
        "out": list(view.out),
        "hand": None if view.hand is None else list(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "pile_sizes": list(view.pile_sizes),
        "pile_known": [list(p) for p in view.pile_known],
        "hand_known": [list(h) for h in view.hand_known],
        "in_play": view.in_play,
        "quenched": [[e, m] for e, m in view.quenched],
        "winner": view.winner,
        "ranking": None if view.ranking is None else list(view.ranking),
        "overlooked": view.overlooked,
    }


def _game_of(native: Any) -> NativeFlamingGame:
    return NativeFlamingGame(int(native.num_players), FlamingOptions.from_json(native.rules))


def load_position(data: Mapping[str, Any]) -> NativeFlamingState:
    """A native state from the contract's JSON; PositionError as the Python ``load_position``."""
    if not _is_json_data(data):
        state = position_from_json(data)  # the Python engine's refusals for odd Python data
        native = _native.flaming_from_snapshot(snapshot_of(state.position, state.options))
        return NativeFlamingState(_game_of(native), native)
    native = _native.flaming_from_json(data)  # raises the Python engine's refusal
    return NativeFlamingState(_game_of(native), native)


def from_python(state: State) -> NativeFlamingState:
    """The native twin of a Python ``FlamingState`` (same fields, history and game)."""
    pos: FlamingPosition = state.position  # type: ignore[attr-defined]
    options: FlamingOptions = state.options  # type: ignore[attr-defined]
    game = NativeFlamingGame(state.num_players, options)
    trail: History = None
    for a in state.history():
        trail = (a, trail)
    return NativeFlamingState(game, _native.flaming_from_snapshot(snapshot_of(pos, options)), trail)


def native_of(state: State) -> Any:
    """The Rust state (``_native.FlamingState``) of ``state``: a native state's own (no
    copy), a Python ``FlamingState``'s built from its fields (every hidden fact and what
    each seat knows), never through text."""
    if isinstance(state, NativeFlamingState):
        return state.native
    pos: FlamingPosition = state.position  # type: ignore[attr-defined]
    return _native.flaming_from_snapshot(snapshot_of(pos, state.options))  # type: ignore[attr-defined]


class _Engine:
    """The native engine of Flaming Pyramids, as ``GameDescriptor.native`` names it."""

    name = "flaming"

    def make(self, players: int, options: Mapping[str, Any]) -> Game:
        """A native game with ``players`` seats and these rules options."""
        return NativeFlamingGame.from_options(players, options)

    def load_position(self, data: Mapping[str, Any]) -> State:
        """A native state from the position JSON (PositionError as the Python engine)."""
        return load_position(data)

    def view_record(self, view: View) -> dict[str, Any]:
        """The view in the exchange form the Rust ``View`` reads (a dict by field name)."""
        if not isinstance(view, FlamingView):
            raise TypeError("not a Flaming Pyramids view")
        return view_record(view)

    def native_of(self, state: State) -> Any:
        """The Rust state of a native or Python Flaming Pyramids state (``native_of``)."""
        return native_of(state)


ENGINE = _Engine()
"""What ``pyramids.flaming.DESCRIPTOR.native`` names."""

__all__: Sequence[str] = (
    "ENGINE",
    "NativeFlamingGame",
    "NativeFlamingState",
    "from_python",
    "load_position",
    "native_of",
    "snapshot_of",
    "view_record",
)
