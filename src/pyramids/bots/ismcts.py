"""Information Set Monte Carlo Tree Search (SO-ISMCTS) over any ``pyramids.core`` game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 4(2)): every iteration samples one *determinization*, a full
state consistent with the bot's own view (``Game.determinize(view, rng)``; the true
state is never seen), then walks one tree shared by all determinizations:

- **Tree.** A node is reached by a sequence of actions from the root. Its children are
  keyed first by who decided (a seat, or ``CHANCE``) and then by the action, so a node
  where different seats decide in different determinizations (a capture decided by
  whoever holds a hidden card) keeps their statistics apart. Decisions
  of other seats, in the middle of a turn or not, are ordinary nodes owned by that seat.
- **Selection** (UCB1 with availability): among the children legal in this
  determinization, the one maximising ``mean + c * sqrt(ln(avail) / visits)``, where
  ``mean`` is the average reward *of the seat deciding there* (``returns()[seat]``) and
  ``avail`` counts the visits of the parent in which that action was legal. Ties are
  broken with the generator; children are scanned in ascending action order.
- **Expansion**: one untried legal action, drawn with the generator.
- **Guided search** (``guided``, spec suffix ``+guided``; off by default): the game's
  default policy (its descriptor's ``policy``, the greedy bot), asked with the deciding
  seat's view of the determinization and the *untried* actions only, names the action to
  expand, so children are expanded in the bot's order of preference (nothing
  game-specific here: any ``Bot`` answers that question). Progressive
  widening: a node visited n times expands a new child only while fewer than
  ``ceil(widening * sqrt(n))`` of its legal children were tried (else UCB among them), so
  a turn with 90-200 legal moves does not spend the budget trying each once. Progressive bias: the k-th child expanded (k = 0: the bot's own pick) adds
  ``bias / ((k + 1) * (visits + 1))`` to its UCB score, so the search leaves the bot's
  choice only when its rollouts clearly say so.
- **Chance** points are drawn with ``state.sample_chance(rng)`` and branched on the
  drawn outcome (a chance child per outcome, no statistics and no choice there): the
  six faces of the fire die give six subtrees. A chance point with outcomes too many to
  list (a new deal of cards) gives a fresh child almost every time, which is correct
  and cheap: the search below it simply starts again.
- **Rollout**: uniformly random legal actions, the game's default policy (``greedy``;
  asked with the rollout state's view of the deciding seat), or ``mixed``: each move the
  policy's with chance ``MIXED_GREEDY_SHARE`` (0.8), else uniformly random; at most
  ``rollout_cap`` actions (the horizon). A finished rollout scores ``returns()``; a rollout
  cut at the horizon is always judged by the evaluation ``evaluation`` names (never
  ``1/players``): ``handmade``, the game's static evaluation (its descriptor's
  ``evaluation``), or ``learned`` (its ``learned_evaluation``); with ``rollout_cap=0``
  every new leaf is scored so; a game without that evaluation is a ValueError then.
  A game without a policy rolls out at random.
- **Observation keys** (``observe``, spec suffix ``+observe``; off by default): another
  seat's decisions and chance outcomes are keyed by ``state.action_text_for(action,
  searcher)``, what the searching seat sees of them, so actions it cannot tell apart (a
  Pyramids and Flags exchange by another seat, ``swap:?``) share one child; UCB chooses
  among keys, then the concrete action is drawn among the key's legal actions
  (``_select_observed``). The searcher's own actions stay keyed by action.
- **Reflexes**: a decision the game can answer itself (its descriptor's ``reflex``:
  Flaming Pyramids' call-out checks, where the pyramid either breaks a rule or not) is
  played with the careful answer, in the tree below the root (as a forced move, without
  a node, like a single legal action) and in rollouts: the search assumes every player
  checks. At the root the search branches on every answer as usual (so ``analyse``
  rates each one), but the bot plays the reflex without searching; with ``overlook`` (the easy level) it gives
  the careless answer (``ok``) with that chance, drawn from its generator.
- **Inference** (``inference``, spec suffix ``+infer``; off by default): the bot remembers
  its last decision and samples the last mover's hidden hand in proportion to how well it
  explains that seat's move under the game's policy (``pyramids.bots.inference``; a game
  with no descriptor part ``inference`` samples as without).
- **Decision**: the most visited legal root action (then the best mean, then the
  generator). With one legal action the bot answers at once without searching.

Budgets are iterations (deterministic: the same view, seed and budget give the same
answer on any machine) or seconds of ``time.perf_counter`` (machine-dependent), or both
(whichever runs out first). At least one iteration always runs.

The same search on the true state (``sample`` returns a clone of it instead of a
determinization) is the plain MCTS of the oracle yardstick (``pyramids.bots.oracle``).

**Native search.** ``run_search`` here is the readable reference. When the view's game
plays on the native engine (``pyramids.games.engine_for``), ``ISMCTSBot``
runs the same algorithm in Rust instead (``pyramids.bots.native_search``, crate
``native/search``, the GIL released): the same draws from the caller's generator in the
same order and the same float arithmetic, so for an iteration budget the statistics and
the generator state after are identical to this module's (tests/native/test_search.py);
``SearchSettings.search`` (spec suffix ``+native`` / ``+python``) forces either, ``python``
on the game's Python engine. ``threads`` above 1 runs root-parallel native trees (not
identical). See docs/BOTS.md, "The native search".

The game a view belongs to is found without knowing any game: ``view.game`` is its
short name in the registry, and ``pyramids.games.game_of_view`` rebuilds it with the
view's ``players`` and ``options``. The rollout policy and the evaluation come from the
same registry entry (``pyramids.games.descriptor_of`` of the sampled state). Pass
``game_of_view`` to ``ISMCTSBot`` to override.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from pyramids.bots import inference as infer
from pyramids.bots import native_search
from pyramids.core.descriptor import Evaluation, GameDescriptor, Reflex
from pyramids.core.errors import PositionError
from pyramids.core.game import CHANCE, Action, Bot, Game, State, View
from pyramids.games import descriptor, descriptor_of, game_of_view, names
from pyramids.games.engine import PYTHON, Engine, check_engine

RANDOM_ROLLOUT = "random"
GREEDY_ROLLOUT = "greedy"
MIXED_ROLLOUT = "mixed"
ROLLOUTS = (RANDOM_ROLLOUT, GREEDY_ROLLOUT, MIXED_ROLLOUT)
"""Rollout policies by name: uniformly random, the game's default policy (the greedy bot),
or that policy with random moves."""

GUIDED = "guided"
"""Spec suffix of guided search (``SearchSettings.guided``)."""

OBSERVE = "observe"
"""Spec suffix of observation keys (``SearchSettings.observe``)."""
INFER = "infer"
"""Spec suffix of inference (``SearchSettings.inference``)."""

MIXED_GREEDY_SHARE = 0.8
"""In a ``mixed`` rollout, the chance that a move is the greedy bot's (else uniformly random)."""

