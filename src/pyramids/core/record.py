"""Game records (rules options, seed, actions) and the seeded driver that makes them.

A record is the whole truth about a game: replaying its actions on the initial
state of its seed reproduces every state exactly. Actions are stored as text in the
game's notation so records stay readable and survive changes of action numbering.

:func:`replay_actions` is the one replay loop: the server's rebuild after a restart and
its replay page, ``verify_record``, ``pyramids replay`` and the notebooks' tables all
replay through it, each adding its own checks (``deciders``, ``before``).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pyramids.core.clock import RecordClock, format_time, parse_time
from pyramids.core.errors import PositionError, PyramidsError
from pyramids.core.game import (
    CHANCE,
    Action,
    Bot,
    Game,
    OracleBot,
    State,
    choose,
    observe_all,
)

RECORD_FORMAT = 1


ENDED_BY_FORFEIT = "forfeit"
"""A record's ``ended`` when forfeits on time left one seat standing (``GameRecord.ended``)."""


@dataclass
class GameRecord:
    """A game as (game name, rules options, seed, actions), plus who played."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int
    actions: list[str] = field(default_factory=list)
    rules_version: str = ""
    seats: list[str] = field(default_factory=list)
    salt: str | None = None
    """A server table's salt (revealed with the seed once the game is over)."""
    commitment: str | None = None
    """A server table's commitment to its seed (``pyramids.core.fairness.commitment``)."""
    seeded: bool = False
    """The seed was chosen by a client, not drawn by the server."""
    forfeits: list[int] = field(default_factory=list)
    """Seats that forfeited on time at a server table, in order (their later decisions
    were the server's stand-in bot's, and they rank last)."""
    ended: str | None = None
    """``forfeit``: the table ended the game when forfeits left one seat standing, before
    its rules did (the last state is then not terminal); None: the rules ended it."""
    forfeited_at: list[int] = field(default_factory=list)
    """For each seat of ``forfeits``, the seq at which its time ran out (the number of
    actions played before that decision of the seat): what ``pyramids verify`` checks."""
    clock: RecordClock | None = None
    """A server table's clock (None: it had none, so nobody could forfeit on time)."""
    started: dt.datetime | None = None
    """When a server table began running: its first decision's start."""
    times: list[dt.datetime] = field(default_factory=list)
    """When the server stored each action (one per action, in order): every clock follows
    from ``started`` and these (``pyramids.core.clock.banks_at``)."""
    finished: dt.datetime | None = None
    """When the game ended: for a forfeit that ended it, when the time ran out."""
    turn_time: float | None = None
    """A server table without a clock: the seconds each decision had before a bot played
    it (None: a clock's table, or not a server record)."""
    forfeit_after: int | None = None
    """A rated table without a clock: the turn times in a row a seat may let run out, the
    last of them forfeiting (None: nobody forfeits on turn time)."""
    played_by: list[str | None] = field(default_factory=list)
    """Why a bot chose each action for a human seat (``timeout``, ``absent``, ``clock``,
    ``forfeit``; None: its player, a bot seat or a chance draw), one per action."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (``salt``, ``commitment`` and ``seeded`` only for a committed seed)."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": list(self.actions),
        }
        if self.commitment is not None:
            data["salt"] = self.salt
            data["commitment"] = self.commitment
            data["seeded"] = self.seeded
        if self.forfeits:
            data["forfeits"] = list(self.forfeits)
        if self.ended is not None:
            data["ended"] = self.ended
        if self.forfeited_at:
            data["forfeited_at"] = list(self.forfeited_at)
        if self.clock is not None:
            data["clock"] = self.clock.to_json()
        if self.started is not None:
            data["started"] = format_time(self.started)
        if self.times:
            data["times"] = [format_time(t) for t in self.times]
        if self.finished is not None:
            data["finished"] = format_time(self.finished)
        if self.turn_time is not None:
            data["turn_time"] = self.turn_time
        if self.forfeit_after is not None:
            data["forfeit_after"] = self.forfeit_after
        if self.played_by:
            data["played_by"] = list(self.played_by)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Parse a record; PositionError says which field is wrong."""
        try:
            game = data["game"]
            options = data["options"]
            players = data["players"]
            seed = data["seed"]
            actions = data["actions"]
        except (KeyError, TypeError) as exc:
            raise PositionError(f"record is missing the field {exc}") from None
        if not isinstance(game, str):
            raise PositionError("record field 'game' must be a string")
        if not isinstance(options, dict):
            raise PositionError("record field 'options' must be an object")
        if not isinstance(players, int) or isinstance(players, bool):
            raise PositionError("record field 'players' must be an integer")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError("record field 'seed' must be an integer")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise PositionError("record field 'actions' must be a list of strings")
        seats = data.get("seats", [])
        salt, commit, seeded = data.get("salt"), data.get("commitment"), data.get("seeded", False)
        if salt is not None and not isinstance(salt, str):
            raise PositionError("record field 'salt' must be a string")
        if commit is not None and not isinstance(commit, str):
            raise PositionError("record field 'commitment' must be a string")
        if not isinstance(seeded, bool):
            raise PositionError("record field 'seeded' must be a boolean")
        forfeits, ended = data.get("forfeits") or [], data.get("ended")
        if not isinstance(forfeits, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in forfeits
        ):
            raise PositionError(
                f"record field 'forfeits' must be a list of seats (0 to {players - 1})"
            )
        if ended is not None and ended != ENDED_BY_FORFEIT:
            raise PositionError(
                f"record field 'ended' must be {ENDED_BY_FORFEIT!r} when present, not {ended!r}"
            )
        forfeited_at = data.get("forfeited_at") or []
        if not isinstance(forfeited_at, list) or not all(
            isinstance(q, int) and not isinstance(q, bool) and 0 <= q <= len(actions)
            for q in forfeited_at
        ):
            raise PositionError(
                "record field 'forfeited_at' must be a list of seqs (0 to the number of actions)"
            )
        if forfeited_at and len(forfeited_at) != len(forfeits):
            raise PositionError("record field 'forfeited_at' must have one seq per forfeit")
        times = data.get("times") or []
        if not isinstance(times, list) or (times and len(times) != len(actions)):
            raise PositionError("record field 'times' must be a list of one time per action")
        clock, started, finished = data.get("clock"), data.get("started"), data.get("finished")
        played_by = data.get("played_by") or []
        if not isinstance(played_by, list) or (played_by and len(played_by) != len(actions)):
            raise PositionError("record field 'played_by' must be a list of one entry per action")
        if not all(p is None or isinstance(p, str) for p in played_by):
            raise PositionError("record field 'played_by' holds a reason (text) or null")
        turn_time, forfeit_after = data.get("turn_time"), data.get("forfeit_after")
        if turn_time is not None and (
            not isinstance(turn_time, int | float) or isinstance(turn_time, bool) or turn_time < 0
        ):
            raise PositionError("record field 'turn_time' must be a number of seconds")
        if forfeit_after is not None and (
            not isinstance(forfeit_after, int)
            or isinstance(forfeit_after, bool)
            or forfeit_after < 1
        ):
            raise PositionError("record field 'forfeit_after' must be a whole number above 0")
        return cls(
            game=game,
            options=dict(options),
            players=players,
            seed=seed,
            actions=list(actions),
            rules_version=str(data.get("rules_version", "")),
            seats=[str(s) for s in seats] if isinstance(seats, list) else [],
            salt=salt,
            commitment=commit,
            seeded=seeded,
            forfeits=list(forfeits),
            ended=ended,
            forfeited_at=list(forfeited_at),
            clock=RecordClock.from_json(clock) if clock is not None else None,
            started=parse_time(started, "started") if started is not None else None,
            times=[parse_time(t, f"times[{i}]") for i, t in enumerate(times)],
            finished=parse_time(finished, "finished") if finished is not None else None,
            turn_time=float(turn_time) if turn_time is not None else None,
            forfeit_after=forfeit_after,
            played_by=list(played_by),
        )


