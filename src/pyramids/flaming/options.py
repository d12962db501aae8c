"""Rules options and presets (FP-OPT-1, FP-OPT-2): tiles in play, curse, fire die, max_turns.

FP-OPT-3: by default the engine checks every placement itself and never overlooks
mayhem, so of the rulebook's Family and Competitive games only the tile set, the curse
and the recommended player counts carry over into the presets. The ``callout`` option
(FP-CALL) plays them as the rulebook does: the players check, and overlooked mayhem
found later costs what the variant says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.flaming.tiles import ALL_TILES, BASIC_TILES

RULES_VERSION = "flaming-2"
"""Bumped on any behaviour change: flaming-2 ends a quench at the contact (FP-DIE-6)."""
PRESETS = ("basic", "family", "standard")
CALLOUT_MODES = ("off", "family", "competitive")
"""FP-CALL-1: the engine resolves mayhem (off), or the players spot it (family, competitive)."""
DEFAULT_MAX_TURNS = 1000


@dataclass(frozen=True)
class FlamingOptions:
    """The rules in force (FP-OPT-1 presets, FP-OPT-2 independent options).

    ``curse=None`` means the preset's default (on only in standard).
    """

    preset: str = "standard"
    curse: bool | None = None
    fire_die: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    first_player: int = 0
    callout: str = "off"

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise PositionError(f"unknown preset {self.preset!r} (choose {', '.join(PRESETS)})")
        if self.curse is None:
            object.__setattr__(self, "curse", self.preset == "standard")
        if (
            not isinstance(self.max_turns, int)
            or isinstance(self.max_turns, bool)
            or self.max_turns < 1
        ):
            raise PositionError(f"max_turns must be a positive integer, not {self.max_turns!r}")
        if not isinstance(self.first_player, int) or self.first_player < 0:
            raise PositionError(f"first_player must be a seat number, not {self.first_player!r}")
        if self.callout not in CALLOUT_MODES:
            raise PositionError(
                f"unknown callout mode {self.callout!r} (choose {', '.join(CALLOUT_MODES)})"
            )

    @property
    def callout_on(self) -> bool:
        """Whether the players check for mayhem themselves (FP-CALL-1)."""
        return self.callout != "off"

    @property
    def curse_on(self) -> bool:
        """Whether the curse check (FP-CURSE) runs."""
        return bool(self.curse)

    @property
    def tiles(self) -> frozenset[int]:
        """The tiles of this preset: 40 in basic (no embers, no millstone), else 45."""
        return BASIC_TILES if self.preset == "basic" else ALL_TILES

    def to_json(self) -> dict[str, Any]:
        """The options as the position notation's ``rules`` object (``callout`` only when on)."""
        data: dict[str, Any] = {
            "preset": self.preset,
            "curse": self.curse_on,
            "fire_die": self.fire_die,
            "max_turns": self.max_turns,
        }
        if self.callout != "off":
            data["callout"] = self.callout
        return data

    def to_record(self) -> dict[str, Any]:
        """All options, for game records."""
        data = self.to_json()
        data["first_player"] = self.first_player
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FlamingOptions:
        """Parse a ``rules`` object; missing keys take the preset's defaults."""
        if not isinstance(data, Mapping):
            raise PositionError("'rules' must be an object")
        allowed = {"preset", "curse", "fire_die", "max_turns", "first_player", "callout"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise PositionError(f"unknown rules option(s): {', '.join(unknown)}")
        preset = data.get("preset", "standard")
        curse = data.get("curse")
        fire_die = data.get("fire_die", False)
        if not isinstance(preset, str):
            raise PositionError("rules.preset must be a string")
        if curse is not None and not isinstance(curse, bool):
            raise PositionError("rules.curse must be true or false")
        if not isinstance(fire_die, bool):
            raise PositionError("rules.fire_die must be true or false")
        callout = data.get("callout", "off")
        if not isinstance(callout, str):
            raise PositionError(f"rules.callout must be one of {', '.join(CALLOUT_MODES)}")
        return cls(
            preset=preset,
            curse=curse,
            fire_die=fire_die,
            max_turns=data.get("max_turns", DEFAULT_MAX_TURNS),
            first_player=data.get("first_player", 0),
            callout=callout,
        )
