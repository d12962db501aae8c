"""Game records (rules options, seed, actions) and the seeded driver that makes them.

A record is the whole truth about a game: replaying its actions on the initial
state of its seed reproduces every state exactly. Actions are stored as text in the
game's notation so records stay readable and survive changes of action numbering.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyramids.core.clock import RecordClock, format_time, parse_time
from pyramids.core.errors import PositionError, PyramidsError
from pyramids.core.game import CHANCE, Bot, Game, OracleBot, State, choose, observe_all

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


def replay(game: Game, record: GameRecord) -> Iterator[tuple[str, State]]:
    """Yield (action text, state after it) for every action of ``record``.

    Raises PositionError naming the first action that does not apply.
    """
    state = game.new_initial_state(record.seed)
    for index, text in enumerate(record.actions):
        try:
            state.apply(state.parse_action(text))
        except PyramidsError as exc:
            raise PositionError(
                f"record action {index + 1} ({text!r}) does not apply: {exc}"
            ) from None
        yield text, state


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
