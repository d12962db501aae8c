"""The core conformance suite (``pyramids.core.conformance``) run against Flaming Pyramids.

Every preset, every player count from 2 to 6, fire die on and off, and call-out mode
(family and competitive): seeded random playouts check the protocol after every action (sorted unique legal actions, chance
probabilities, notation and JSON round trips, clones, refused illegal actions, views
consistent with determinize, returns, game end, replay determinism).

On both engines (docs/NATIVE.md): every game of the registry is checked on the Python
engine and on the native core (skipped where it is not built, except under CI, where a
missing native engine fails).
"""

from __future__ import annotations

import copy
import os
import pickle
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

import pytest

from pyramids import texts
from pyramids.core import (
    CHANCE,
    TERMINAL,
    ActionParseError,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    Outcome,
    State,
    View,
)
from pyramids.core.conformance import ConformanceError, check_game
from pyramids.core.errors import plain
from pyramids.flaming import PRESETS
from pyramids.flaming.state import PLACE_BASE
from pyramids.games import descriptor, descriptors, load_position, make_game
from pyramids.games.engine import NATIVE, PYTHON, EngineError
from pyramids.texts.format import format_message
from tests.thirdgame.rules import PebblesGame
from tests.thirdgame.words import MESSAGES

SEEDS = (0, 1, 2)
ENGINES = (PYTHON, NATIVE)
"""The engines every case runs on (``pyramids.games.engine``)."""


def game_on(engine: str, name: str, players: int, options: dict[str, Any] | None = None) -> Game:
    """The registry's game ``name`` on ``engine``; the case is skipped when that engine
    cannot play it (the native core not built), and fails so under CI."""
    try:
        return make_game(name, players, options or {}, engine=engine)
    except EngineError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} on the {engine} engine: {exc}")
        pytest.skip(f"{name} on the {engine} engine: {exc}")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fire_die", [False, True], ids=["no_die", "fire_die"])
@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("preset", PRESETS)
def test_flaming_conforms_to_the_core_protocol(
    preset: str, players: int, fire_die: bool, engine: str
) -> None:
    """FP-END-5 / core protocol: random seeded playouts break no protocol rule and all end.

    Returns: "the winner gets 1 and every other seat 0".
    """
    game = game_on(engine, "flaming", players, {"preset": preset, "fire_die": fire_die})
    report = check_game(game, SEEDS, view_every=3, returns_total=1.0)
    assert report.games == len(SEEDS)
    assert report.states_checked == report.actions + report.games
    assert set(report.decisions_per_seat) == set(range(players))
    assert report.hidden_states > 0
    if not fire_die or preset == "basic":
        assert report.chance_actions == 0


CALLOUT_CASES = [
    (callout, players, ("family", "standard")[(players + shift) % 2], players % 3 != 1)
    for shift, callout in enumerate(("family", "competitive"))
    for players in range(2, 7)
]
"""Both variants, every player count, each with both presets and the fire die on and off."""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("callout", "players", "preset", "fire_die"), CALLOUT_CASES)
def test_flaming_callout_conforms_to_the_core_protocol(
    callout: str, players: int, preset: str, fire_die: bool, engine: str
) -> None:
    """FP-CALL / core protocol: call-out games keep the protocol too.

    The check is an ordinary decision of the checker (ok or a call of every occupied
    position), so seeded random playouts make right calls and false alarms and leave
    mayhem overlooked; views (which never say whether mayhem stands) still determinize.
    """
    options = {"preset": preset, "fire_die": fire_die, "callout": callout}
    game = game_on(engine, "flaming", players, options)
    report = check_game(game, SEEDS[:2], view_every=3, returns_total=1.0)
    assert report.games == 2
    assert set(report.decisions_per_seat) == set(range(players))
    assert report.hidden_states > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_games_cut_by_max_turns_conform(engine: str) -> None:
    """FP-END-4: "Option max_turns ... ends a game nobody has won after that many turns".

    FP-END-5: "after max_turns, 1 is split equally among the seats ranked 1".
    """
    options = {"preset": "standard", "fire_die": True, "max_turns": 6}
    report = check_game(game_on(engine, "flaming", 4, options), range(4), returns_total=1.0)
    assert report.games == 4
    assert sum(report.returns_total) == pytest.approx(4.0)


