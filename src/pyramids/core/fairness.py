"""Verifiable randomness: the seed's commitment, the server's chance derivation, and the check.

A server table's seed is drawn at random and kept secret until the game is over; at the
start the server publishes ``commitment(seed, salt)``, the SHA-256 of the UTF-8 text
``f"{seed}:{salt}"`` (the salt, also random and secret, keeps anyone from trying seeds
one by one against the commitment). Every chance outcome at seq ``n`` (the number of
actions applied before it) is ``state.sample_chance(chance_rng(seed, n))``. Once the
game is over the record reveals seed and salt, and :func:`verify_record` proves that
the seed is the committed one, the deal is ``new_initial_state(seed)``, every chance
outcome follows from the seed and every action was legal. A forfeit on time is a claim
too: the record carries the table's clock, its start and every action's time, and the
check recomputes (with the server's own ``pyramids.core.clock``) that each forfeited
seat was to move and its time had run out; a record that claims a forfeit without them
does not verify.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice
from typing import Any

from pyramids.core.clock import Move, banks_at, deadline_of, format_time, timed_out_run
from pyramids.core.game import CHANCE, Game
from pyramids.core.record import (
    ENDED_BY_FORFEIT,
    GameRecord,
    ReplayError,
    ReplayFault,
    ReplayStep,
    replay_actions,
)

COMMITMENT_SCHEME = "sha256-hex of UTF-8 '{seed}:{salt}'"
"""How a commitment is computed, as documented in docs/PROTOCOL.md."""


def commitment_input(seed: int, salt: str) -> bytes:
    """The exact bytes hashed into a commitment: UTF-8 of ``f"{seed}:{salt}"``."""
    return f"{seed}:{salt}".encode()


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed``: SHA-256 (lowercase hex) of ``commitment_input``."""
    return hashlib.sha256(commitment_input(seed, salt)).hexdigest()


def is_commitment_of(value: str, seed: int, salt: str) -> bool:
    """Whether ``value`` is the commitment to ``seed`` with ``salt``."""
    return hmac.compare_digest(value.lower(), commitment(seed, salt))


def chance_rng(seed: int, seq: int) -> random.Random:
    """The generator of the server's chance outcome at ``seq`` (actions applied before it)."""
    return random.Random(f"{seed}/chance/{seq}")


class Step(Enum):
    """The checks of :func:`verify_record`, in the order it makes them."""

    COMMITMENT = "commitment"
    """SHA-256 of seed and salt is the commitment published at the start."""
    DEAL = "deal"
    """The game starts as ``new_initial_state(seed)``."""
    REPLAY = "replay"
    """Every chance outcome is the server's draw from the seed; every action is legal."""
    END = "end"
    """The game is over: by its rules, or forfeits on time left one seat standing."""
    FORFEITS = "forfeits"
    """Each forfeited seat was to move and its time had run out (a record with forfeits)."""


class FailureKind(Enum):
    """Why a record does not verify."""

    NO_COMMITMENT = "no_commitment"
    WRONG_COMMITMENT = "wrong_commitment"
    WRONG_CHANCE = "wrong_chance"
    ILLEGAL_ACTION = "illegal_action"
    UNFINISHED = "unfinished"
    UNPROVEN_FORFEIT = "unproven_forfeit"
    """The record says a seat forfeited on time but has no clock and times to prove it."""
    WRONG_FORFEIT = "wrong_forfeit"
    """The record's clock and times show that a forfeited seat's time had not run out (or
    that it was not its decision, or that its clock does not forfeit)."""

    @property
    def step(self) -> Step:
        """The check that finds this failure."""
        return FAILURE_STEP[self]