class ReplayFault(StrEnum):
    """Why an action of a record does not replay."""

    ILLEGAL = "illegal"
    """It does not parse, or is not legal, in the state it comes to."""
    AFTER_END = "after_the_end"
    """It comes after the end of the game (the state it comes to is terminal)."""
    WRONG_SEAT = "wrong_seat"
    """The record stores it for another seat than the one whose decision it was."""


class ReplayError(PositionError):
    """An action of a record that does not replay: its seq, text, fault and the reason.

    The message is ``record action SEQ ('TEXT') does not apply: REASON`` (the rules'
    error), or for ``WRONG_SEAT`` says which seat was stored and whose decision it was.
    """

    def __init__(
        self,
        fault: ReplayFault,
        seq: int,
        text: str,
        reason: str,
        *,
        stored_seat: int | None = None,
        to_move: int | None = None,
    ) -> None:
        if fault is ReplayFault.WRONG_SEAT:
            message = (
                f"record action {seq} ({text!r}) is stored for seat {stored_seat} but it was "
                f"seat {to_move}'s decision"
            )
        else:
            message = f"record action {seq} ({text!r}) does not apply: {reason}"
        super().__init__(message)
        self.fault = fault
        self.seq = seq
        """The action's 1-based position in the record."""
        self.text = text
        self.reason = reason
        """The rules' error (``str`` of it); for ``WRONG_SEAT`` the message's own words."""
        self.stored_seat = stored_seat
        """``WRONG_SEAT``: the seat the record stores the action for."""
        self.to_move = to_move
        """``WRONG_SEAT``: the seat whose decision it was (``State.current_player``)."""


