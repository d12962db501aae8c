"""The fast engine against a naive full-rescan transcription of the contract.

Every rule of the mayhem loop (FP-MAYHEM-1: each check a full scan in scan order,
first event resolved, then start again) and of call-out mode (FP-CALL, contract
section 12: the check, right calls, false alarms, overlooked mayhem and its penalty)
is exercised by seeded play; after every action both implementations must agree on
the legal actions, the position JSON, the events, every seat's view and the returns.
The reference is also rebuilt from the position before each action, so positions in
the middle of a check or of a resolution read back the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from pyramids.core import CHANCE, TERMINAL
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from tests.flaming.reference import Reference, Spot, parse_at

Policy = Callable[[Reference, random.Random], str]


class MismatchError(AssertionError):
    """The engine and the reference disagree; the message says on what, where and how."""


def engine_events(state: FlamingState) -> list[dict[str, Any]]:
    """The engine's last events as ``{"kind": ..., **data}``, the reference's shape."""
    return [{"kind": e.kind, **e.data} for e in state.events()]


def engine_player(state: FlamingState) -> int | str | None:
    """The deciding seat in the reference's terms: "chance" for a roll, None when over."""
    player = state.current_player()
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return None
    return player


def compare(state: FlamingState, ref: Reference, where: str, *, events: bool = True) -> None:
    """Everything the two implementations show must be equal."""
    checks: list[tuple[str, Any, Any]] = [
        ("position", state.to_json(), ref.to_json()),
        ("legal actions", [state.action_to_string(a) for a in state.legal_actions()], ref.legal()),
        ("current player", engine_player(state), ref.current_player()),
        ("returns", state.returns(), ref.returns()),
    ]
    if events:
        checks.append(("events", engine_events(state), ref.events))
    for viewer in [None, *range(ref.players)]:
        checks.append((f"view({viewer})", state.view(viewer).to_json(), ref.view(viewer)))
    for what, got, want in checks:
        if got != want:
            raise MismatchError(f"{what} differs {where}:\n  engine:    {got}\n  reference: {want}")


def play_both(
    game: FlamingGame,
    seed: int,
    policy: Policy,
    reference: type[Reference] = Reference,
) -> list[str]:
    """Play the seeded game through both, the policy choosing from the reference's legal actions.

    Returns the actions played; raises MismatchError at the first difference.
    """
    state = game.new_initial_state(seed)
    ref = reference(state.to_json())
    compare(state, ref, f"at the deal of seed {seed}", events=False)
    rng = random.Random(seed)
    played: list[str] = []
    while not state.is_terminal():
        before = state.to_json()
        text = policy(ref, rng)
        played.append(text)
        where = f"after seed {seed}, actions {' '.join(played)}"
        state.apply(state.parse_action(text))
        ref.apply(text)
        compare(state, ref, where)
        fresh = reference(before)
        fresh.apply(text)
        if fresh.to_json() != state.to_json():
            raise MismatchError(f"reference rebuilt from {before} differs {where}")
    return played


# --- policies ---------------------------------------------------------------------------


def random_policy(ref: Reference, rng: random.Random) -> str:
    """Any legal action, uniformly (at a check: mostly calls, right or wrong)."""
    return rng.choice(ref.legal())


def checking_policy(ref: Reference, rng: random.Random) -> str:
    """At a check: ok, a right call or a call of any tile (mostly false alarms), a third each."""
    if not ref.checking:
        return rng.choice(ref.legal())
    right = sorted(ref.called())
    roll = rng.random()
    if roll < 1 / 3 or not ref.board:
        return "ok"
    if roll < 2 / 3 and right:
        r, c = rng.choice(right)
        return f"call:{r},{c}"
    return rng.choice(ref.legal()[1:])


def lax_policy(ref: Reference, rng: random.Random) -> str:
    """At a check: ok most of the time, so overlooked mayhem piles up; now and then a right call."""
    if not ref.checking:
        return rng.choice(ref.legal())
    right = sorted(ref.called())
    if right and rng.random() < 0.15:
        r, c = rng.choice(right)
        return f"call:{r},{c}"
    return "ok"