REGISTRY_CASES = [
    (desc.name, players)
    for desc in descriptors()
    for players in sorted({desc.info.min_players, desc.info.max_players})
]
"""Every registered game with its fewest and its most seats."""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "players"), REGISTRY_CASES)
def test_every_registered_game_conforms_on_both_engines(
    name: str, players: int, engine: str
) -> None:
    """Core protocol, for every game of the registry on either engine (its default rules)."""
    report = check_game(game_on(engine, name, players), (0,), view_every=7)
    assert report.games == 1
    assert set(report.decisions_per_seat) == set(range(players))


@pytest.mark.parametrize("name", [desc.name for desc in descriptors()])
def test_native_states_copy_deepcopy_and_pickle(name: str) -> None:
    """A native mid-game state survives copy.copy, copy.deepcopy and pickling (the native
    wrappers' promise, docs/NATIVE.md): equal, the same position and decision, and
    independent of the original."""
    engine = NATIVE
    game = game_on(engine, name, game_players(name))
    state = game.new_initial_state(5)
    rng = random.Random(5)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    before = state.to_json()
    for twin in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert type(twin) is type(state)
        assert twin == state
        assert twin.to_json() == before
        assert twin.legal_actions() == state.legal_actions()
        assert twin.history() == state.history()
        if not twin.is_terminal():
            if twin.current_player() == CHANCE:
                twin.apply(twin.chance_outcomes()[0][0])
            else:
                twin.apply(twin.legal_actions()[-1])
            assert state.to_json() == before


def game_players(name: str) -> int:
    """The fewest seats of the registered game ``name``."""
    return next(d.info.min_players for d in descriptors() if d.name == name)


@pytest.mark.parametrize(("name", "players"), REGISTRY_CASES)
def test_every_refusal_the_suite_meets_reads_in_english_and_french(name: str, players: int) -> None:
    """Issue 32, refusals as codes: every refusal a game's playouts raise (illegal actions,
    unreadable text) is a code with words in the catalogue in English and French, filled
    with its facts (a French page shows a French refusal)."""
    report = check_game(game_on(PYTHON, name, players), (0,), view_every=50)
    assert report.refusals, "the suite met no refusal"
    for code, error in sorted(report.refusals.items()):
        key = texts.refusal_key(code)
        for lang in texts.LANGS:
            assert key in texts.catalogue(lang), f"{key} has no words in {lang}"
            words = texts.refusal(error, lang)
            assert words and words != plain(error.code, error.data), (lang, words)


def test_the_third_game_brings_words_for_its_refusals() -> None:
    """Issue 32: the third game's own refusal codes (``pebbles.*``) have words in English
    and French in ``tests.thirdgame.words`` (which its descriptor's messages carry); the
    shared codes it raises are the catalogue's."""
    report = check_game(PebblesGame(), (0, 1), view_every=50)
    assert {"pebbles.not_legal", "pebbles.unreadable"} <= set(report.refusals)
    assert set(MESSAGES["en"]) == set(MESSAGES["fr"])
    for code, error in sorted(report.refusals.items()):
        key = texts.refusal_key(code)
        for lang in texts.LANGS:
            own = MESSAGES[lang].get(key)
            if own is None:
                assert key in texts.catalogue(lang), f"{key} has no words in {lang}"
                continue
            words = format_message(own, error.data, texts.catalogue(lang).get)
            assert words and "{" not in words, (lang, words)


def test_conformance_error_is_an_assertion_error() -> None:
    """A breach raises ConformanceError, which pytest reports like a failed assert."""
    assert issubclass(ConformanceError, AssertionError)


# --- the suite itself, on a toy game ------------------------------------------------------
#
# A tiny game with every feature the protocol knows: a secret card per seat (hidden
# information, sampled by determinize), a coin flip after each move (chance), and a
# winner. Correct, it passes; each broken variant is caught with a precise message.

TAKE_ONE, TAKE_TWO, HEADS, TAILS = 1, 2, 10, 11
TOY_TEXT = {TAKE_ONE: "take1", TAKE_TWO: "take2", HEADS: "heads", TAILS: "tails"}
TOY_INFO = GameInfo(
    "Toy", "toy", 2, 2, has_chance=True, has_hidden_information=True, rules_version="1"
)


