"""The ISMCTS bot: blind to hidden facts, always legal, reproducible, better than random.

The bot sees only ``state.view(seat)`` (FP-VIEW, PF-VIEW) and samples the rest with
``Game.determinize``; chance points (FP-DIE-1, a Pyramids and Flags steal or deal) are
drawn inside its search and never reach it as decisions. Budgets are small iteration
counts so the whole file runs in a few seconds.
"""

from __future__ import annotations

import random

import pytest

from pyramids.bots import BOT_LEVELS, BOTS, PLAYER_BOTS, ISMCTSBot, SearchSettings, make_bot
from pyramids.bots.greedy import GreedyBot
from pyramids.bots.ismcts import GREEDY_ROLLOUT, MIXED_ROLLOUT, RANDOM_ROLLOUT, game_of
from pyramids.core import CHANCE, Game, State, View, choose, play_game
from pyramids.core.game import Action
from pyramids.flags import FlagsGame
from pyramids.flaming import FlamingGame, FlamingOptions, position_from_json
from pyramids.flaming.state import FALL
from pyramids.games import names

SMALL = SearchSettings(iterations=40)


def ismcts(iterations: int = 40, rollout: str = RANDOM_ROLLOUT) -> ISMCTSBot:
    """An ISMCTS bot with a small iteration budget."""
    return ISMCTSBot(SearchSettings(iterations=iterations, rollout=rollout))


def greedy_until(game: Game, seed: int, steps: int) -> State:
    """The state after ``steps`` actions of greedy self-play (chance drawn from ``seed``)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    for _ in range(steps):
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = greedy.act(state.view(player), state.legal_actions(), rng)
        state.apply(action)
    return state


def twin_states(state: State, seat: int) -> tuple[State, State]:
    """Two full states that ``seat`` cannot tell apart from ``state`` but that differ."""
    view = state.view(seat)
    game = game_of(view)
    first = game.determinize(view, random.Random(1))
    for salt in range(2, 50):
        second = game.determinize(view, random.Random(salt))
        if second.to_json() != first.to_json():
            return first, second
    raise AssertionError("every determinization is the same: nothing is hidden")


# --- hidden information -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "steps"),
    [
        (FlamingGame(3, FlamingOptions(preset="family")), 24),
        (FlamingGame(2, FlamingOptions(preset="standard")), 30),
        (FlagsGame(3), 12),
    ],
)
def test_decision_depends_only_on_the_view_not_on_hidden_facts(game: Game, steps: int) -> None:
    """FP-VIEW / PF-VIEW: a seat knows its hand and the public facts, nothing else; two
    states that differ only in what the seat cannot see get the same decision and the
    same analysis (same seed, same budget)."""
    state = greedy_until(game, 7, steps)
    seat = state.current_player()
    assert seat >= 0
    first, second = twin_states(state, seat)
    assert first.view(seat) == second.view(seat) == state.view(seat)
    bot = ismcts(60)
    choices = {choose(bot, s, seat, random.Random(5)) for s in (first, second, state)}
    assert len(choices) == 1
    analyses = [
        bot.analyse(s.view(seat), s.legal_actions(), random.Random(5)) for s in (first, second)
    ]
    assert analyses[0] == analyses[1]
    assert sum(a.visits for a in analyses[0]) == 60


def test_search_never_changes_the_view_it_was_given() -> None:
    """The bot reads its view; it must not alter it (views are shared with the driver)."""
    state = greedy_until(FlamingGame(2, FlamingOptions(preset="family")), 3, 20)
    seat = state.current_player()
    view = state.view(seat)
    before = view.to_json()
    ismcts(30).act(view, state.legal_actions(), random.Random(0))
    assert view.to_json() == before
    assert state.view(seat) == view


# --- always legal ---------------------------------------------------------------------------


def test_a_pending_fall_is_decided_with_left_or_right() -> None:
    """FP-COLLAPSE-1: "then P chooses left or right": the fall is a decision of the
    responsible seat; the bot answers with one of the two legal sides."""
    state = position_from_json(
        {
            "players": 2,
            "pyramid": ["R100@0,0", "B120@0,2", "Y30@0,4"],
            "hands": [["G6", "Y2"], ["B4"]],
            "piles": [[], ["B6"]],
        }
    )
    state.apply(state.parse_action("G6@1,1"))
    assert state.current_player() == 0
    assert state.view(0).pending == FALL
    legal = state.legal_actions()
    assert len(legal) == 2
    action = ismcts(50).act(state.view(0), legal, random.Random(1))
    assert state.action_to_string(action) in {"left", "right"}


@pytest.mark.parametrize("rollout", [RANDOM_ROLLOUT, GREEDY_ROLLOUT, MIXED_ROLLOUT])
def test_plays_whole_games_with_the_fire_die_legally(rollout: str) -> None:
    """FP-DIE-1: "a six-sided die roll is pending for P, a chance event": the driver draws
    it, so the bot is only ever asked at a seat's decision, and each answer is legal."""
    game = FlamingGame(3, FlamingOptions(preset="family", fire_die=True, max_turns=25))
    bot = ismcts(12, rollout)
    asked: list[tuple[int, Action, list[Action]]] = []

    class Watch:
        name = "watch"

        def act(self, view: View, legal: list[Action], rng: random.Random) -> Action:
            action = bot.act(view, legal, rng)
            asked.append((view.player if view.player is not None else -9, action, list(legal)))
            return action

    rolls = 0
    for seed in range(3):

        def on_step(state: State, text: str) -> None:
            nonlocal rolls
            rolls += text.startswith("die:")

        play_game(game, [Watch(), Watch(), Watch()], seed, on_step=on_step)
    assert asked
    assert all(player >= 0 and action in legal for player, action, legal in asked)
    assert rolls > 0  # chance points were met, drawn by the driver and inside the search


