"""The learned evaluation's value, the part both games share (docs/BOTS.md, "The learned evaluation").

A game's learned evaluation (``pyramids.games.<game>.learned``, its descriptor's
``learned_evaluation``) describes each seat of a full state by a few numbers (its
``features`` module) and values the seat ``p = sigmoid(b + w·f)``; the values are then
normalised to add up to 1 over the seats, like ``returns()``. The weights ``w`` and the
bias ``b`` come from a small data file shipped in the game's package, ``value.json``,
written by ``pyramids train-eval`` (``pyramids.analysis.train_eval``).

The native search computes the same numbers in Rust (``native/core/src/value.rs`` and the
games' ``features.rs``), in the same order of operations, so both searches stay
identical with the learned evaluation.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

VALUE_FILE = "value.json"
"""The weights' file name inside a game's host-side package."""

Z_LIMIT = 50.0
"""``b + w·f`` is clamped to this size before the sigmoid (``math.exp`` would overflow)."""


@dataclass(frozen=True)
class ValueWeights:
    """A learned value: the features it reads (names, in order), a weight each, the bias,
    and how it was trained (``training``: command, seed, positions, held-out figures)."""

    game: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    training: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The file's JSON (``value.json``)."""
        return {
            "game": self.game,
            "features": list(self.features),
            "weights": list(self.weights),
            "bias": self.bias,
            "training": dict(self.training),
        }

    @classmethod
    def from_json(cls, data: Any, features: Sequence[str], source: str) -> ValueWeights:
        """Weights from a file's JSON; ValueError saying what is wrong (``source`` names the
        file) unless it lists exactly ``features`` with one finite weight each."""
        if not isinstance(data, dict):
            raise ValueError(f"{source}: a learned value is a JSON object")
        names = data.get("features")
        if names != list(features):
            raise ValueError(
                f"{source}: the features must be {', '.join(features)} in this order, "
                f"not {names!r} (train the file again with pyramids train-eval)"
            )
        weights = data.get("weights")
        bias = data.get("bias")
        if (
            not isinstance(weights, list)
            or len(weights) != len(features)
            or not all(_is_number(w) for w in weights)
            or not isinstance(bias, int | float)
            or not _is_number(bias)
        ):
            raise ValueError(
                f"{source}: weights must be {len(features)} finite numbers and bias one"
            )
        training = data.get("training", {})
        return cls(
            game=str(data.get("game", "")),
            features=tuple(features),
            weights=tuple(float(w) for w in weights),
            bias=float(bias),
            training=training if isinstance(training, dict) else {},
        )


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def load_packaged(package: str, features: Sequence[str]) -> ValueWeights:
    """The weights shipped in ``package`` (its ``value.json``)."""
    text = resources.files(package).joinpath(VALUE_FILE).read_text(encoding="utf-8")
    return ValueWeights.from_json(json.loads(text), features, f"{package}/{VALUE_FILE}")


def seat_value(weights: Sequence[float], bias: float, features: Sequence[float]) -> float:
    """``sigmoid(b + w·f)``, the sum from ``b`` left to right (as the native core adds)."""
    z = bias
    for w, f in zip(weights, features, strict=True):
        z += w * f
    z = max(-Z_LIMIT, min(Z_LIMIT, z))
    return 1.0 / (1.0 + math.exp(-z))


def normalise(values: Sequence[float]) -> list[float]:
    """``values`` divided by their sum, equal shares when it is 0.

    The sum is added left to right from 0 (as the native core adds; ``sum()`` of Python
    3.12 compensates, see ``pyramids.games.flags.policy.add_up``)."""
    total = 0.0
    for v in values:
        total += v
    if total > 0.0:
        return [v / total for v in values]
    return [1.0 / len(values)] * len(values)


def learned_values(rows: Sequence[Sequence[float]], value: ValueWeights) -> list[float]:
    """Each seat's value from its features (``rows``, one per seat), normalised."""
    return normalise([seat_value(value.weights, value.bias, f) for f in rows])