@dataclass(frozen=True)
class ToyView:
    """A seat's view: everything but the other seat's card."""

    player: int | None
    pile: int
    to_move: int
    coin: bool
    card: int | None
    winner: int | None

    @property
    def game(self) -> str:
        """The toy game's short name."""
        return "toy"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "player": self.player,
            "pile": self.pile,
            "to_move": self.to_move,
            "coin": self.coin,
            "card": self.card,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class ToyMove(Event, game="toy", kind="move"):
    """The toy game's one event kind."""

    action: int


class ToyState(State):
    """Take one or two tokens; a coin may take one more; who empties the pile wins."""

    def __init__(self, game: ToyGame, cards: list[int]) -> None:
        self.game = game
        self.pile = 7
        self.to_move = 0
        self.coin = False
        self.cards = cards
        self.winner: int | None = None
        self.last: list[Event] = []
        self.played: list[int] = []

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.coin else self.to_move

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        if self.coin:
            return [HEADS, TAILS]
        return [a for a in (TAKE_ONE, TAKE_TWO) if a <= self.pile]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(HEADS, 0.5), (TAILS, 0.5)] if self.coin and self.winner is None else []

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError("toy.not_legal", action=action)
        if self.coin:
            self.coin = False
            if action == HEADS and self.pile:
                self.pile -= 1
            self.to_move = 1 - self.to_move
        else:
            self.pile -= action
            self.coin = True
        self.last = [ToyMove(action)]
        self.played.append(action)
        if self.pile == 0:
            self.winner = self.to_move
            self.coin = False

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome:
        return Outcome.ongoing() if self.winner is None else Outcome.won_by(self.winner, 2)

    def history(self) -> list[int]:
        return list(self.played)

    def clone(self) -> Self:
        return copy.deepcopy(self)

    def view(self, player: int | None) -> ToyView:
        card = None if player is None else self.cards[player]
        return ToyView(player, self.pile, self.to_move, self.coin, card, self.winner)

    def action_to_string(self, action: int) -> str:
        return TOY_TEXT.get(action, f"#{action}")

    def parse_action(self, text: str) -> int:
        for action, name in TOY_TEXT.items():
            if name == text:
                if action not in self.legal_actions():
                    raise IllegalActionError("toy.not_legal", action=action)
                return action
        raise ActionParseError("toy.unreadable", text=text)

    def events(self) -> list[Event]:
        return list(self.last)

    def to_json(self) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "to_move": self.to_move,
            "coin": self.coin,
            "cards": list(self.cards),
            "winner": self.winner,
        }

    @property
    def num_players(self) -> int:
        return 2

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToyState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable state


class ToyGame(Game):
    """The toy game's factory."""

    info = TOY_INFO
    state_class: type[ToyState] = ToyState

    @property
    def options(self) -> dict[str, Any]:
        return {}

    @property
    def num_players(self) -> int:
        return 2

    def new_initial_state(self, seed: int) -> ToyState:
        rng = random.Random(seed)
        return self.state_class(self, [rng.randint(1, 3), rng.randint(1, 3)])

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        state = self.state_class(self, list(data["cards"]))
        state.pile, state.to_move, state.coin = data["pile"], data["to_move"], data["coin"]
        state.winner = data["winner"]
        return state

    def determinize(self, view: View, rng: random.Random) -> ToyState:
        assert isinstance(view, ToyView)
        cards = [rng.randint(1, 3), rng.randint(1, 3)]
        if view.player is not None and view.card is not None:
            cards[view.player] = view.card
        state = self.state_class(self, cards)
        state.pile, state.to_move, state.coin = view.pile, view.to_move, view.coin
        state.winner = view.winner
        return state


class UnsortedState(ToyState):
    def legal_actions(self) -> list[int]:
        return list(reversed(super().legal_actions()))


class SharingCloneState(ToyState):
    def clone(self) -> Self:
        twin = copy.copy(self)  # shallow: the card list is shared
        return twin

    def apply(self, action: int) -> None:
        super().apply(action)
        self.cards[0] = (self.cards[0] % 3) + 1


class LaxState(ToyState):
    def apply(self, action: int) -> None:
        if action < 0:
            self.pile = max(self.pile - 1, 0)
            return
        super().apply(action)


class ForgetfulState(ToyState):
    def history(self) -> list[int]:
        return super().history()[:-1]


class OverEarlyState(ToyState):
    def outcome(self) -> Outcome:
        return Outcome.won_by(0, 2) if self.pile < 3 else super().outcome()


