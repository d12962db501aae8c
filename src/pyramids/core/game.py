"""The game protocol: metadata as data, a mutable State, per-seat Views, and bots.

Modelled on OpenSpiel's Python games: a Game makes States; a State knows whose
decision comes next (a seat, CHANCE, or TERMINAL), its sorted legal actions, and how
to apply one. Actions are ints; text notation is per game. Decisions in the middle
of a turn (a fall direction) are ordinary decision points owned by whoever decides.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, runtime_checkable

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


@dataclass(frozen=True)
class Event:
    """Something that happened while an action was applied, with the reason why.

    ``kind`` is a short stable word (``place``, ``collapse``, ``fire`` ...); ``data`` holds
    the facts in the game's notation; ``text_en``/``text_fr`` say what happened and why.
    """

    kind: str
    data: Mapping[str, Any]
    text_en: str
    text_fr: str

    def text(self, lang: str = "en") -> str:
        """The one-line explanation in ``lang`` ("en" or "fr")."""
        return self.text_fr if lang == "fr" else self.text_en


@runtime_checkable
class View(Protocol):
    """What one seat may know (or the public, for seat None). Never holds hidden facts."""

    @property
    def player(self) -> int | None:
        """The viewing seat, None for a spectator."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data; hidden things appear only as counts."""
        ...


class State(abc.ABC):
    """A game in progress. Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to decide next, CHANCE for a chance point, TERMINAL when over."""

    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions in ascending order (chance outcomes at a chance point)."""

    @abc.abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance point, each outcome with its probability; otherwise empty.

        A chance point with too many outcomes to list (a whole new deal of cards) may
        return an empty list, and an empty ``legal_actions()``: draw it with
        ``sample_chance``, which every driver uses.
        """

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one chance outcome with ``rng`` (games with huge outcome sets override this)."""
        return sample_chance(self, rng)

    @abc.abstractmethod
    def apply(self, action: Action) -> None:
        """Apply one action (or chance outcome); raises IllegalActionError, changing nothing."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Each seat's result in [0, 1] (1 = won); zeros while the game goes on."""

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


class Bot(Protocol):
    """A player program: picks one of ``legal`` seeing only ``view``; randomness from ``rng``."""

    name: str

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action from ``legal``."""
        ...


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
