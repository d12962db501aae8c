"""How ``simulate`` counts Pyramids and Flags and how ``bench`` measures it.

Named by the descriptor's ``analysis`` field: ``simulate`` counts flags, captures,
exchanges, trees and tree actions (PF-SCORE, PF-CAPTURE, PF-SWAP, PF-TREE) and how a game
ended (PF-WIN); a turn is a move or an exchange (PF-WIN-5), as ``bench`` counts it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from pyramids.analysis.bench import DefaultSetup, NativeTargets
from pyramids.analysis.workbench import catalogue_label
from pyramids.core import Event
from pyramids.core.game import Game, State
from pyramids.flags.actions import MOVE_BASE, TAKE_BASE
from pyramids.flags.cards import CARDS, CODES

FLAGS_EVENT_KINDS = (
    "flag",
    "take_bank",
    "take_opponent",
    "swap",
    "tree_R",
    "tree_B",
    "tree_G",
    "tree_Y",
    "tree_K",
    "tree_W",
    "split",
    "trade",
    "grow",
    "newstart",
    "pirate",
    "wild",
    "decline",
    "lapse",
)
"""What ``simulate`` counts: flags scored, pieces taken from the bank or from an opponent,
exchanges, trees made by colour (PF-TREE-1), then the tree actions used (``split`` once
per tower destroyed), declined or lapsed."""
WIN_CONDITIONS = ("flags", "group", "points")
"""The win conditions (PF-WIN), as the engine's win events name them."""


class FlagsTally:
    """``simulate``'s counts (``FLAGS_EVENT_KINDS``); a turn is a move or an exchange."""

    section = "events"
    kinds = FLAGS_EVENT_KINDS
    conditions = WIN_CONDITIONS
    endings: Mapping[str, str] = {
        "max_turns": "games_ended_by_max_turns",
        "deck_out": "games_ended_by_empty_deck",
    }
    _own = frozenset(FLAGS_EVENT_KINDS) - {"take_bank", "take_opponent"}
    """Kinds counted under their own name (takes by source, trees by colour)."""

    def key(self, event: Event) -> str | None:
        """The count an event adds to, if any."""
        kind = event.kind
        if kind in self._own:
            return kind
        if kind == "take":
            return "take_bank" if event.data["from"] is None else "take_opponent"
        if kind == "tree":
            return f"tree_{event.data['colour']}"
        return None

    def turns(self, events: Sequence[Event]) -> int:
        """A turn per move or exchange (PF-WIN-5)."""
        return sum(1 for e in events if e.kind in ("move", "swap"))

    def condition(self, event: Event) -> str | None:
        """The win condition of a win event."""
        return str(event.data["condition"]) if event.kind == "win" else None


# --- the workbench (pyramids analyse) -----------------------------------------------------

CARD_BY_CODE = dict(zip(CODES, CARDS, strict=True))
"""Every goal card by its code."""
HAND_EVENTS = frozenset({"draw", "swap", "trade", "newstart", "pirate", "grow", "wild"})
"""Events after which a seat's hand may hold a card it did not hold before."""


def _label(key: str, **facts: object) -> dict[str, str]:
    """The catalogue entry ``workbench.flags.<key>`` in every language."""
    return catalogue_label(f"workbench.flags.{key}", **facts)


