"""A game's descriptor: everything a host needs to run a game without naming it.

OpenSpiel's ``pyspiel.load_game(name)`` and PettingZoo's registry let every tool run
every game; ours is ``pyramids.games`` (the registry), which holds one ``GameDescriptor``
per game. A descriptor is typed data: metadata, the factory, the options schema with
presets, the position loader, the event kinds, and the host-side parts (the bots' default
policy and evaluations, the terminal interface, the browser module, the RL encoding, the
native engine ...). Each game's descriptor lives with its host-side code
(``pyramids.games.<game>.descriptor``), above the rules package, which names no host.

The heavy parts are ``Lazy``: a module-level function of no arguments that imports the
part and returns it, called on first use (the terminal interface needs ``rich``, the RL
encoding ``numpy``, the native engine the extension module). A type checker sees each
part's type, import-linter sees each import, and a descriptor pickles to a worker process
(its functions travel by name). The option help lines and the presets' labels are
interface words: they are catalogue entries (``option_key``, ``preset_key``), not fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pyramids.core.game import Action, Bot, Event, Game, GameInfo, State, View
from pyramids.core.record import GameRecord

T = TypeVar("T")

Evaluation = Callable[[State], list[float]]
"""A position evaluation: a value in [0, 1] per seat (higher is better for that seat)."""

Hints = Callable[[View], Mapping[str, Any] | None]
"""A game's ``hints(view)``: the engine's answers shown beside a decision (JSON-ready)."""

PlayerStats = Callable[[Game, GameRecord], Sequence[Mapping[str, Any]]]
"""``player_stats(game, record)``: one JSON-ready dict per seat of a finished game."""

Messages = Mapping[str, Mapping[str, str]]
"""Catalogue entries by language: ``{lang: {key: sentence}}`` (``pyramids.texts``)."""


class Lazy(Generic[T]):
    """A descriptor part made on first use: ``Lazy(load)``, ``load`` a module-level function
    of no arguments that imports the part and returns it.

    ``get()`` calls ``load`` once and keeps what it returns. A pickled ``Lazy`` carries only
    its function (by name, as pickle sends functions), so a descriptor sent to a worker
    process loads its parts there; a lambda or a nested function cannot be pickled, hence
    module-level functions.
    """

    __slots__ = ("_load", "_value")

    _UNSET: Any = object()

    def __init__(self, load: Callable[[], T]) -> None:
        self._load = load
        self._value: Any = Lazy._UNSET

    def get(self) -> T:
        """The part (imported on the first call)."""
        value = self._value
        if value is Lazy._UNSET:
            value = self._value = self._load()
        return value  # type: ignore[no-any-return]

    @property
    def loader(self) -> Callable[[], T]:
        """The function that makes the part."""
        return self._load

    def __reduce__(self) -> tuple[Any, ...]:
        return (Lazy, (self._load,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lazy) and other._load == self._load

    def __hash__(self) -> int:
        return hash(self._load)

    def __repr__(self) -> str:
        name = getattr(self._load, "__qualname__", repr(self._load))
        return f"Lazy({getattr(self._load, '__module__', '?')}.{name})"


class NativeEngine(Protocol):
    """A game's native engine (``pyramids.native.<game>``): the same protocol on the native
    core (docs/NATIVE.md); ``pyramids.games.make`` picks the engine."""

    def make(self, players: int, options: Mapping[str, Any]) -> Game:
        """A game with ``players`` seats and these rules options, on the native core."""
        ...

    def load_position(self, data: Mapping[str, Any]) -> State:
        """A native state from the game's position JSON."""
        ...

    def view_record(self, view: View) -> dict[str, Any]:
        """A view as the native search reads it (the exchange form, a dict by field name)."""
        ...

    def native_of(self, state: State) -> Any:
        """The native engine's state object of a native or Python state of this game (a
        native state's own, a Python state's built from its fields)."""
        ...


class Weights(Protocol):
    """A learned value's weights (``pyramids.games.value.ValueWeights``)."""

    @property
    def weights(self) -> Sequence[float]:
        """One weight per feature."""
        ...

    @property
    def bias(self) -> float:
        """The bias."""
        ...