EXPLORATION = 0.7
"""UCB1 exploration constant ``c`` for rewards in [0, 1]."""

ROLLOUT_CAP = 200
"""Most actions in one rollout (the horizon); a rollout cut there is scored by the game's
evaluation."""

WIDENING = 1.0
"""Progressive widening constant of guided search (see ``SearchSettings.widening``)."""

BIAS = 10.0
"""Progressive bias weight of guided search (see ``SearchSettings.bias``)."""

DEFAULT_ITERATIONS = 1000
"""Iterations when no budget is given (the ``normal`` level)."""

HANDMADE_EVALUATION = "handmade"
LEARNED_EVALUATION = "learned"
EVALUATIONS = (HANDMADE_EVALUATION, LEARNED_EVALUATION)
"""The evaluations a search may score cut rollouts with: the descriptor's ``evaluation``
(hand-made) or ``learned_evaluation`` (trained weights, docs/BOTS.md)."""

AUTO_SEARCH = "auto"
NATIVE_SEARCH = "native"
PYTHON_SEARCH = "python"
SEARCHES = (AUTO_SEARCH, NATIVE_SEARCH, PYTHON_SEARCH)
"""Which search runs (``SearchSettings.search``, spec suffixes ``+native`` / ``+python``):
``auto`` is the native search when the view's game plays on the native engine, else this
module's; ``native`` forces the native search (an error where it cannot run); ``python``
forces this module's search, on the game's Python engine."""