@dataclass(frozen=True)
class ReplayStep:
    """One action of a record replayed: its seq, who decided it, its text and number, and
    the state after it."""

    seq: int
    """The action's 1-based position in the record."""
    seat: int
    """Who decided it: a seat, or CHANCE for a chance draw."""
    text: str
    """The action as the record spells it."""
    action: Action
    state: State
    """The one state the replay plays on: after this action once the step is yielded (the
    next step changes it: clone it to keep it); in ``before``, still the state the action
    is decided in."""


def replay_actions(
    state: State,
    actions: Iterable[str],
    *,
    deciders: Iterable[int] | None = None,
    before: Callable[[ReplayStep], None] | None = None,
) -> Iterator[ReplayStep]:
    """Apply each of ``actions`` (text, in order) to ``state`` and yield a
    :class:`ReplayStep` after each: the one replay loop.

    ``state`` is changed in place: pass ``game.new_initial_state(seed)`` and read the
    initial position (its setup events) from it before the first step. ``deciders``: the
    seat the record stores for each action, checked before the action is parsed (a
    ``WRONG_SEAT`` ReplayError). ``before(step)`` is called with each parsed action before
    it is applied, while ``step.state`` is still the state it is decided in: to read what
    only that state tells (the action's text for each viewer, the seed's chance draw); it
    may raise to stop the replay. Raises ReplayError naming the first action that does
    not parse or apply (``AFTER_END`` when the game was over before it). Actions are
    pulled one at a time, so a lazy ``actions`` can check each as it comes.
    """
    seats = iter(deciders) if deciders is not None else None
    for seq, text in enumerate(actions, start=1):
        seat = state.current_player()
        if seats is not None:
            stored = next(seats)
            if stored != seat:
                raise ReplayError(
                    ReplayFault.WRONG_SEAT,
                    seq,
                    text,
                    f"stored for seat {stored}",
                    stored_seat=stored,
                    to_move=seat,
                )
        try:
            action = state.parse_action(text)
        except PyramidsError as exc:
            raise _replay_error(state, seq, text, exc) from None
        step = ReplayStep(seq, seat, text, action, state)
        if before is not None:
            before(step)
        try:
            state.apply(action)
        except PyramidsError as exc:
            raise _replay_error(state, seq, text, exc) from None
        yield step


def _replay_error(state: State, seq: int, text: str, exc: PyramidsError) -> ReplayError:
    """The error of an action the rules refuse (after the end, or illegal)."""
    fault = ReplayFault.AFTER_END if state.is_terminal() else ReplayFault.ILLEGAL
    return ReplayError(fault, seq, text, str(exc))


def replay(game: Game, record: GameRecord) -> Iterator[tuple[str, State]]:
    """Yield (action text, state after it) for every action of ``record``
    (:func:`replay_actions` from the seed's initial state).

    Raises PositionError (a ReplayError) naming the first action that does not apply.
    """
    for step in replay_actions(game.new_initial_state(record.seed), record.actions):
        yield step.text, step.state


def play_game(
    game: Game,
    bots: Sequence[Bot | OracleBot],
    seed: int,
    *,
    on_step: Callable[[State, str], None] | None = None,
    game_name: str = "",
) -> tuple[State, GameRecord]:
    """Play one game to the end: bot i plays seat i, chance is drawn from the seed.

    Each bot gets its own generator and the chance generator is separate, all derived
    from ``seed``, so the same seed and bots always give the same game.
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{game.num_players} seats need {game.num_players} bots, got {len(bots)}")
    state = game.new_initial_state(seed)
    chance_rng = random.Random(f"{seed}/chance")
    bot_rngs = [random.Random(f"{seed}/seat/{i}") for i in range(len(bots))]
    record = GameRecord(
        game=game_name or game.info.short_name,
        options=dict(game.options),
        players=game.num_players,
        seed=seed,
        rules_version=game.info.rules_version,
        seats=[b.name for b in bots],
    )
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            action = choose(bots[player], state, player, bot_rngs[player])
        text = state.action_to_string(action)
        state.apply(action)
        observe_all(bots, state)
        record.actions.append(text)
        if on_step is not None:
            on_step(state, text)
    return state, record