def seeking_policy(ref: Reference, rng: random.Random) -> str:
    """Placements that make mayhem stand (ember groups, curses first); checks as the lax policy.

    Random placements rarely put two embers side by side or make a cursed trio; this
    policy does, so that calls of every kind, and their penalty, happen in short games.
    """
    if ref.checking or ref.pending is not None:
        return lax_policy(ref, rng)
    legal = ref.legal()
    if rng.random() < 0.3:
        return rng.choice(legal)
    best: list[str] = []
    best_score = -1
    for text in legal:
        tile, spot = parse_at(text)
        ref.board[spot] = tile
        kinds = set(ref.called().values())
        del ref.board[spot]
        score = 2 * bool(kinds & {"explosion", "curse"}) + bool(kinds)
        if score > best_score:
            best, best_score = [text], score
        elif score == best_score:
            best.append(text)
    return rng.choice(best)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "checking": checking_policy,
    "lax": lax_policy,
    "seeking": seeking_policy,
}

# --- the engine resolving mayhem itself -------------------------------------------------

CASES = [
    (players, preset, fire_die)
    for players in range(2, 7)
    for preset in ("basic", "family", "standard")
    for fire_die in (False, True)
    if not (preset == "basic" and fire_die)
]


@pytest.mark.parametrize(("players", "preset", "fire_die"), CASES)
def test_engine_matches_naive_contract_transcription(
    players: int, preset: str, fire_die: bool
) -> None:
    """FP-MAYHEM-1 "each of these checks is performed from top to bottom, left to right"."""
    game = FlamingGame(players, FlamingOptions(preset=preset, fire_die=fire_die, max_turns=200))
    for seed in range(2):
        play_both(game, seed, random_policy)


# --- call-out mode ----------------------------------------------------------------------

CALLOUT_CASES = [
    (variant, players, curse, fire_die)
    for variant in ("family", "competitive")
    for players in range(2, 7)
    for curse in (False, True)
    for fire_die in (False, True)
]


def _callout_game(
    variant: str, players: int, curse: bool, fire_die: bool, max_turns: int = 60
) -> FlamingGame:
    options = FlamingOptions(
        preset="standard" if curse else "family",
        curse=curse,
        fire_die=fire_die,
        max_turns=max_turns,
        callout=variant,
    )
    return FlamingGame(players, options)


CALLOUT_POLICIES = ("checking", "lax", "seeking")


def _callout_seed(variant: str, players: int, curse: bool, fire_die: bool) -> tuple[int, str]:
    """The seed and policy of one call-out case: the three policies take turns over the cases."""
    index = CALLOUT_CASES.index((variant, players, curse, fire_die))
    return index, CALLOUT_POLICIES[index % len(CALLOUT_POLICIES)]


@pytest.mark.parametrize(("variant", "players", "curse", "fire_die"), CALLOUT_CASES)
def test_callout_engine_matches_naive_transcription(
    variant: str, players: int, curse: bool, fire_die: bool
) -> None:
    """FP-CALL: "after every placement ... a check decision is pending for the checker C".

    Right calls, false alarms and ok over standing mayhem, by three policies: random,
    checking (a third each of ok, right calls, any call) and lax (ok most of the time,
    so overlooked mayhem piles up and is found later, with the variant's penalty).
    """
    seed, policy = _callout_seed(variant, players, curse, fire_die)
    play_both(_callout_game(variant, players, curse, fire_die), seed, POLICIES[policy])


# --- hand-made positions ----------------------------------------------------------------