@dataclass(frozen=True)
class SearchSettings:
    """What one search may spend and how it plays out positions.

    ``iterations`` and ``seconds`` may both be set (the first to run out stops the search);
    at least one must be. ``rollout`` is ``random``, ``greedy`` or ``mixed``.
    """

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None
    rollout: str = RANDOM_ROLLOUT
    exploration: float = EXPLORATION
    rollout_cap: int = ROLLOUT_CAP
    guided: bool = False
    """Expand the greedy bot's favourite untried action first, widening progressively."""
    widening: float = WIDENING
    """With ``guided``: a node visited n times may have ``ceil(widening * sqrt(n))``
    children tried (0: no limit, every legal action is tried once before UCB)."""
    bias: float = BIAS
    """With ``guided``: the k-th child expanded (k = 0 for the greedy bot's pick) adds
    ``bias / ((k + 1) * (visits + 1))`` to its UCB score (progressive bias)."""
    evaluation: str = HANDMADE_EVALUATION
    """The evaluation that judges a rollout cut by ``rollout_cap``: ``handmade`` (the
    descriptor's ``evaluation``) or ``learned`` (its ``learned_evaluation``)."""
    observe: bool = False
    """Key other seats' decisions and chance outcomes by what the searching seat observes
    (``State.action_text_for``): actions it cannot tell apart share one child."""
    overlook: float = 0.0
    """The chance of the careless answer to a reflex decision whose careful answer differs
    (Flaming call-out: saying ok over standing mayhem). 0 checks perfectly."""
    search: str = AUTO_SEARCH
    """Which search runs: ``auto``, ``native`` or ``python`` (see ``SEARCHES``)."""
    inference: bool = False
    """Sample the last mover's hidden hand by how well it explains its move (the game's
    descriptor part ``inference``; ``pyramids.bots.inference``). Off by default."""
    threads: int = 1
    """Root-parallel trees of the native search (1: the search identical to this module's;
    more: independent trees on threads, statistics summed, not identical; docs/BOTS.md).
    The Python search always runs one tree."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search needs a budget: iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {self.rollout!r} (choose {', '.join(ROLLOUTS)})")
        if self.rollout_cap < 0:
            raise ValueError(f"rollout_cap must be at least 0, not {self.rollout_cap}")
        if self.widening < 0:
            raise ValueError(f"widening must be at least 0, not {self.widening}")
        if self.bias < 0:
            raise ValueError(f"bias must be at least 0, not {self.bias}")
        if not 0.0 <= self.overlook <= 1.0:
            raise ValueError(f"overlook must be a chance from 0 to 1, not {self.overlook}")
        if self.evaluation not in EVALUATIONS:
            raise ValueError(
                f"unknown evaluation {self.evaluation!r} (choose {', '.join(EVALUATIONS)})"
            )
        if self.search not in SEARCHES:
            raise ValueError(f"unknown search {self.search!r} (choose {', '.join(SEARCHES)})")
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, not {self.threads}")

    @property
    def budget_text(self) -> str:
        """The budget as in a bot spec: ``1000``, ``0.5s`` (iterations first when both)."""
        if self.iterations is not None:
            return str(self.iterations)
        return f"{self.seconds:g}s"


@dataclass(frozen=True)
class ActionStats:
    """What the search found about one legal root action."""

    action: Action
    visits: int
    share: float
    """Share of the root's visits that went to this action (0..1)."""
    win: float
    """Mean reward of the deciding seat after this action: its estimated chance to win."""

    def to_json(self, text: str | None = None) -> dict[str, Any]:
        """JSON-ready data; ``text`` is the action in the game's notation when given."""
        data: dict[str, Any] = {"action": self.action if text is None else text}
        data.update(visits=self.visits, share=round(self.share, 4), win=round(self.win, 4))
        return data


@dataclass(frozen=True)
class SearchResult:
    """A finished search: the legal root actions (most visited first) and what it cost."""

    stats: list[ActionStats]
    iterations: int
    seconds: float


