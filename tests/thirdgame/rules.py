"""Pebble Pyramid: a third game, used only by the tests, to prove hosts need no game's name.

Two players take tiles off a small pyramid of numbered tiles. A tile is free when no tile
rests on it (a tile at row r, column c carries the tiles of row r+1 at columns c-1 and c).
Taking a free tile scores its number, doubled when it equals the taker's secret number
(each seat draws one of 1..3 at the start and sees only its own). After each take a coin
is tossed (a chance point): heads gives the taker one more point. When the pyramid is
empty the higher score wins; equal scores share the first place.

Rule IDs (as docs/RULES.md would give them): PP-SETUP (numbers and secrets from the seed),
PP-FREE (which tiles may be taken), PP-TAKE (scoring), PP-COIN (the toss), PP-END.
Standard library and ``pyramids.core`` only, like every rules package.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Self

from pyramids.core.errors import ActionParseError, IllegalActionError, PositionError
from pyramids.core.game import (
    CHANCE,
    TERMINAL,
    Action,
    Event,
    Game,
    GameInfo,
    Outcome,
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
class Take(Event):
    """PP-TAKE: ``seat`` took the tile at ``at`` numbered ``number`` and scored ``points``."""

    kind: ClassVar[str] = "take"
    game: ClassVar[str] = NAME
    seat: int
    at: str
    number: int
    points: int


@dataclass(frozen=True)
class Coin(Event):
    """PP-COIN: the toss after ``seat``'s take came up ``face`` (heads: one more point)."""

    kind: ClassVar[str] = "coin"
    game: ClassVar[str] = NAME
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
            raise IllegalActionError(f"{self.action_to_string(action)} is not legal here")
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
            match = re.fullmatch(r"take:(\d),(\d)", text)
            if match is None:
                raise ActionParseError(f"cannot read {text!r}: write take:r,c, heads or tails")
            action = spot(int(match[1]), int(match[2]))
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text} is not legal here")
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


class PebblesGame(Game):
    """Pebble Pyramid with ``rows`` rows (2 to 4)."""

    info = INFO

    def __init__(self, players: int = 2, rows: int = 3) -> None:
        if players != 2:
            raise PositionError(f"Pebble Pyramid is for 2 players, not {players!r}")
        if not isinstance(rows, int) or isinstance(rows, bool) or not 2 <= rows <= 4:
            raise PositionError(f"rows must be 2 to 4, not {rows!r}")
        self.rows = rows
        self._options = MappingProxyType({"rows": rows})

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> PebblesGame:
        """A game from a record's options."""
        unknown = sorted(set(options) - {"rows"})
        if unknown:
            raise PositionError(f"unknown rules option(s): {', '.join(unknown)}")
        return cls(players, options.get("rows", 3))

    @property
    def options(self) -> Mapping[str, Any]:
        """``{"rows": N}``."""
        return self._options

    @property
    def num_players(self) -> int:
        """Two seats."""
        return 2

    def new_initial_state(self, seed: int) -> PebblesState:
        """PP-SETUP: numbers 1..3 on every tile and a secret per seat, from the seed."""
        rng = random.Random(seed)
        tiles = {
            spot(r, c): rng.randint(1, 3) for r in range(self.rows) for c in range(self.rows - r)
        }
        return PebblesState(
            self, Position(self.rows, tiles, [rng.choice(SECRETS) for _ in "ab"], [0, 0])
        )

    def state_from_json(self, data: Mapping[str, Any]) -> PebblesState:
        """A state from the position notation; PositionError when inconsistent."""
        return load_position(data, self)

    def determinize(self, view: View, rng: random.Random) -> PebblesState:
        """The other seat's secret drawn uniformly; the rest is public."""
        if not isinstance(view, PebblesView):
            raise PositionError("not a Pebble Pyramid view")
        secrets = [rng.choice(SECRETS), rng.choice(SECRETS)]
        if view.player is not None and view.secret is not None:
            secrets[view.player] = view.secret
        pos = Position(
            view.rows, dict(view.tiles), secrets, list(view.scores), view.to_move, view.coin
        )
        return PebblesState(self, pos)


def load_position(data: Mapping[str, Any], game: PebblesGame | None = None) -> PebblesState:
    """Read the position notation; PositionError saying what is wrong."""
    if not isinstance(data, Mapping):
        raise PositionError("a position is a JSON object")
    try:
        rules = data.get("rules", {})
        game = game or PebblesGame.from_options(int(data.get("players", 2)), rules)
        tiles: dict[int, int] = {}
        for name, number in dict(data["tiles"]).items():
            match = re.fullmatch(r"(\d),(\d)", str(name))
            if match is None or number not in (1, 2, 3):
                raise PositionError(f"bad tile {name!r}: {number!r}")
            row, col = int(match[1]), int(match[2])
            if row >= game.rows or col >= game.rows - row:
                raise PositionError(f"tile {name} is off a {game.rows}-row pyramid")
            tiles[spot(row, col)] = number
        secrets = [int(s) for s in data["secrets"]]
        scores = [int(s) for s in data["scores"]]
        if len(secrets) != 2 or any(s not in SECRETS for s in secrets):
            raise PositionError("secrets must be two numbers of 1, 2, 3")
        if len(scores) != 2 or any(s < 0 for s in scores):
            raise PositionError("scores must be two numbers >= 0")
        to_move = int(data.get("to_move", 0))
        if to_move not in (0, 1):
            raise PositionError("to_move must be 0 or 1")
        coin = data.get("coin", False)
        if not isinstance(coin, bool):
            raise PositionError("coin must be true or false")
    except (KeyError, TypeError, ValueError) as exc:
        raise PositionError(f"bad Pebble Pyramid position: {exc}") from None
    return PebblesState(game, Position(game.rows, tiles, secrets, scores, to_move, coin))
