"""The game protocol: metadata as data, a mutable State, per-seat Views, and bots.

Modelled on OpenSpiel's Python games: a Game makes States; a State knows whose
decision comes next (a seat, CHANCE, or TERMINAL), its sorted legal actions, and how
to apply one. Actions are ints; text notation is per game. Decisions in the middle
of a turn (a fall direction) are ordinary decision points owned by whoever decides.
"""

from __future__ import annotations

import abc
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast, runtime_checkable

from pyramids.core.errors import PositionError

Action = int

CHANCE = -1
"""current_player() at a chance point (a die roll): the driver samples chance_outcomes()."""

TERMINAL = -4
"""current_player() once the game is over."""


@dataclass(frozen=True)
class GameInfo:
    """A game's metadata, as data."""

    name: str
    short_name: str
    min_players: int
    max_players: int
    has_chance: bool
    has_hidden_information: bool
    rules_version: str
    default_options: Mapping[str, Any] = field(default_factory=dict)


class OutcomeKind(StrEnum):
    """How a game stands: still going, won by one seat, or ended with a ranking."""

    ONGOING = "ongoing"
    WINNER = "winner"
    RANKING = "ranking"


@dataclass(frozen=True)
class Outcome:
    """A game's result as data (OpenSpiel's ``returns`` with the reason kept).

    ``ranking`` is a rank per seat, 1 the best, ties sharing (standard competition
    ranking, see ``competition_ranking``); set for both ended kinds. ``winner`` is the
    seat that won outright (kind WINNER), else None.
    """

    kind: OutcomeKind
    winner: int | None = None
    ranking: tuple[int, ...] | None = None

    @classmethod
    def ongoing(cls) -> Outcome:
        """The game goes on."""
        return _ONGOING

    @classmethod
    def won_by(cls, seat: int, players: int) -> Outcome:
        """``seat`` won outright; every other seat ranks second."""
        return cls(OutcomeKind.WINNER, seat, tuple(1 if s == seat else 2 for s in range(players)))

    @classmethod
    def ranked(cls, ranking: Sequence[int]) -> Outcome:
        """The game ended without an outright winner: a rank per seat (ties sharing)."""
        return cls(OutcomeKind.RANKING, None, tuple(ranking))

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.kind is not OutcomeKind.ONGOING

    def returns(self, players: int) -> list[float]:
        """Each seat's result in [0, 1]: 1 to the winner, or 1 shared by those ranked first."""
        if self.ranking is None:
            return [0.0] * players
        firsts = self.ranking.count(1)
        return [1.0 / firsts if r == 1 else 0.0 for r in self.ranking]

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "winner", "ranking"}`` (JSON-ready)."""
        ranking = None if self.ranking is None else list(self.ranking)
        return {"kind": self.kind.value, "winner": self.winner, "ranking": ranking}


_ONGOING = Outcome(OutcomeKind.ONGOING)


def competition_ranking(scores: Sequence[float], *, higher_is_better: bool = True) -> list[int]:
    """Standard competition ranking ("1224"): a seat's rank is 1 + the seats strictly better."""
    sign = 1 if higher_is_better else -1
    return [1 + sum(1 for other in scores if sign * other > sign * mine) for mine in scores]


@dataclass(frozen=True)
class Event:
    """Base of every game's typed events: something that happened while an action was applied.

    Each game declares its base once, naming the game (``class FlamingEvent(Event,
    game="flaming")``), then one frozen dataclass per event kind naming the kind (a short
    stable word: ``class Place(FlamingEvent, kind="place")``) with the facts, in the game's
    notation, as fields. ``kind`` and ``game`` are class constants (``Place.kind``,
    ``event.game``). ``data`` is the fields as JSON-ready data. Events hold no sentences:
    the words that say what happened and why come from the message catalogue
    (``pyramids.texts``), keyed ``<game>.<kind>``. A field named after a Python keyword
    takes a trailing underscore (``from_``), which ``data`` drops (``"from"``); nested
    frozen dataclasses become dicts.
    """

    kind: ClassVar[str] = "event"
    game: ClassVar[str] = ""

    def __init_subclass__(
        cls, *, kind: str | None = None, game: str | None = None, **kwargs: Any
    ) -> None:
        """Set the class constants the declaration names (``kind=``, ``game=``)."""
        super().__init_subclass__(**kwargs)
        if game is not None:
            cls.game = game
        if kind is not None:
            cls.kind = kind

    @property
    def data(self) -> dict[str, Any]:
        """The event's facts (its fields) as JSON-ready data."""
        return _fields_of(self)


