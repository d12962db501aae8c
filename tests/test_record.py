"""Game records, the seeded driver ``play_game`` and ``replay`` (pyramids.core.record).

A record (game, options, seed, actions as text) is the whole truth about a game: the
same seed and bots give the same record, and replaying it gives the same final state.
``replay_actions`` is the one replay loop every replayer goes through.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from pyramids import texts
from pyramids.bots import make_bot
from pyramids.core import (
    CHANCE,
    GameRecord,
    PositionError,
    PyramidsError,
    State,
    play_game,
    replay,
)
from pyramids.core.record import ReplayError, ReplayFault, ReplayStep, replay_actions
from pyramids.flaming import FlamingGame, FlamingOptions
from pyramids.games import make_game


def random_game(
    seed: int, players: int = 3, **options: Any
) -> tuple[FlamingGame, State, GameRecord]:
    """A game of random bots under ``options`` (standard preset by default)."""
    game = FlamingGame(players, FlamingOptions(**options))
    final, record = play_game(game, [make_bot("random") for _ in range(players)], seed)
    return game, final, record


def test_record_round_trips_through_json() -> None:
    """GameRecord.to_json -> JSON text -> from_json gives the same record."""
    _, _, record = random_game(3, fire_die=True)
    data = json.loads(json.dumps(record.to_json()))
    again = GameRecord.from_json(data)
    assert again == record
    assert again.to_json() == record.to_json()
    assert data["format"] == 1
    assert data["rules_version"] == FlamingGame.info.rules_version
    assert data["seats"] == ["random"] * 3


def test_record_from_json_keeps_optional_fields_optional() -> None:
    """A minimal record (no seats, no rules version) still reads."""
    record = GameRecord.from_json(
        {"game": "flaming", "options": {}, "players": 2, "seed": 7, "actions": []}
    )
    assert record.seats == [] and record.rules_version == "" and record.actions == []


def test_a_record_ended_by_forfeit_round_trips_and_old_records_stay_as_they_were() -> None:
    """``forfeits`` and ``ended`` are written only when set: every other record's JSON is as
    before."""
    _, _, record = random_game(2)
    assert "forfeits" not in record.to_json() and "ended" not in record.to_json()
    record.forfeits, record.ended = [1], "forfeit"
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert (again.forfeits, again.ended) == ([1], "forfeit")


def test_a_server_record_keeps_the_proof_of_its_forfeits() -> None:
    """Issue 29, item 6: the clock, the start, every action's time (to the microsecond),
    the end and each forfeit's seq round-trip exactly, so the clocks recompute as the
    server computed them."""
    _, _, record = random_game(2)
    data = {
        **record.to_json(),
        "forfeits": [1],
        "forfeited_at": [len(record.actions)],
        "ended": "forfeit",
        "clock": {
            "mode": "realtime",
            "bank": 60,
            "increment": 2.5,
            "per_move": 0,
            "on_expiry": "forfeit",
        },
        "started": "2026-03-01T12:00:00Z",
        "times": [f"2026-03-01T12:00:00.{i:06d}+00:00" for i in range(len(record.actions))],
        "finished": "2026-03-01T13:00:00.000001Z",
    }
    again = GameRecord.from_json(json.loads(json.dumps(data)))
    assert again.clock is not None and again.clock.forfeits_on_time
    assert again.times[1].microsecond == 1 and again.finished is not None
    out = again.to_json()
    assert out["times"][1] == "2026-03-01T12:00:00.000001Z"
    assert out["started"] == "2026-03-01T12:00:00.000000Z"
    assert GameRecord.from_json(out) == again


GOOD = {"game": "flaming", "options": {}, "players": 2, "seed": 7, "actions": ["left"]}


@pytest.mark.parametrize(
    ("change", "code", "facts"),
    [
        ({"game": None}, "record.not_a_string", {"field": "game", "value": None}),
        ({"options": []}, "record.not_an_object", {"field": "options"}),
        ({"players": "2"}, "record.not_an_integer", {"field": "players", "value": "2"}),
        ({"players": True}, "record.not_an_integer", {"field": "players", "value": True}),
        ({"seed": 1.5}, "record.not_an_integer", {"field": "seed", "value": 1.5}),
        ({"seed": False}, "record.not_an_integer", {"field": "seed", "value": False}),
        ({"actions": "left"}, "record.not_a_list_of_strings", {"field": "actions"}),
        ({"actions": [1, 2]}, "record.not_a_list_of_strings", {"field": "actions"}),
        ({"forfeits": [2]}, "record.not_seats", {"field": "forfeits", "players": 2}),
        ({"forfeits": "1"}, "record.not_seats", {"field": "forfeits", "players": 2}),
        (
            {"ended": "resigned"},
            "record.not_ended_by",
            {"field": "ended", "value": "resigned", "expected": "forfeit"},
        ),
        (
            {"times": ["2026-03-01T12:00:00Z", "2026-03-01T12:00:01Z"]},
            "record.one_per_action",
            {"field": "times", "actions": 1},
        ),
        ({"times": ["noon"]}, "record.not_a_time", {"field": "times[0]", "value": "noon"}),
        (
            {"times": ["2026-03-01T12:00:00"]},
            "record.time_without_offset",
            {"field": "times[0]", "value": "2026-03-01T12:00:00"},
        ),
        (
            {"forfeits": [1], "forfeited_at": [5]},
            "record.not_seqs",
            {"field": "forfeited_at", "actions": 1},
        ),
        (
            {"forfeits": [1], "forfeited_at": [0, 1]},
            "record.one_per_forfeit",
            {"field": "forfeited_at", "forfeits": 1, "count": 2},
        ),
        (
            {"clock": {"bank": "60"}},
            "record.not_seconds",
            {"field": "clock.bank", "value": "60"},
        ),
        ({"clock": []}, "record.not_an_object", {"field": "clock"}),
        (
            {"clock": {"mode": 3}},
            "record.not_a_string",
            {"field": "clock.mode", "value": 3},
        ),
        ({"started": 5}, "record.not_a_time", {"field": "started", "value": 5}),
        (
            {"played_by": ["timeout"] * 2},
            "record.one_per_action",
            {"field": "played_by", "actions": 1},
        ),
        ({"played_by": [3]}, "record.not_reasons", {"field": "played_by"}),
        ({"turn_time": -1}, "record.not_seconds", {"field": "turn_time", "value": -1}),
        (
            {"forfeit_after": 0},
            "record.not_a_positive_integer",
            {"field": "forfeit_after", "value": 0},
        ),
        ({"seeded": "yes"}, "record.not_a_boolean", {"field": "seeded", "value": "yes"}),
        ({"salt": 5}, "record.not_a_string", {"field": "salt", "value": 5}),
    ],
)
def test_record_from_json_names_the_bad_field(
    change: dict[str, Any], code: str, facts: dict[str, Any]
) -> None:
    """A record with a field of the wrong type is refused with a PositionError whose code
    says what is wrong and whose facts name the field (and the refused value itself)."""
    with pytest.raises(PositionError) as info:
        GameRecord.from_json({**GOOD, **change})
    assert (info.value.code, info.value.data) == (code, facts)


@pytest.mark.parametrize("missing", ["game", "options", "players", "seed", "actions"])
def test_record_from_json_names_a_missing_field(missing: str) -> None:
    """A record without a required field is refused with a PositionError naming it."""
    data = {k: v for k, v in GOOD.items() if k != missing}
    with pytest.raises(PositionError) as info:
        GameRecord.from_json(data)
    assert (info.value.code, info.value.data) == ("record.missing_field", {"field": missing})


def test_a_record_that_is_not_an_object_is_refused() -> None:
    """A JSON list is no record: ``record.not_an_object`` for the record itself."""
    with pytest.raises(PositionError) as info:
        GameRecord.from_json([GOOD])  # type: ignore[arg-type]
    assert (info.value.code, info.value.data) == ("record.not_an_object", {"field": None})


@pytest.mark.parametrize(
    ("change", "english", "french"),
    [
        (
            {"seed": 1.5},
            "record field 'seed' must be an integer, not 1.5",
            "le champ « seed » de l'enregistrement doit être un nombre entier, pas 1.5",
        ),
        (
            {"times": ["2026-03-01T12:00:00"]},
            "record field 'times[0]' must say its UTC offset (Z): 2026-03-01T12:00:00",
            "le champ « times[0] » de l'enregistrement doit indiquer son décalage UTC (Z) : "
            "2026-03-01T12:00:00",
        ),
    ],
)
def test_a_bad_record_reads_in_english_and_french(
    change: dict[str, Any], english: str, french: str
) -> None:
    """The record's refusals have words in both languages (``pyramids.texts.refusal``)."""
    with pytest.raises(PositionError) as info:
        GameRecord.from_json({**GOOD, **change})
    assert str(info.value) == texts.refusal(info.value, "en") == english
    assert texts.refusal(info.value, "fr") == french


