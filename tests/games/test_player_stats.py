"""The games' per-seat statistics for the player's page (descriptor field ``player_stats``).

Flaming Pyramids counts the mayhem a seat's placement set off, the tiles mayhem sent under
its pile (FP-MAYHEM-3) and its opening tile; Pyramids and Flags counts the flags a seat
scored (PF-SCORE-3) and the groups it completed (PF-WIN-2). Each is checked against what
the positions themselves say, on seeded games of the bots, on both engines.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pyramids.bots import make_bot
from pyramids.core import CHANCE, GameRecord, play_game, replay
from pyramids.core.game import Game
from pyramids.flags.cards import CARDS, CODES
from pyramids.games import descriptor, make_game
from pyramids.games.flaming.stats import MAYHEM

ENGINES = ("python", "native")


def stats_of(
    game_name: str, players: int, options: dict[str, Any], seed: int, engine: str
) -> tuple[Game, GameRecord, list[dict[str, Any]]]:
    """A seeded bots' game, its record, and the game's statistics of each seat."""
    game = make_game(game_name, players, options, engine=engine)
    _, record = play_game(
        game, [make_bot("greedy") for _ in range(players)], seed, game_name=game_name
    )
    fn = descriptor(game_name).player_stats.get()
    return game, record, fn(make_game(game_name, players, options, engine=engine), record)


def held(position: dict[str, Any], seat: int) -> int:
    """The tiles a Flaming seat holds: its hand and its pile."""
    return len(position["hands"][seat]) + len(position["piles"][seat])


FLAMING_CASES = [
    (2, {"preset": "basic"}, 2),
    (3, {}, 5),
    (4, {"preset": "family", "fire_die": True}, 11),
    (4, {"callout": "family"}, 3),
    (6, {}, 8),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("players", "options", "seed"), FLAMING_CASES)
def test_flaming_mayhem_suffered_is_every_tile_a_seat_ended_up_taking(
    engine: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """FP-MAYHEM-3: the tiles mayhem sends go under the responsible player's pile; so a
    seat's tiles at the end are its tiles at the start, less those it placed, plus those
    mayhem gave it (drawing moves tiles from pile to hand, which changes nothing)."""
    game, record, stats = stats_of("flaming", players, options, seed, engine)
    state = game.new_initial_state(record.seed)
    start = [held(state.to_json(), s) for s in range(players)]
    placed = Counter[int]()
    for text in record.actions:
        seat = state.current_player()
        events = _after(state, text)
        if seat != CHANCE and any(e.kind == "place" for e in events):
            placed[seat] += 1
    end = state.to_json()
    for s in range(players):
        assert held(end, s) == start[s] - placed[s] + stats[s]["mayhem_suffered"], s
    assert sum(st["mayhem_suffered"] for st in stats) > 0  # the cases have mayhem


def _after(state: Any, text: str) -> list[Any]:
    """Apply ``text`` to ``state``; the events it made."""
    state.apply(state.parse_action(text))
    return list(state.events())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("players", "options", "seed"), FLAMING_CASES)
def test_flaming_opening_tile_is_the_first_tile_each_seat_placed(
    engine: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """A seat's opening tile is the tile of its first placement (``TILE@r,c``)."""
    game, record, stats = stats_of("flaming", players, options, seed, engine)
    state = game.new_initial_state(record.seed)
    first: dict[int, str] = {}
    for text in record.actions:
        seat = state.current_player()
        if "@" in text and seat not in first:
            first[seat] = text.split("@")[0]
        state.apply(state.parse_action(text))
    assert [s["opening_tile"] for s in stats] == [first.get(s) for s in range(players)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("players", "options", "seed"), FLAMING_CASES)
def test_flaming_mayhem_caused_counts_each_mayhem_once_for_the_placer(
    engine: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Every collapse, explosion, fire, die explosion and curse counts once, for the seat
    whose placement set it off: the seats' sums are the game's mayhem events."""
    game, record, stats = stats_of("flaming", players, options, seed, engine)
    kinds = {k.kind for k in MAYHEM}
    events = [e for _, s in replay(game, record) for e in s.events() if e.kind in kinds]
    assert sum(s["mayhem_caused"] for s in stats) == len(events) > 0


def test_flaming_statistics_of_a_seeded_game_are_these() -> None:
    """Golden figures of one seeded game (3 greedy seats, seed 5, standard): the curse
    sends tiles to another seat, so caused and suffered differ."""
    _, _, stats = stats_of("flaming", 3, {}, 5, "python")
    assert stats == [
        {"mayhem_caused": 2, "mayhem_suffered": 7, "opening_tile": "W200"},
        {"mayhem_caused": 5, "mayhem_suffered": 8, "opening_tile": "R7"},
        {"mayhem_caused": 0, "mayhem_suffered": 0, "opening_tile": "G60"},
    ]


GROUPS_OF = {code: card.groups for code, card in zip(CODES, CARDS, strict=True)}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 5), (4, 1), (2, 12)])
def test_flags_scored_and_groups_completed_are_the_face_up_cards(
    engine: str, players: int, seed: int
) -> None:
    """PF-SCORE-3: a scored card stays face up before its holder; PF-WIN-2: three scored
    flags of one group complete it (a card in two groups counts for both)."""
    game, record, stats = stats_of("flags", players, {}, seed, engine)
    final = None
    for _, state in replay(game, record):
        final = state
    assert final is not None
    scored = final.to_json()["scored"]
    for s in range(players):
        assert stats[s]["flags_scored"] == len(scored[s])
        groups = Counter(g for code in scored[s] for g in GROUPS_OF[code])
        assert stats[s]["groups_completed"] == sum(1 for n in groups.values() if n >= 3)


def test_a_flags_win_by_group_shows_a_completed_group() -> None:
    """A game won on three flags of one group (PF-WIN-2): the winner completed a group."""
    for seed in range(60):
        game, record, stats = stats_of("flags", 2, {}, seed, "native")
        final = None
        for _, state in replay(game, record):
            final = state
        assert final is not None
        wins = [e for e in final.events() if e.kind == "win"]
        if wins and wins[0].condition == "group":
            assert stats[wins[0].seat]["groups_completed"] >= 1
            return
    pytest.fail("no seeded game was won by a group")
