"""Pebble Pyramid: a third game, used only by the tests, to prove hosts need no game's name.

Two players take tiles off a small pyramid of numbered tiles. A tile is free when no tile
rests on it (a tile at row r, column c carries the tiles of row r+1 at columns c-1 and c).
Taking a free tile scores its number, doubled when it equals the taker's secret number
(each seat draws one of 1..3 at the start and sees only its own). After each take a coin
is tossed (a chance point): heads gives the taker one more point. When the pyramid is
empty the higher score wins; equal scores share the first place.

Rule IDs (as docs/RULES.md would give them): PP-SETUP (numbers and secrets from the seed),
PP-FREE (which tiles may be taken), PP-TAKE (scoring), PP-COIN (the toss), PP-END.
Standard library and ``pyramids.core`` only, like every rules package: the same shapes as
the two real games (events declared on a ``PebblesEvent`` base, the Game a
``core.game.RulesGame``, refusals as codes: ``pebbles.*`` and the shared ``position.*``
and ``game.*``; their words are in ``tests.thirdgame.words``).
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from pyramids.core.errors import ActionParseError, IllegalActionError, PositionError
from pyramids.core.fields import bool_field, int_field, known_fields, object_field
from pyramids.core.game import (
    CHANCE,
    TERMINAL,
    Action,
    Event,
    GameInfo,
    Outcome,
    RulesGame,
    State,
    View,
    competition_ranking,
)

NAME = "pebbles"
HEADS = 100
TAILS = 101
SECRETS = (1, 2, 3)

INFO = GameInfo(
    name="Pebble Pyramid",
    short_name=NAME,
    min_players=2,
    max_players=2,
    has_chance=True,
    has_hidden_information=True,
    rules_version="pebbles-1",
    default_options={"rows": 3},
)


def spot(row: int, col: int) -> Action:
    """The action (and key) of the tile at ``row``, ``col``."""
    return row * 10 + col


def spot_name(key: int) -> str:
    """``r,c``."""
    return f"{key // 10},{key % 10}"


@dataclass(frozen=True)
class PebblesEvent(Event, game=NAME):
    """Base of every Pebble Pyramid event."""


@dataclass(frozen=True)
class Take(PebblesEvent, kind="take"):
    """PP-TAKE: ``seat`` took the tile at ``at`` numbered ``number`` and scored ``points``."""

    seat: int
    at: str
    number: int
    points: int


@dataclass(frozen=True)
class Coin(PebblesEvent, kind="coin"):
    """PP-COIN: the toss after ``seat``'s take came up ``face`` (heads: one more point)."""

    seat: int
    face: str
    points: int


@dataclass
class Position:
    """A Pebble Pyramid position: all of it public data (the secrets included)."""

    rows: int
    tiles: dict[int, int]
    """Key (``spot``) -> number, for the tiles still on the pyramid."""
    secrets: list[int]
    scores: list[int]
    to_move: int = 0
    coin: bool = False
    """Whether the toss after the last take is pending."""

    def to_json(self) -> dict[str, Any]:
        """The position notation."""
        return {
            "rules": {"rows": self.rows},
            "players": 2,
            "tiles": {spot_name(k): n for k, n in sorted(self.tiles.items())},
            "secrets": list(self.secrets),
            "scores": list(self.scores),
            "to_move": self.to_move,
            "coin": self.coin,
        }


def is_free(position: Position, key: int) -> bool:
    """PP-FREE: a tile is free when neither tile above it (row + 1, col - 1 and col) is there."""
    row, col = divmod(key, 10)
    return spot(row + 1, col - 1) not in position.tiles and spot(row + 1, col) not in position.tiles


def free_tiles(position: Position) -> list[int]:
    """PP-FREE: the keys of the free tiles, ascending."""
    return sorted(k for k in position.tiles if is_free(position, k))


def take_points(number: int, secret: int) -> int:
    """PP-TAKE: a tile scores its number, doubled when it equals the taker's secret."""
    return number * 2 if number == secret else number


def ranking(scores: list[int]) -> list[int]:
    """PP-END: the higher score ranks first; equal scores share."""
    return competition_ranking(scores)


