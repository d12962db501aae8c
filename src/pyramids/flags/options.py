"""Rules options of Pyramids and Flags: tree actions on or off, max_turns, first player."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.fields import int_value, json_fact

RULES_VERSION = "flags-2"
DEFAULT_MAX_TURNS = 3000


@dataclass(frozen=True)
class FlagsOptions:
    """The rules in force: ``actions`` (PF-TREE, P's advanced rules), ``max_turns`` (PF-WIN-5)."""

    actions: bool = True
    max_turns: int = DEFAULT_MAX_TURNS
    first_player: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.actions, bool):
            raise PositionError(
                "position.not_a_boolean", field="actions", value=json_fact(self.actions)
            )
        int_value(self.max_turns, "max_turns", low=1)
        int_value(self.first_player, "first_player", low=0)

    def to_json(self) -> dict[str, Any]:
        """The options as the position notation's ``rules`` object."""
        return {"actions": self.actions, "max_turns": self.max_turns}

    def to_record(self) -> dict[str, Any]:
        """All options, for game records."""
        data = self.to_json()
        data["first_player"] = self.first_player
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FlagsOptions:
        """Parse a ``rules`` object (or a record's options); missing keys take the defaults."""
        if not isinstance(data, Mapping):
            raise PositionError("position.not_an_object", field="rules")
        unknown = sorted(set(data) - {"actions", "max_turns", "first_player"})
        if unknown:
            raise PositionError("position.unknown_fields", field="rules", fields=unknown)
        return cls(
            actions=data.get("actions", True),
            max_turns=data.get("max_turns", DEFAULT_MAX_TURNS),
            first_player=data.get("first_player", 0),
        )