def _random_position(rng: random.Random, callout: str = "off") -> dict[str, object]:
    """A hand-made-looking position: any tiles anywhere, standing mayhem allowed.

    In call-out mode, half of them wait for the check of the last placement, and half
    record overlooked mayhem.
    """
    players = rng.randint(2, 6)
    preset = rng.choice(["basic", "family", "standard"])
    fire_die = preset != "basic" and rng.random() < 0.5
    game = FlamingGame(players, FlamingOptions(preset=preset, fire_die=fire_die))
    tiles = sorted(game.options_obj.tiles)
    rng.shuffle(tiles)
    from pyramids.flaming.tiles import NAMES

    pyramid = []
    width = rng.randint(1, 6)
    taken = set()
    rules: dict[str, object] = {"preset": preset, "fire_die": fire_die, "max_turns": 40}
    if callout != "off" and rng.random() < 0.3:
        # A cursed trio: the top and both supports of one number (curse on).
        rules["curse"] = True
        by_weight: dict[str, list[int]] = {}
        for t in tiles:
            by_weight.setdefault(NAMES[t][1:], []).append(t)
        trio = rng.choice([ts for w, ts in sorted(by_weight.items()) if len(ts) >= 3])[:3]
        col = rng.randrange(-width, width) * 2
        for t, spot in zip(trio, [(1, col + 1), (0, col), (0, col + 2)], strict=True):
            tiles.remove(t)
            taken.add(spot)
            pyramid.append(f"{NAMES[t]}@{spot[0]},{spot[1]}")
    for _ in range(rng.randint(0, 14)):
        row = rng.choice([0, 0, 0, 1, 1, 2, 3])
        col = rng.randrange(-width, width + 1) * 2 + (row % 2)
        if (row, col) in taken:
            continue
        taken.add((row, col))
        pyramid.append(f"{NAMES[tiles.pop()]}@{row},{col}")
    hands = []
    piles = []
    for _ in range(players):
        hands.append([NAMES[tiles.pop()] for _ in range(min(len(tiles), rng.randint(1, 5)))])
        piles.append([NAMES[tiles.pop()] for _ in range(min(len(tiles), rng.randint(0, 4)))])
    to_move = rng.randrange(players)
    pos: dict[str, object] = {
        "rules": rules,
        "players": players,
        "to_move": to_move,
        "turn": 1,
        "pyramid": pyramid,
        "hands": hands,
        "piles": piles,
        "out": [],
    }
    if callout != "off":
        rules["callout"] = callout
        if pyramid and rng.random() < 0.5:
            pos["pending"] = {"player": (to_move + 1) % players, "kind": "check"}
        if rng.random() < 0.5:
            pos["overlooked"] = True
    return pos


def _play_from(pos: dict[str, Any], rng: random.Random, policy: Policy, steps: int) -> None:
    from pyramids.flaming import position_from_json

    state = position_from_json(pos)
    ref = Reference(pos)
    compare(state, ref, f"as loaded from {pos}", events=False)
    played: list[str] = []
    for _ in range(steps):
        if state.is_terminal():
            break
        before = state.to_json()
        text = policy(ref, rng)
        played.append(text)
        where = f"after {' '.join(played)} from {pos}"
        state.apply(state.parse_action(text))
        ref.apply(text)
        compare(state, ref, where)
        fresh = Reference(before)
        fresh.apply(text)
        assert fresh.to_json() == state.to_json(), where


def _loadable(pos: dict[str, Any]) -> bool:
    from pyramids.core.errors import PositionError
    from pyramids.flaming import position_from_json

    try:
        state = position_from_json(pos)
    except PositionError:
        return False
    return any(state.hand(s) for s in range(state.num_players))


def test_engine_matches_transcription_from_arbitrary_hand_made_positions() -> None:
    """D2 and FP-MAYHEM-1 from positions no game would reach: free air, misfits, embers side by side."""
    rng = random.Random(2026)
    checked = 0
    for _ in range(400):
        pos = _random_position(rng)
        if not _loadable(pos):
            continue
        checked += 1
        _play_from(pos, rng, random_policy, 25)
    assert checked > 300


HAND_MADE_CALLOUT = 120
"""Hand-made call-out positions tried per variant."""


def _hand_made_callout_runs(
    variant: str, play: Callable[[dict[str, Any], random.Random], None]
) -> int:
    """Play ``play`` from each loadable hand-made call-out position; how many there were."""
    rng = random.Random(13 if variant == "family" else 31)
    checked = 0
    for _ in range(HAND_MADE_CALLOUT):
        pos = _random_position(rng, variant)
        if not _loadable(pos):
            continue
        checked += 1
        play(pos, rng)
    return checked


@pytest.mark.parametrize("variant", ["family", "competitive"])
def test_callout_checks_of_arbitrary_hand_made_positions(variant: str) -> None:
    """FP-CALL from positions no game would reach: misfits, free air, ember groups, fires and
    curses all standing at once, some overlooked already; every check answer is tried."""
    checked = _hand_made_callout_runs(
        variant, lambda pos, rng: _play_from(pos, rng, checking_policy, 12)
    )
    assert checked > HAND_MADE_CALLOUT * 0.6


