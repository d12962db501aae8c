"""The declaration shapes every game shares, written once in ``pyramids.core.game``.

Events name their ``game`` once on a per-game base and their ``kind`` in the class line
(``class Place(FlamingEvent, kind="place")``); every rules package's Game is a
``RulesGame`` that keeps only its deal, its position reader and ``determinize``. Issue 32:
"shared declaration shapes (events, the Game skeleton) written once in core"; the
refusals of the skeleton are codes with facts (``game.*``), and the shared field readers'
are ``position.*`` (``pyramids.core.fields``).
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

from pyramids import texts
from pyramids.core import Event, PositionError, RulesGame
from pyramids.core.fields import bool_field, int_field, known_fields, object_field, str_field
from pyramids.flags import events as flags_events
from pyramids.flags.game import FlagsGame
from pyramids.flags.options import FlagsOptions
from pyramids.flaming import events as flaming_events
from pyramids.flaming.game import FlamingGame
from pyramids.flaming.options import FlamingOptions
from tests.thirdgame import rules as pebbles

EVENT_MODULES = [(flaming_events, "flaming"), (flags_events, "flags"), (pebbles, "pebbles")]


@pytest.mark.parametrize(("module", "game"), EVENT_MODULES, ids=lambda v: getattr(v, "__name__", v))
def test_every_event_kind_names_its_game_once_and_its_kind_in_its_class_line(
    module: Any, game: str
) -> None:
    """Each event class reads ``kind`` and ``game`` as before, unique kinds per game, and
    neither is a dataclass field (so ``data`` holds only the facts)."""
    kinds = getattr(module, "EVENT_KINDS", (pebbles.Take, pebbles.Coin))
    assert len({cls.kind for cls in kinds}) == len(kinds)
    for cls in kinds:
        assert issubclass(cls, Event)
        assert cls.game == game
        assert "kind" in vars(cls) and "game" not in vars(cls)
        assert {"kind", "game"}.isdisjoint(f.name for f in dataclasses.fields(cls))


def test_an_event_reads_as_before() -> None:
    """``event.kind``, ``event.game`` and ``event.data`` of a declared event."""
    place = flaming_events.Place(0, "R40", "0,0")
    assert (place.kind, place.game) == ("place", "flaming")
    assert place.data == {"seat": 0, "tile": "R40", "at": "0,0"}
    assert texts.event_key(place) == "flaming.place"
    assert pickle.loads(pickle.dumps(place)) == place


GAMES = [
    (FlamingGame, FlamingOptions(preset="family", fire_die=True), 3, (2, 6)),
    (FlagsGame, FlagsOptions(actions=False, max_turns=50), 2, (2, 4)),
    (pebbles.PebblesGame, pebbles.PebblesOptions(rows=2), 2, (2, 2)),
]


@pytest.mark.parametrize(("cls", "options", "default", "seats"), GAMES, ids=str)
def test_every_game_is_a_rules_game_with_the_same_public_behaviour(
    cls: type[RulesGame[Any, Any, Any]], options: Any, default: int, seats: tuple[int, int]
) -> None:
    """Constructors, ``repr``, equality, hashing, ``from_options`` and pickling (games go
    to worker processes) are the skeleton's, alike for every game."""
    assert issubclass(cls, RulesGame)
    assert cls().num_players == default
    assert cls().options_obj == cls.options_type()
    low, high = seats
    game = cls(high, options)
    assert repr(game) == f"{cls.__name__}({high}, {options!r})"
    assert game == cls(high, options) and hash(game) == hash(cls(high, options))
    assert game != cls(low, options) or low == high
    assert cls.from_options(high, dict(game.options)) == game
    assert dict(game.options) == options.to_record()
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is cls and again == game
    assert game != FlamingGame() or cls is FlamingGame


@pytest.mark.parametrize(("cls", "options", "default", "seats"), GAMES, ids=str)
def test_a_player_count_outside_the_game_is_refused_with_its_range(
    cls: type[RulesGame[Any, Any, Any]], options: Any, default: int, seats: tuple[int, int]
) -> None:
    """``game.player_count`` {game, players, low, high}: the refused count is a fact."""
    low, high = seats
    for players in (low - 1, high + 1, True, "3"):
        with pytest.raises(PositionError) as info:
            cls(players)  # type: ignore[arg-type]
        assert (info.value.code, info.value.data) == (
            "game.player_count",
            {"game": cls.info.short_name, "players": players, "low": low, "high": high},
        )


def test_a_first_player_that_is_no_seat_is_refused() -> None:
    """``game.first_player`` {first_player, players}, in both languages."""
    with pytest.raises(PositionError) as info:
        FlagsGame(2, FlagsOptions(first_player=2))
    assert (info.value.code, info.value.data) == (
        "game.first_player",
        {"first_player": 2, "players": 2},
    )
    assert str(info.value) == "first_player 2 is not a seat of a 2-player game"
    assert texts.refusal(info.value, "fr") == (
        "first_player 2 ne désigne aucun joueur d'une partie à 2 joueurs"
    )


