"""Advice from the search: a hint at a seat's decision, and the analysis of a finished game.

Both run the search of the offered levels (``BOT_LEVELS``, ``normal`` unless told) from one
seat's view only, as its bot would:

* ``hint(view, legal, ...)``: the best few legal actions of that view, each with the
  search's estimate of the seat's chance to win after it (``Hint``). Hosts call it at a
  human seat's turn (the server's ``POST /api/tables/{id}/hint``, the terminal's ``?``).
* ``analyse_record(record, ...)``: every decision of every seat of a finished game
  (chance draws and forced moves, with one legal action, are not decisions), each judged
  from the deciding seat's view at that moment: the seat's estimated chance to win
  before (the value of the search's preferred action), after the action it played (that
  action's estimate in the same search, or, when the search gave it too few visits to
  judge, a search of that action alone), the drop between them, and the mistakes (a drop
  of ``MISTAKE`` or more). The server stores one per finished table (``GET
  /api/tables/{id}/analysis``); ``pyramids analyse-game RECORD`` prints the same one.

An analysis is a pure function of (record, budget, seed): every search has an iteration
budget, one tree (``threads=1``) and a generator seeded from the analysis's seed and the
decision's index, so the server's analysis and the command line's are equal on any
machine with the native search (docs/BOTS.md). With inference (the Pyramids and Flags
levels), each seat's search reads the opponents' hands from their moves as the seat's
bot would have, having watched the game from that seat: ``Memory`` is fed that seat's
views only, never the record's seed or another seat's hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pyramids.bots import BOT_LEVELS, DEFAULT_LEVEL
from pyramids.bots.inference import Memory
from pyramids.bots.ismcts import ActionStats, ISMCTSBot, SearchSettings, reflex_answer
from pyramids.core import CHANCE, GameRecord, State
from pyramids.core.game import Action, View
from pyramids.core.record import ReplayStep, replay_actions
from pyramids.games import make_game

HINT_MOVES = 3
"""How many actions a hint shows, best first."""
MISTAKE = 0.10
"""A drop of the seat's estimated chance to win of this much or more marks a mistake
(10 points, as chess sites mark theirs)."""
JUDGE_VISITS = 50
"""An action the search visited fewer times than this is judged by a search of its own."""
JUDGE_SHARE = 4
"""That search of the played action alone gets this fraction (1/n) of the budget."""


class AdviceError(ValueError):
    """Advice asked where there is none to give (an ended game, a chance point, a check)."""


def advice_settings(
    game: str, players: int, *, level: str = DEFAULT_LEVEL, iterations: int | None = None
) -> SearchSettings:
    """The search a hint or an analysis runs: ``level``'s for this game and player count,
    on an iteration budget (``iterations``: another budget), one tree, so that a seed
    repeats it."""
    try:
        base = BOT_LEVELS[level].settings_for(game, players)
    except KeyError:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(BOT_LEVELS)})") from None
    budget = iterations if iterations is not None else base.iterations
    return replace(base, iterations=budget, seconds=None, threads=1, overlook=0.0)


# --- hints ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """The search's best few actions at a decision, best first, and what it cost."""

    seat: int
    moves: list[ActionStats]
    iterations: int
    seconds: float

    def to_json(self, texts: Sequence[str]) -> dict[str, Any]:
        """JSON-ready data; ``texts``: each move's action in the game's notation."""
        return {
            "seat": self.seat,
            "moves": [m.to_json(t) for m, t in zip(self.moves, texts, strict=True)],
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
        }


def is_check(view: View, legal: Sequence[Action]) -> bool:
    """Whether this decision is one the bots answer without searching (a call-out check,
    the game's ``reflex``): no hint is given there, where spotting is the game."""
    return reflex_answer(view.game, view, legal, 0.0, random.Random(0)) is not None


def recall(views: Iterable[tuple[View, Action | None]]) -> Memory:
    """What a seat's bot would remember having watched the game from the seat: ``views``
    are the seat's views after each action, oldest first, each with the action the seat
    then played at it (None when the seat did not decide there). No beliefs are carried
    (those need a search at every past decision): inference reads the opponents' moves
    since the seat's last decision."""
    memory = Memory()
    for view, action in views:
        if action is None:
            memory.observe(view)
        else:
            memory.remember(view, action)
    return memory


def seat_memory(initial: State, actions: Iterable[Action], seat: int) -> Memory:
    """``recall`` of what ``seat`` saw from ``initial`` (the game as dealt) through
    ``actions``: the game is replayed here, and only the seat's views are kept."""
    state = initial.clone()
    seen: list[tuple[View, Action | None]] = []
    for action in actions:
        if state.current_player() == seat:
            seen.append((state.view(seat), action))
        state.apply(action)
        seen.append((state.view(seat), None))
    return recall(seen)


def hint(
    view: View,
    legal: Sequence[Action],
    settings: SearchSettings,
    seed: int | str,
    *,
    memory: Memory | None = None,
    top: int = HINT_MOVES,
    engine: str | None = None,
) -> Hint:
    """The best ``top`` actions of ``legal`` for the seat of ``view``, from its view only
    (and what it remembers: ``memory``, see ``recall``), searching on ``engine`` (None:
    auto). AdviceError at a check."""
    seat = view.player
    if seat is None:
        raise AdviceError("a spectator has no decision to hint")
    if not legal:
        raise AdviceError("there is no decision to hint")
    if is_check(view, legal):
        raise AdviceError("no hint at a call-out check: spotting the mayhem is the game")
    bot = ISMCTSBot(settings, engine=engine)
    if memory is not None:
        bot.restore(memory.copy())
    result = bot.search(view, legal, random.Random(f"hint/{seed}"))
    return Hint(seat, result.stats[:top], result.iterations, result.seconds)


