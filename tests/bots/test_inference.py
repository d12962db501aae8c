"""Determinization with inference (issue 28, point 2): the last mover's hidden hand is
sampled by how well it explains that seat's move under the game's default policy.

Pyramids and Flags: the opponent's first action of its turn is read off the table
(``last_moved``); particles holding the cards that move was good for are kept, the others
dropped. Inference changes which hands are sampled, never which actions are legal, and a
search with it is reproducible from its seed and budget on both searches.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest

from pyramids.bots import ISMCTSBot, make_bot, parse_settings
from pyramids.bots import inference as infer
from pyramids.core.game import Action, State, View
from pyramids.core.record import play_game
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import NAMES
from pyramids.games import make_game
from pyramids.games.flags.inference import FlagsInference


class Watcher:
    """Seat 0: greedy play, remembering its decisions as an inferring bot does, and for each
    decision where inference reads the opponent's move, how many of the opponent's true
    cards the particles and plain determinizations give it (the true state from ``table``)."""

    name = "watcher"

    def __init__(self, table: list[State]) -> None:
        self.table = table
        self.memory = infer.Memory()
        self.greedy = make_bot("greedy")
        self.game = make_game("flags", 2)
        self.inferred = 0
        self.particle_hits = 0.0
        self.uniform_hits = 0.0

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        r = random.Random(view.turn)
        particles = self.memory.particles(view, self.game, FlagsInference(), r)
        if particles:
            opp = 1 - view.player
            true = set(self.table[0].view(opp).hand)
            self.inferred += 1
            self.particle_hits += sum(len(true & set(p.known_hands[opp])) for p in particles) / len(
                particles
            )
            samples = [self.game.determinize(view, r) for _ in range(len(particles))]
            self.uniform_hits += sum(len(true & set(s.view(opp).hand)) for s in samples) / len(
                samples
            )
        action = self.greedy.act(view, legal, rng)
        self.memory.remember(view, action)
        return action


def test_particles_give_the_opponent_the_cards_its_moves_were_for() -> None:
    table: list[State] = []
    watcher = Watcher(table)

    def on_step(state: State, _text: str) -> None:
        table[:] = [state]

    for seed in range(4):
        play_game(make_game("flags", 2), [watcher, make_bot("greedy")], seed, on_step=on_step)
    assert watcher.inferred >= 10
    # uniform sampling finds about half a true card per hand; inference about two in four
    assert watcher.particle_hits > 1.6 * watcher.uniform_hits


def test_evidence_from_the_opponents_earlier_turns_beats_its_last_turn_alone() -> None:
    """A memory that read every opponent move of the game (its per-card belief) gives the
    opponent more of its true cards than one that remembers only the last decision."""
    table: list[State] = []
    game = make_game("flags", 2)
    memory = infer.Memory()
    greedy = make_bot("greedy")
    hits = {"all turns": 0.0, "last turn": 0.0}
    compared = 0

    class Watcher:
        name = "watcher"

        def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            nonlocal compared
            last = infer.Memory()
            if memory.view is not None and memory.action is not None:
                last.remember(memory.view, memory.action)
            made = {
                name: m.particles(view, game, FlagsInference(), random.Random(view.turn))
                for name, m in (("all turns", memory), ("last turn", last))
            }
            if made["all turns"] and made["last turn"]:
                compared += 1
                opp = 1 - view.player
                true = set(table[0].view(opp).hand or ())
                for name, particles in made.items():
                    assert particles is not None
                    hits[name] += sum(len(true & set(p.known_hands[opp])) for p in particles) / len(
                        particles
                    )
            action = greedy.act(view, legal, rng)
            memory.remember(view, action)
            return action

    def on_step(state: State, _text: str) -> None:
        table[:] = [state]

    for seed in range(4):
        play_game(game, [Watcher(), make_bot("greedy")], seed, on_step=on_step)
    assert compared >= 10
    assert hits["all turns"] > 1.15 * hits["last turn"]


def test_a_belief_needs_no_new_move_and_a_new_game_drops_it() -> None:
    """Between two reads of the opponent (here: the bot's own decision again) the belief
    alone draws the hands; a memory that cannot follow the view forgets the belief."""
    game = make_game("flags", 2)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    greedy = make_bot("greedy")
    memory = infer.Memory()
    believed = None
    while believed is None and not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(seat)
        action = greedy.act(view, state.legal_actions(), rng)
        if seat == 0:
            made = memory.particles(view, game, FlagsInference(), random.Random(1))
            memory.remember(view, action)
            if made and memory.beliefs:
                believed = view
        state.apply(action)
    assert believed is not None
    again = infer.Memory()
    again.beliefs, again.seat = memory.beliefs, memory.seat
    particles = again.particles(believed, game, FlagsInference(), random.Random(2))
    assert particles is not None
    assert all(len(p.known_hands[1]) == believed.hand_sizes[1] for p in particles)
    fresh = game.new_initial_state(4)
    assert memory.particles(fresh.view(0), game, FlagsInference(), rng) is None
    assert memory.beliefs == {}


def test_resampling_keeps_particles_in_proportion_to_their_weights() -> None:
    picked = infer.systematic([0.0, 1.0, 0.0, 3.0], 64, random.Random(5))
    assert picked.count(1) == 16
    assert picked.count(3) == 48


def test_a_move_the_policy_prefers_is_likelier_and_no_move_is_impossible() -> None:
    scores = [0.0, 0.5, 0.1]
    assert infer.likelihoods(scores, [1]) > infer.likelihoods(scores, [2])
    assert infer.likelihoods([0.0, 100.0], [0]) >= infer.FLOOR / 2


def test_infer_in_a_bot_spec_turns_inference_on() -> None:
    assert parse_settings("500+greedy+infer").inference
    assert not parse_settings("500+greedy").inference


def play_with_memory(spec: str, seed: int) -> list[Action]:
    """A game of the inferring bot against greedy; its actions."""
    record: list[Action] = []
    bot = make_bot(spec)

    class Recorder:
        name = spec

        def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            action = bot.act(view, legal, rng)
            assert action in legal
            record.append(action)
            return action

    play_game(make_game("flags", 2), [Recorder(), make_bot("greedy")], seed)
    return record


def test_an_inferring_bot_plays_legal_moves_reproducibly() -> None:
    spec = "ismcts:40+greedy+guided+h10+infer"
    first = play_with_memory(spec, 11)
    assert first == play_with_memory(spec, 11)


@pytest.mark.parametrize("seed", [3, 8])
def test_both_searches_give_the_same_statistics_from_the_same_particles(seed: int) -> None:
    native: Any = pytest.importorskip("pyramids._native")
    if not hasattr(native, "search_views"):
        pytest.skip("the native core has no search_views")
    bots = {s: make_bot(f"ismcts:60+greedy+guided+h10+infer+{s}") for s in ("python", "native")}
    compared = 0

    class Twin:
        name = "twin"

        def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            nonlocal compared
            results = []
            for bot in bots.values():
                assert isinstance(bot, ISMCTSBot)
                r = copy.deepcopy(rng)
                results.append((bot.search(view, legal, r).stats, r.getstate()))
            assert results[0] == results[1]
            memory = bots["python"]._memory
            compared += memory.view is not None
            action = bots["native"].act(view, legal, rng)
            bots["python"]._memory.remember(view, action)
            return action

    play_game(make_game("flags", 2), [Twin(), make_bot("greedy")], seed)
    assert compared >= 3


def test_green_put_on_yellow_tells_that_the_opponent_holds_gabon() -> None:
    """Seeded greedy game (seed 3): at turn 6 the opponent, holding the flag of Gabon (GAB:
    green, yellow, blue), moves G1 onto Y2, a link of that flag. The particles give it GAB
    nearly always; plain determinization about one hand in seven (fails without inference)."""
    game = make_game("flags", 2)
    memory = infer.Memory()
    greedy = make_bot("greedy")
    found: list[tuple[float, float]] = []

    class Watcher:
        name = "watcher"

        def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            if view.turn == 7 and not found:
                assert view.last_moved == (NAMES.index("G1"),)
                gab = CODES.index("GAB")
                r = random.Random(99)
                particles = memory.particles(view, game, FlagsInference(), r)
                assert particles is not None
                share = sum(gab in p.known_hands[1] for p in particles) / len(particles)
                hands = [game.determinize(view, r).view(1).hand or () for _ in range(400)]
                found.append((share, sum(gab in h for h in hands) / len(hands)))
            action = greedy.act(view, legal, rng)
            memory.remember(view, action)
            return action

    play_game(game, [Watcher(), make_bot("greedy")], 3)
    (inferred, uniform), *_ = found
    assert inferred >= 0.75
    assert uniform <= 0.25


def test_a_memory_of_a_later_turn_is_forgotten_and_the_bot_samples_plainly() -> None:
    """A bot seated at a new game still remembers the last one: that memory cannot lead to
    the new game's first decision, so it is dropped and no particles are made."""
    game = make_game("flags", 2)
    late = game.new_initial_state(1)
    rng = random.Random(1)
    greedy = make_bot("greedy")
    while late.current_player() != 0 or late.view(0).turn < 9:
        seat = late.current_player()
        if seat < 0:
            late.apply(late.sample_chance(rng))
        else:
            late.apply(greedy.act(late.view(seat), late.legal_actions(), rng))
    memory = infer.Memory()
    memory.remember(late.view(0), late.legal_actions()[0])
    fresh = game.new_initial_state(2)
    assert memory.particles(fresh.view(0), game, FlagsInference(), rng) is None
    assert memory.view is None


def _two_decisions(spec: str) -> tuple[Any, View, Action, View, Sequence[Action]]:
    """A 2-player Flags game, seat 0 the bot ``spec`` and seat 1 greedy, up to seat 0's
    second decision after a move of seat 1: (the bot, its first view, what it played, its
    second view, the legal actions there)."""
    game = make_game("flags", 2)
    state = game.new_initial_state(3)
    bot, greedy, rng = make_bot(spec), make_bot("greedy"), random.Random(3)
    first: tuple[View, Action] | None = None
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            state.apply(state.sample_chance(rng))
            continue
        view, legal = state.view(seat), state.legal_actions()
        if seat == 0 and first is not None and view.last_moved:  # type: ignore[attr-defined]
            return bot, first[0], first[1], view, legal
        action = (bot if seat == 0 else greedy).act(view, legal, rng)
        if seat == 0 and len(legal) > 1:
            first = (view, action)
        state.apply(action)
    raise AssertionError("the game ended before seat 0 decided twice")


def test_a_bot_made_for_one_decision_from_the_seats_memory_infers_as_one_that_played_on() -> None:
    """The server makes a bot per decision (``server.bot_runner.bot_action_remembering``) and hands it what the
    seat's bot remembered (``ISMCTSBot.restore`` of its ``memory``): its search is the
    played-on bot's, and not a fresh bot's (which has nothing to infer from)."""
    spec = "ismcts:300+greedy+guided+h10+infer"
    played_on, _before, _action, view, legal = _two_decisions(spec)
    restored, fresh = make_bot(spec), make_bot(spec)
    restored.restore(played_on.memory)  # type: ignore[attr-defined]
    expected = played_on.analyse(view, legal, random.Random(11))
    assert restored.analyse(view, legal, random.Random(11)) == expected  # type: ignore[attr-defined]
    assert fresh.analyse(view, legal, random.Random(11)) != expected  # type: ignore[attr-defined]


# --- three and four players: every opponent's turn read from the views the bot watched ---


class FourSeatWatcher:
    """Seat 0 of a 3–4 player game: greedy play, watching every action (``observe``) as an
    inferring bot does; per opponent, how many of its true cards the particles and plain
    determinizations give it."""

    name = "watcher"

    def __init__(self, table: list[State], players: int, *, watching: bool = True) -> None:
        self.table = table
        self.memory = infer.Memory()
        self.greedy = make_bot("greedy")
        self.game = make_game("flags", players)
        self.watching = watching
        self.reads = 0
        self.particle_hits = 0.0
        self.uniform_hits = 0.0

    def observe(self, view: View) -> None:
        if self.watching:
            self.memory.observe(view)

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        r = random.Random(view.turn)
        particles = self.memory.particles(view, self.game, FlagsInference(), r)
        if particles:
            samples = [self.game.determinize(view, r) for _ in range(len(particles))]
            for opp in range(1, view.players):  # type: ignore[attr-defined]
                true = set(self.table[0].view(opp).hand or ())
                self.reads += 1
                self.particle_hits += sum(
                    len(true & set(p.known_hands[opp])) for p in particles
                ) / len(particles)
                self.uniform_hits += sum(
                    len(true & set(s.view(opp).hand or ())) for s in samples
                ) / len(samples)
        action = self.greedy.act(view, legal, rng)
        self.memory.remember(view, action)
        return action


def _watch_four(*, watching: bool, seeds: Sequence[int]) -> FourSeatWatcher:
    table: list[State] = []
    watcher = FourSeatWatcher(table, 4, watching=watching)

    def on_step(state: State, _text: str) -> None:
        table[:] = [state]

    for seed in seeds:
        bots = [watcher, make_bot("greedy"), make_bot("greedy"), make_bot("greedy")]
        play_game(make_game("flags", 4), bots, seed, on_step=on_step)
    return watcher


def test_at_four_players_the_particles_give_every_opponent_the_cards_its_moves_were_for() -> None:
    """Three opponents move between two decisions: each of their turns, read from the views
    the bot was shown (``observe``), gives that seat's hand (uniform sampling finds about
    0.65 of a true card per opponent hand, inference about 1.5)."""
    watcher = _watch_four(watching=True, seeds=(0, 1))
    assert watcher.reads >= 30
    assert watcher.particle_hits > 1.6 * watcher.uniform_hits


def test_at_four_players_a_bot_shown_nothing_between_its_decisions_infers_nothing() -> None:
    """Without the views between its decisions the bot cannot read the other seats' turns
    (a host that does not call ``observe``): no particles, plain determinization."""
    watcher = _watch_four(watching=False, seeds=(0,))
    assert watcher.reads == 0


def test_drivers_show_each_watching_bot_its_view_after_every_action() -> None:
    seen: list[tuple[int | None, int]] = []

    class Watching:
        name = "watching"

        def observe(self, view: View) -> None:
            seen.append((view.player, view.turn))  # type: ignore[attr-defined]

        def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            return legal[0]

    final, record = play_game(
        make_game("flags", 3), [Watching(), make_bot("greedy"), make_bot("greedy")], 2
    )
    assert len(seen) == len(record.actions)
    assert {player for player, _ in seen} == {0}
    assert seen[-1][1] == final.view(0).turn  # type: ignore[attr-defined]


def test_a_four_player_bot_made_per_decision_from_the_seats_memory_and_views_plays_on() -> None:
    """The server's way at four players (a bot per decision, ``restore`` with what the
    seat's bot remembered and the seat's views since) searches as the bot that played on
    and watched, belief across turns included; a bot shown only the memory does not."""
    spec = "ismcts:200+greedy+guided+h10+infer"
    game = make_game("flags", 4)
    state = game.new_initial_state(5)
    played_on, greedy, rng = make_bot(spec), make_bot("greedy"), random.Random(5)
    kept, since = make_bot(spec).memory.copy(), list[View]()  # type: ignore[attr-defined]
    decisions = differ = 0
    while not state.is_terminal() and decisions < 4:
        seat = state.current_player()
        view, legal = state.view(seat), state.legal_actions()
        if seat == 0 and len(legal) > 1 and not view.pending:  # type: ignore[attr-defined]
            r = random.Random(decisions)
            expected = played_on.analyse(view, legal, r)  # type: ignore[attr-defined]
            made, blind = make_bot(spec), make_bot(spec)
            made.restore(kept.copy(), since)  # type: ignore[attr-defined]
            assert made.analyse(view, legal, random.Random(decisions)) == expected  # type: ignore[attr-defined]
            blind.restore(kept.copy())  # type: ignore[attr-defined]
            differ += blind.analyse(view, legal, random.Random(decisions)) != expected  # type: ignore[attr-defined]
            decisions += 1
        action = (played_on if seat == 0 else greedy).act(view, legal, rng)
        if seat == 0:
            kept, since = played_on.memory.copy(), []  # type: ignore[attr-defined]
        state.apply(action)
        played_on.observe(state.view(0))  # type: ignore[attr-defined]
        since.append(state.view(0))
    assert decisions == 4
    assert differ == 3  # all but the first turn, before which nobody moved