def test_record_from_json_refuses_a_non_object() -> None:
    """Not a JSON object at all: PositionError, not a TypeError."""
    with pytest.raises(PositionError):
        GameRecord.from_json([])  # type: ignore[arg-type]


def test_play_game_is_deterministic() -> None:
    """Core: "Same seed and same actions, same game: always" (bots and chance from the seed)."""
    _, final_a, record_a = random_game(11, players=4, preset="family", fire_die=True)
    _, final_b, record_b = random_game(11, players=4, preset="family", fire_die=True)
    assert record_a == record_b
    assert final_a.to_json() == final_b.to_json()
    assert final_a.is_terminal()
    assert any(a.startswith("die:") for a in record_a.actions)


def test_play_game_differs_between_seeds() -> None:
    """Different seeds deal and play differently."""
    records = [random_game(seed)[2] for seed in range(4)]
    assert len({tuple(r.actions) for r in records}) == 4
    assert len({r.seed for r in records}) == 4


def test_play_game_records_the_game() -> None:
    """The record names the game, options, seats and rules version; every action is text."""
    game, final, record = random_game(5, players=2, preset="basic")
    assert record.game == "flaming"
    assert record.options == dict(game.options)
    assert record.players == 2 and record.seed == 5
    assert record.rules_version == game.info.rules_version
    assert all(isinstance(a, str) and a for a in record.actions)
    assert final.is_terminal()