FAILURE_STEP = {
    FailureKind.NO_COMMITMENT: Step.COMMITMENT,
    FailureKind.WRONG_COMMITMENT: Step.COMMITMENT,
    FailureKind.WRONG_CHANCE: Step.REPLAY,
    FailureKind.ILLEGAL_ACTION: Step.REPLAY,
    FailureKind.UNFINISHED: Step.END,
    FailureKind.UNPROVEN_FORFEIT: Step.FORFEITS,
    FailureKind.WRONG_FORFEIT: Step.FORFEITS,
}


@dataclass(frozen=True)
class Failure:
    """The first thing in a record that does not follow from its seed and the rules."""

    kind: FailureKind
    message: str
    seq: int | None = None
    """The record's seq of the failing action (its 1-based position), if one."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """The failure's facts, for a page to say it in its own words (e.g. ``found`` and
    ``expected`` of a wrong chance outcome)."""


@dataclass(frozen=True)
class ForfeitProof:
    """Why a forfeit on time holds: seat ``seat``'s decision at ``seq`` (the actions played
    before it) ran out at ``deadline``, and at ``at`` it was still undecided (the stand-in's
    action was stored then, or, for the forfeit that ended the game, the game ended)."""

    seat: int
    seq: int
    deadline: dt.datetime
    at: dt.datetime


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_record` found: verified, or the first failure."""

    failure: Failure | None
    actions: int
    chance_draws: int
    ended_by_forfeit: bool = False
    """The record ends before the rules end the game: forfeits on time left one seat."""
    forfeits: tuple[ForfeitProof, ...] = ()
    """The proof of each forfeit on time, in the record's order."""

    @property
    def is_verified(self) -> bool:
        """Whether the record verified."""
        return self.failure is None

    def steps(self, record: GameRecord) -> list[tuple[Step, bool | None]]:
        """Each check made for ``record`` in order, with True (passed), False (the first
        failure) or None (not reached after it). ``FORFEITS`` only for a record with
        forfeits."""
        order = [s for s in Step if s is not Step.FORFEITS or record.forfeits]
        failed = self.failure.kind.step if self.failure is not None else None
        out: list[tuple[Step, bool | None]] = []
        for step in order:
            if failed is None:
                out.append((step, True))
            elif step is failed:
                out.append((step, False))
            else:
                before = order.index(step) < order.index(failed)
                out.append((step, True if before else None))
        return out