# --- the seeded runs above are not idle -------------------------------------------------


def _apply_noting(ref: Reference, text: str, variant: str, seen: set[str]) -> None:
    """Apply ``text`` to the reference and note what kind of check outcome it made."""
    standing = ref.checking and ref.standing()
    ref.apply(text)
    for e in ref.events:
        kind = e["kind"]
        if kind == "check_ok":
            seen.add("ok over mayhem" if standing else "ok")
        elif kind == "call":
            seen.add(f"call {e['found']}")
            seen.add(f"{variant} call, overlooked {e['overlooked']}")
        elif kind == "false_alarm":
            seen.add("false alarm over mayhem" if standing else "false alarm")
        elif e.get("out"):
            seen.add(f"{kind} out")


def test_callout_games_reach_every_kind_of_check_outcome() -> None:
    """The seeded call-out games above are not idle: every outcome of a check a game can reach.

    ok over a clean pyramid and over standing mayhem, false alarms, right calls of
    collapses, explosions and fires, found with and without overlooked mayhem in both
    variants, and the family penalty on collapses, explosions and fires.
    """
    seen: set[str] = set()
    for case in CALLOUT_CASES:
        seed, name = _callout_seed(*case)
        ref = Reference(_callout_game(*case).new_initial_state(seed).to_json())
        rng = random.Random(seed)
        while not ref.is_over:
            _apply_noting(ref, POLICIES[name](ref, rng), case[0], seen)
    wanted = {
        "ok",
        "ok over mayhem",
        "false alarm",
        "false alarm over mayhem",
        *(f"call {kind}" for kind in ("collapse", "explosion", "fire")),
        *(f"{v} call, overlooked {o}" for v in ("family", "competitive") for o in (True, False)),
        "collapse out",
        "explosion out",
        "fire out",
    }
    assert wanted <= seen, sorted(wanted - seen)


def test_hand_made_callout_positions_reach_what_games_rarely_do() -> None:
    """The hand-made positions above make right calls of free air and curses too (free air
    never stands in a game: placements fill forced spots, and only a resolution takes
    supports away), and the family penalty sends a curse's trio out of the game."""
    seen: set[str] = set()

    def play(pos: dict[str, Any], rng: random.Random) -> None:
        ref = Reference(pos)
        for _ in range(12):
            if ref.is_over:
                break
            _apply_noting(ref, checking_policy(ref, rng), pos["rules"]["callout"], seen)

    for variant in ("family", "competitive"):
        _hand_made_callout_runs(variant, play)
    wanted = {
        "call free_air",
        "call collapse",
        "call curse",
        *(f"{v} call, overlooked {o}" for v in ("family", "competitive") for o in (True, False)),
        "curse out",
    }
    assert wanted <= seen, sorted(wanted - seen)


def test_standing_mayhem_in_a_hand_made_position_is_resolved_by_the_next_scan() -> None:
    """D2: overlooked mayhem is resolved at once, the active player suffering it."""
    pos = {
        "rules": {"preset": "basic"},
        "players": 2,
        "to_move": 0,
        "turn": 1,
        # B100 on G20 and R6 does not fit, but the position is at rest as written.
        "pyramid": ["G20@0,0", "R6@0,2", "Y30@0,4", "B100@1,1"],
        "hands": [["R2", "Y4"], ["G2"]],
        "piles": [[], ["G4"]],
        "out": [],
    }
    game = FlamingGame(2, FlamingOptions(preset="basic"))
    state = game.state_from_json(pos)
    state.apply(state.parse_action("R2@1,3"))
    ref = Reference(pos)
    ref.apply("R2@1,3")
    compare(state, ref, "after R2@1,3")
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "B100@1,1"}