def test_play_game_calls_on_step_after_every_action() -> None:
    """on_step sees each action's text and the state after it, in order."""
    game = FlamingGame(2, FlamingOptions(preset="family", fire_die=True))
    seen: list[str] = []
    positions: list[dict[str, Any]] = []

    def on_step(state: State, text: str) -> None:
        seen.append(text)
        positions.append(state.to_json())

    final, record = play_game(game, [make_bot("random"), make_bot("random")], 8, on_step=on_step)
    assert seen == record.actions
    assert positions[-1] == final.to_json()


def test_play_game_needs_one_bot_per_seat() -> None:
    """Three seats and two bots: a ValueError (``record.bot_count``) that says so."""
    game = FlamingGame(3)
    with pytest.raises(ValueError, match="3 seats need 3 bots, got 2") as info:
        play_game(game, [make_bot("random"), make_bot("random")], 1)
    assert isinstance(info.value, PyramidsError)
    assert (info.value.code, info.value.data) == ("record.bot_count", {"players": 3, "bots": 2})


def test_replay_reproduces_every_state_and_the_final_one() -> None:
    """replay(record) yields each action with the state after it, ending at the final state."""
    game = FlamingGame(3, FlamingOptions(preset="standard", fire_die=True))
    positions: list[dict[str, Any]] = []
    final, record = play_game(
        game,
        [make_bot("random") for _ in range(3)],
        21,
        on_step=lambda state, _text: positions.append(state.to_json()),
    )
    steps = [(text, state.to_json()) for text, state in replay(game, record)]
    assert [text for text, _ in steps] == record.actions
    assert [pos for _, pos in steps] == positions
    *_, (_, last) = replay(game, record)
    assert last == final
    assert last.returns() == final.returns()


def test_replay_through_json_and_the_game_registry() -> None:
    """A record saved as JSON replays on the game that make_game builds from it."""
    _, final, record = random_game(9, players=5, preset="family")
    saved = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    game = make_game(saved.game, saved.players, saved.options)
    *_, (_, last) = replay(game, saved)
    assert last.to_json() == final.to_json()