@dataclass(frozen=True)
class LearnedEvaluation:
    """A learned evaluation (docs/BOTS.md, "The learned evaluation"): trained weights over a
    few features per seat. ``evaluate`` is the ``Evaluation`` searches use when set to
    ``evaluation="learned"``; ``weights()`` the shipped weights (the native search reads
    them); ``features`` their names in order and ``path`` the shipped file
    (``pyramids train-eval`` writes it)."""

    evaluate: Evaluation
    weights: Callable[[], Weights]
    features: tuple[str, ...]
    path: str


class Reflex(Protocol):
    """Decisions with one right answer that the game can name (a descriptor part).

    Flaming Pyramids' call-out checks are the example: whether the pyramid breaks a rule
    is a fact of the public pyramid, so a careful player calls the tile (or says ok) and
    a careless one says ok. Search bots play the careful answer instead of searching
    (and assume every player does, inside the search); the easy level is careless at a
    seeded rate (``SearchSettings.overlook``).
    """

    def in_play(self, game: Game) -> bool:
        """Whether games with these rules have reflex decisions at all (so a search of a
        game without them pays nothing)."""
        ...

    def applies(self, legal: Sequence[Action]) -> bool:
        """Whether the decision with these sorted legal actions is a reflex (cheap)."""
        ...

    def answer(self, view: View, legal: Sequence[Action]) -> tuple[Action, Action]:
        """(careful, careless): what a player who looks plays, and one who does not."""
        ...

    def careful(self, state: State, legal: Sequence[Action]) -> Action:
        """The careful answer read off a full state (a search's own determinization): the
        same as ``answer``'s for that state's views, without building one (it depends on
        public facts only)."""
        ...


class Inference(Protocol):
    """What a game tells a search bot about the opponents' hidden cards from their moves (a
    descriptor part; ``pyramids.bots.inference`` does the rest and knows no game).

    ``before`` is a full state at the start of an opponent's turn (the bot's own
    reconstruction, hidden cards sampled), ``after`` the bot's view at its next decision.
    """

    def observed(self, before: State, after: View) -> list[Action] | None:
        """The legal actions of ``before``'s deciding seat that agree with what ``after``
        shows of its first action (None: ``after`` does not follow that turn, or tells nothing)."""
        ...

    def scores(self, view: View, legal: Sequence[Action]) -> list[float]:
        """The default policy's worth of each action of ``legal`` for the seat of ``view``
        (a decision like ``before``'s), in the order of ``legal``; higher is better."""
        ...

    def view_then(self, before: State, seat: int, now: State, after: View) -> View:
        """``seat``'s view of ``before`` with the hidden hand it would have held if it
        holds what ``now`` (a determinization of ``after``) gives it."""
        ...

    def particle(self, after: View, seat: int, now: State) -> View:
        """``after`` with ``seat``'s whole hand known as ``now`` gives it (the rest of the
        hidden cards are left to ``Game.determinize``)."""
        ...

    def hidden(self, after: View, seat: int) -> tuple[list[int], int]:
        """The cards ``seat`` may hold that the viewer of ``after`` does not know (as
        numbered by the game), and how many of its hand's cards are among them."""
        ...

    def additive(self, legal: Sequence[Action]) -> list[Action]:
        """The actions of ``legal`` whose policy scores add up over the hand's cards (a hand's
        score is the empty hand's plus each card's change); the others are rated whole."""
        ...

    def view_holding(self, before: State, seat: int, cards: Sequence[int], after: View) -> View:
        """``seat``'s view of ``before`` holding the hidden ``cards`` (of ``hidden``), the
        cards of its hand the viewer of ``after`` knows and any it showed since."""
        ...

    def particle_holding(self, after: View, seat: int, cards: Sequence[int]) -> View:
        """``after`` with ``seat``'s hidden cards known to be ``cards``."""
        ...