class _Node:
    """A tree node: statistics of the edge into it, children by decider then action."""

    __slots__ = ("avail", "bonus", "children", "total", "visits")

    def __init__(self, bonus: float = 0.0) -> None:
        self.children: dict[int, dict[Hashable, _Node]] = {}
        """Children by deciding seat (or ``CHANCE``), then by key: the action, or with
        ``observe`` what the searching seat sees of another seat's action or a chance
        outcome (``State.action_text_for``)."""
        self.visits = 0
        self.total = 0.0
        """Sum of the rewards of the seat that chose the edge into this node."""
        self.avail = 1
        self.bonus = bonus
        """Progressive bias of guided search: ``bias / (rank + 1)`` by order of expansion."""


def game_of(view: View, engine: str | None = None) -> Game:
    """The game ``view`` belongs to, from the registry (``view.game``, players, options),
    on ``engine`` (None: the default engine, ``pyramids.core.engine``)."""
    name = getattr(view, "game", None)
    players = getattr(view, "players", None)
    options = getattr(view, "options", None)
    if not isinstance(name, str) or not isinstance(players, int) or options is None:
        raise TypeError(f"cannot tell which game a {type(view).__name__} belongs to")
    try:
        return game_of_view(view, engine=engine)
    except PositionError as err:
        raise TypeError(
            f"cannot tell which game a {type(view).__name__} belongs to: {err}"
        ) from None


def _policy_of(desc: GameDescriptor) -> Bot | None:
    """A new instance of the game's default policy (None when it provides none)."""
    return None if desc.policy is None else desc.policy.get()()


_REFLEXES: dict[str, Reflex | None] = {}


def reflex_of(desc: GameDescriptor) -> Reflex | None:
    """The game's ``Reflex`` (one per game, made on first use), None when it has none."""
    try:
        return _REFLEXES[desc.name]
    except KeyError:
        pass
    reflex = None if desc.reflex is None else desc.reflex.get()()
    _REFLEXES[desc.name] = reflex
    return reflex


def _rollout_policy(name: str, desc: GameDescriptor) -> tuple[Bot | None, float]:
    """The rollout bot for a policy name and the share of moves it makes (else random)."""
    if name == RANDOM_ROLLOUT:
        return None, 0.0
    policy = _policy_of(desc)
    if policy is None:
        return None, 0.0
    return policy, 1.0 if name == GREEDY_ROLLOUT else MIXED_GREEDY_SHARE


def _evaluation_of(desc: GameDescriptor, name: str) -> Evaluation | None:
    """The game's evaluation called ``name`` (``handmade``: the descriptor's ``evaluation``,
    ``learned``: its ``learned_evaluation``), None when it provides none (then a rollout cut
    at the horizon is an error: ``_rollout``)."""
    if name == LEARNED_EVALUATION:
        return None if desc.learned_evaluation is None else desc.learned_evaluation.get().evaluate
    return None if desc.evaluation is None else desc.evaluation.get()


def _rollout(
    state: State,
    rng: random.Random,
    policy: Bot | None,
    *,
    share: float,
    cap: int,
    game: str,
    evaluate: Evaluation | None = None,
    reflex: Reflex | None = None,
) -> list[float]:
    """Play ``state`` on (``policy`` for ``share`` of the moves, else random); the rewards.

    A finished rollout scores ``returns()``; one cut by ``cap`` (the horizon) is always
    judged by ``evaluate(state)``: ValueError when the game has no evaluation.
    """
    steps = 0
    randrange = rng.randrange
    rand = rng.random
    while not state.is_terminal():
        if steps >= cap:
            if evaluate is None:
                raise ValueError(
                    f"a rollout was cut after {cap} actions and {game!r} provides no "
                    "evaluation to score it (raise rollout_cap or give the game one)"
                )
            return evaluate(state)
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if reflex is not None and reflex.applies(legal):
                action = reflex.careful(state, legal)
            elif policy is None or (share < 1.0 and rand() >= share):
                action = legal[randrange(len(legal))]
            else:
                action = policy.act(state.view(player), legal, rng)
        state.apply(action)
        steps += 1
    return state.returns()