def test_a_position_of_another_number_of_players_is_refused() -> None:
    """``game.position_players`` {players, position_players}: state_from_json reads only
    positions with the game's seats."""
    position = FlamingGame(3).new_initial_state(1).to_json()
    with pytest.raises(PositionError) as info:
        FlamingGame(2).state_from_json(position)
    assert (info.value.code, info.value.data) == (
        "game.position_players",
        {"players": 2, "position_players": 3},
    )
    assert str(info.value) == "the position has 3 players, the game 2"
    assert texts.refusal(info.value, "fr") == "la position a 3 joueurs, la partie 2"


def test_a_view_of_another_game_or_seat_count_is_refused() -> None:
    """``game.view_of_another_game`` {game, view_game} and ``game.view_players``."""
    rng = random.Random(1)
    flags_view = FlagsGame(2).new_initial_state(1).view(0)
    with pytest.raises(PositionError) as info:
        FlamingGame(2).determinize(flags_view, rng)
    assert (info.value.code, info.value.data) == (
        "game.view_of_another_game",
        {"game": "flaming", "view_game": "flags"},
    )
    assert str(info.value) == "a flaming game cannot use a view of the game flags"
    with pytest.raises(PositionError) as info:
        FlamingGame(2).determinize(FlamingGame(4).new_initial_state(1).view(0), rng)
    assert (info.value.code, info.value.data) == (
        "game.view_players",
        {"players": 2, "view_players": 4},
    )
    view = FlamingGame(4).new_initial_state(1).view(0)
    assert FlamingGame(4).determinize(view, rng).view(0).to_json() == view.to_json()


@pytest.mark.parametrize(
    ("reader", "code", "facts"),
    [
        (lambda: object_field([1]), "position.not_an_object", {"field": None}),
        (lambda: object_field(3, "rules"), "position.not_an_object", {"field": "rules"}),
        (
            lambda: known_fields({"a": 1, "b": 2, "c": 3}, ("a",), "rules"),
            "position.unknown_fields",
            {"field": "rules", "fields": ["b", "c"]},
        ),
        (lambda: int_field({}, "players"), "position.missing_field", {"field": "players"}),
        (
            lambda: int_field({"players": None}, "players", 2),
            "position.missing_field",
            {"field": "players"},
        ),
        (
            lambda: int_field({"players": True}, "players"),
            "position.not_an_integer",
            {"field": "players", "value": True},
        ),
        (
            lambda: int_field({"turn": 2.0}, "turn", 1),
            "position.not_an_integer",
            {"field": "turn", "value": 2.0},
        ),
        (
            lambda: int_field({"turn": "3"}, "turn", 1),
            "position.not_an_integer",
            {"field": "turn", "value": "3"},
        ),
        (
            lambda: int_field({"turn": 2**63}, "turn", 1),
            "position.integer_too_large",
            {"field": "turn"},
        ),
        (
            lambda: int_field({"turn": -(2**63) - 1}, "turn", 1),
            "position.integer_too_large",
            {"field": "turn"},
        ),
        (
            lambda: int_field({"turn": 0}, "turn", 1, low=1),
            "position.out_of_range",
            {"field": "turn", "value": 0, "low": 1, "high": None},
        ),
        (
            lambda: int_field({"players": 7}, "players", low=2, high=6),
            "position.out_of_range",
            {"field": "players", "value": 7, "low": 2, "high": 6},
        ),
        (
            lambda: bool_field({"curse": 1}, "curse", True),
            "position.not_a_boolean",
            {"field": "curse", "value": 1},
        ),
        (
            lambda: str_field({"preset": ["x"]}, "preset", "standard"),
            "position.not_a_string",
            {"field": "preset", "value": ["x"]},
        ),
    ],
)
def test_the_shared_field_readers_refuse_with_position_codes(
    reader: Any, code: str, facts: dict[str, Any]
) -> None:
    """``pyramids.core.fields``: the codes and facts both engines raise for a bad field."""
    with pytest.raises(PositionError) as info:
        reader()
    assert (info.value.code, info.value.data) == (code, facts)
    for lang in texts.LANGS:
        assert texts.refusal_key(code) in texts.catalogue(lang)


def test_the_shared_field_readers_read_good_fields() -> None:
    """Defaults when absent; the largest 64-bit integers are held."""
    assert int_field({}, "turn", 1) == 1
    assert int_field({"turn": 2**63 - 1}, "turn") == 2**63 - 1
    assert int_field({"players": 6}, "players", low=2, high=6) == 6
    assert bool_field({}, "curse", True) is True
    assert str_field({"preset": "basic"}, "preset") == "basic"
    assert known_fields({"a": 1}, ("a", "b")) is None


def test_the_shared_field_refusals_read_in_english_and_french() -> None:
    """The words of ``position.out_of_range`` with and without an upper bound."""
    with pytest.raises(PositionError) as info:
        int_field({"players": 7}, "players", low=2, high=6)
    assert str(info.value) == "'players' must be from 2 to 6, not 7"
    assert texts.refusal(info.value, "fr") == "« players » doit valoir de 2 à 6, pas 7"
    with pytest.raises(PositionError) as info:
        int_field({"turn": 0}, "turn", low=1)
    assert str(info.value) == "'turn' must be 1 or more, not 0"
    assert texts.refusal(info.value, "fr") == "« turn » doit valoir au moins 1, pas 0"
    with pytest.raises(PositionError) as info:
        known_fields({"x": 1, "y": 2}, ())
    assert str(info.value) == "unknown position fields: x and y"
    assert texts.refusal(info.value, "fr") == "champs de position inconnus : x et y"
