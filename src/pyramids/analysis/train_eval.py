"""Training of the learned evaluations (``pyramids train-eval``; docs/BOTS.md, "The learned evaluation").

Positions come from native self-play (``pyramids._native.value_samples``): ``mixed`` games
(each move the greedy bot's with chance 0.8, else a uniformly random legal move, for
diversity) at 2, 3 and 4 players under the default rules, a few decision positions drawn
uniformly from each game. Every seat of a position is one row: its features
(``pyramids.games.<game>.features``) labelled with its result in the finished game. A
logistic regression (IRLS, numpy) fits ``p = sigmoid(b + w·f)``; the last fifth of each
player count's games is held out, and the file records the held-out log-loss and
accuracy of the learned values (normalised over the seats) beside the hand-made
evaluation's. Everything follows from the seed: the same command writes the same file.

numpy is the optional extra ``train`` (``pip install 'pyramids[train]'``).
"""

from __future__ import annotations

import importlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyramids.core.descriptor import LearnedEvaluation
from pyramids.games import GAMES
from pyramids.games.value import ValueWeights

DEFAULT_POSITIONS = 50_000
"""Positions (not rows: each gives a row per seat) of the shipped files."""
PER_GAME = 4
"""Positions drawn from each self-play game."""
PLAYERS = (2, 3, 4)
"""Player counts of the self-play games (the same number of games each)."""
HELD_OUT = 0.2
"""Share of each player count's games kept out of the fit to measure it."""
RIDGE = 1e-3
"""L2 penalty on the standardised weights (keeps IRLS stable on rare features)."""
IRLS_ROUNDS = 30
"""Most Newton steps of the fit (it converges in about ten)."""
POLICY = "mixed native self-play (each move greedy with chance 0.8, else random)"


class TrainingError(Exception):
    """The training cannot run (a missing extra, a game without a learned evaluation)."""


@dataclass(frozen=True)
class Samples:
    """Rows of one player count: features, results and hand-made values, a position's
    seats in ``players`` consecutive rows."""

    players: int
    rows: list[list[float]]
    labels: list[float]
    handmade: list[float]


def _numpy() -> Any:
    try:
        return importlib.import_module("numpy")
    except ImportError:
        raise TrainingError(
            "pyramids train-eval needs numpy: pip install 'pyramids[train]'"
        ) from None


def features_of(game: str) -> tuple[str, ...]:
    """The feature names of ``game``'s learned evaluation (TrainingError when it has none)."""
    return _learned(game).features


def _learned(game: str) -> LearnedEvaluation:
    """``game``'s learned evaluation (TrainingError when it has none)."""
    desc = GAMES.get(game)
    if desc is None or desc.learned_evaluation is None:
        known = ", ".join(n for n, d in GAMES.items() if d.learned_evaluation is not None)
        raise TrainingError(f"no learned evaluation to train for game {game!r} (choose {known})")
    return desc.learned_evaluation.get()


def default_path(game: str) -> Path:
    """The game's shipped ``value.json`` (the file the searches read)."""
    return Path(_learned(game).path)


def sample(game: str, players: int, seeds: Sequence[int], per_game: int = PER_GAME) -> Samples:
    """The labelled positions of one ``mixed`` self-play game per seed, natively."""
    try:
        core = importlib.import_module("pyramids._native")
    except ImportError:
        raise TrainingError("pyramids train-eval needs the native core (docs/NATIVE.md)") from None
    rows, labels, handmade = core.value_samples(game, players, {}, list(seeds), per_game)
    return Samples(players, rows, labels, handmade)


def fit(rows: Sequence[Sequence[float]], labels: Sequence[float]) -> tuple[list[float], float]:
    """(weights, bias) of the logistic regression of ``labels`` on ``rows`` (IRLS on
    standardised features with a small ridge, turned back to the raw features)."""
    np = _numpy()
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    ridge = RIDGE * len(x) * np.eye(z.shape[1])
    ridge[0, 0] = 0.0
    for _ in range(IRLS_ROUNDS):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (y - p) - ridge @ w
        hess = (z * (p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hess, grad)
        w = w + step
        if float(np.abs(step).max()) < 1e-10:
            break
    weights = w[1:] / scale
    bias = float(w[0] - float((weights * mean).sum()))
    return [float(v) for v in weights], bias


def measure(samples: Sequence[Samples], value: ValueWeights) -> dict[str, float]:
    """Held-out log-loss (of the winner's share) and accuracy (the seat valued highest
    won), of the learned values and of the hand-made evaluation, over positions."""
    from pyramids.games.value import learned_values

    figures = {"log_loss": 0.0, "accuracy": 0.0, "handmade_log_loss": 0.0, "handmade_accuracy": 0.0}
    count = 0
    for s in samples:
        n = s.players
        for i in range(0, len(s.rows), n):
            labels = s.labels[i : i + n]
            for key, values in (
                ("", learned_values(s.rows[i : i + n], value)),
                ("handmade_", s.handmade[i : i + n]),
            ):
                figures[key + "log_loss"] -= sum(
                    y * math.log(max(v, 1e-12)) for y, v in zip(labels, values, strict=True)
                )
                top = max(range(n), key=lambda q: values[q])
                figures[key + "accuracy"] += float(labels[top] == max(labels))
            count += 1
    return {k: round(v / max(count, 1), 4) for k, v in figures.items()}


def train(
    game: str, *, positions: int = DEFAULT_POSITIONS, seed: int = 0, command: str = ""
) -> ValueWeights:
    """Weights for ``game``'s learned evaluation from ``positions`` self-play positions."""
    names = features_of(game)
    _numpy()
    if positions < len(PLAYERS) * PER_GAME * 2:
        raise TrainingError(f"--positions must be at least {len(PLAYERS) * PER_GAME * 2}")
    rng = random.Random(seed)
    games = math.ceil(positions / (PER_GAME * len(PLAYERS)))
    held = max(1, round(games * HELD_OUT))
    train_set: list[Samples] = []
    test_set: list[Samples] = []
    for players in PLAYERS:
        seeds = [rng.randrange(2**31) for _ in range(games)]
        train_set.append(sample(game, players, seeds[: games - held]))
        test_set.append(sample(game, players, seeds[games - held :]))
    rows = [r for s in train_set for r in s.rows]
    labels = [y for s in train_set for y in s.labels]
    weights, bias = fit(rows, labels)
    value = ValueWeights(game, names, tuple(weights), bias)
    trained = sum(len(s.rows) // s.players for s in train_set)
    held_out = sum(len(s.rows) // s.players for s in test_set)
    training = {
        "command": command or f"pyramids train-eval {game} --positions {positions} --seed {seed}",
        "seed": seed,
        "positions": trained,
        "held_out_positions": held_out,
        "players": list(PLAYERS),
        "games_per_player_count": games,
        "positions_per_game": PER_GAME,
        "policy": POLICY,
        "rules": "default options",
        "held_out": measure(test_set, value),
    }
    return ValueWeights(game, names, tuple(weights), bias, training)


def write(value: ValueWeights, path: Path) -> None:
    """Write ``value`` as a ``value.json`` file."""
    path.write_text(json.dumps(value.to_json(), indent=2) + "\n", encoding="utf-8")