@pytest.mark.parametrize(
    ("index", "text"),
    [(0, "Z99@0,0"), (0, "left"), (3, "die:7"), (5, "W200@9,9")],
)
def test_a_corrupted_record_action_raises_position_error_naming_it(index: int, text: str) -> None:
    """replay: "Raises PositionError naming the first action that does not apply"."""
    game, _, record = random_game(4, players=2, preset="basic")
    record.actions[index] = text
    with pytest.raises(PositionError) as info:
        for _ in replay(game, record):
            pass
    error = info.value
    assert isinstance(error, ReplayError)
    assert error.code == "record.action_illegal"
    assert (error.data["seq"], error.data["action_text"]) == (index + 1, text)
    assert error.cause is not None
    assert error.data["refusal"] == error.cause.code
    assert {k: error.data[k] for k in error.cause.data} == error.cause.data


def test_a_corrupted_record_replays_the_good_prefix() -> None:
    """The actions before the corrupted one are replayed and yielded."""
    game, _, record = random_game(4, players=2, preset="basic")
    record.actions[6] = "die:3"  # basic has no fire die: never legal
    yielded = []
    with pytest.raises(PositionError) as info:
        for text, _ in replay(game, record):
            yielded.append(text)
    assert info.value.data["seq"] == 7
    assert yielded == record.actions[:6]


def test_replay_actions_gives_who_decided_each_action_and_before_sees_the_state_before() -> None:
    """replay_actions: "``before(step)`` is called with each parsed action before it is
    applied, while ``step.state`` is still the state it is decided in"."""
    game, final, record = random_game(8, players=3, fire_die=True)
    state = game.new_initial_state(record.seed)
    expected_seats, before_texts = [], []
    for text in record.actions:
        expected_seats.append(state.current_player())
        state.apply(state.parse_action(text))

    def before(step: ReplayStep) -> None:
        assert step.state.current_player() == step.seat  # not applied yet
        before_texts.append(step.state.action_to_string(step.action))

    start = game.new_initial_state(record.seed)
    steps = [(s.seq, s.seat, s.text) for s in replay_actions(start, record.actions, before=before)]
    assert steps == [
        (i, seat, text)
        for i, (seat, text) in enumerate(zip(expected_seats, record.actions, strict=True), 1)
    ]
    assert CHANCE in expected_seats  # the fire die rolled: a chance draw is CHANCE's step
    assert before_texts == record.actions
    assert start.to_json() == final.to_json()  # the state passed in is replayed in place


def test_replay_actions_refuses_an_action_stored_for_a_seat_whose_decision_it_was_not() -> None:
    """A record that names who decided each action (``deciders``): another seat than the
    one to decide is a WRONG_SEAT ReplayError, before the action is even parsed."""
    game, _, record = random_game(4, players=2, preset="basic")
    state = game.new_initial_state(record.seed)
    seats = [state.current_player()]
    seats += [1 - seats[0]] * (len(record.actions) - 1)
    with pytest.raises(ReplayError) as info:
        for _ in replay_actions(state, record.actions, deciders=seats):
            pass
    error = info.value
    assert error.fault is ReplayFault.WRONG_SEAT
    assert error.stored_seat != error.to_move
    assert error.code == "record.wrong_seat"
    assert error.data == {
        "seq": error.seq,
        "action_text": record.actions[error.seq - 1],
        "stored_seat": error.stored_seat,
        "to_move": error.to_move,
    }
    assert f"is stored for seat {error.stored_seat} but it was seat {error.to_move}'s" in str(error)
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.code, again.data, again.fault) == (
        ReplayError,
        error.code,
        error.data,
        ReplayFault.WRONG_SEAT,
    )


def test_replay_actions_says_when_an_action_comes_after_the_end() -> None:
    """An action past the end of the game is an AFTER_END ReplayError (a PositionError
    naming it, as ``replay`` always raised)."""
    game, _, record = random_game(5, players=2, preset="basic")
    extra = record.actions[-1]
    state = game.new_initial_state(record.seed)
    with pytest.raises(PositionError) as info:
        for _ in replay_actions(state, [*record.actions, extra]):
            pass
    assert isinstance(info.value, ReplayError)
    assert info.value.fault is ReplayFault.AFTER_END
    assert info.value.seq == len(record.actions) + 1
    assert info.value.code == "record.action_after_end"
    assert info.value.data["action_text"] == extra
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.fault, again.seq, again.text) == (ReplayFault.AFTER_END, info.value.seq, extra)
    assert again.cause is not None and again.cause.code == info.value.data["refusal"]
