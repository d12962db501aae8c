"""How ``simulate`` and ``tournament`` count Flaming Pyramids and how ``bench`` measures it.

Named by the descriptor's ``analysis`` field: ``simulate`` counts the mayhem events
(FP-MAYHEM) and a turn per placement; ``bench`` measures every preset with every player
count, a turn being a placement. In call-out games (FP-CALL) ``CheckTally`` counts, per
seat, the checks it made and what it did about the mayhem standing at them, and what
overlooked mayhem cost when it was found later (docs/TOURNAMENTS.md, "Call-out checks").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pyramids.analysis.bench import DefaultSetup
from pyramids.analysis.workbench import catalogue_label
from pyramids.core import Event
from pyramids.core.game import Game, State
from pyramids.flaming.actions import CHECK_OK, PLACE_BASE
from pyramids.flaming.events import Cell, Collapse, Curse, DieExplosion, Explosion, Fire, Place
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.mayhem import standing_mayhem
from pyramids.flaming.options import CALLOUT_MODES, PRESETS, FlamingOptions
from pyramids.flaming.state import NONE, FlamingState
from pyramids.flaming.tiles import BY_NAME, MATERIAL
from pyramids.games.flaming.evaluation import is_flaming_state

MAYHEM_KINDS = ("free_air", "collapse", "explosion", "fire", "die_explosion", "quench", "curse")
"""Event kinds ``simulate`` counts as mayhem, in the contract's check order, then the die's."""


class MayhemTally:
    """``simulate``'s counts: the mayhem events (FP-MAYHEM); a turn is one placement."""

    section = "mayhem"
    kinds = MAYHEM_KINDS
    conditions: tuple[str, ...] = ()
    endings: Mapping[str, str] = {"max_turns": "games_ended_by_max_turns"}
    _counted = frozenset(MAYHEM_KINDS)

    def key(self, event: Event) -> str | None:
        """The event's kind when it is mayhem."""
        return event.kind if event.kind in self._counted else None

    def turns(self, events: Sequence[Event]) -> int:
        """One turn per placement."""
        return sum(1 for e in events if e.kind == "place")

    def condition(self, event: Event) -> str | None:
        """Flaming Pyramids has one way to win (FP-END-2)."""
        return None


# --- call-out checks (FP-CALL) ------------------------------------------------------------

CHECK_FIELDS = (
    "checks",
    "mayhem_standing",
    "right_calls",
    "overlooked",
    "overlooked_ok",
    "overlooked_false_alarm",
    "false_alarms_clean",
    "found_overlooked",
    "overlooks_found_later",
    "overlooks_not_found",
    "tiles_out",
    "tiles_to_active_pile",
    "tiles_avoided_by_opponents",
    "found_tiles_out",
    "found_tiles_to_active_pile",
)
"""The counts per seat (and per bot, summed over its seats), in report order.

Per check the seat made: ``checks``; ``mayhem_standing`` (a call would have been right);
``right_calls``; ``overlooked`` = ``overlooked_ok`` + ``overlooked_false_alarm`` (ok, or
a wrong call, while mayhem stood); ``false_alarms_clean`` (a call over a clean pyramid);
``found_overlooked`` (right calls that found mayhem overlooked at an earlier check).
So ``mayhem_standing = right_calls + overlooked`` and ``checks = mayhem_standing + ok
over a clean pyramid + false_alarms_clean``.

Per overlook *episode* the seat took part in (an episode runs from a check that leaves
mayhem standing on a pyramid that held no overlooked mayhem to the right call that
resolves it, or to the end of the game or of the overlooked mark: every seat that
overlooked during it took part, each once): ``overlooks_found_later`` (ended by a right
call), ``overlooks_not_found``; and of the tiles the penalized resolution (FP-CALL-6)
sent away, ``tiles_out`` (out of the game: family), ``tiles_to_active_pile`` (under the
pile of the player whose turn it was: competitive) and ``tiles_avoided_by_opponents``
(out of the game or under the overlooker's own pile: tiles that, the mayhem overlooked,
did not end with any of the overlooker's opponents). Embers that leave the game as they
always do are not counted. Several overlookers of one episode each count its tiles, so
these do not add up over seats; ``found_tiles_out`` and ``found_tiles_to_active_pile``
count the same tiles once, for the seat whose right call found the overlooked mayhem.
"""