@pytest.mark.parametrize(("seed", "kind"), [(0, "capture"), (2, "action")])
def test_flags_capture_and_tree_action_decisions_are_legal(seed: int, kind: str) -> None:
    """PF-SCORE (capture) and PF-TREE (tree action): decisions in the middle of a turn,
    owned by whoever decides; the bot answers with a legal action."""
    game = FlagsGame(3)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    for _ in range(200):
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(player)
        legal = state.legal_actions()
        if view.pending.get("kind") == kind and len(legal) > 1:  # type: ignore[attr-defined]
            action = ismcts(30).act(view, legal, random.Random(3))
            assert action in legal
            return
        state.apply(greedy.act(view, legal, rng))
    raise AssertionError(f"no {kind} decision met")


def test_one_legal_action_is_returned_without_searching() -> None:
    """With a single legal action there is nothing to search: it is returned at once."""

    def no_game(view: View) -> Game:
        raise AssertionError("searched")

    state = greedy_until(FlamingGame(2), 1, 4)
    bot = ISMCTSBot(SMALL, game_of_view=no_game)
    assert bot.act(state.view(state.current_player()), [17], random.Random(0)) == 17


def test_analysis_covers_exactly_the_legal_actions() -> None:
    """analyse() lists every legal action once, most visited first; shares sum to 1 and
    win chances are rewards in [0, 1]."""
    state = greedy_until(FlamingGame(2, FlamingOptions(preset="basic")), 4, 10)
    seat = state.current_player()
    legal = state.legal_actions()
    stats = ismcts(200).analyse(state.view(seat), legal, random.Random(2))
    assert sorted(s.action for s in stats) == legal
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
    assert sum(s.visits for s in stats) == 200
    assert sum(s.share for s in stats) == pytest.approx(1.0)
    assert all(0.0 <= s.win <= 1.0 for s in stats)


# --- reproducible -------------------------------------------------------------------------


def test_seeded_search_is_reproducible() -> None:
    """The same view, seed and iteration budget give the same analysis and action."""
    state = greedy_until(FlagsGame(2), 2, 6)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    runs = [ismcts(50).analyse(view, legal, random.Random(11)) for _ in range(2)]
    assert runs[0] == runs[1]
    acts = {ismcts(50).act(view, legal, random.Random(11)) for _ in range(2)}
    assert len(acts) == 1


def test_seeded_games_against_random_are_reproducible() -> None:
    """core.play_game with an ISMCTS seat: the same seed replays the same game."""
    game = FlamingGame(2, FlamingOptions(preset="basic", max_turns=12))
    records = [play_game(game, [ismcts(15), make_bot("random")], 4)[1] for _ in range(2)]
    assert records[0] == records[1]


# --- guided search -------------------------------------------------------------------------


def test_guided_search_expands_the_greedy_choice_first() -> None:
    """Guided search asks the greedy bot which untried action to expand: after one
    iteration the only root action visited is one the greedy bot picks from that view."""
    state = greedy_until(FlagsGame(2), 2, 6)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    greedy = GreedyBot()
    picks = {greedy.act(view, legal, random.Random(i)) for i in range(30)}
    bot = ISMCTSBot(SearchSettings(iterations=1, guided=True))
    visited = [s.action for s in bot.analyse(view, legal, random.Random(4)) if s.visits]
    assert len(visited) == 1
    assert visited[0] in picks


def test_guided_search_widens_progressively() -> None:
    """Guided search tries at most ceil(widening * sqrt(n)) root actions in n iterations
    (a first Pyramids and Flags move has ~200 legal actions); unguided, every iteration
    tries a new one until all are tried."""
    state = FlagsGame(2).new_initial_state(3)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    assert len(legal) > 100

    def tried(settings: SearchSettings) -> int:
        stats = ISMCTSBot(settings).analyse(view, legal, random.Random(1))
        return sum(1 for s in stats if s.visits)

    assert tried(SearchSettings(iterations=50)) == 50
    assert tried(SearchSettings(iterations=50, guided=True)) <= 8
    assert tried(SearchSettings(iterations=50, guided=True, widening=2.0)) <= 15