def test_a_placement_that_ends_the_overlooked_mayhem_leaves_none_overlooked() -> None:
    """FP-CALL: "overlooked" records overlooked mayhem on the pyramid; when a placement gives
    the tile in free air its support (and it fits there), none is left, so none is recorded
    while the check waits, and the position reads back (the engine refuses an "overlooked"
    pyramid with no mayhem on it)."""
    from pyramids.flaming import position_from_json

    pos = {
        "rules": {"preset": "basic", "callout": "family"},
        "players": 2,
        "to_move": 0,
        "turn": 1,
        # R10 at 1,1 in free air, overlooked; (0,0) is a forced spot under it.
        "pyramid": ["R20@0,-2", "G30@0,4", "R10@1,1"],
        "hands": [["R40", "Y2"], ["G2"]],
        "piles": [[], ["G4"]],
        "out": [],
        "overlooked": True,
    }
    state = position_from_json(pos)
    ref = Reference(pos)
    for text in ("R40@0,0", "ok"):
        state.apply(state.parse_action(text))
        ref.apply(text)
        compare(state, ref, f"after {text}")
        assert "overlooked" not in state.to_json()
        assert position_from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize(
    ("quenched", "actions"),
    [
        ({"Y1": ["Y2", "B100"]}, ["R4@1,3", "right"]),
        ({"Y1": ["Y2", "B100", "R4"]}, ["R4@1,3", "right"]),
        ({"Y1": ["Y2", "B100"]}, ["G10@1,3"]),
    ],
)
def test_the_reference_ends_a_quench_at_the_contact_as_the_engine_does(
    quenched: dict[str, list[str]], actions: list[str]
) -> None:
    """FP-DIE-6: a new tile the ember ignites ends the quench when it touches, whatever follows."""
    pos = {
        "rules": {"preset": "family", "curse": False, "fire_die": True},
        "players": 2,
        "to_move": 0,
        "turn": 1,
        "pyramid": ["Y2@0,0", "B100@0,2", "G120@0,4", "Y1@1,1"],
        "hands": [["R4", "G10"], ["B10"]],
        "piles": [[], []],
        "out": [],
        "quenched": quenched,
    }
    state = FlamingGame(2, FlamingOptions(preset="family", curse=False, fire_die=True))
    engine = state.state_from_json(pos)
    ref = Reference(pos)
    assert engine.to_json() == ref.to_json()
    for text in actions:
        engine.apply(engine.parse_action(text))
        ref.apply(text)
        compare(engine, ref, f"after {text}")


# --- the differential test can fail -----------------------------------------------------


class FamilyPenaltyToThePile(Reference):
    """Wrong: overlooked mayhem found later in the family game goes under the pile as usual."""

    @property
    def penalty(self) -> bool:
        return False


class OnlyTheFirstEventIsRight(Reference):
    """Wrong: only the tile of the first event the checks would find is a right call."""

    def called(self) -> dict[Spot, str]:
        event = self.first_event()
        return {} if event is None else {event[1]: event[0]}


class OkForgetsTheMayhem(Reference):
    """Wrong: ok over standing mayhem does not record it as overlooked."""

    def check(self, text: str) -> None:
        super().check(text)
        if text == "ok":
            self.overlooked = False


class PenaltyInCompetitiveToo(Reference):
    """Wrong: the competitive game also sends overlooked mayhem out of the game."""

    @property
    def penalty(self) -> bool:
        return self.callout != "off" and self.overlooked


MUTANTS = {
    "family_penalty_to_the_pile": (FamilyPenaltyToThePile, "family"),
    "only_the_first_event_is_right": (OnlyTheFirstEventIsRight, "family"),
    "ok_forgets_the_mayhem": (OkForgetsTheMayhem, "competitive"),
    "penalty_in_competitive_too": (PenaltyInCompetitiveToo, "competitive"),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_differential_test_catches_a_wrong_rule_in_the_reference(name: str) -> None:
    """A deliberately wrong call-out rule in the reference is caught by the seeded games
    that the correct reference passes."""
    mutant, variant = MUTANTS[name]
    game = _callout_game(variant, 3, curse=True, fire_die=False)
    caught = None
    for seed in range(20):
        policy = POLICIES["lax" if seed % 2 else "checking"]
        play_both(game, seed, policy)  # the correct reference agrees with the engine
        try:
            play_both(game, seed, policy, mutant)
        except MismatchError as exc:
            caught = exc
            break
    assert caught is not None, f"{name} was never caught"
    assert "differs" in str(caught)