def run_search(
    sample: Callable[[random.Random], State],
    player: int,
    legal: Sequence[Action],
    settings: SearchSettings,
    rng: random.Random,
) -> SearchResult:
    """Search from the states ``sample(rng)`` draws, ``player`` deciding at the root.

    ``sample`` gives a determinization per iteration for ISMCTS, or a clone of the true
    state for the oracle. The statistics cover exactly ``legal``.
    """
    start = time.perf_counter()
    deadline = None if settings.seconds is None else start + settings.seconds
    limit = settings.iterations
    c = settings.exploration
    cap = settings.rollout_cap
    observe = settings.observe
    game: GameDescriptor | None = None
    policy: Bot | None = None
    share = 0.0
    prior: Bot | None = None
    evaluate: Evaluation | None = None
    widening = settings.widening if settings.guided else 0.0
    bias = settings.bias if settings.guided else 0.0
    ceil = math.ceil
    sqrt = math.sqrt
    root = _Node()
    done = 0
    reflex: Reflex | None = None
    while True:
        if limit is not None and done >= limit:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        state = sample(rng)
        if game is None:  # the first state names the game's reflex, policy and evaluation
            game = descriptor_of(state)
            reflex = reflex_of(game)
            if reflex is not None and not reflex.in_play(state.game):
                reflex = None
            policy, share = _rollout_policy(settings.rollout, game)
            prior = _policy_of(game) if settings.guided else None
            evaluate = _evaluation_of(game, settings.evaluation)
        node = root
        root.visits += 1
        path: list[tuple[_Node, int]] = []
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                action = state.sample_chance(rng)
                key: Hashable = state.action_text_for(action, player) if observe else action
                state.apply(action)
                kids = node.children.get(CHANCE)
                if kids is None:
                    kids = node.children[CHANCE] = {}
                child = kids.get(key)
                if child is None:
                    child = kids[key] = _Node()
                child.visits += 1  # counted for widening only (no rewards at chance)
                node = child
                continue
            actions = state.legal_actions()
            if reflex is not None and node is not root and reflex.applies(actions):
                state.apply(reflex.careful(state, actions))
                continue
            kids = node.children.get(seat)
            if kids is None:
                kids = node.children[seat] = {}
            if observe and seat != player:
                step = _select_observed(
                    state,
                    node,
                    kids,
                    actions,
                    player=player,
                    widening=widening,
                    c=c,
                    prior=prior,
                    bias=bias,
                    rng=rng,
                )
                node = step[0]
                path.append((node, seat))
                if step[1]:
                    break
                continue
            untried: list[Action] = []
            tried = 0
            for a in actions:
                kid = kids.get(a)
                if kid is None:
                    untried.append(a)
                else:
                    kid.avail += 1
                    tried += 1
            if untried and widening and tried and tried >= ceil(widening * sqrt(node.visits)):
                untried = []  # progressive widening: choose among the children tried so far
            if untried:
                if len(untried) == 1:
                    action = untried[0]
                elif prior is not None:
                    action = prior.act(state.view(seat), untried, rng)
                    if action in kids:  # a policy that answered outside ``untried``
                        action = untried[rng.randrange(len(untried))]
                else:
                    action = untried[rng.randrange(len(untried))]
                child = _Node(bias / (len(kids) + 1) if bias else 0.0)
                kids[action] = child
                state.apply(action)
                path.append((child, seat))
                break
            action = _ucb_pick(kids, actions, c, rng)
            node = kids[action]
            state.apply(action)
            path.append((node, seat))
        if state.is_terminal():
            rewards = state.returns()
        else:
            rewards = _rollout(
                state,
                rng,
                policy,
                share=share,
                cap=cap,
                game=game.name if game is not None else "",
                evaluate=evaluate,
                reflex=reflex,
            )
        for child, seat in path:
            child.visits += 1
            child.total += rewards[seat]
        done += 1
    seconds = time.perf_counter() - start
    return SearchResult(_root_stats(root, player, legal), done, seconds)