@dataclass(frozen=True)
class PebblesView:
    """A seat's view: everything but the other seat's secret (None for it, and for both when public)."""

    player: int | None
    rows: int
    tiles: tuple[tuple[int, int], ...]
    secret: int | None
    scores: tuple[int, ...]
    to_move: int
    coin: bool
    players: int = 2
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        """This game's short name."""
        return NAME

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "viewer": self.player,
            "rules": {"rows": self.rows},
            "tiles": {spot_name(k): n for k, n in self.tiles},
            "secret": self.secret,
            "scores": list(self.scores),
            "to_move": self.to_move,
            "coin": self.coin,
        }


class PebblesState(State):
    """A Pebble Pyramid game: a thin wrapper over ``Position``."""

    def __init__(self, game: PebblesGame, position: Position) -> None:
        self.game = game
        self.position = position
        self._history: list[Action] = []
        self._events: list[Event] = []

    @property
    def num_players(self) -> int:
        """Two seats."""
        return 2

    def current_player(self) -> int:
        """The mover, CHANCE while the toss is pending, TERMINAL at the end."""
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.position.coin else self.position.to_move

    def legal_actions(self) -> list[Action]:
        """The free tiles, or the two faces of the coin."""
        if self.is_terminal():
            return []
        if self.position.coin:
            return [HEADS, TAILS]
        return free_tiles(self.position)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Heads and tails, each 1/2, while the toss is pending."""
        if self.position.coin and not self.is_terminal():
            return [(HEADS, 0.5), (TAILS, 0.5)]
        return []

    def apply(self, action: Action) -> None:
        """Take a tile or toss the coin; IllegalActionError, changing nothing, otherwise."""
        if action not in self.legal_actions():
            raise IllegalActionError("pebbles.not_legal", action=self.action_to_string(action))
        pos = self.position
        seat = pos.to_move
        if pos.coin:
            bonus = 1 if action == HEADS else 0
            pos.scores[seat] += bonus
            pos.coin = False
            pos.to_move = 1 - seat
            self._events = [Coin(seat, "heads" if bonus else "tails", bonus)]
        else:
            number = pos.tiles.pop(action)
            points = take_points(number, pos.secrets[seat])
            pos.scores[seat] += points
            pos.coin = True
            self._events = [Take(seat, spot_name(action), number, points)]
        self._history.append(action)

    def is_terminal(self) -> bool:
        """PP-END: the pyramid is empty and the last toss is done."""
        return not self.position.tiles and not self.position.coin

    def outcome(self) -> Outcome:
        """The higher score wins; equal scores are ranked together."""
        if not self.is_terminal():
            return Outcome.ongoing()
        ranks = ranking(self.position.scores)
        if ranks.count(1) == 1:
            return Outcome.won_by(ranks.index(1), 2)
        return Outcome.ranked(ranks)

    def history(self) -> list[Action]:
        """The actions applied since the deal or load."""
        return list(self._history)

    def clone(self) -> Self:
        """An independent copy."""
        twin = type(self)(self.game, _copy_position(self.position))
        twin._history = list(self._history)
        twin._events = list(self._events)
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PebblesState):
            return NotImplemented
        return self.position == other.position

    __hash__ = None  # type: ignore[assignment]

    def view(self, player: int | None) -> PebblesView:
        """What ``player`` knows: its own secret, never the other's."""
        pos = self.position
        return PebblesView(
            player,
            pos.rows,
            tuple(sorted(pos.tiles.items())),
            None if player is None else pos.secrets[player],
            tuple(pos.scores),
            pos.to_move,
            pos.coin,
            options=self.game.options,
        )

    def action_to_string(self, action: Action) -> str:
        """``take:r,c``, ``heads`` or ``tails``."""
        if action == HEADS:
            return "heads"
        if action == TAILS:
            return "tails"
        return f"take:{spot_name(action)}"

    def parse_action(self, text: str) -> Action:
        """Parse ``take:r,c``/``heads``/``tails``; ActionParseError or IllegalActionError."""
        text = text.strip().lower()
        if text in ("heads", "tails"):
            action = HEADS if text == "heads" else TAILS
        else:
            match = re.fullmatch(r"take:([0-9]),([0-9])", text)
            if match is None:
                raise ActionParseError("pebbles.unreadable", text=text)
            action = spot(int(match[1]), int(match[2]))
        if action not in self.legal_actions():
            raise IllegalActionError("pebbles.not_legal", action=text)
        return action

    def events(self) -> list[Event]:
        """What the last apply did."""
        return list(self._events)

    def to_json(self) -> dict[str, Any]:
        """The position notation."""
        return self.position.to_json()