def verify_record(game: Game, record: GameRecord) -> Verdict:
    """Check a server record: commitment, deal, every chance draw, every action legal, the
    end, and every forfeit on time (from the record's clock and times).

    ``game`` is ``record``'s game with its options and players (from the registry).
    Stops at the first failure.
    """
    draws = 0

    def failed(kind: FailureKind, message: str, seq: int | None = None, **details: Any) -> Verdict:
        return Verdict(Failure(kind, message, seq, details), seq or 0, draws)

    if record.commitment is None or record.salt is None:
        return failed(
            FailureKind.NO_COMMITMENT,
            "the record has no commitment and salt (not a server table's record, or one "
            "stored before commitments existed)",
        )
    if not is_commitment_of(record.commitment, record.seed, record.salt):
        computed = commitment(record.seed, record.salt)
        return failed(
            FailureKind.WRONG_COMMITMENT,
            f"the commitment {record.commitment} is not SHA-256 of seed and salt "
            f"({computed}): the seed or salt is not the one committed at the start",
            computed=computed,
        )

    def after_the_end(seq: int, text: str) -> Verdict:
        return failed(
            FailureKind.ILLEGAL_ACTION,
            f"action {seq} ({text!r}) comes after the end of the game",
            seq,
            action=text,
            reason="after_the_end",
        )

    state = game.new_initial_state(record.seed)
    movers: list[int] = []  # who decided each action (CHANCE: a draw): the clocks need it

    def check(step: ReplayStep) -> None:
        """Refuse an action after the end, and a chance outcome the seed does not give."""
        nonlocal draws
        seq, text, index = step.seq, step.text, step.seq - 1
        if step.state.is_terminal():
            raise _RefutedError(after_the_end(seq, text))
        movers.append(step.seat)
        if step.seat == CHANCE:
            expected = step.state.sample_chance(chance_rng(record.seed, index))
            if step.action != expected:
                wanted = step.state.action_to_string(expected)
                raise _RefutedError(
                    failed(
                        FailureKind.WRONG_CHANCE,
                        f"the chance outcome at seq {seq} is {text!r} but the seed gives "
                        f"{wanted!r} (Random('{record.seed}/chance/{index}'))",
                        seq,
                        found=text,
                        expected=wanted,
                        generator=f"Random('{record.seed}/chance/{index}')",
                    )
                )
            draws += 1

    try:
        for _step in replay_actions(state, record.actions, before=check):
            pass
    except _RefutedError as refuted:
        return refuted.verdict
    except ReplayError as exc:
        if exc.fault is ReplayFault.AFTER_END:
            return after_the_end(exc.seq, exc.text)
        return failed(
            FailureKind.ILLEGAL_ACTION,
            f"action {exc.seq} ({exc.text!r}) is not legal: {exc.reason}",
            exc.seq,
            action=exc.text,
            reason=exc.reason,
        )
    ended_by_forfeit = False
    if not state.is_terminal():
        standing = set(range(record.players)) - set(record.forfeits)
        if record.ended == ENDED_BY_FORFEIT and len(standing) == 1:
            ended_by_forfeit = True
        elif record.ended == ENDED_BY_FORFEIT:
            return failed(
                FailureKind.UNFINISHED,
                f"the record says the game ended by forfeit, but {len(standing)} seats did "
                "not forfeit: it ends so only when one seat is left",
                standing=len(standing),
            )
        else:
            return failed(
                FailureKind.UNFINISHED,
                f"the game is not over after the record's {len(record.actions)} actions",
                actions=len(record.actions),
            )
    proofs = check_forfeits(game, record, movers)
    if isinstance(proofs, Failure):
        return Verdict(proofs, len(record.actions), draws, ended_by_forfeit)
    return Verdict(None, len(record.actions), draws, ended_by_forfeit, proofs)


