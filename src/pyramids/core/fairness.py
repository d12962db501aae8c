"""Verifiable randomness: the seed's commitment, the server's chance derivation, and the check.

A server table's seed is drawn at random and kept secret until the game is over; at the
start the server publishes ``commitment(seed, salt)``, the SHA-256 of the UTF-8 text
``f"{seed}:{salt}"`` (the salt, also random and secret, keeps anyone from trying seeds
one by one against the commitment). Every chance outcome at seq ``n`` (the number of
actions applied before it) is ``state.sample_chance(chance_rng(seed, n))``. Once the
game is over the record reveals seed and salt, and :func:`verify_record` proves that
the seed is the committed one, the deal is ``new_initial_state(seed)``, every chance
outcome follows from the seed and every action was legal.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass
from enum import Enum

from pyramids.core.errors import PyramidsError
from pyramids.core.game import CHANCE, Game
from pyramids.core.record import ENDED_BY_FORFEIT, GameRecord

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


class FailureKind(Enum):
    """Why a record does not verify."""

    NO_COMMITMENT = "no_commitment"
    WRONG_COMMITMENT = "wrong_commitment"
    WRONG_CHANCE = "wrong_chance"
    ILLEGAL_ACTION = "illegal_action"
    UNFINISHED = "unfinished"


@dataclass(frozen=True)
class Failure:
    """The first thing in a record that does not follow from its seed and the rules."""

    kind: FailureKind
    message: str
    seq: int | None = None
    """The record's seq of the failing action (its 1-based position), if one."""


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_record` found: verified, or the first failure."""

    failure: Failure | None
    actions: int
    chance_draws: int
    ended_by_forfeit: bool = False
    """The record ends before the rules end the game: forfeits on time left one seat."""

    @property
    def is_verified(self) -> bool:
        """Whether the record verified."""
        return self.failure is None


def verify_record(game: Game, record: GameRecord) -> Verdict:
    """Check a server record: commitment, deal, every chance draw, every action legal.

    ``game`` is ``record``'s game with its options and players (from the registry).
    Stops at the first failure.
    """
    draws = 0

    def failed(kind: FailureKind, message: str, seq: int | None = None) -> Verdict:
        return Verdict(Failure(kind, message, seq), seq or 0, draws)

    if record.commitment is None or record.salt is None:
        return failed(
            FailureKind.NO_COMMITMENT,
            "the record has no commitment and salt (not a server table's record, or one "
            "stored before commitments existed)",
        )
    if not is_commitment_of(record.commitment, record.seed, record.salt):
        return failed(
            FailureKind.WRONG_COMMITMENT,
            f"the commitment {record.commitment} is not SHA-256 of seed and salt "
            f"({commitment(record.seed, record.salt)}): the seed or salt is not the "
            "one committed at the start",
        )
    state = game.new_initial_state(record.seed)
    for index, text in enumerate(record.actions):
        seq = index + 1
        if state.is_terminal():
            return failed(
                FailureKind.ILLEGAL_ACTION,
                f"action {seq} ({text!r}) comes after the end of the game",
                seq,
            )
        try:
            action = state.parse_action(text)
        except PyramidsError as exc:
            return failed(
                FailureKind.ILLEGAL_ACTION, f"action {seq} ({text!r}) is not legal: {exc}", seq
            )
        if state.current_player() == CHANCE:
            expected = state.sample_chance(chance_rng(record.seed, index))
            if action != expected:
                return failed(
                    FailureKind.WRONG_CHANCE,
                    f"the chance outcome at seq {seq} is {text!r} but the seed gives "
                    f"{state.action_to_string(expected)!r} "
                    f"(Random('{record.seed}/chance/{index}'))",
                    seq,
                )
            draws += 1
        try:
            state.apply(action)
        except PyramidsError as exc:
            return failed(
                FailureKind.ILLEGAL_ACTION, f"action {seq} ({text!r}) is not legal: {exc}", seq
            )
    if not state.is_terminal():
        standing = set(range(record.players)) - set(record.forfeits)
        if record.ended == ENDED_BY_FORFEIT and len(standing) == 1:
            return Verdict(None, len(record.actions), draws, ended_by_forfeit=True)
        if record.ended == ENDED_BY_FORFEIT:
            return failed(
                FailureKind.UNFINISHED,
                f"the record says the game ended by forfeit, but {len(standing)} seats did "
                "not forfeit: it ends so only when one seat is left",
            )
        return failed(
            FailureKind.UNFINISHED,
            f"the game is not over after the record's {len(record.actions)} actions",
        )
    return Verdict(None, len(record.actions), draws)