def _select_observed(
    state: State,
    node: _Node,
    kids: dict[Hashable, _Node],
    actions: Sequence[Action],
    *,
    player: int,
    widening: float,
    c: float,
    prior: Bot | None,
    bias: float,
    rng: random.Random,
) -> tuple[_Node, bool]:
    """One step of another seat's decision keyed by what ``player`` observes (``observe``).

    Each legal action's key is ``state.action_text_for(action, player)``: actions that
    look alike to the searcher (another seat's exchange, ``swap:?``) share one child.
    Expansion (with widening) draws among the actions whose key is untried, as the plain
    step does; selection runs UCB over the keys (in the order of their first legal
    action), then draws the concrete action among that key's actions. Applies the
    action; (the child, whether it was just expanded).
    """
    keyed: dict[str, list[Action]] = {}
    text = state.action_text_for
    keys = [text(a, player) for a in actions]
    for a, k in zip(actions, keys, strict=True):
        group = keyed.get(k)
        if group is None:
            keyed[k] = [a]
        else:
            group.append(a)
    untried: list[Action] = []
    tried = 0
    for k in keyed:
        kid = kids.get(k)
        if kid is not None:
            kid.avail += 1
            tried += 1
    if not (widening and tried and tried >= math.ceil(widening * math.sqrt(node.visits))):
        untried = [a for a, k in zip(actions, keys, strict=True) if k not in kids]
    if untried:
        if len(untried) == 1:
            action = untried[0]
        elif prior is not None:
            action = prior.act(state.view(state.current_player()), untried, rng)
            if text(action, player) in kids:  # a policy that answered outside ``untried``
                action = untried[rng.randrange(len(untried))]
        else:
            action = untried[rng.randrange(len(untried))]
        child = _Node(bias / (len(kids) + 1) if bias else 0.0)
        kids[text(action, player)] = child
        state.apply(action)
        return child, True
    key = _ucb_pick(kids, keyed, c, rng)
    group = keyed[key]
    action = group[rng.randrange(len(group))] if len(group) > 1 else group[0]
    state.apply(action)
    return kids[key], False


def _root_stats(root: _Node, player: int, legal: Sequence[Action]) -> list[ActionStats]:
    """Statistics of every legal root action, most visited first (then best mean, action)."""
    kids = root.children.get(player, {})
    edges = []
    for a in legal:
        kid = kids.get(a)
        edges.append((a, 0, 0.0) if kid is None else (a, kid.visits, kid.total))
    return root_stats(edges)


def root_stats(edges: Sequence[tuple[Action, int, float]]) -> list[ActionStats]:
    """``ActionStats`` from (action, visits, reward total) per legal root action, most
    visited first (then best mean, then action); shared by both searches."""
    total = sum(visits for _, visits, _ in edges) or 1
    stats = [
        ActionStats(a, visits, visits / total, reward / visits if visits else 0.0)
        for a, visits, reward in edges
    ]
    stats.sort(key=lambda s: (-s.visits, -s.win, s.action))
    return stats


def reflex_answer(
    game: str, view: View, legal: Sequence[Action], overlook: float, rng: random.Random
) -> Action | None:
    """The root answer to a reflex decision of ``game`` (see the module docstring), or None.

    The careless answer with chance ``overlook`` when it differs from the careful one
    (a draw from ``rng`` only then, so a perfect checker's generator is untouched).
    """
    reflex = reflex_of(descriptor(game))
    if reflex is None or not reflex.applies(legal):
        return None
    careful, careless = reflex.answer(view, legal)
    if careful != careless and overlook and rng.random() < overlook:
        return careless
    return careful


def _less_time(settings: SearchSettings, spent: float) -> SearchSettings:
    """``settings`` with ``spent`` seconds taken off a seconds budget (inference's time counts
    towards the decision's; at least one iteration still runs)."""
    if settings.seconds is None:
        return settings
    return replace(settings, seconds=max(settings.seconds - spent, 1e-6))


def pick(stats: Sequence[ActionStats], rng: random.Random) -> Action:
    """The most visited action (then the best mean); remaining ties broken with ``rng``."""
    top = stats[0]
    tied = [s.action for s in stats if s.visits == top.visits and s.win == top.win]
    return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


K = TypeVar("K", bound=Hashable)
"""A child's key: an action, or what the searching seat observes of it."""


def _ucb_pick(kids: Mapping[Any, _Node], keys: Iterable[K], c: float, rng: random.Random) -> K:
    """The key among ``keys`` (those with a child in ``kids``) of best UCB1 score with the
    progressive bias; ties drawn with ``rng`` (one draw, only when two or more tie)."""
    best_score = -math.inf
    best: list[K] = []
    log = math.log
    sqrt = math.sqrt
    for k in keys:
        kid = kids.get(k)
        if kid is None:
            continue
        score = kid.total / kid.visits + c * sqrt(log(kid.avail) / kid.visits)
        if kid.bonus:
            score += kid.bonus / (kid.visits + 1)
        if score > best_score:
            best_score = score
            best = [k]
        elif score == best_score:
            best.append(k)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