class FlagsFacts:
    """One game's per-seat facts for ``pyramids analyse`` (``pyramids.analysis.workbench``).

    An event is triggered by the seat it names; the holdings are every goal card a seat held
    at some point of the game (its hand read from its own view at the first decision and
    after each event that can bring it a card), and ``done`` the cards it scored (PF-SCORE).
    """

    _tally = FlagsTally()

    def __init__(self, game: Game) -> None:
        n = game.num_players
        self.triggered: list[dict[str, int]] = [
            dict.fromkeys(FLAGS_EVENT_KINDS, 0) for _ in range(n)
        ]
        self.held: list[dict[str, None]] = [{} for _ in range(n)]
        self.done: list[list[str]] = [[] for _ in range(n)]
        self.started = False

    def _read_hands(self, state: State) -> None:
        for seat in range(state.num_players):
            hands = state.view(seat).to_json()["hands"]
            for card in hands[seat]:
                self.held[seat][str(card)] = None

    def step(self, state: State, events: Sequence[Event]) -> None:
        """Count the events of the last action; note the hands when they may have changed."""
        reread = not self.started and state.current_player() >= 0
        for event in events:
            key = self._tally.key(event)
            seat = event.data.get("seat")
            if key is not None and isinstance(seat, int):
                self.triggered[seat][key] += 1
            if event.kind == "flag" and isinstance(seat, int):
                self.done[seat].append(str(event.data["card"]))
            if event.kind in HAND_EVENTS:
                reread = True
        if reread and not state.is_terminal():
            self.started = True
            self._read_hands(state)

    def finish(self, state: State) -> list[dict[str, object]]:
        """Per seat: ``triggered`` by kind, no direct ``cost``, ``held`` and ``done`` cards."""
        for seat, cards in enumerate(self.done):
            for card in cards:  # a card scored was held, even if drawn and scored in one go
                self.held[seat][card] = None
        return [
            {
                "triggered": self.triggered[seat],
                "cost": {},
                "held": list(self.held[seat]),
                "done": self.done[seat],
            }
            for seat in range(len(self.triggered))
        ]


class FlagsWorkbench:
    """What ``pyramids analyse`` measures in Pyramids and Flags (docs/WORKBENCH.md).

    Every word is a catalogue entry ``workbench.flags.<key>`` (``pyramids.texts``,
    ``messages/<lang>/workbench.json``), given to the workbench in every language
    (``catalogue_label``): the counted events' names (``event.<kind>``, PF-SCORE,
    PF-CAPTURE, PF-SWAP, PF-TREE), the win conditions (``condition.<condition>``, PF-WIN),
    the option changes (``variant.<change>``) and the cards' tower heights (``tower``).
    """

    cost_label: ClassVar[Mapping[str, str] | None] = None

    @property
    def turn_unit(self) -> dict[str, str]:
        """A turn: a move or an exchange (PF-WIN-5)."""
        return _label("turn_unit")

    @property
    def kinds(self) -> tuple[tuple[str, dict[str, str]], ...]:
        """The counted events (``FLAGS_EVENT_KINDS``) with their names."""
        return tuple((k, _label(f"event.{k}")) for k in FLAGS_EVENT_KINDS)

    @property
    def conditions(self) -> tuple[tuple[str, dict[str, str]], ...]:
        """The win conditions (``WIN_CONDITIONS``) with their names."""
        return tuple((k, _label(f"condition.{k}")) for k in WIN_CONDITIONS)

    @property
    def holding(self) -> dict[str, str]:
        """What a seat holds: a goal card."""
        return _label("holding")

    @property
    def holding_explain(self) -> dict[str, str]:
        """How the goal cards held are measured."""
        return _label("holding_explain")

    @property
    def done_label(self) -> dict[str, str]:
        """What a holder does with a goal card: scores it."""
        return _label("done_label")

    def variants(
        self, options: Mapping[str, object]
    ) -> list[tuple[str, dict[str, str], dict[str, object]]]:
        """The option changes compared with ``options`` (the base): tree actions on or off."""
        actions = not options.get("actions", True)
        name = "actions" if actions else "no_actions"
        return [(name, _label(f"variant.{name}"), {"actions": actions})]

    def kind_of(self, item: str) -> tuple[str, dict[str, str]] | None:
        """A card's tower height (two or three pieces), the holdings' grouping."""
        card = CARD_BY_CODE.get(item)
        if card is None:
            return None
        n = len(card.tower)
        return f"tower_{n}", _label("tower", pieces=n)

    def facts(self, game: Game) -> FlagsFacts:
        """The per-seat fact counter of one new game."""
        return FlagsFacts(game)


class Analysis:
    """The Pyramids and Flags entry for ``simulate``, ``bench`` and ``analyse``."""

    simulation = FlagsTally()
    workbench = FlagsWorkbench()
    bench = DefaultSetup(
        turn_actions=(MOVE_BASE, TAKE_BASE),
        sample_states=30,
        key_suffix="_flags",
        native_targets=NativeTargets(greedy=100.0),  # issue 11: Flags greedy >= 100x
    )