@pytest.mark.parametrize("rollout", [MIXED_ROLLOUT, GREEDY_ROLLOUT])
def test_guided_seeded_search_is_reproducible(rollout: str) -> None:
    """Guided search with the same view, seed and iteration budget gives the same analysis."""
    state = greedy_until(FlamingGame(2, FlamingOptions(preset="basic")), 4, 10)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    settings = SearchSettings(iterations=60, rollout=rollout, guided=True)
    runs = [ISMCTSBot(settings).analyse(view, legal, random.Random(8)) for _ in range(2)]
    assert runs[0] == runs[1]
    assert sorted(s.action for s in runs[0]) == legal
    assert sum(s.visits for s in runs[0]) == 60


@pytest.mark.parametrize(("field", "value"), [("widening", -1.0), ("bias", -0.5)])
def test_guided_settings_refuse_negative_constants(field: str, value: float) -> None:
    """Widening and bias are non-negative constants."""
    with pytest.raises(ValueError, match=field):
        SearchSettings(**{field: value})  # type: ignore[arg-type]


# --- strength -----------------------------------------------------------------------------


def test_ismcts_beats_random_in_short_two_player_games() -> None:
    """FP-END-4: after max_turns the seat with fewest tiles left is ranked first. ISMCTS
    (60 iterations a decision) against random over 10 seeded basic games of at most
    16 turns, seats alternating: it wins at least 8 (random would win about half)."""
    game = FlamingGame(2, FlamingOptions(preset="basic", max_turns=16))
    score = 0.0
    for seed in range(10):
        bots = [ismcts(60), make_bot("random")]
        me = seed % 2
        if me:
            bots.reverse()
        final, _ = play_game(game, bots, 1000 + seed)
        score += final.returns()[me]
    assert score >= 8


# --- registry -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "iterations", "seconds", "rollout", "guided"),
    [
        ("ismcts", 4000, None, "greedy", True),
        ("ismcts:easy", 200, None, "random", False),
        ("ismcts:normal", 4000, None, "greedy", True),
        ("ismcts:hard", 12000, None, "greedy", True),
        ("ismcts:1s", None, 1.0, "random", False),
        ("ismcts:0.1s", None, 0.1, "random", False),
        ("ismcts:500", 500, None, "random", False),
        ("ismcts:2000+greedy", 2000, None, "greedy", False),
        ("ismcts+mixed", 4000, None, "mixed", True),
        (" ISMCTS:Easy+Greedy ", 200, None, "greedy", False),
        ("ismcts:hard+random", 12000, None, "random", True),
        ("ismcts:500+mixed", 500, None, "mixed", False),
        ("ismcts:500+guided", 500, None, "random", True),
        ("ismcts:300+mixed+guided", 300, None, "mixed", True),
        ("ismcts:1000+guided+greedy", 1000, None, "greedy", True),
    ],
)
def test_make_bot_reads_ismcts_specs(
    spec: str, iterations: int | None, seconds: float | None, rollout: str, guided: bool
) -> None:
    """make_bot reads a level, an iteration count or seconds, a rollout and ``guided``."""
    bot = make_bot(spec)
    assert isinstance(bot, ISMCTSBot)
    assert bot.name == spec.strip().lower()
    settings = bot.settings
    assert (settings.iterations, settings.seconds, settings.rollout, settings.guided) == (
        iterations,
        seconds,
        rollout,
        guided,
    )


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:0",
        "ismcts:-5",
        "ismcts:0s",
        "ismcts:fast",
        "ismcts:5+smart",
        "ismcts:5+greedy+mixed",
        "greedy:5",
        "greedy+guided",
        "alpha",
    ],
)
def test_make_bot_refuses_bad_specs(spec: str) -> None:
    """A bad level, budget or rollout, or a budget on a bot without one, is a ValueError."""
    with pytest.raises(ValueError, match=r"bad budget|unknown|takes no budget"):
        make_bot(spec)


def test_registry_lists_levels_and_player_bots() -> None:
    """The levels easy < normal < hard; players may pick random, beginner, greedy, ismcts."""
    assert list(BOT_LEVELS) == ["easy", "normal", "hard"]
    assert set(PLAYER_BOTS) == {"random", "beginner", "greedy", "ismcts"}
    assert set(PLAYER_BOTS) <= set(BOTS)
    assert BOTS["ismcts"]().name == "ismcts"
    assert make_bot("ismcts").games == ("flaming", "flags")  # type: ignore[attr-defined]


def test_game_of_rebuilds_the_game_of_a_view() -> None:
    """The game is found from the view alone: its package and its players and options."""
    game = FlamingGame(4, FlamingOptions(preset="family", fire_die=True))
    assert game_of(game.new_initial_state(0).view(1)) == game
    flags = FlagsGame(3)
    assert game_of(flags.new_initial_state(0).view(0)) == flags
    with pytest.raises(TypeError, match="cannot tell which game"):
        game_of(object())  # type: ignore[arg-type]


def test_the_search_plays_every_registered_game() -> None:
    """Hosts name no game: ``games`` is the registry's names, the game comes from ``view.game``."""
    assert ISMCTSBot().games == names()
    flags = FlagsGame(2)
    view = flags.new_initial_state(0).view(0)
    assert view.game in names() and game_of(view) == flags