def _copy_position(pos: Position) -> Position:
    return dataclasses.replace(
        pos, tiles=dict(pos.tiles), secrets=list(pos.secrets), scores=list(pos.scores)
    )


@dataclass(frozen=True)
class PebblesOptions:
    """Pebble Pyramid's rules options: ``rows`` (2 to 4). The first seat is always 0."""

    rows: int = 3

    def __post_init__(self) -> None:
        int_field({"rows": self.rows}, "rows", low=2, high=4)

    @property
    def first_player(self) -> int:
        """Seat 0 always moves first."""
        return 0

    def to_record(self) -> dict[str, Any]:
        """``{"rows": N}``."""
        return {"rows": self.rows}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PebblesOptions:
        """Options from a record's (or a position's ``rules``) mapping; PositionError when wrong."""
        known_fields(object_field(data, "rules"), ("rows",), "rules")
        return cls(int_field(data, "rows", 3, low=2, high=4))


class PebblesGame(RulesGame[PebblesOptions, PebblesState, PebblesView]):
    """Pebble Pyramid with ``options.rows`` rows (2 to 4), for 2 players."""

    info = INFO
    options_type = PebblesOptions
    view_type = PebblesView
    default_players = 2

    @property
    def rows(self) -> int:
        """The pyramid's rows."""
        return self.options_obj.rows

    def new_initial_state(self, seed: int) -> PebblesState:
        """PP-SETUP: numbers 1..3 on every tile and a secret per seat, from the seed."""
        rng = random.Random(seed)
        tiles = {
            spot(r, c): rng.randint(1, 3) for r in range(self.rows) for c in range(self.rows - r)
        }
        return PebblesState(
            self, Position(self.rows, tiles, [rng.choice(SECRETS) for _ in "ab"], [0, 0])
        )

    def load_state(self, data: Mapping[str, Any]) -> PebblesState:
        """A state from the position notation; PositionError when inconsistent."""
        return load_position(data, self)

    def determinize(self, view: View, rng: random.Random) -> PebblesState:
        """The other seat's secret drawn uniformly; the rest is public."""
        seen = self.checked_view(view)
        secrets = [rng.choice(SECRETS), rng.choice(SECRETS)]
        if seen.player is not None and seen.secret is not None:
            secrets[seen.player] = seen.secret
        pos = Position(
            seen.rows, dict(seen.tiles), secrets, list(seen.scores), seen.to_move, seen.coin
        )
        return PebblesState(self, pos)


def _pair(data: Mapping[str, Any], name: str, allowed: range) -> list[int]:
    """``data[name]``: two integers in ``allowed``; ``pebbles.not_a_pair`` otherwise."""
    value = data.get(name)
    if value is None:
        raise PositionError("position.missing_field", field=name)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not all(v in allowed for v in value)
    ):
        raise PositionError(
            "pebbles.not_a_pair", field=name, value=value, low=allowed.start, high=allowed.stop - 1
        )
    return list(value)


def load_position(data: Mapping[str, Any], game: PebblesGame | None = None) -> PebblesState:
    """Read the position notation; PositionError (``position.*``, ``pebbles.*``) saying what
    is wrong."""
    object_field(data)
    if game is None:
        players = int_field(data, "players", 2)
        game = PebblesGame.from_options(players, data.get("rules", {}))
    tiles: dict[int, int] = {}
    given = data.get("tiles")
    if given is None:
        raise PositionError("position.missing_field", field="tiles")
    for name, number in object_field(given, "tiles").items():
        match = re.fullmatch(r"([0-9]),([0-9])", str(name))
        if match is None or isinstance(number, bool) or number not in (1, 2, 3):
            raise PositionError("pebbles.bad_tile", tile=str(name), number=number)
        row, col = int(match[1]), int(match[2])
        if row >= game.rows or col >= game.rows - row:
            raise PositionError("pebbles.off_pyramid", tile=str(name), rows=game.rows)
        tiles[spot(row, col)] = number
    secrets = _pair(data, "secrets", range(1, 4))
    scores = _pair(data, "scores", range(0, 2**63))
    to_move = int_field(data, "to_move", 0, low=0, high=1)
    coin = bool_field(data, "coin", False)
    return PebblesState(game, Position(game.rows, tiles, secrets, scores, to_move, coin))
