"""A game's descriptor: everything a host needs to run a game without naming it.

OpenSpiel's ``pyspiel.load_game(name)`` and PettingZoo's registry let every tool run
every game; ours is ``pyramids.games`` (the registry), which holds one ``GameDescriptor``
per game. A descriptor is data: metadata, the factory, the options schema with presets,
the position loader, the event kinds, and the host-side parts (bots' default policy and
evaluation, terminal interface, browser module, RL encoding). The host-side parts live
above the rules layer, so the descriptor names them by dotted path (``"module:attr"``)
and ``load`` imports them when a host asks: the rules package never imports a host.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pyramids.core.game import Action, Event, Game, GameInfo, State, View

Evaluation = Callable[[State], list[float]]
"""A position evaluation: a value in [0, 1] per seat (higher is better for that seat)."""


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
    ``int``. ``help_en``/``help_fr`` are one line for the lobby and ``--help``.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    """Whether ``null`` is a value (``curse``: null is the preset's choice)."""
    help_en: str = ""
    help_fr: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("bool", "int", "choice"):
            raise ValueError(f"option {self.name!r}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class Preset:
    """A named set of option values, with its one-line label for players."""

    name: str
    options: Mapping[str, Any]
    label_en: str = ""
    label_fr: str = ""


@dataclass(frozen=True)
class GameDescriptor:
    """One game as the hosts see it (see the module docstring).

    ``factory(players, options)`` makes a ``Game`` (PositionError for bad options);
    ``load_position(data)`` reads the game's position JSON into a ``State``;
    ``event_kinds`` are the game's event dataclasses. The dotted paths name host-side
    parts: ``policy`` (a zero-argument factory of the default ``Bot``, the greedy one),
    ``evaluation`` (an ``Evaluation``), ``terminal`` (the terminal interface),
    ``rl_encoding`` (a factory ``Game -> Encoding`` of ``pyramids.rl``); ``browser_module``
    is the path of the table's ES module under the server's ``static/``.
    """

    info: GameInfo
    factory: Callable[[int, Mapping[str, Any]], Game]
    load_position: Callable[[Mapping[str, Any]], State]
    options: tuple[OptionSpec, ...] = ()
    presets: tuple[Preset, ...] = ()
    default_preset: str = ""
    event_kinds: tuple[type[Event], ...] = ()
    policy: str = ""
    evaluation: str = ""
    learned_evaluation: str = ""
    """Dotted path of the learned ``Evaluation`` (trained weights over a few features per
    seat; docs/BOTS.md, "The learned evaluation"), which searches use instead of
    ``evaluation`` when set to ``evaluation="learned"``. Optional."""
    terminal: str = ""
    analysis: str = ""
    """Dotted path of an object with ``simulation`` (how ``simulate`` counts the game's
    events) and ``bench`` (how ``bench`` measures it); both optional."""
    rl_encoding: str = ""
    browser_module: str = ""
    messages: str = ""
    """Dotted path of ``{lang: {key: sentence}}``: the game's sentences for the catalogue
    (``pyramids.texts``), for a game whose sentences are not in the catalogue's own files."""
    reflex: str = ""
    """Dotted path of a ``Reflex`` factory (zero arguments): the decisions with one right
    answer (Flaming Pyramids: the call-out checks). Optional."""
    hints: str = ""
    """Dotted path of ``hints(view) -> JSON-ready dict | None``: the engine's answers the
    browser shows beside a decision (Flaming Pyramids: whether each tile fits each legal
    spot, and why not), so no client keeps a copy of a rule."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """The game's name for players, by language (``en``, ``fr``)."""
    player_stats: str = ""
    """Dotted path of ``player_stats(game, record) -> list[dict]``: one JSON-ready dict per
    seat of a finished game's record (``GameRecord``), the game's own statistics of each
    seat, which the player's page adds up (numbers summed, strings counted). Optional."""
    inference: str = ""
    """Dotted path of an ``Inference`` factory (zero arguments): reading the opponents'
    hidden cards from their moves (search setting ``inference``). Optional."""
    native: str = ""
    """Dotted path of the game's native engine: an object with ``make(players, options)
    -> Game`` and ``load_position(data) -> State`` on the native core, the same protocol
    under the same tests. Optional; ``pyramids.games`` picks the engine
    (``pyramids.games.engine``)."""

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

    def load(self, part: str) -> Any:
        """The host-side part named by field ``part`` (``policy``, ``terminal`` ...), imported.

        LookupError when the game does not provide it.
        """
        path = getattr(self, part)
        if not isinstance(path, str) or not path:
            raise LookupError(f"game {self.name!r} provides no {part}")
        return load_path(path)


def load_path(path: str) -> Any:
    """The object named by ``"package.module:attr"``."""
    module, _, attr = path.partition(":")
    obj: Any = importlib.import_module(module)
    for name in attr.split(".") if attr else ():
        obj = getattr(obj, name)
    return obj