RATES = ("overlook_rate", "false_alarm_rate")
"""``overlooked / mayhem_standing`` and ``false_alarms_clean / (checks - mayhem_standing)``."""


def sent_tiles(event: Event) -> tuple[int | None, int] | None:
    """(whose pile, or None for out of the game; how many tiles) an event sends away.

    None for an event that sends no tile under a pile (embers leaving the game excepted).
    """
    tiles: tuple[Cell, ...]
    if isinstance(event, Collapse):
        tiles, seat = event.collapsed, event.seat
    elif isinstance(event, Explosion | DieExplosion):
        tiles, seat = event.victims, event.seat
    elif isinstance(event, Fire):
        tiles, seat = event.burnt, event.seat
    elif isinstance(event, Curse):
        tiles, seat = event.tiles, event.target
    else:
        return None
    return (None if event.out else seat), len(tiles)


@dataclass
class _Episode:
    """Overlooked mayhem standing: the seats that overlooked it so far."""

    overlookers: set[int] = field(default_factory=set)
    caller: int | None = None
    """The seat whose right call found it."""
    found: bool = False
    """A right call found it; its penalized resolution is under way."""
    active: int = 0
    """The active player at the right call (whose pile competitive tiles go under)."""
    out: int = 0
    to_active: int = 0
    by_dest: dict[int, int] = field(default_factory=dict)
    """Tiles under each seat's pile in the penalized resolution."""


class GameChecks:
    """One game's check counts, fed every state after an apply (``step``)."""

    def __init__(self, players: int, curse_on: bool) -> None:
        self.counts = [dict.fromkeys(CHECK_FIELDS, 0) for _ in range(players)]
        self.curse_on = curse_on
        self.pending: tuple[int, int, bool] | None = None
        """(checker, active player, mayhem standing) of the check pending now (none in a new game)."""
        self.episode: _Episode | None = None

    def _look(self, state: FlamingState) -> None:
        """Note the check that is pending now, with whether mayhem stands (candidates kept)."""
        checker = state.checker
        if checker is None:
            self.pending = None
            return
        pos = state.position
        kept = set(pos.candidates)
        standing = standing_mayhem(pos, self.curse_on)
        pos.candidates = kept
        self.pending = (checker, state.to_move, standing)
        if not pos.overlooked and self.episode is not None and not self.episode.found:
            self._close(found=False)  # the overlooked mark is gone: nothing left to find

    def _close(self, *, found: bool) -> None:
        episode = self.episode
        assert episode is not None
        for seat in episode.overlookers:
            c = self.counts[seat]
            if not found:
                c["overlooks_not_found"] += 1
                continue
            c["overlooks_found_later"] += 1
            c["tiles_out"] += episode.out
            c["tiles_to_active_pile"] += episode.to_active
            c["tiles_avoided_by_opponents"] += episode.out + episode.by_dest.get(seat, 0)
        if found and episode.caller is not None:
            c = self.counts[episode.caller]
            c["found_tiles_out"] += episode.out
            c["found_tiles_to_active_pile"] += episode.to_active
        self.episode = None

    def step(self, state: State, events: Sequence[Event]) -> None:
        """Count what the last action did (``events``); ``state`` is the state after it."""
        if not is_flaming_state(state):
            raise TypeError("CheckTally counts Flaming Pyramids games")
        pending = self.pending
        if pending is not None:
            self._answer(pending, events)
        episode = self.episode
        if episode is not None and episode.found:
            for event in events:
                sent = sent_tiles(event)
                if sent is None:
                    continue
                seat, count = sent
                if seat is None:
                    episode.out += count
                else:
                    episode.by_dest[seat] = episode.by_dest.get(seat, 0) + count
                    if seat == episode.active:
                        episode.to_active += count
            if state.is_terminal() or state.pending[0] == NONE:
                self._close(found=True)  # the turn is over: so is the resolution
        self._look(state)

    def _answer(self, pending: tuple[int, int, bool], events: Sequence[Event]) -> None:
        checker, active, standing = pending
        answer = next((e for e in events if e.kind in ("check_ok", "false_alarm", "call")), None)
        if answer is None:
            return
        c = self.counts[checker]
        c["checks"] += 1
        if standing:
            c["mayhem_standing"] += 1
        if answer.kind == "call":
            c["right_calls"] += 1
            if getattr(answer, "overlooked", False):
                c["found_overlooked"] += 1
                episode = self.episode or _Episode()  # (always open: the engine's mark is ours)
                episode.found = True
                episode.caller = checker
                episode.active = active
                self.episode = episode
            elif self.episode is not None:  # cannot happen: the engine keeps the mark
                self._close(found=False)
            return
        if not standing:
            if answer.kind == "false_alarm":
                c["false_alarms_clean"] += 1
            return
        c["overlooked"] += 1
        c["overlooked_ok" if answer.kind == "check_ok" else "overlooked_false_alarm"] += 1
        if self.episode is None:
            self.episode = _Episode()
        self.episode.overlookers.add(checker)

    def finish(self, state: State) -> list[dict[str, int]]:
        """The counts per seat once the game is over (an episode still open was not found)."""
        if self.episode is not None:
            self._close(found=self.episode.found)
        return self.counts