@dataclass(frozen=True)
class OptionSpec:
    """One rules option: its name, kind (``bool``, ``int`` or ``choice``) and default.

    ``choices`` lists a ``choice`` option's values; ``minimum``/``maximum`` bound an
    ``int``. Its one-line help is the catalogue entry ``GameDescriptor.option_key(name)``.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    """Whether ``null`` is a value (``curse``: null is the preset's choice)."""

    def __post_init__(self) -> None:
        if self.kind not in ("bool", "int", "choice"):
            raise ValueError(f"option {self.name!r}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class Preset:
    """A named set of option values; its label is the catalogue entry
    ``GameDescriptor.preset_key(name)``."""

    name: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class GameDescriptor:
    """One game as the hosts see it (see the module docstring).

    ``factory(players, options)`` makes a ``Game`` (PositionError for bad options);
    ``load_position(data)`` reads the game's position JSON into a ``State``;
    ``event_kinds`` are the game's event dataclasses. Every other part is optional (None:
    the game has none) and, but ``hints``, ``Lazy``. The parts whose types belong to a
    host (the terminal interface, the analysis part, the RL encoding) are typed here as
    far as ``core`` can say; each host checks them at the one place it reads them.
    """

    info: GameInfo
    factory: Callable[[int, Mapping[str, Any]], Game]
    load_position: Callable[[Mapping[str, Any]], State]
    options: tuple[OptionSpec, ...] = ()
    presets: tuple[Preset, ...] = ()
    default_preset: str = ""
    event_kinds: tuple[type[Event], ...] = ()
    titles: Mapping[str, str] = field(default_factory=dict)
    """The game's name for players, by language (``en``, ``fr``)."""
    browser_module: str = ""
    """The path of the table's ES module under the server's ``static/`` (empty: none)."""
    hints: Hints | None = None
    """``hints(view)``: the engine's answers the browser shows beside a decision (Flaming
    Pyramids: whether each tile fits each legal spot, and why not), so no client keeps a
    copy of a rule. A rules function, so not lazy."""
    policy: Lazy[Callable[[], Bot]] | None = None
    """A zero-argument factory of the game's default ``Bot`` (the greedy one): ``greedy``
    plays it and searches roll out with it."""
    evaluation: Lazy[Evaluation] | None = None
    """The hand-made evaluation searches use when they stop before the end."""
    learned_evaluation: Lazy[LearnedEvaluation] | None = None
    """The learned evaluation, which searches use instead of ``evaluation`` when set to
    ``evaluation="learned"``."""
    reflex: Lazy[Callable[[], Reflex]] | None = None
    """A zero-argument factory of the game's ``Reflex``: the decisions with one right
    answer (Flaming Pyramids: the call-out checks)."""
    inference: Lazy[Callable[[], Inference]] | None = None
    """A zero-argument factory of the game's ``Inference``: reading the opponents' hidden
    cards from their moves (search setting ``inference``)."""
    terminal: Lazy[object] | None = None
    """The terminal interface: a ``GameUI`` (``pyramids.cli.ui_protocol``), which only the
    CLI's ``ui_of`` reads."""
    analysis: Lazy[object] | None = None
    """An object with the optional attributes ``simulation`` (how ``simulate`` counts the
    game's events), ``seats``, ``bench`` (how ``bench`` measures it) and ``workbench``
    (what ``analyse`` measures), read by ``pyramids.analysis``."""
    rl_encoding: Lazy[Callable[[Game], object]] | None = None
    """A factory ``Game -> Encoding`` (``pyramids.games.encoding``) for ``pyramids.rl``."""
    player_stats: Lazy[PlayerStats] | None = None
    """The game's own statistics of each seat of a finished game's record, which the
    player's page adds up (numbers summed, strings counted)."""
    messages: Lazy[Messages] | None = None
    """The game's catalogue entries (event sentences, option help, preset labels), for a
    game whose words are not in the catalogue's own files."""
    native: Lazy[NativeEngine] | None = None
    """The game's native engine, the same protocol on the native core under the same
    tests; ``pyramids.games`` picks the engine (``pyramids.games.engine``)."""

    @property
    def name(self) -> str:
        """The short name: the registry key, ``View.game``, the CLI's ``--game``."""
        return self.info.short_name

    def title(self, lang: str = "en") -> str:
        """The game's name for players in ``lang`` (English when not translated)."""
        return self.titles.get(lang) or self.titles.get("en") or self.info.name

    def make(self, players: int, options: Mapping[str, Any] | None = None) -> Game:
        """A game with ``players`` seats and these rules options."""
        return self.factory(players, options or {})

    def option_key(self, option: str) -> str:
        """The catalogue key of an option's one-line help: ``option.<game>.<option>``."""
        return f"option.{self.name}.{option}"

    def preset_key(self, preset: str) -> str:
        """The catalogue key of a preset's label: ``preset.<game>.<preset>``."""
        return f"preset.{self.name}.{preset}"
