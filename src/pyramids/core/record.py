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


def _integer(data: Mapping[str, Any], name: str) -> int:
    """``data[name]`` (present) as an integer; ``record.not_an_integer`` otherwise."""
    value = data[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError("record.not_an_integer", field=name, value=value)
    return value


def wrapped_facts(cause: PyramidsError, slot: str = "refusal", **facts: Any) -> dict[str, Any]:
    """The facts of a refusal that wraps the refusal ``cause``: ``cause``'s own facts, its
    code as the fact ``slot`` and ``facts``. The wrapper's words read the cause's as
    ``{refusal, term, refusal}`` (for ``slot`` "refusal": the catalogue entry
    ``refusal.<code>`` filled with the same facts), so ``facts`` must not reuse the names
    of the cause's facts, and a wrapper of a wrapper takes another ``slot`` ("cause")."""
    if slot in cause.data:
        raise ValueError(f"{cause.code} already has a fact {slot!r}: wrap it in another slot")
    return {**cause.data, slot: cause.code, **facts}


def unwrapped(error: PyramidsError, slot: str = "refusal", *outer: str) -> PyramidsError | None:
    """The refusal that an error made with ``wrapped_facts`` wraps (its class is lost: a
    ``PyramidsError``), without the wrapper's facts named ``outer``; None without one."""
    code = error.data.get(slot)
    if not isinstance(code, str) or not code:
        return None
    inner = {k: v for k, v in error.data.items() if k != slot and k not in outer}
    return PyramidsError(code, **inner)


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
        """Parse a record; PositionError (a ``record.*`` code) says which field is wrong."""
        if not isinstance(data, Mapping):
            raise PositionError("record.not_an_object", field=None)
        for name in ("game", "options", "players", "seed", "actions"):
            if name not in data:
                raise PositionError("record.missing_field", field=name)
        game, options, actions = data["game"], data["options"], data["actions"]
        if not isinstance(game, str):
            raise PositionError("record.not_a_string", field="game", value=game)
        if not isinstance(options, dict):
            raise PositionError("record.not_an_object", field="options")
        players, seed = _integer(data, "players"), _integer(data, "seed")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise PositionError("record.not_a_list_of_strings", field="actions")
        seats = data.get("seats", [])
        salt, commit, seeded = data.get("salt"), data.get("commitment"), data.get("seeded", False)
        if salt is not None and not isinstance(salt, str):
            raise PositionError("record.not_a_string", field="salt", value=salt)
        if commit is not None and not isinstance(commit, str):
            raise PositionError("record.not_a_string", field="commitment", value=commit)
        if not isinstance(seeded, bool):
            raise PositionError("record.not_a_boolean", field="seeded", value=seeded)
        forfeits, ended = data.get("forfeits") or [], data.get("ended")
        if not isinstance(forfeits, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in forfeits
        ):
            raise PositionError("record.not_seats", field="forfeits", players=players)
        if ended is not None and ended != ENDED_BY_FORFEIT:
            raise PositionError(
                "record.not_ended_by", field="ended", value=ended, expected=ENDED_BY_FORFEIT
            )
        forfeited_at = data.get("forfeited_at") or []
        if not isinstance(forfeited_at, list) or not all(
            isinstance(q, int) and not isinstance(q, bool) and 0 <= q <= len(actions)
            for q in forfeited_at
        ):
            raise PositionError("record.not_seqs", field="forfeited_at", actions=len(actions))
        if forfeited_at and len(forfeited_at) != len(forfeits):
            raise PositionError(
                "record.one_per_forfeit",
                field="forfeited_at",
                forfeits=len(forfeits),
                count=len(forfeited_at),
            )
        times = data.get("times") or []
        if not isinstance(times, list) or (times and len(times) != len(actions)):
            raise PositionError("record.one_per_action", field="times", actions=len(actions))
        clock, started, finished = data.get("clock"), data.get("started"), data.get("finished")
        played_by = data.get("played_by") or []
        if not isinstance(played_by, list) or (played_by and len(played_by) != len(actions)):
            raise PositionError("record.one_per_action", field="played_by", actions=len(actions))
        if not all(p is None or isinstance(p, str) for p in played_by):
            raise PositionError("record.not_reasons", field="played_by")
        turn_time, forfeit_after = data.get("turn_time"), data.get("forfeit_after")
        if turn_time is not None and (
            not isinstance(turn_time, int | float) or isinstance(turn_time, bool) or turn_time < 0
        ):
            raise PositionError("record.not_seconds", field="turn_time", value=turn_time)
        if forfeit_after is not None and (
            not isinstance(forfeit_after, int)
            or isinstance(forfeit_after, bool)
            or forfeit_after < 1
        ):
            raise PositionError(
                "record.not_a_positive_integer", field="forfeit_after", value=forfeit_after
            )
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


_FAULT_CODES = {
    ReplayFault.ILLEGAL: "record.action_illegal",
    ReplayFault.AFTER_END: "record.action_after_end",
    ReplayFault.WRONG_SEAT: "record.wrong_seat",
}
_OUTER = ("seq", "action_text", "stored_seat", "to_move")
"""The facts a ReplayError adds to those of the rules' refusal it wraps."""


class ReplayError(PositionError):
    """An action of a record that does not replay: its seq, text, fault and the reason.

    Codes: ``record.wrong_seat`` {seq, action_text, stored_seat, to_move} (the record
    stores the action for another seat than the one whose decision it was);
    ``record.action_illegal`` and ``record.action_after_end`` {seq, action_text, refusal
    and the facts of the rules' refusal (``wrapped_facts``)}. Build them with
    ``wrong_seat`` and ``refused``.
    """

    def __init__(self, code: str, /, **data: Any) -> None:
        super().__init__(code, **data)
        self.fault = next((f for f, c in _FAULT_CODES.items() if c == code), ReplayFault.ILLEGAL)
        self.seq: int = data.get("seq", 0)
        """The action's 1-based position in the record."""
        self.text: str = data.get("action_text", "")
        self.stored_seat: int | None = data.get("stored_seat")
        """``WRONG_SEAT``: the seat the record stores the action for."""
        self.to_move: int | None = data.get("to_move")
        """``WRONG_SEAT``: the seat whose decision it was (``State.current_player``)."""
        self.cause: PyramidsError | None = unwrapped(self, "refusal", *_OUTER)
        """The rules' refusal (None for ``WRONG_SEAT``)."""

    @classmethod
    def wrong_seat(cls, seq: int, text: str, stored_seat: int, to_move: int) -> ReplayError:
        """``record.wrong_seat``: action ``seq`` is stored for ``stored_seat``, it was ``to_move``'s."""
        return cls(
            _FAULT_CODES[ReplayFault.WRONG_SEAT],
            seq=seq,
            action_text=text,
            stored_seat=stored_seat,
            to_move=to_move,
        )

    @classmethod
    def refused(cls, fault: ReplayFault, seq: int, text: str, cause: PyramidsError) -> ReplayError:
        """Action ``seq`` refused by the rules with ``cause`` (``ILLEGAL`` or ``AFTER_END``)."""
        error = cls(_FAULT_CODES[fault], **wrapped_facts(cause, seq=seq, action_text=text))
        error.cause = cause
        return error

    @property
    def reason(self) -> str:
        """The rules' refusal in English words (``str``); for ``WRONG_SEAT`` the seat stored."""
        if self.cause is None:
            return f"stored for seat {self.stored_seat}"
        return str(self.cause)


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
                raise ReplayError.wrong_seat(seq, text, stored, seat)
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
    return ReplayError.refused(fault, seq, text, exc)


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
        raise PyramidsError("record.bot_count", players=game.num_players, bots=len(bots))
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