class CheckTally:
    """Per-seat counts of the call-out checks (FP-CALL), for ``simulate`` and ``tournament``.

    Applies only to games with the ``callout`` option on; see ``CHECK_FIELDS``.
    """

    section = "checks"
    fields = CHECK_FIELDS
    rates = RATES

    def applies(self, game: Game) -> bool:
        """Whether ``game`` is played in call-out mode."""
        return str(game.options.get("callout", "off")) != "off"

    def start(self, game: Game) -> GameChecks:
        """The counter of one new game of ``game``."""
        if not isinstance(game, FlamingGame):
            raise TypeError("CheckTally counts Flaming Pyramids games")
        return GameChecks(game.num_players, game.curse_on)

    def rate_values(self, counts: Mapping[str, int]) -> dict[str, float | None]:
        """The rates of ``RATES`` from summed counts (None when there is nothing to divide by)."""
        clean = counts["checks"] - counts["mayhem_standing"]
        standing = counts["mayhem_standing"]
        return {
            "overlook_rate": round(counts["overlooked"] / standing, 4) if standing else None,
            "false_alarm_rate": round(counts["false_alarms_clean"] / clean, 4) if clean else None,
        }


# --- the workbench (pyramids analyse) -----------------------------------------------------


class FlamingFacts:
    """One game's per-seat facts for ``pyramids analyse`` (``pyramids.analysis.workbench``).

    Mayhem is the placer's (FP-MAYHEM: the seat whose placement set it off, as
    ``stats.player_stats`` counts it); its cost is the tiles that event sent under the
    placer's own pile (a curse sends them to the player on the right, FP-CURSE, so it costs
    its placer nothing). The holdings are the five tiles each seat is dealt (FP-SETUP).
    """

    _counted = frozenset(MAYHEM_KINDS)

    def __init__(self, game: Game) -> None:
        n = game.num_players
        self.triggered: list[dict[str, int]] = [dict.fromkeys(MAYHEM_KINDS, 0) for _ in range(n)]
        self.cost: list[dict[str, float]] = [dict.fromkeys(MAYHEM_KINDS, 0.0) for _ in range(n)]
        self.held: list[list[str]] | None = None
        self.placer: int | None = None

    def step(self, state: State, events: Sequence[Event]) -> None:
        """Count the mayhem of the last action; note the deal at the first decision."""
        if self.held is None and state.current_player() >= 0:
            self.held = [
                [str(t) for t in state.view(seat).to_json()["hand"]]
                for seat in range(state.num_players)
            ]
        for event in events:
            if isinstance(event, Place):
                self.placer = event.seat
                continue
            kind = event.kind
            if kind not in self._counted or self.placer is None:
                continue
            placer = self.placer
            self.triggered[placer][kind] += 1
            sent = sent_tiles(event)
            if sent is not None and sent[0] == placer:
                self.cost[placer][kind] += sent[1]

    def finish(self, state: State) -> list[dict[str, object]]:
        """Per seat: ``triggered`` and ``cost`` by kind, ``held`` (the dealt tiles), ``done``."""
        return [
            {
                "triggered": self.triggered[seat],
                "cost": self.cost[seat],
                "held": (self.held or [[] for _ in self.triggered])[seat],
                "done": [],
            }
            for seat in range(len(self.triggered))
        ]


def _label(key: str, **facts: object) -> dict[str, str]:
    """The catalogue entry ``workbench.flaming.<key>`` in every language."""
    return catalogue_label(f"workbench.flaming.{key}", **facts)


