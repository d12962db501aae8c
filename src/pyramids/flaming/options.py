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
from pyramids.core.fields import (
    bool_field,
    check_integer,
    json_fact,
    known_fields,
    object_field,
    str_field,
)
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
            raise PositionError(
                "flaming.unknown_preset", value=json_fact(self.preset), presets=list(PRESETS)
            )
        if self.curse is None:
            object.__setattr__(self, "curse", self.preset == "standard")
        # A JSON true is not a number (FP-NOTE-3): max_turns and first_player are integers
        # the engines can hold (position.not_an_integer / integer_too_large / out_of_range).
        for field in ("max_turns", "first_player"):
            value = check_integer(json_fact(getattr(self, field)), field)
            low = 1 if field == "max_turns" else 0
            if value < low:
                raise PositionError(
                    "position.out_of_range", field=field, value=value, low=low, high=None
                )
        if self.callout not in CALLOUT_MODES:
            raise PositionError(
                "flaming.unknown_callout", value=json_fact(self.callout), modes=list(CALLOUT_MODES)
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
        object_field(data, "rules")
        allowed = {"preset", "curse", "fire_die", "max_turns", "first_player", "callout"}
        known_fields(data, allowed, "rules")
        preset = str_field(data, "preset", "standard")
        curse = data.get("curse")
        if curse is not None and not isinstance(curse, bool):
            raise PositionError("position.not_a_boolean", field="curse", value=curse)
        fire_die = bool_field(data, "fire_die", False)
        callout = str_field(data, "callout", "off")
        return cls(
            preset=preset,
            curse=curse,
            fire_die=fire_die,
            max_turns=data.get("max_turns", DEFAULT_MAX_TURNS),
            first_player=data.get("first_player", 0),
            callout=callout,
        )