# --- analysis ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of a finished game, judged from the deciding seat's view."""

    index: int
    """The action's index in the record (0: its first action)."""
    seat: int
    action: str
    best: str
    """The search's preferred action (the most visited)."""
    before: float
    """The seat's estimated chance to win before deciding: the preferred action's."""
    after: float
    """Its estimated chance to win after the action it played."""
    legal: int
    played_by: str | None = None
    """Why a bot chose it for a human seat (``timeout``, ``absent``…), as the record says."""

    @property
    def drop(self) -> float:
        """How much the action played lost against the search's preferred one (≥ 0)."""
        return max(0.0, self.before - self.after)

    @property
    def mistake(self) -> bool:
        """Whether it lost ``MISTAKE`` or more."""
        return self.action != self.best and self.drop >= MISTAKE - 1e-9

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "index": self.index,
            "seat": self.seat,
            "action": self.action,
            "best": self.best,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "drop": round(self.drop, 4),
            "mistake": self.mistake,
            "legal": self.legal,
            "played_by": self.played_by,
        }


@dataclass
class Analysis:
    """A finished game's decisions, judged (``analyse_record``)."""

    game: str
    players: int
    seats: list[str]
    iterations: int
    seed: int
    level: str
    decisions: list[Decision] = field(default_factory=list)
    actions: int = 0
    cpu_seconds: float = 0.0
    """Processor time the analysis took (not part of what it found)."""

    def mistakes(self, seat: int | None = None) -> list[Decision]:
        """The decisions marked as mistakes (of ``seat`` only when given)."""
        return [d for d in self.decisions if d.mistake and (seat is None or d.seat == seat)]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; ``result`` is what it found, the rest how (``cpu_seconds``
        is the only part that differs between two runs of the same analysis)."""
        return {
            "game": self.game,
            "players": self.players,
            "seats": list(self.seats),
            "level": self.level,
            "iterations": self.iterations,
            "seed": self.seed,
            "mistake": MISTAKE,
            "actions": self.actions,
            "decisions": [d.to_json() for d in self.decisions],
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def _judge(
    bot: ISMCTSBot, view: View, legal: Sequence[Action], played: Action, key: str
) -> tuple[Action, float, float]:
    """(preferred action, its estimate, the played action's estimate) from ``view``."""
    result = bot.search(view, legal, random.Random(key))
    best = result.stats[0]
    mine = next((s for s in result.stats if s.action == played), None)
    if mine is not None and (mine.visits >= JUDGE_VISITS or mine is best):
        return best.action, best.win, mine.win
    iterations = bot.settings.iterations or 0
    alone = ISMCTSBot(
        replace(bot.settings, iterations=max(JUDGE_VISITS, iterations // JUDGE_SHARE)),
        engine=bot.engine,
    )
    alone.restore(bot.memory.copy())
    only = alone.search(view, [played], random.Random(f"{key}/played"))
    return best.action, best.win, only.stats[0].win


def analyse_record(
    record: GameRecord,
    *,
    level: str = DEFAULT_LEVEL,
    iterations: int | None = None,
    seed: int = 0,
    engine: str | None = None,
) -> Analysis:
    """Judge every decision of ``record`` (see the module doc), replaying it with
    ``core.record.replay_actions``. PositionError (a ReplayError) when it does not replay."""
    started = time.process_time()
    game = make_game(record.game, record.players, record.options, engine=engine)
    settings = advice_settings(record.game, record.players, level=level, iterations=iterations)
    state: State = game.new_initial_state(record.seed)
    bots = [ISMCTSBot(settings, engine=engine) for _ in range(record.players)]
    analysis = Analysis(
        game=record.game,
        players=record.players,
        seats=list(record.seats),
        iterations=settings.iterations or 0,
        seed=seed,
        level=level,
        actions=len(record.actions),
    )

    def judge(step: ReplayStep) -> None:
        """Judge the action about to be applied, from its seat's view (not a draw, not forced)."""
        if step.seat == CHANCE:
            return
        legal = step.state.legal_actions()
        if len(legal) < 2:
            return
        index = step.seq - 1
        view = step.state.view(step.seat)
        bot = bots[step.seat]
        best, before, after = _judge(bot, view, legal, step.action, f"analysis/{seed}/{index}")
        bot.memory.remember(view, step.action)
        analysis.decisions.append(
            Decision(
                index=index,
                seat=step.seat,
                action=step.text,
                best=step.state.action_to_string(best),
                before=before,
                after=after,
                legal=len(legal),
                played_by=record.played_by[index] if index < len(record.played_by) else None,
            )
        )

    watching = settings.inference and record.players > 2
    for step in replay_actions(state, record.actions, before=judge):
        if watching:  # with more than two seats inference reads the turns each seat watched
            for other, watcher in enumerate(bots):
                watcher.observe(step.state.view(other))
    analysis.cpu_seconds = time.process_time() - started
    return analysis