class WrongViewGameState(ToyState):
    def view(self, player: int | None) -> ToyView:
        view = super().view(player)
        return OtherGameView(**vars(view))


@dataclass(frozen=True)
class OtherGameView(ToyView):
    @property
    def game(self) -> str:
        return "flaming"


class SentenceState(ToyState):
    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        super().apply(action)


class OpaqueFactState(ToyState):
    def parse_action(self, text: str) -> int:
        if text not in TOY_TEXT.values():
            raise ActionParseError("toy.unreadable", text=object())
        return super().parse_action(text)


class EndlessState(ToyState):
    def apply(self, action: int) -> None:
        super().apply(action)
        if self.pile == 0:
            self.pile, self.winner = 7, None


def toy(state_class: type[ToyState]) -> ToyGame:
    """A toy game whose states are ``state_class``."""
    game = ToyGame()
    game.state_class = state_class
    return game


def test_the_suite_passes_a_correct_toy_game() -> None:
    """A game that keeps the protocol passes, and the report shows every check ran."""
    report = check_game(toy(ToyState), range(5), returns_total=1.0)
    assert report.games == 5
    assert report.chance_actions > 0
    assert report.illegal_tried > 0
    assert report.hidden_states > 0
    assert set(report.refusals) == {"toy.not_legal", "toy.unreadable"}


class FixedDeterminizeGame(ToyGame):
    def determinize(self, view: View, rng: random.Random) -> ToyState:
        return super().determinize(view, random.Random(0))


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (toy(UnsortedState), "legal_actions() is not sorted"),
        (toy(SharingCloneState), "applying an action to a clone changed the original"),
        (toy(LaxState), "accepted an action not in legal_actions()"),
        (toy(EndlessState), "did not end within 200 actions"),
        (FixedDeterminizeGame(), "determinize() never varied with its generator"),
        (toy(ForgetfulState), "history() is not the actions applied"),
        (toy(OverEarlyState), "outcome() says the game is over"),
        (toy(WrongViewGameState), "view(0).game is 'flaming', not 'toy'"),
        (toy(SentenceState), "was refused without a code: '-1 is not legal'"),
        (toy(OpaqueFactState), "was refused with facts that are not JSON values"),
    ],
    ids=[
        "unsorted",
        "sharing_clone",
        "lax_apply",
        "endless",
        "fixed_determinize",
        "forgetful_history",
        "outcome_over_early",
        "view_of_another_game",
        "refusal_as_a_sentence",
        "refusal_with_opaque_facts",
    ],
)
def test_the_suite_catches_a_broken_toy_game(game: ToyGame, message: str) -> None:
    """Each breach of the protocol raises ConformanceError with a message that names it."""
    with pytest.raises(ConformanceError) as info:
        check_game(game, range(5), max_actions=200)
    assert message in str(info.value)
    assert "seed " in str(info.value)


# --- breaches the suite found, pinned on minimal positions ----------------------------------

MINIMAL = {
    "rules": {"preset": "basic"},
    "players": 2,
    "to_move": 0,
    "turn": 1,
    "pyramid": ["G20@0,0"],
    "hands": [["R40", "Y2"], ["G2"]],
    "piles": [["Y4"], ["G4"]],
    "out": [],
}


def minimal_on(engine: str) -> State:
    """The MINIMAL position on ``engine``."""
    game_on(engine, "flaming", 2)  # skips when the engine cannot play
    return load_position(descriptor("flaming"), MINIMAL, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("action", [10**9, PLACE_BASE + 45, PLACE_BASE + 63], ids=str)
def test_an_action_number_that_names_no_tile_is_refused_as_illegal(
    action: int, engine: str
) -> None:
    """Core: apply "raises IllegalActionError (message says why) and changes nothing"."""
    state = minimal_on(engine)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before
    assert state.illegal_reason(action)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_determinization_shows_the_viewer_the_hand_as_seen(engine: str) -> None:
    """FP-VIEW-1 and D8: a determinization of seat 0's view shows seat 0 that same view.

    D8: "A hand is listed in the order its tiles came into it".
    """
    state = minimal_on(engine)
    view = state.view(0)
    assert view.to_json()["hand"] == ["R40", "Y2"]
    game = make_game("flaming", 2, dict(MINIMAL["rules"]), engine=engine)  # type: ignore[call-overload]
    sample = game.determinize(view, random.Random(1))
    assert sample.view(0).to_json() == view.to_json()