def _rules_key(options: Mapping[str, object]) -> tuple[frozenset[int], bool, bool, str]:
    """What decides the rules of a game with ``options``: its tiles, curse, die, call-out."""
    known = {f: options[f] for f in ("preset", "curse", "fire_die", "callout") if f in options}
    rules = FlamingOptions(**known)  # type: ignore[arg-type]
    return rules.tiles, bool(rules.curse), bool(rules.fire_die), rules.callout


class FlamingWorkbench:
    """What ``pyramids analyse`` measures in Flaming Pyramids (docs/WORKBENCH.md).

    Every word is a catalogue entry ``workbench.flaming.<key>`` (``pyramids.texts``,
    ``messages/<lang>/workbench.json``), given to the workbench in every language
    (``catalogue_label``): the mayhem kinds' names (``mayhem.<kind>``, FP-MAYHEM), the
    tiles' materials (``material.<material>``), the call-out modes (``callout.<mode>``) and
    the option changes (``variant.<change>``).
    """

    conditions: tuple[tuple[str, dict[str, str]], ...] = ()
    done_label: ClassVar[Mapping[str, str] | None] = None

    @property
    def turn_unit(self) -> dict[str, str]:
        """A turn: a placement."""
        return _label("turn_unit")

    @property
    def kinds(self) -> tuple[tuple[str, dict[str, str]], ...]:
        """The mayhem kinds (``MAYHEM_KINDS``) with their names."""
        return tuple((k, _label(f"mayhem.{k}")) for k in MAYHEM_KINDS)

    @property
    def cost_label(self) -> dict[str, str]:
        """Mayhem's cost: the tiles it sent under its placer's own pile."""
        return _label("cost_label")

    @property
    def holding(self) -> dict[str, str]:
        """What a seat holds: a tile."""
        return _label("holding")

    @property
    def holding_explain(self) -> dict[str, str]:
        """How the tiles dealt are measured (FP-SETUP)."""
        return _label("holding_explain")

    def variants(
        self, options: Mapping[str, object]
    ) -> list[tuple[str, dict[str, str], dict[str, object]]]:
        """The option changes compared with ``options`` (the base): (name, label, options).

        Each other preset, the curse and the fire die switched, each other call-out mode;
        a change that gives the same rules as the base or as an earlier change (the
        standard preset without the curse is the family preset, FP-OPT-1) is left out.
        """
        preset = str(options.get("preset", "standard"))
        curse_on = _rules_key(options)[1]
        candidates: list[tuple[str, dict[str, str], dict[str, object]]] = [
            (f"preset_{p}", _label("variant.preset", preset=p), {"preset": p})
            for p in PRESETS
            if p != preset
        ]
        curse = "no_curse" if curse_on else "curse"
        candidates.append((curse, _label(f"variant.{curse}"), {"curse": not curse_on}))
        die = "no_fire_die" if options.get("fire_die") else "fire_die"
        candidates.append((die, _label(f"variant.{die}"), {"fire_die": die == "fire_die"}))
        for mode in CALLOUT_MODES:
            if mode != options.get("callout", "off"):
                candidates.append((f"callout_{mode}", _label(f"callout.{mode}"), {"callout": mode}))
        seen = {_rules_key(options)}
        out = []
        for name, label, changed in candidates:
            key = _rules_key({**options, **changed})
            if key not in seen:
                seen.add(key)
                out.append((name, label, changed))
        return out

    def kind_of(self, item: str) -> tuple[str, dict[str, str]] | None:
        """A tile's material (FP-TILE-2..6), the holdings' grouping: ``("wood", {...})``."""
        index = BY_NAME.get(item)
        if index is None:
            return None
        material = MATERIAL[index].name.lower()
        return material, _label(f"material.{material}")

    def facts(self, game: Game) -> FlamingFacts:
        """The per-seat fact counter of one new game."""
        return FlamingFacts(game)


class Analysis:
    """The Flaming Pyramids entry for ``simulate``, ``tournament`` and ``bench``.

    A turn for ``bench`` is a placement: the actions from PLACE_BASE up to the check
    actions (``pyramids.flaming.actions.is_place``).
    """

    simulation = MayhemTally()
    seats = CheckTally()
    workbench = FlamingWorkbench()
    bench = DefaultSetup(presets=PRESETS, turn_actions=(PLACE_BASE, CHECK_OK), sample_states=60)