def _fields_of(obj: Any) -> dict[str, Any]:
    """A dataclass instance's fields as JSON-ready data (``from_`` named ``from``)."""
    return {key: _plain(getattr(obj, name)) for name, key in _names_of(type(obj))}


_NAMES: dict[type, tuple[tuple[str, str], ...]] = {}


def _names_of(cls: type) -> tuple[tuple[str, str], ...]:
    """A dataclass's field names and their JSON keys (``from_`` as ``from``), found once."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple((f.name, f.name.removesuffix("_")) for f in fields(cls))
    return names


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """Tuples as lists and dataclasses as dicts, recursively (JSON-ready event data)."""
    if type(value) in _SCALARS:
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return _fields_of(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


History = tuple[int, "History"] | None
"""A game's actions so far as immutable links, newest first: ``(action, earlier)``, None
for none. Applying an action is one tuple; a clone shares the links (``history_list``)."""


def history_list(history: History) -> list[Action]:
    """The actions of linked ``history``, oldest first (``State.history``)."""
    actions: list[Action] = []
    while history is not None:
        action, history = history
        actions.append(action)
    actions.reverse()
    return actions


def view_key(view: View) -> str:
    """A canonical string of ``view``: equal exactly when the two views are equal as data."""
    return json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@runtime_checkable
class View(Protocol):
    """What one seat may know (or the public, for seat None). Never holds hidden facts."""

    @property
    def player(self) -> int | None:
        """The viewing seat, None for a spectator."""
        ...

    @property
    def game(self) -> str:
        """The short name of the game the view belongs to (its registry key)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data; hidden things appear only as counts."""
        ...


class State(abc.ABC):
    """A game in progress. Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    game: Game
    """The game (seats and rules options) this state belongs to."""

    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to decide next, CHANCE for a chance point, TERMINAL when over."""

    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions in ascending order (chance outcomes at a chance point)."""

    @abc.abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance point, each outcome with its probability (never empty there); else empty.

        Deals are dealt card by card, so a chance point lists a handful of outcomes (as
        OpenSpiel's poker games deal), and ``legal_actions()`` is never empty before the end.
        """

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one chance outcome with ``rng``."""
        return sample_chance(self, rng)

    @abc.abstractmethod
    def apply(self, action: Action) -> None:
        """Apply one action (or chance outcome); raises IllegalActionError, changing nothing."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abc.abstractmethod
    def outcome(self) -> Outcome:
        """How the game stands: ongoing, won by a seat, or ranked (typed; see ``Outcome``)."""

    def returns(self) -> list[float]:
        """Each seat's result in [0, 1] (1 = won); zeros while the game goes on."""
        return self.outcome().returns(self.num_players)

    @abc.abstractmethod
    def history(self) -> list[Action]:
        """Every action and chance outcome applied since this state was dealt or loaded."""

    def information_state_key(self, player: int | None) -> str:
        """What ``player`` knows here, as a string (the key ISMCTS and the RL adapters use).

        Both games' views hold everything a seat has learnt that bears on the rest of the
        game, so the key is the canonical text of the view (``view_key``): two histories
        a seat cannot tell apart give the same key.
        """
        return view_key(self.view(player))

    @abc.abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abc.abstractmethod
    def view(self, player: int | None) -> View:
        """What ``player`` may know (None: a spectator's public view)."""

    @abc.abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The action in the game's text notation."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse text in this state; ActionParseError if unparseable, IllegalActionError if illegal."""

    @abc.abstractmethod
    def events(self) -> list[Event]:
        """What the last ``apply`` did, in order, each with its reason."""

    def events_for(self, viewer: int | None) -> list[Event]:
        """The last ``apply``'s events as ``viewer`` (None: a spectator) may see them.

        The default shows every event: override when an event can name a hidden fact.
        """
        return self.events()

    def action_text_for(self, action: Action, viewer: int | None) -> str:
        """``action`` (about to be applied here) as ``viewer`` may see it.

        The default is the plain notation: override when an action can reveal hidden facts.
        """
        return self.action_to_string(action)

    @abc.abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full position in the game's notation (all hidden facts included)."""

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """Number of seats."""


class Game(abc.ABC):
    """A game with fixed options: makes initial states, parses positions, samples views."""

    info: GameInfo

    @property
    @abc.abstractmethod
    def options(self) -> Mapping[str, Any]:
        """The rules options in force, as JSON-ready data (part of every game record)."""

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """Number of seats."""

    @abc.abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """The position after setup; the shuffle is drawn from ``random.Random(seed)``."""

    @abc.abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """A state from the game's position notation; PositionError when inconsistent."""

    @abc.abstractmethod
    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``, hidden facts sampled with ``rng``."""


class GameOptions(Protocol):
    """What ``RulesGame`` needs of a game's options: a frozen dataclass in practice.

    ``OptionsClass()`` gives the defaults and ``OptionsClass.from_json(mapping)`` reads a
    record's options (PositionError when wrong); both are looked up on ``options_type``.
    """

    @property
    def first_player(self) -> int:
        """The seat that moves first."""
        ...

    def to_record(self) -> dict[str, Any]:
        """Every option, JSON-ready, as recorded with games."""
        ...


OptionsT = TypeVar("OptionsT", bound=GameOptions)
StateT = TypeVar("StateT", bound=State)
ViewT = TypeVar("ViewT")


class RulesGame(Game, Generic[OptionsT, StateT, ViewT]):
    """The skeleton every rules package's Game shares, written once.

    A game declares its metadata and types as class attributes (``info``,
    ``options_type``, ``view_type``, ``default_players``) and keeps only what differs:
    ``new_initial_state``, ``load_state`` (its position reader) and ``determinize``. The
    seats (``info.min_players`` to ``info.max_players``), the options object
    (``options_obj``; ``options`` is its record, read-only), ``from_options``,
    ``state_from_json``, equality, hashing, ``repr`` and pickling come from here.

    Refusals: ``game.player_count`` {game, players, low, high}, ``game.first_player``
    {first_player, players}, ``game.position_players`` {players, position_players},
    ``game.view_of_another_game`` {game, view_game}, ``game.view_players`` {players,
    view_players}: all ``PositionError``.
    """

    options_type: ClassVar[type[Any]]
    """The options class (``OptionsT``): ``options_type()`` is the defaults."""
    view_type: ClassVar[type[Any]]
    """The view class (``ViewT``) ``determinize`` accepts."""
    default_players: ClassVar[int] = 2
    """The seats of ``Game()``."""

    options_obj: OptionsT
    """The options in force, as the game's options object."""

    def __init__(self, players: int | None = None, options: OptionsT | None = None) -> None:
        if players is None:
            players = self.default_players
        low, high = self.info.min_players, self.info.max_players
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
            raise PositionError(
                "game.player_count",
                game=self.info.short_name,
                players=players,
                low=low,
                high=high,
            )
        self._players = players
        self.options_obj = options if options is not None else self.options_type()
        self._options = MappingProxyType(self.options_obj.to_record())
        if self.options_obj.first_player >= players:
            raise PositionError(
                "game.first_player", first_player=self.options_obj.first_player, players=players
            )

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> Self:
        """A game from a record's options mapping (PositionError when wrong)."""
        return cls(players, cls.options_type.from_json(options))

    @property
    def options(self) -> Mapping[str, Any]:
        """All options, as recorded with games (read-only)."""
        return self._options

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._players

    @abc.abstractmethod
    def new_initial_state(self, seed: int) -> StateT:
        """The position after setup; the shuffle is drawn from ``random.Random(seed)``."""

    @abc.abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> StateT:
        """A state from the position notation, whatever its number of players."""

    def state_from_json(self, data: Mapping[str, Any]) -> StateT:
        """A state from the position notation; PositionError when inconsistent, or when it
        has another number of players than this game (``game.position_players``)."""
        state = self.load_state(data)
        self.check_position_players(state.num_players)
        return state

    def check_position_players(self, position_players: int) -> None:
        """``game.position_players`` unless a position's seats are this game's."""
        if position_players != self._players:
            raise PositionError(
                "game.position_players", players=self._players, position_players=position_players
            )

    def checked_view(self, view: View) -> ViewT:
        """``view`` if it is this game's view for its number of seats; else PositionError
        (``game.view_of_another_game``, ``game.view_players``). ``determinize`` starts here."""
        if not isinstance(view, self.view_type):
            raise PositionError(
                "game.view_of_another_game",
                game=self.info.short_name,
                view_game=_game_of_view(view),
            )
        players = getattr(view, "players", self._players)
        if players != self._players:
            raise PositionError("game.view_players", players=self._players, view_players=players)
        return cast(ViewT, view)

    @abc.abstractmethod
    def determinize(self, view: View, rng: random.Random) -> StateT:
        """A full state consistent with ``view``, hidden facts sampled with ``rng``."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RulesGame) or other.info is not self.info:
            return NotImplemented
        return (self._players, self.options_obj) == (other._players, other.options_obj)

    def __hash__(self) -> int:
        return hash((self._players, self.options_obj))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._players}, {self.options_obj!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its constructor call (games go to worker processes)."""
        return (type(self), (self._players, self.options_obj))


def _game_of_view(view: object) -> str | None:
    """The short name a view says it belongs to (None when it says none)."""
    game = getattr(view, "game", None)
    return game if isinstance(game, str) else None


class Bot(Protocol):
    """A player program: picks one of ``legal`` seeing only ``view``; randomness from ``rng``."""

    name: str

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action from ``legal``."""
        ...


@runtime_checkable
class WatchingBot(Protocol):
    """A bot that also watches the game between its decisions (inference reads the other
    seats' turns): drivers call ``observe`` after every action (``observe_all``)."""

    def observe(self, view: View) -> None:
        """The bot's seat's view after an action (any seat's, chance included)."""
        ...


def observe_all(bots: Sequence[object] | Mapping[int, object], state: State) -> None:
    """Show each seat's bot (a sequence by seat, or seats to bots) that watches
    (``WatchingBot``) its view of ``state``, the state right after an action; drivers call
    this after every action they apply."""
    seated = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    for seat, bot in seated:
        if isinstance(bot, WatchingBot):
            bot.observe(state.view(seat))


@runtime_checkable
class OracleBot(Protocol):
    """A yardstick that reads the true state (hidden facts included). Never offered to players.

    Drivers give such a bot a clone of the state instead of a view; it exists to measure
    how much hidden information costs the honest bots.
    """

    name: str
    reads_true_state: bool

    def act_on_state(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action from ``legal`` seeing the whole state."""
        ...


def choose(bot: Bot | OracleBot, state: State, player: int, rng: random.Random) -> Action:
    """Ask ``bot`` for seat ``player``'s action: a view for honest bots, a clone for oracles."""
    legal = state.legal_actions()
    if getattr(bot, "reads_true_state", False) and isinstance(bot, OracleBot):
        return bot.act_on_state(state.clone(), legal, rng)
    return bot.act(state.view(player), legal, rng)  # type: ignore[union-attr]


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw a chance outcome of ``state`` with ``rng``."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return action
    return outcomes[-1][0]