class ISMCTSBot:
    """SO-ISMCTS from the seat's view only; a ``Bot`` for every game in ``pyramids.games``."""

    def __init__(
        self,
        settings: SearchSettings | None = None,
        *,
        name: str = "ismcts",
        game_of_view: Callable[[View], Game] = game_of,
        engine: Engine | str | None = None,
    ) -> None:
        self.settings = settings or SearchSettings()
        self.name = name
        self._game_of = game_of_view
        self.engine = check_engine(engine)
        """The engine the bot's games play on (``auto``: the native core when built); the
        search from a view follows it unless ``settings.search`` says otherwise."""
        self._memory = infer.Memory()

    @property
    def games(self) -> tuple[str, ...]:
        """The games it plays: every registered game (read by the terminal before seating it)."""
        return names()

    def search(self, view: View, legal: Sequence[Action], rng: random.Random) -> SearchResult:
        """Run the search for the seat of ``view``, whose legal actions are ``legal``."""
        seat = view.player
        if seat is None:
            raise ValueError("a spectator's view has no decision to search")
        if not legal:
            raise ValueError("no legal action to choose from")
        search = self.settings.search
        name = getattr(view, "game", None)
        particles: list[View] | None = None
        settings = self.settings
        if self._game_of is game_of and isinstance(name, str) and name in names():
            desc = descriptor(name)
            if settings.inference:
                start = time.perf_counter()
                particles = self._particles(desc, view, rng)
                settings = _less_time(settings, time.perf_counter() - start)
            if native_search.runs_natively(desc, search, rng, engine=self.engine):
                if particles:
                    raw, iterations, seconds = native_search.search_views(
                        desc, views=particles, player=seat, legal=legal, settings=settings, rng=rng
                    )
                else:
                    raw, iterations, seconds = native_search.search_view(
                        desc, view=view, player=seat, legal=legal, settings=settings, rng=rng
                    )
                return SearchResult(root_stats(raw), iterations, seconds)
            game = game_of(view, PYTHON if search == PYTHON_SEARCH else self.engine)
        else:
            game = self._game_of(view)

        def sample(r: random.Random) -> State:
            if particles:
                return game.determinize(infer.pick_particle(particles, r), r)
            return game.determinize(view, r)

        return run_search(sample, seat, legal, settings, rng)

    def _particles(self, desc: GameDescriptor, view: View, rng: random.Random) -> list[View] | None:
        """Views of ``view`` with the last mover's hand drawn by inference, None without."""
        if desc.inference is None:
            return None
        return self._memory.particles(view, game_of(view), desc.inference.get()(), rng)

    @property
    def memory(self) -> infer.Memory:
        """What the bot remembers of the game it plays (inference reads it)."""
        return self._memory

    def restore(self, memory: infer.Memory | None, seen: Sequence[View] = ()) -> None:
        """Play on from ``memory`` (the ``memory`` of this seat's bot after its last
        decision) having seen ``seen`` since (the seat's views after each action, as
        ``observe`` shows them): a host that makes a new bot per decision (the server)
        hands it what the seat's bot knew, so that inference reads on as if it had played
        on. None: nothing remembered (the seat's first decision)."""
        if memory is not None:
            self._memory = memory
        for later in seen:
            self._memory.observe(later)

    def observe(self, view: View) -> None:
        """The seat's view after an action (``pyramids.core.game.WatchingBot``): with more
        than two seats, inference reads the other seats' turns from these views."""
        self._memory.observe(view)

    def analyse(self, view: View, legal: Sequence[Action], rng: random.Random) -> list[ActionStats]:
        """Every legal action with its visits, visit share and estimated win chance."""
        return self.search(view, legal, rng).stats

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The most visited legal action (the only one, without searching, if alone).

        A reflex decision (a call-out check) gets the game's answer instead, careless
        with chance ``settings.overlook``.
        """
        action = self._act(view, legal, rng)
        if self.settings.inference:
            self._memory.remember(view, action)
        else:
            self._memory.seen.clear()  # nothing reads them
        return action

    def _act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        answer = reflex_answer(view.game, view, legal, self.settings.overlook, rng)
        if answer is not None:
            return answer
        return pick(self.analyse(view, legal, rng), rng)
