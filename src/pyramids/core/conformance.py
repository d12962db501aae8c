"""The conformance suite every game runs: seeded random playouts checking the core protocol.

Modelled on OpenSpiel's ``games_sim_test`` and PettingZoo's ``api_test``. It knows only
the protocol of ``pyramids.core.game``: actions are picked by a seeded ``random.Random``,
chance outcomes are drawn from ``chance_outcomes()``, and after every step the state is
checked for what any game must guarantee (legal actions sorted and unique, chance
probabilities summing to 1, notation round trips, clones equal and independent, JSON
round trips, illegal actions refused without a trace and with a refusal code (a dotted
code and JSON facts, never a sentence: ``check_refusal``), views JSON-ready, naming their game
and consistent with ``determinize`` (same view, same information-state key), a typed
``outcome()`` that agrees with ``is_terminal`` and ``returns``, a ``history()`` that is
exactly the actions applied, typed events of the game, games that end, replays that agree).

A failure raises ``ConformanceError`` naming the seed, the step, the actions so far and
the position, so it can be reproduced with ``pyramids <game> apply``.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pyramids.core.errors import ActionParseError, IllegalActionError, PyramidsError
from pyramids.core.game import CHANCE, TERMINAL, Action, Event, Game, OutcomeKind, State

DEFAULT_MAX_ACTIONS = 20_000
"""A playout longer than this counts as a game that never ends."""

GARBAGE_TEXTS = ("", "%%", "not an action", "@@@,,,")
"""Texts no game's notation reads as an action: parse_action must raise ActionParseError."""

_OUT_OF_RANGE = (-1, -(10**6), 10**9)
"""Action numbers that should be illegal everywhere, tried in every state."""

NOTATION_SAMPLE = 256
"""Most legal actions whose notation round trip is checked per state (huge chance sets)."""

ILLEGAL_PER_STATE = 6
"""How many actions legal elsewhere in the playout are tried (and must be refused) per state."""


REFUSAL_CODE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+")
"""A refusal's code: dotted snake case, the game's short name (or ``core``...) first."""


class ConformanceError(AssertionError):
    """A game broke the core protocol; the message says where and how."""


@dataclass
class ConformanceReport:
    """What ``check_game`` looked at: counts that show the checks actually ran."""

    games: int = 0
    actions: int = 0
    chance_actions: int = 0
    states_checked: int = 0
    views_checked: int = 0
    illegal_tried: int = 0
    hidden_states: int = 0
    longest_game: int = 0
    decisions_per_seat: dict[int, int] = field(default_factory=dict)
    returns_total: list[float] = field(default_factory=list)
    refusals: dict[str, PyramidsError] = field(default_factory=dict)
    """One refusal of each code the checks met (hosts check they have words for them)."""


def _fail(where: str, message: str, state: State | None = None) -> ConformanceError:
    """A ConformanceError with the place, the message and (if it serialises) the position."""
    text = f"{where}: {message}"
    if state is not None:
        try:
            text += f"\n  position: {json.dumps(state.to_json(), sort_keys=True)}"
        except Exception as exc:  # the position itself may be what is broken
            text += f"\n  (position not serialisable: {exc!r})"
    return ConformanceError(text)