class _RefutedError(Exception):
    """Stops :func:`verify_record`'s replay at a failure found before an action applies."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.failure)
        self.verdict = verdict


def check_forfeits(
    game: Game, record: GameRecord, movers: Sequence[int]
) -> tuple[ForfeitProof, ...] | Failure:
    """Prove each of the record's forfeits on time from its clock or turn time and its
    times (``movers``: who decided each action), or the first that does not hold.

    Forfeit ``i`` (seat ``forfeits[i]`` at seq ``q = forfeited_at[i]``) holds when the seat
    was to move after ``q`` actions and its decision was still open at its deadline: the
    action at seq ``q + 1`` (the stand-in's) was stored at or after it, or ``q`` is the end
    of a game that this forfeit ended, at or after it. With a clock, the clock forfeits on
    time and the deadline is the clock's (``pyramids.core.clock``, the server's own
    arithmetic). Without one, the table forfeits after ``forfeit_after`` turn times in a
    row (a rated table): the deadline is ``turn_time`` after the decision began, and the
    seat's ``forfeit_after - 1`` decisions before it in a row were a bot's on turn time
    (``played_by`` ``timeout``, the absence takeover's skipped: ``timed_out_run``), each
    stored at least ``turn_time`` after it began.
    """
    if not record.forfeits:
        return ()
    seats = ", ".join(str(s) for s in record.forfeits)
    by_turn = record.clock is None and bool(record.turn_time) and record.forfeit_after is not None
    missing = [
        name
        for name, absent in (
            ("clock", record.clock is None and not by_turn),
            ("started", record.started is None),
            ("times", len(record.times) != len(record.actions)),
            ("played_by", by_turn and len(record.played_by) != len(record.actions)),
            ("forfeited_at", len(record.forfeited_at) != len(record.forfeits)),
            ("finished", record.ended == ENDED_BY_FORFEIT and record.finished is None),
        )
        if absent
    ]
    if missing or record.started is None:
        return Failure(
            FailureKind.UNPROVEN_FORFEIT,
            f"the record says seat(s) {seats} forfeited on time but has no "
            f"{', '.join(missing)} to prove it: a forfeit cannot be checked without the "
            "table's clock (or turn time) and every action's time",
            None,
            {"seats": list(record.forfeits), "missing": missing},
        )
    clock, started = record.clock, record.started
    if clock is not None and not clock.forfeits_on_time:
        return Failure(
            FailureKind.WRONG_FORFEIT,
            f"the record says seat(s) {seats} forfeited on time, but its clock's on_expiry "
            f"is {clock.on_expiry!r}: a bot plays for a seat whose time runs out, nobody "
            "forfeits",
            None,
            {"seat": record.forfeits[0], "why": "no_forfeit_clock"},
        )

    def began(index: int) -> dt.datetime:
        """When the decision of action ``index`` began: the action before was stored."""
        return record.times[index - 1] if index > 0 else started

    state = game.new_initial_state(record.seed)
    steps = replay_actions(state, record.actions)  # pulled up to each forfeit's seq
    played = 0
    proofs: list[ForfeitProof] = []
    last = len(record.forfeits) - 1
    for i, (seat, seq) in enumerate(zip(record.forfeits, record.forfeited_at, strict=True)):

        def wrong(why: str, message: str, seat: int = seat, seq: int = seq, **more: Any) -> Failure:
            return Failure(
                FailureKind.WRONG_FORFEIT,
                f"seat {seat} did not forfeit on time at seq {seq}: {message}",
                seq,
                {"seat": seat, "why": why, **more},
            )

        if seq < played:
            return wrong("order", "the forfeits are not in the order of the game")
        for _step in islice(steps, seq - played):
            pass
        played = seq
        if state.is_terminal() or state.current_player() != seat:
            return wrong("not_to_move", f"after {seq} actions it was not seat {seat}'s decision")
        if clock is not None:
            moves = [Move(m, t) for m, t in zip(movers[:seq], record.times[:seq], strict=True)]
            clocked = [s == seat for s in range(record.players)]
            deadline = deadline_of(clock, banks_at(clock, clocked, started, moves), seat)
            assert deadline is not None  # the seat is clocked
        else:
            turn = dt.timedelta(seconds=record.turn_time or 0.0)
            needed = (record.forfeit_after or 1) - 1
            decided = list(zip(movers[:seq], record.played_by[:seq], strict=True))
            run = timed_out_run(decided, seat)[-needed:] if needed else []
            if len(run) < needed:
                return wrong(
                    "too_few_timeouts",
                    f"a seat forfeits when it lets {needed + 1} turn times in a row run out, "
                    f"and only {len(run)} before this one did",
                    timeouts=len(run),
                )
            for k in run:
                if record.times[k] < began(k) + turn:
                    return wrong(
                        "in_time",
                        f"its decision at seq {k} was stored {format_time(record.times[k])}, "
                        f"before its turn time ran out at {format_time(began(k) + turn)}",
                        decision=k,
                        deadline=format_time(began(k) + turn),
                        at=format_time(record.times[k]),
                    )
            deadline = began(seq) + turn
        if seq < len(record.actions):
            at = record.times[seq]
        elif i == last and record.ended == ENDED_BY_FORFEIT and record.finished is not None:
            at = record.finished
        else:
            return wrong(
                "not_at_end",
                f"no action follows seq {seq} and the game did not end by this forfeit",
            )
        if at < deadline:
            return wrong(
                "in_time",
                f"its time ran out at {format_time(deadline)} but its decision ended at "
                f"{format_time(at)}, before",
                deadline=format_time(deadline),
                at=format_time(at),
            )
        proofs.append(ForfeitProof(seat, seq, deadline, at))
    return tuple(proofs)