def check_refusal(
    exc: PyramidsError,
    what: str,
    where: str,
    state: State | None = None,
    seen: dict[str, PyramidsError] | None = None,
) -> None:
    """A refusal is a code (``REFUSAL_CODE``: ``flaming.not_in_hand``) and facts that are
    JSON values, not a sentence: its words are the message catalogue's. ``seen`` keeps
    the first refusal of each code."""
    code = exc.code
    if not isinstance(code, str) or REFUSAL_CODE.fullmatch(code) is None:
        raise _fail(where, f"{what} was refused without a code: {code!r}", state)
    try:
        json.dumps(exc.data, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise _fail(
            where, f"{what} was refused with facts that are not JSON values: {err}", state
        ) from None
    if seen is not None:
        seen.setdefault(code, exc)


def _dump(state: State, where: str) -> str:
    """``state.to_json()`` as canonical JSON text; a ConformanceError if it is not JSON-ready."""
    try:
        return json.dumps(state.to_json(), sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise _fail(where, f"to_json() is not JSON-serialisable: {exc}") from None


def _has_value_eq(state: State) -> bool:
    """Whether the State class defines value equality (the protocol expects it)."""
    return type(state).__eq__ is not object.__eq__


def check_player_and_actions(state: State, where: str) -> list[Action]:
    """current_player, is_terminal, legal_actions and chance_outcomes agree; the legal list."""
    n = state.num_players
    player = state.current_player()
    terminal = state.is_terminal()
    legal = state.legal_actions()
    if terminal != (player == TERMINAL):
        raise _fail(where, f"is_terminal() is {terminal} but current_player() is {player}", state)
    if not (player in (CHANCE, TERMINAL) or 0 <= player < n):
        raise _fail(
            where,
            f"current_player() {player} is not a seat (0..{n - 1}), CHANCE or TERMINAL",
            state,
        )
    if terminal:
        if legal:
            raise _fail(where, f"the game is over but legal_actions() is {legal[:10]}", state)
        if state.chance_outcomes():
            raise _fail(where, "the game is over but chance_outcomes() is not empty", state)
        return legal
    if not legal:
        raise _fail(
            where, f"no legal action although the game is not over (player {player})", state
        )
    if any(not isinstance(a, int) or isinstance(a, bool) for a in legal):
        raise _fail(where, f"legal_actions() holds non-int actions: {legal[:10]}", state)
    if legal != sorted(legal):
        raise _fail(where, f"legal_actions() is not sorted: {legal[:20]}", state)
    if len(set(legal)) != len(legal):
        raise _fail(where, f"legal_actions() has duplicates: {legal[:20]}", state)
    outcomes = state.chance_outcomes()
    if player == CHANCE:
        if not outcomes:
            raise _fail(where, "a chance point with no chance_outcomes()", state)
        if any(not p > 0 for _, p in outcomes):
            raise _fail(where, f"chance outcomes with probability <= 0: {outcomes}", state)
        total = math.fsum(p for _, p in outcomes)
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise _fail(where, f"chance probabilities sum to {total}, not 1: {outcomes}", state)
        actions = [a for a, _ in outcomes]
        if sorted(actions) != legal:
            raise _fail(
                where, f"chance outcomes {actions} are not the legal actions {legal}", state
            )
    elif outcomes:
        raise _fail(where, f"seat {player} decides but chance_outcomes() is {outcomes}", state)
    return legal


def check_notation(
    state: State,
    legal: Sequence[Action],
    where: str,
    seen: dict[str, PyramidsError] | None = None,
) -> None:
    """Legal actions print and parse back to themselves; garbage text is a parse error.

    Every action is checked when there are at most NOTATION_SAMPLE, else an even spread.
    """
    step = max(1, len(legal) // NOTATION_SAMPLE)
    for action in legal[::step]:
        text = state.action_to_string(action)
        if not isinstance(text, str) or not text:
            raise _fail(where, f"action_to_string({action}) gave {text!r}", state)
        try:
            back = state.parse_action(text)
        except PyramidsError as exc:
            raise _fail(
                where,
                f"legal action {action} prints as {text!r}, which does not parse: {exc}",
                state,
            ) from None
        if back != action:
            raise _fail(
                where, f"legal action {action} prints as {text!r}, which parses as {back}", state
            )
    for text in GARBAGE_TEXTS:
        try:
            state.parse_action(text)
        except ActionParseError as exc:
            check_refusal(exc, f"parse_action({text!r})", where, state, seen)
            continue
        except PyramidsError as exc:
            raise _fail(
                where,
                f"parse_action({text!r}) raised {type(exc).__name__}, not ActionParseError",
                state,
            ) from None
        raise _fail(where, f"parse_action({text!r}) accepted garbage text", state)


def check_illegal(
    state: State,
    legal: Sequence[Action],
    candidates: Iterable[Action],
    where: str,
    seen: dict[str, PyramidsError] | None = None,
) -> int:
    """Each candidate not in ``legal`` is refused with IllegalActionError and changes nothing.

    Its text (when it has one) must also be refused by ``parse_action``. Returns how many
    illegal actions were tried.
    """
    allowed = set(legal)
    before = _dump(state, where)
    events_before = _check_events(state, where)
    snapshot = state.clone() if _has_value_eq(state) else None
    tried = 0
    for action in candidates:
        if action in allowed:
            continue
        tried += 1
        try:
            state.apply(action)
        except IllegalActionError as exc:
            check_refusal(exc, f"apply({action})", where, state, seen)
        except Exception as exc:
            raise _fail(
                where,
                f"apply({action}) of an illegal action raised {type(exc).__name__}: {exc}",
                state,
            ) from None
        else:
            raise _fail(where, f"apply({action}) accepted an action not in legal_actions()", state)
        # == is cheap; without it every refusal is checked through to_json().
        if snapshot is not None and state == snapshot:
            pass
        else:
            after = _dump(state, where)
            if after != before:
                raise _fail(
                    where,
                    f"the refused action {action} changed the position:\n"
                    f"  before: {before}\n  after:  {after}",
                )
            if snapshot is not None:
                raise _fail(where, f"the refused action {action} changed the state (== differs)")
        if _check_events(state, where) != events_before:
            raise _fail(
                where,
                f"the refused action {action} changed events() (what the last apply did): "
                f"{[e[0] for e in events_before]} became {[e.kind for e in state.events()]}",
                state,
            )
        try:
            text = state.action_to_string(action)
        except Exception:  # an out-of-range number need not have a text
            continue
        try:
            state.parse_action(text)
        except (ActionParseError, IllegalActionError) as exc:
            check_refusal(exc, f"parse_action({text!r})", where, state, seen)
            continue
        except Exception as exc:
            raise _fail(
                where, f"parse_action({text!r}) raised {type(exc).__name__}: {exc}", state
            ) from None
        raise _fail(where, f"parse_action({text!r}) accepted the illegal action {action}", state)
    return tried


def check_clone(state: State, legal: Sequence[Action], rng: random.Random, where: str) -> None:
    """A clone equals the original, and applying to it leaves the original unchanged."""
    before = _dump(state, where)
    copy = state.clone()
    if _dump(copy, where) != before:
        raise _fail(where, "clone().to_json() differs from the original's", state)
    if copy.history() != state.history():
        raise _fail(where, "clone().history() differs from the original's", state)
    if _has_value_eq(state) and copy != state:
        raise _fail(where, "clone() != original", state)
    if legal:
        copy.apply(legal[rng.randrange(len(legal))])
        if _dump(state, where) != before:
            raise _fail(where, "applying an action to a clone changed the original", state)


def check_json_round_trip(game: Game, state: State, legal: Sequence[Action], where: str) -> None:
    """to_json -> JSON text -> state_from_json -> to_json is the identity; same decision point."""
    text = _dump(state, where)
    try:
        back = game.state_from_json(json.loads(text))
    except PyramidsError as exc:
        raise _fail(
            where, f"state_from_json refused the state's own to_json(): {exc}", state
        ) from None
    again = _dump(back, where)
    if again != text:
        raise _fail(where, f"to_json() does not round-trip:\n  was:   {text}\n  again: {again}")
    if back.current_player() != state.current_player():
        raise _fail(
            where, f"after a JSON round trip current_player() is {back.current_player()}", state
        )
    if back.legal_actions() != list(legal):
        raise _fail(
            where, f"after a JSON round trip legal_actions() is {back.legal_actions()[:20]}", state
        )


def check_views(
    game: Game, state: State, rngs: Sequence[random.Random], where: str
) -> tuple[bool, bool]:
    """Views of every seat and the public are JSON-ready and agree with their determinizations.

    A determinization of ``view(p)`` must show ``p`` the same view, be at the same decision
    point and, when ``p`` decides, offer the same legal actions. Returns (something was
    hidden from some viewer, two generators sampled different states).
    """
    truth = _dump(state, where)
    hidden = False
    varied = False
    seats: list[int | None] = [*range(state.num_players), None]
    for seat in seats:
        view = state.view(seat)
        if view.player != seat:
            raise _fail(where, f"view({seat}).player is {view.player}", state)
        if view.game != game.info.short_name:
            raise _fail(
                where, f"view({seat}).game is {view.game!r}, not {game.info.short_name!r}", state
            )
        key = state.information_state_key(seat)
        if not isinstance(key, str) or not key:
            raise _fail(where, f"information_state_key({seat}) is {key!r}, not a string", state)
        try:
            view_text = json.dumps(view.to_json(), sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise _fail(
                where, f"view({seat}).to_json() is not JSON-serialisable: {exc}", state
            ) from None
        samples = []
        for rng in rngs:
            try:
                det = game.determinize(view, rng)
            except PyramidsError as exc:
                raise _fail(where, f"determinize(view({seat})) failed: {exc}", state) from None
            det_view = json.dumps(det.view(seat).to_json(), sort_keys=True)
            if det.information_state_key(seat) != key:
                raise _fail(
                    where,
                    f"a determinization of view({seat}) has another information_state_key",
                    state,
                )
            if det_view != view_text:
                raise _fail(
                    where,
                    f"a determinization of view({seat}) shows seat {seat} another view:\n"
                    f"  view:   {view_text}\n  sample: {det_view}",
                    state,
                )
            if det.current_player() != state.current_player():
                raise _fail(
                    where, f"a determinization of view({seat}) has another player to decide", state
                )
            if (
                seat is not None
                and seat == state.current_player()
                and det.legal_actions() != state.legal_actions()
            ):
                raise _fail(
                    where,
                    f"a determinization of view({seat}) gives seat {seat} other legal actions",
                    state,
                )
            samples.append(_dump(det, where))
        if any(s != truth for s in samples):
            hidden = True
        if len(set(samples)) > 1:
            varied = True
    return hidden, varied


def check_outcome(state: State, where: str) -> None:
    """``outcome()`` is ongoing exactly while the game goes on, and its returns are ``returns()``."""
    outcome = state.outcome()
    n = state.num_players
    if outcome.is_over != state.is_terminal():
        said = "over" if outcome.is_over else "ongoing"
        raise _fail(
            where, f"outcome() says the game is {said}, is_terminal() {state.is_terminal()}", state
        )
    if outcome.is_over:
        ranking = outcome.ranking
        if ranking is None or len(ranking) != n or any(not 1 <= r <= n for r in ranking):
            raise _fail(where, f"outcome() {outcome} has no rank per seat in 1..{n}", state)
        if outcome.kind is OutcomeKind.WINNER and (
            outcome.winner is None or ranking[outcome.winner] != 1 or ranking.count(1) != 1
        ):
            raise _fail(
                where, f"outcome() {outcome}: the winner is not alone in first place", state
            )
    if outcome.returns(n) != state.returns():
        raise _fail(
            where, f"returns() {state.returns()} are not outcome()'s {outcome.returns(n)}", state
        )


def check_returns(state: State, where: str, total: float | None) -> list[float]:
    """Returns are n numbers in [0, 1], zeros before the end, summing to ``total`` at the end."""
    check_outcome(state, where)
    values = state.returns()
    n = state.num_players
    if len(values) != n:
        raise _fail(where, f"returns() has {len(values)} values for {n} seats", state)
    if any(not 0.0 <= v <= 1.0 for v in values):
        raise _fail(where, f"returns() {values} are not all in [0, 1]", state)
    if not state.is_terminal() and any(values):
        raise _fail(where, f"returns() {values} before the game is over", state)
    if (
        state.is_terminal()
        and total is not None
        and not math.isclose(math.fsum(values), total, abs_tol=1e-9)
    ):
        raise _fail(where, f"returns() {values} sum to {math.fsum(values)}, not {total}", state)
    return values


def _check_events(state: State, where: str) -> list[tuple[str, str]]:
    """Events are typed events of this game with a kind and JSON-ready data; their digest."""
    digest = []
    name = state.game.info.short_name
    for event in state.events():
        if not isinstance(event, Event) or not event.kind:
            raise _fail(where, f"event {event!r} is not a typed Event with a kind", state)
        if event.game != name:
            raise _fail(where, f"event {event!r} is of game {event.game!r}, not {name!r}", state)
        try:
            data = json.dumps(dict(event.data), sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise _fail(where, f"event {event.kind} data is not JSON-ready: {exc}", state) from None
        digest.append((event.kind, data))
    return digest


def playout(
    game: Game,
    seed: int,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    view_every: int = 1,
    returns_total: float | None = None,
    report: ConformanceReport | None = None,
) -> list[Action]:
    """Play one seeded random game, checking every state; the actions played.

    Seat decisions and chance outcomes come from ``random.Random(seed)``; the initial
    state is ``game.new_initial_state(seed)``. Views are checked every ``view_every`` steps
    and at the end.
    """
    report = report if report is not None else ConformanceReport()
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    if _dump(game.new_initial_state(seed), f"seed {seed}") != _dump(state, f"seed {seed}"):
        raise _fail(f"seed {seed}", "new_initial_state(seed) is not deterministic", state)
    info = game.info
    if not info.min_players <= game.num_players <= info.max_players:
        raise _fail(
            f"seed {seed}",
            f"{game.num_players} seats, outside {info.min_players}..{info.max_players} of the game info",
        )
    if state.num_players != game.num_players:
        raise _fail(
            f"seed {seed}", f"the state has {state.num_players} seats, the game {game.num_players}"
        )
    actions: list[Action] = []
    history: list[str] = []
    snapshots: list[tuple[str, list[tuple[str, str]]]] = []
    seen_actions: set[Action] = set()
    hidden_any = False
    varied_any = False
    step = 0
    while True:
        where = f"seed {seed}, step {step} (after {history[-8:]})"
        legal = check_player_and_actions(state, where)
        check_returns(state, where, returns_total)
        check_notation(state, legal, where, report.refusals)
        pool = sorted(seen_actions - set(legal))
        picker = random.Random(f"{seed}/{step}/illegal")
        candidates = [*_OUT_OF_RANGE, *picker.sample(pool, min(ILLEGAL_PER_STATE, len(pool)))]
        report.illegal_tried += check_illegal(state, legal, candidates, where, report.refusals)
        check_json_round_trip(game, state, legal, where)
        terminal = state.is_terminal()
        if terminal or step % view_every == 0:
            hidden, varied = check_views(
                game,
                state,
                [random.Random(f"{seed}/{step}/a"), random.Random(f"{seed}/{step}/b")],
                where,
            )
            report.views_checked += state.num_players + 1
            report.hidden_states += hidden
            hidden_any |= hidden
            varied_any |= varied
        check_clone(state, legal, random.Random(f"{seed}/{step}/clone"), where)
        report.states_checked += 1
        if terminal:
            break
        if step >= max_actions:
            raise _fail(where, f"the game did not end within {max_actions} actions", state)
        player = state.current_player()
        if player == CHANCE:
            if not game.info.has_chance:
                raise _fail(
                    where, "a chance point in a game whose info says has_chance=False", state
                )
            action = state.sample_chance(rng)
            if legal and action not in legal:
                raise _fail(where, f"sample_chance() drew {action}, not a legal outcome", state)
            report.chance_actions += 1
        else:
            action = legal[rng.randrange(len(legal))]
            report.decisions_per_seat[player] = report.decisions_per_seat.get(player, 0) + 1
        seen_actions.update(legal)
        text = state.action_to_string(action)
        try:
            state.apply(action)
        except PyramidsError as exc:
            raise _fail(where, f"apply({text}) of a legal action raised {exc}", state) from None
        actions.append(action)
        history.append(text)
        if state.history() != actions:
            raise _fail(
                where,
                f"history() is not the actions applied: {state.history()[-8:]} "
                f"after {actions[-8:]}",
                state,
            )
        snapshots.append((_dump(state, where), _check_events(state, where)))
        step += 1
    if game.info.has_hidden_information and hidden_any and not varied_any:
        raise _fail(
            f"seed {seed}",
            "determinize() never varied with its generator although facts were hidden",
        )
    final = state.returns()
    if len(report.returns_total) < len(final):
        report.returns_total.extend([0.0] * (len(final) - len(report.returns_total)))
    for seat, value in enumerate(final):
        report.returns_total[seat] += value
    _check_replay(game, seed, actions, snapshots)
    report.games += 1
    report.actions += len(actions)
    report.longest_game = max(report.longest_game, len(actions))
    return actions


def _check_replay(
    game: Game,
    seed: int,
    actions: Sequence[Action],
    snapshots: Sequence[tuple[str, list[tuple[str, str]]]],
) -> None:
    """Same seed and same actions give the same positions and the same events."""
    state = game.new_initial_state(seed)
    for step, (action, (position, events)) in enumerate(zip(actions, snapshots, strict=True)):
        where = f"seed {seed}, replay step {step}"
        state.apply(action)
        if _dump(state, where) != position:
            raise _fail(
                where,
                "replaying the same actions gives another position than before:\n"
                f"  first: {position}",
                state,
            )
        if _check_events(state, where) != events:
            raise _fail(where, "replaying the same actions gives other events", state)


def check_game(
    game: Game,
    seeds: Iterable[int],
    max_actions: int = DEFAULT_MAX_ACTIONS,
    *,
    view_every: int = 1,
    returns_total: float | None = None,
) -> ConformanceReport:
    """Run a checked random playout per seed; raise ConformanceError at the first breach."""
    report = ConformanceReport()
    for seed in seeds:
        playout(
            game,
            seed,
            max_actions=max_actions,
            view_every=view_every,
            returns_total=returns_total,
            report=report,
        )
    return report
